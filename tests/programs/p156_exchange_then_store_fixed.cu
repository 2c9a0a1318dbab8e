// The twin of p156: the flag's second value is written with atomicExch
// too, so every access to it is atomic and none races.
// RUN: set race-check on
// EXPECT: flag is 2 or 12: yes
// REJECT: data race
#include <cstdio>

__global__ void raise_flag(int *out)
{
    __shared__ int flag;
    if (threadIdx.x == 0) flag = 0;
    __syncthreads();
    if (threadIdx.x == 0) {
        atomicExch(&flag, 1);
        atomicExch(&flag, 2);
    } else if (threadIdx.x == 32) {
        atomicAdd(&flag, 10);
    }
    __syncthreads();
    if (threadIdx.x == 0) *out = flag;
}

int main()
{
    int *d, h = -1;
    cudaMalloc(&d, sizeof h);
    raise_flag<<<1, 64>>>(d);
    cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    cudaFree(d);
    printf("flag is 2 or 12: %s\n", h == 2 || h == 12 ? "yes" : "no");
    return 0;
}
