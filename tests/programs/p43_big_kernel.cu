// A kernel that is merely big: its 2^26 threads each run a 512-step loop,
// far more work than any simulator finishes within the time limit (a CPU
// that runs a plain add of that size in under 2 s still needs minutes for
// this); the first launch, 32 threads of one step, ends at once even on a
// busy CPU. gpulab says how far the run got and that a smaller size (the
// program's argument) or a longer limit is the way, not that it hangs.
// SIM-ONLY
// RUN: set time-limit 5
// FAILS
// EXPECT: stopped: the time limit of 5 s ended the run
// EXPECT: how far: 1 launch had finished, 32 threads at
// EXPECT: threads simulated per second
// EXPECT: kernel add (launched at line 38) was running
// EXPECT: with 67108864 threads
// EXPECT: a kernel that is only big needs a smaller size (through the program's arguments: run ARGS, or set args)
// EXPECT: or a longer limit (set time-limit 600)
// REJECT: probably waits
#include <cstdio>
#include <cstdlib>

__global__ void add(float *x, int n, int steps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        for (int k = 0; k < steps; k++)
            v = v * 0.5f + 1.0f;
        x[i] = v;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 26;
    float *x;
    cudaMalloc(&x, (size_t)n * sizeof(float));
    add<<<1, 32>>>(x, 32, 1);
    add<<<(n + 255) / 256, 256>>>(x, n, 512);
    cudaDeviceSynchronize();
    printf("done with %d\n", n);
    cudaFree(x);
    return 0;
}
