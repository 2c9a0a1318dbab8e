// Host code that writes far past the end of its own array crashes with
// SIGSEGV; gpulab reports the signal and the line, and goes on.
// FAILS
// EXPECT: the program was killed by SIGSEGV
// EXPECT-SIM: in host code at p24_host_crash.cu:14
// EXPECT: before the crash
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv)
{
    int *h = (int *)malloc(10 * sizeof(int));
    printf("before the crash\n");
    h[(argc + 1) * 100000000L] = 1;
    printf("never printed %d\n", h[0]);
    return 0;
}
