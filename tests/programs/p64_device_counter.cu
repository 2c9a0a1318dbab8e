// A counter in a __device__ variable: every thread of four blocks adds one
// with a plain `counter++`. The fixed order runs each thread's increment
// whole, so the count comes out 256 there; on a GPU the read-modify-writes
// of different threads overlap and updates get lost. The race check watches
// __device__ variables like cudaMalloc's memory and names the variable.
// RUN: set race-check on
// EXPECT-SIM: data race on the __device__ variable counter (declared at line 19), element 0
// EXPECT-SIM: many threads read, change and write back one element
// EXPECT-SIM: make the update atomic
// EXPECT-SIM: counter 256
// EXPECT-SCHEDULE: data race on the __device__ variable counter (declared at line 19), element 0
// EXPECT-SCHEDULE: make the update atomic
// REJECT: data race on the __device__ variable flags
#include <cstdio>

// written by the host only (cudaMemcpyToSymbol), read by every thread
__device__ int flags[4];
// the count: a read-modify-write by every thread, not atomic
__device__ int counter;

__global__ void count(int *seen)
{
    counter++;
    if (threadIdx.x == 0) seen[blockIdx.x] = flags[blockIdx.x];
}

int main()
{
    int h = 0, f[4] = {1, 2, 3, 4}, *seen;
    cudaMalloc(&seen, sizeof f);
    cudaMemcpyToSymbol(flags, f, sizeof f);
    cudaMemcpyToSymbol(counter, &h, sizeof h);
    count<<<4, 64>>>(seen);
    cudaMemcpyFromSymbol(&h, counter, sizeof h);
    printf("counter %d\n", h);
    cudaFree(seen);
    return 0;
}
