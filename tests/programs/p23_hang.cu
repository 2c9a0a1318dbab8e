// A kernel that waits for a flag nobody sets: it never ends. The time limit
// stops the program, and gpulab says which kernel was running and, from the
// rate of the launch before it, that its size does not explain the time.
// SIM-ONLY
// RUN: set time-limit 1.5
// FAILS
// EXPECT: stopped: the time limit of 1.5 s ended the run
// EXPECT: how far: 1 launch had finished
// EXPECT: kernel spin (launched at line 26) was running
// EXPECT: with 1 threads
// EXPECT: it probably waits for something that never happens
#include <cstdio>

__global__ void clear(int *flag) { flag[threadIdx.x] = 0; }

__global__ void spin(volatile int *flag)
{
    while (*flag == 0) { }
}

int main()
{
    int *flag;
    cudaMalloc(&flag, 32 * sizeof(int));
    clear<<<1, 32>>>(flag);
    spin<<<1, 1>>>(flag);
    cudaDeviceSynchronize();
    printf("never printed\n");
    return 0;
}
