// A histogram whose update is not atomic: bins[v]++ reads, adds one and
// writes back. In the fixed order each thread finishes its update before
// the next one starts, so no update is lost and the counts come out right;
// on a GPU two threads with the same value lose one of their updates.
// RUN: set race-check on
// EXPECT-SIM: data race on dbins (32 bytes from cudaMalloc at line 28)
// EXPECT-SIM: at line 18
// EXPECT-SIM: read, change and write back one element
// EXPECT-SIM: atomicAdd
// EXPECT-SCHEDULE: data race on dbins (32 bytes from cudaMalloc at line 28)
// EXPECT-SCHEDULE: writes it at line 18 and block
// EXPECT-SCHEDULE: read, change and write back one element
#include <cstdio>

__global__ void histogram(const int *in, int *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) bins[in[i]]++;
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
