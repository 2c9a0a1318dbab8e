// A kernel that waits for a flag nobody sets: it never ends. The time limit
// stops the program, and gpulab says which kernel was running.
// SIM-ONLY
// RUN: set time-limit 1.5
// FAILS
// EXPECT: stopped: it ran longer than the time limit of 1.5 s while kernel spin (launched at line 19) was running
#include <cstdio>

__global__ void spin(volatile int *flag)
{
    while (*flag == 0) { }
}

int main()
{
    int *flag;
    cudaMalloc(&flag, sizeof(int));
    cudaMemset(flag, 0, sizeof(int));
    spin<<<1, 1>>>(flag);
    cudaDeviceSynchronize();
    printf("never printed\n");
    return 0;
}
