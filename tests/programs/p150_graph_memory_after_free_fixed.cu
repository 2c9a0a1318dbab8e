// The twin of p150_graph_memory_after_free: the free node depends on the
// kernel that reads the scratch array, so the memory lives until it is read.
// EXPECT: synchronize: no error, sum 65280
// REJECT: use after free
// REJECT: never freed
#include <cstdio>
#include <cuda_runtime.h>

// each element of out: the index, doubled
__global__ void fill(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2 * i;
}

// one thread adds up the scratch array
__global__ void total(const int *in, int n, int *sum)
{
    int s = 0;
    for (int i = 0; i < n; i++) s += in[i];
    *sum = s;
}

int main()
{
    int n = 256;
    int *sum;
    cudaMalloc(&sum, sizeof(int));
    cudaGraph_t g;
    cudaGraphCreate(&g, 0);
    cudaMemAllocNodeParams ap = {};
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.bytesize = n * sizeof(int);
    cudaGraphNode_t alloc, kfill, freed, ktotal;
    cudaGraphAddMemAllocNode(&alloc, g, NULL, 0, &ap);
    int *scratch = (int *)ap.dptr;
    cudaKernelNodeParams kp = {};
    void *fill_args[] = {&scratch, &n};
    kp.func = (void *)fill;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(256);
    kp.kernelParams = fill_args;
    cudaGraphAddKernelNode(&kfill, g, &alloc, 1, &kp);
    void *total_args[] = {&scratch, &n, &sum};
    kp.func = (void *)total;
    kp.blockDim = dim3(1);
    kp.kernelParams = total_args;
    cudaGraphAddKernelNode(&ktotal, g, &kfill, 1, &kp);
    // the free after the last kernel that reads the memory
    cudaGraphAddMemFreeNode(&freed, g, &ktotal, 1, scratch);
    cudaGraphExec_t x;
    cudaGraphInstantiate(&x, g, NULL, NULL, 0);
    cudaGraphLaunch(x, 0);
    cudaError_t e = cudaDeviceSynchronize();
    int s = 0;
    cudaMemcpy(&s, sum, sizeof s, cudaMemcpyDeviceToHost);
    printf("synchronize: %s, sum %d\n", cudaGetErrorString(e), s);
    cudaGraphExecDestroy(x);
    cudaGraphDestroy(g);
    cudaFree(sum);
    return 0;
}
