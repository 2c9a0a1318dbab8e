// Global memory read before anything wrote it: the kernel reads all of `in`
// but the copy filled only its first half. On a GPU the read returns old
// bytes with no error (compute-sanitizer's initcheck finds it); with
// `set check initcheck` (or all) the simulator names the allocation.
// RUN: set check all
// EXPECT-SIM: scale: block 2, thread 0, at line 14 reads 4 bytes at byte 2048 of in (4096 bytes from cudaMalloc at line 21), which nothing has written since it was allocated
// EXPECT-SIM: [the same error in 512 threads of 2 blocks: block 2 thread 0, block 2 thread 1, block 2 thread 2, block 2 thread 3, ...]
// EXPECT-SIM: scale: cudaErrorIllegalAddress
#include <cstdio>

__global__ void scale(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 2 * in[i];
}

int main()
{
    const int n = 1024;
    float h[n], *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    for (int i = 0; i < n; i++) h[i] = (float)i;
#ifdef CORRECT
    cudaMemcpy(in, h, n * sizeof(float), cudaMemcpyHostToDevice);
#else
    cudaMemcpy(in, h, n / 2 * sizeof(float), cudaMemcpyHostToDevice);
#endif
    scale<<<4, 256>>>(in, out);
    printf("scale: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(in);
    cudaFree(out);
    return 0;
}
// MEMCHECK: what it expects comes from the simulator's memory checks
