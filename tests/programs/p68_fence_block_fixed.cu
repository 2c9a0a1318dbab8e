// The twin of p68: __threadfence() between each write and its flag (a
// volatile flag, an atomic count), so a block that sees the flag up or
// counts last reads data that is visible to it: fence and flag order them.
// RUN: set race-check on
// EXPECT: consistent
// EXPECT: sum 256
// REJECT: data race
#include <cstdio>

__global__ void exchange(int *value, volatile int *flag, int *seen)
{
    int b = blockIdx.x, other = 1 - b;
    if (threadIdx.x != 0) return;
    value[b] = 42 + b;
    __threadfence();  // the whole device: the reader is another block
    flag[b] = 1;
    seen[b] = flag[other] ? value[other] : -1;
}

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
        __threadfence();  // before the count: the last block reads it
        unsigned int ticket = atomicInc(&done, gridDim.x);
        last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (last && t == 0) {
        float total = 0;
        for (int b = 0; b < gridDim.x; b++) total += partial[b];
        *out = total;
    }
}

int main()
{
    int *value, *flag, *seen, h[2];
    cudaMalloc(&value, 2 * sizeof(int));
    cudaMalloc(&flag, 2 * sizeof(int));
    cudaMalloc(&seen, 2 * sizeof(int));
    cudaMemset(flag, 0, 2 * sizeof(int));
    exchange<<<2, 32>>>(value, flag, seen);
    cudaMemcpy(h, seen, sizeof h, cudaMemcpyDeviceToHost);
    bool ok = true;
    for (int b = 0; b < 2; b++) ok = ok && (h[b] == -1 || h[b] == 43 - b);
    printf("%s\n", ok ? "consistent" : "inconsistent");

    const int n = 256;
    float hin[n], *din, *dp, *dout, r = 0;
    for (int i = 0; i < n; i++) hin[i] = 1.0f;
    cudaMalloc(&din, sizeof hin);
    cudaMalloc(&dp, 4 * sizeof(float));
    cudaMalloc(&dout, sizeof(float));
    cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice);
    sum<<<4, 64>>>(din, dp, dout);
    cudaMemcpy(&r, dout, sizeof r, cudaMemcpyDeviceToHost);
    printf("sum %g\n", r);
    cudaFree(value);
    cudaFree(flag);
    cudaFree(seen);
    cudaFree(din);
    cudaFree(dp);
    cudaFree(dout);
    return 0;
}
