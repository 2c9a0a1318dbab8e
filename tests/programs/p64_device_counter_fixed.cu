// The twin of p64: the count in the __device__ variable is an atomicAdd, so
// no update is lost in any order, and the race check stays silent. A second
// launch reads the count after the first in the same stream (ordered).
// RUN: set race-check on
// EXPECT: counter 256
// EXPECT: copy 256
// REJECT: data race
#include <cstdio>

__device__ int flags[4];
__device__ int counter;
__device__ int copy;

__global__ void count(int *seen)
{
    atomicAdd(&counter, 1);
    if (threadIdx.x == 0) seen[blockIdx.x] = flags[blockIdx.x];
}

__global__ void keep(void)
{
    copy = counter;
}

int main()
{
    int h = 0, c = 0, f[4] = {1, 2, 3, 4}, *seen;
    cudaMalloc(&seen, sizeof f);
    cudaMemcpyToSymbol(flags, f, sizeof f);
    cudaMemcpyToSymbol(counter, &h, sizeof h);
    count<<<4, 64>>>(seen);
    keep<<<1, 1>>>();
    cudaMemcpyFromSymbol(&h, counter, sizeof h);
    cudaMemcpyFromSymbol(&c, copy, sizeof c);
    printf("counter %d\n", h);
    printf("copy %d\n", c);
    cudaFree(seen);
    return 0;
}
