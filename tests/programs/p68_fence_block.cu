// __threadfence_block() where __threadfence() is needed. Two blocks each
// publish a value and raise a volatile flag, then take the other's value if
// its flag is up; and a "last block" sum counts the blocks with an atomic.
// A block fence orders memory only as the threads of its own block see it:
// another block may see the flag (or the count) before the data.
// RUN: set race-check on
// EXPECT-SIM: data race on value (8 bytes from cudaMalloc at line 59), element 0 (bytes 0-3): block 0, thread 0 writes it at line 23 and block 1, thread 0 reads it at line 26
// EXPECT-SIM: block 0's thread made __threadfence_block() after the write and then set the flag this thread read first
// EXPECT-SIM: Use __threadfence() (the whole device) between the write and the flag
// EXPECT-SIM: data race on dp (16 bytes from cudaMalloc at line 73), element 0 (bytes 0-3): block 0, thread 0 writes it at line 43 and block 3, thread 0 reads it at line 51
// EXPECT-SCHEDULE: data race on value (8 bytes from cudaMalloc at line 59), element
// EXPECT-SCHEDULE: data race on dp (16 bytes from cudaMalloc at line 73), element
// EXPECT-SCHEDULE: made __threadfence_block() after the write
// EXPECT: consistent
// EXPECT: sum 256
// REJECT: data race on flag
#include <cstdio>

__global__ void exchange(int *value, volatile int *flag, int *seen)
{
    int b = blockIdx.x, other = 1 - b;
    if (threadIdx.x != 0) return;
    value[b] = 42 + b;
    __threadfence_block();  // wrong scope: the reader is another block
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
        __threadfence_block();  // wrong scope: the last block reads it
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
