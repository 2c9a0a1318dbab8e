// Stream-ordered allocation: cudaMallocAsync and cudaFreeAsync take and
// give back memory in a stream's order, from the device's memory pool,
// whose release threshold keeps freed memory for the next allocation.
// EXPECT: pool threshold 67108864
// EXPECT: round 0: sum 4096
// EXPECT: round 2: sum 12288
// EXPECT: exit status 0
#include <cstdio>
#include <cstdint>

__global__ void fill(int *p, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v;
}

__global__ void sum(const int *p, int n, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(out, p[i]);
}

int main()
{
    cudaMemPool_t pool;
    cudaDeviceGetDefaultMemPool(&pool, 0);
    uint64_t keep = 64ull << 20, got = 0;
    cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
    cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &got);
    printf("pool threshold %llu\n", (unsigned long long)got);
    cudaStream_t s;
    cudaStreamCreate(&s);
    const int n = 4096;
    for (int round = 0; round < 3; round++) {
        int *d, *total, h = 0;
        cudaMallocAsync(&d, n * sizeof(int), s);
        cudaMallocAsync(&total, sizeof(int), s);
        cudaMemsetAsync(total, 0, sizeof(int), s);
        fill<<<n / 256, 256, 0, s>>>(d, n, round + 1);
        sum<<<n / 256, 256, 0, s>>>(d, n, total);
        cudaMemcpyAsync(&h, total, sizeof h, cudaMemcpyDeviceToHost, s);
        cudaFreeAsync(d, s);
        cudaFreeAsync(total, s);
        cudaStreamSynchronize(s);
        printf("round %d: sum %d\n", round, h);
    }
    cudaStreamDestroy(s);
    return 0;
}
