// The twin of p61: atomicAdd makes each update one indivisible step, so no
// update is lost in any order and the race check has nothing to say.
// RUN: set race-check on
// EXPECT: bins 125 125 125 125 125 125 125 125
// REJECT: data race
#include <cstdio>

__global__ void histogram(const int *in, int *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[in[i]], 1);
}

int main()
{
    const int n = 1000;
    int h[n], b[8], *din, *dbins;
    for (int i = 0; i < n; i++) h[i] = (i * 7) % 8;
    cudaMalloc(&din, sizeof h);
    cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMalloc(&dbins, sizeof b);
    cudaMemset(dbins, 0, sizeof b);
    histogram<<<(n + 127) / 128, 128>>>(din, dbins, n);
    cudaMemcpy(b, dbins, sizeof b, cudaMemcpyDeviceToHost);
    printf("bins %d %d %d %d %d %d %d %d\n", b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]);
    cudaFree(din);
    cudaFree(dbins);
    return 0;
}
