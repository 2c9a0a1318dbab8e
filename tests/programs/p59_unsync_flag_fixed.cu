// The twin of p59: a barrier between the producer's writes and the readers
// orders them, so every reader sees the value (no flag needed).
// RUN: set race-check on
// EXPECT: out[0] = 42
// REJECT: data race
#include <cstdio>

__global__ void publish(int *out)
{
    __shared__ int value;
    int t = threadIdx.x;
    if (t == 0)
        value = 42;
    __syncthreads();
    if (t >= 32)
        out[t - 32] = value;
}

int main()
{
    int h[32], *d;
    cudaMalloc(&d, sizeof h);
    publish<<<1, 64>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("out[0] = %d\n", h[0]);
    cudaFree(d);
    return 0;
}
