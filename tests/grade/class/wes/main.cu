#include <stdio.h>
// A program right only in the fixed order: every thread adds its index to one
// __shared__ total with a plain `+=`, a read-modify-write that other orders
// of the threads interleave, losing updates.
__global__ void sum(int *out)
{
    __shared__ int total;
    if (threadIdx.x == 0) total = 0;
    __syncthreads();
    total += threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0) *out = total;
}
int main(void)
{
    int h = 0, *d;
    cudaMalloc((void **)&d, sizeof h);
    sum<<<1, 64>>>(d);
    cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("%d\n", h);
    cudaFree(d);
    return 0;
}
