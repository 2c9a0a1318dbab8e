// The twin of p63: atomicAdd makes the total the same in every order, and
// `set schedules` finds no difference between four schedules.
// RUN: set schedules 4
// EXPECT: total 2016
// EXPECT-SIM: the same output under 4 schedules
// REJECT: depends on the order
#include <cstdio>

// the total: one atomic update per thread
__global__ void sum(int *out)
{
    __shared__ int total;
    if (threadIdx.x == 0) total = 0;
    __syncthreads();
    atomicAdd(&total, (int)threadIdx.x);
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
