// A kernel whose threads each do far more work than the threads of the
// kernel before it: a light kernel fills an array with 2^20 threads, then a
// kernel of 32 threads, each looping 2^25 times, runs again and again. The
// time limit stops it in the middle of one of its launches. Its own earlier
// launches say how long one takes, so gpulab calls it big (a smaller size
// or a longer limit), not a wait that never ends, although its 32 threads
// take far longer than 32 threads of the first kernel did.
// SIM-ONLY
// RUN: set time-limit 20
// FAILS
// EXPECT: stopped: the time limit of 20 s ended the run
// EXPECT: launches had finished
// EXPECT: kernel heavy (launched at line 40) was running
// EXPECT: a kernel that is only big needs a smaller size
// REJECT: probably waits
#include <cstdio>
#include <cstdlib>

__global__ void fill(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = 1.0f;
}

__global__ void heavy(float *out, int steps)
{
    float v = threadIdx.x;
    for (int k = 0; k < steps; k++) v = v * 0.999f + 0.5f;
    out[threadIdx.x] = v;
}

int main(int argc, char **argv)
{
    int steps = argc > 1 ? atoi(argv[1]) : 1 << 25;
    const int n = 1 << 20;
    float *x;
    cudaMalloc(&x, n * sizeof(float));
    fill<<<n / 256, 256>>>(x, n);
    for (int r = 0; r < 1000; r++)
        heavy<<<1, 32>>>(x, steps);
    cudaDeviceSynchronize();
    printf("done\n");
    cudaFree(x);
    return 0;
}
