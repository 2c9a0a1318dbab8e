#include <stdio.h>
// The same sum with atomicAdd: right in every order of the threads, as the
// update of the __shared__ total is one indivisible read-modify-write.
__global__ void sum(int *out)
{
    __shared__ int total;
    if (threadIdx.x == 0) total = 0;
    __syncthreads();
    atomicAdd(&total, (int)threadIdx.x);
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
