// The twin of p57: the "last block" sum with __threadfence() between the
// store of the partial sum and the atomic count, so the last block reads
// every partial sum after it is visible: fence and flag order them.
// RUN: set race-check on
// EXPECT: sum 256
// REJECT: data race
#include <cstdio>

__device__ unsigned int done;

__global__ void sum(const float *in, float *partial, float *out)
{
    __shared__ float s[64];
    __shared__ bool last;
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * 64 + t];
    __syncthreads();
    for (int k = 32; k > 0; k /= 2) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();
        unsigned int ticket = atomicInc(&done, gridDim.x);
        last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (last && t == 0) {
        float total = 0;
        for (int b = 0; b < gridDim.x; b++)
            total += partial[b];
        *out = total;
    }
}

int main()
{
    const int n = 256;
    float h[n], *din, *dp, *dout, r = 0;
    for (int i = 0; i < n; i++) h[i] = 1.0f;
    cudaMalloc(&din, sizeof h);
    cudaMalloc(&dp, 4 * sizeof(float));
    cudaMalloc(&dout, sizeof(float));
    cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
    sum<<<4, 64>>>(din, dp, dout);
    cudaMemcpy(&r, dout, sizeof r, cudaMemcpyDeviceToHost);
    printf("sum %g\n", r);
    cudaFree(din);
    cudaFree(dp);
    cudaFree(dout);
    return 0;
}
