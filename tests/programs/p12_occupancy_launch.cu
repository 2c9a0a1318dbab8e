// The occupancy API, a kernel opting in to more than 48 KiB of dynamic shared
// memory, and a launch through cudaLaunchKernel.
// EXPECT: suggested block is a multiple of 32: yes
// EXPECT: resident blocks > 0: yes
// EXPECT: big shared: ok 1
// EXPECT: cudaLaunchKernel: 42
#include <cstdio>

__global__ void big(int *out)
{
    extern __shared__ int s[];
    s[threadIdx.x + 15000] = 1;
    __syncthreads();
    if (threadIdx.x == 0) *out = s[15000];
}

__global__ void answer(int *out, int v) { *out = v; }

int main()
{
    int minGrid = 0, block = 0, blocks = 0;
    cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, big, 0, 0);
    printf("suggested block is a multiple of 32: %s\n", block > 0 && block % 32 == 0 ? "yes" : "no");
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, big, 256, 0);
    printf("resident blocks > 0: %s\n", blocks > 0 ? "yes" : "no");
    int *d, h = 0;
    cudaMalloc(&d, sizeof(int));
    size_t bytes = 64 * 1024;
    cudaFuncSetAttribute(big, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
    big<<<1, 32, bytes>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("big shared: %s %d\n", e == cudaSuccess ? "ok" : cudaGetErrorString(e), h);
    int v = 42;
    void *args[] = {&d, &v};
    cudaLaunchKernel((const void *)answer, dim3(1), dim3(1), args, 0, 0);
    cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("cudaLaunchKernel: %d\n", h);
    return 0;
}
