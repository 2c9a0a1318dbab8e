// A result that depends on the order threads run: every thread adds to one
// __shared__ total with a plain `+=`. In the fixed order each thread
// finishes its update before the next starts, so the total comes out right;
// the random schedules interleave the threads between the load and the store
// and lose updates, and `set schedules` says which schedule, with its seed.
// RUN: set schedules 4
// FAILS-SIM
// EXPECT-SIM: total 2016
// EXPECT-SIM: your result depends on the order threads run: schedule 2 (random, seed 0x
// EXPECT-SIM: prints line 1 of the output differently:
// EXPECT-SIM: fixed      total 2016
// EXPECT-SIM: block 0: data race on shared array total (declared at line 19), element 0
// EXPECT-SIM: runs that order again
#include <cstdio>

// the total: a read-modify-write by every thread, not atomic
__global__ void sum(int *out)
{
    __shared__ int total;
    if (threadIdx.x == 0) total = 0;
    __syncthreads();
    total += threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0) *out = total;
}

int main()
{
    int h = 0, *d;
    cudaMalloc(&d, sizeof h);
    sum<<<1, 64>>>(d);
    cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("total %d\n", h);
    cudaFree(d);
    return 0;
}
