// The "last block" sum without __threadfence(): each block stores its
// partial sum and counts itself with an atomic; the block that counts last
// adds the partial sums. Without a fence between the store and the count,
// the last block may read a partial sum before it is visible.
// RUN: set race-check on
// EXPECT-SIM: blocks 0 and 3: data race on dp (16 bytes from cudaMalloc at line 48), element 0
// EXPECT-SIM: writes it at line 29 and block 3, thread 0 reads it at line 37
// EXPECT-SIM: __threadfence() and then set a flag
// EXPECT-SCHEDULE: data race on dp (16 bytes from cudaMalloc at line 48), element
// EXPECT-SCHEDULE: thread 0 writes it at line 29 and block
// EXPECT-SCHEDULE: thread 0 reads it at line 37
// EXPECT-SCHEDULE: __threadfence() and then set a flag
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
