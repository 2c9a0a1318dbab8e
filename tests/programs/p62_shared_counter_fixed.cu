// The twin of p62: atomicAdd on the __shared__ counter; atomics do not race
// with atomics, and the barriers order the reset and the final read.
// RUN: set race-check on
// EXPECT: total 127
// REJECT: data race
#include <cstdio>

__global__ void count(const int *in, int *out)
{
    __shared__ int total;
    int t = threadIdx.x;
    if (t == 0) total = 0;
    __syncthreads();
    if (in[t] > 0)
        atomicAdd(&total, in[t]);
    __syncthreads();
    if (t == 0) *out = total;
}

int main()
{
    int h[128], *d, *o, r = 0;
    for (int i = 0; i < 128; i++) h[i] = i % 3;
    cudaMalloc(&d, sizeof h);
    cudaMalloc(&o, sizeof r);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    count<<<1, 128>>>(d, o);
    cudaMemcpy(&r, o, sizeof r, cudaMemcpyDeviceToHost);
    printf("total %d\n", r);
    cudaFree(d);
    cudaFree(o);
    return 0;
}
