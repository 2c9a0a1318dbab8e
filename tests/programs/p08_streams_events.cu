// Two streams, asynchronous copies, pinned host memory and events that time
// the work (on the simulator the time is the simulator's).
// EXPECT: results 1000 2000
// EXPECT: elapsed ok
// EXPECT-SIM: simulator time
#include <cstdio>

__global__ void fill(int *p, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v;
}

int main()
{
    const int n = 1000;
    int *h;
    cudaMallocHost(&h, 2 * n * sizeof(int));
    int *d[2];
    cudaStream_t s[2];
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start);
    for (int k = 0; k < 2; k++) {
        cudaStreamCreate(&s[k]);
        cudaMalloc(&d[k], n * sizeof(int));
        fill<<<(n + 127) / 128, 128, 0, s[k]>>>(d[k], n, k + 1);
        cudaMemcpyAsync(h + k * n, d[k], n * sizeof(int), cudaMemcpyDeviceToHost, s[k]);
    }
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    cudaDeviceSynchronize();
    float ms = -1;
    cudaEventElapsedTime(&ms, start, stop);
    long a = 0, b = 0;
    for (int i = 0; i < n; i++) { a += h[i]; b += h[n + i]; }
    printf("results %ld %ld\n", a, b);
    printf("elapsed %s\n", ms >= 0 ? "ok" : "missing");
    for (int k = 0; k < 2; k++) { cudaStreamDestroy(s[k]); cudaFree(d[k]); }
    cudaFreeHost(h);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return 0;
}
