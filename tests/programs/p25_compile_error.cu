// A typo: the compiler's own message, with this file's line number.
// FAILS
// EXPECT-SIM: p25_compile_error.cu:10:
// EXPECT-GPU: p25_compile_error.cu(10): error
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
