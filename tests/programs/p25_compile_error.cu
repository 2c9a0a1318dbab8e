// A typo: the compiler's own message, with this file's line number.
// FAILS
// EXPECT: p25_compile_error.cu:9
// EXPECT: was not run
#include <cstdio>

__global__ void k(int *p)
{
    p[threadIdx.x] = threadIdx.x +;
}

int main()
{
    return 0;
}
