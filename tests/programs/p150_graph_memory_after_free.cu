// A graph that frees its scratch memory too early: the kernel that reads
// the scratch array depends on the free node instead of the free depending
// on it, so it runs after the memory is gone. On the H200 the run says no
// error and the kernel reads whatever is there (compute-sanitizer names the
// read at line 24); the simulator names the read, the graph's free node and
// its line.
// MEMCHECK
// EXPECT-SIM: after a graph's free node at line 50 freed it (use after free)
// EXPECT-SIM: total: block 0, thread 0, at line 24 reads an allocation of 1024 bytes from cudaGraphAddMemAllocNode at line 40
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
    // the free comes right after fill ...
    cudaGraphAddMemFreeNode(&freed, g, &kfill, 1, scratch);
    void *total_args[] = {&scratch, &n, &sum};
    kp.func = (void *)total;
    kp.blockDim = dim3(1);
    kp.kernelParams = total_args;
    // ... and total, which reads the scratch array, after the free
    cudaGraphAddKernelNode(&ktotal, g, &freed, 1, &kp);
    cudaGraphExec_t x;
    cudaGraphInstantiate(&x, g, NULL, NULL, 0);
    cudaGraphLaunch(x, 0);
    printf("synchronize: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    cudaGraphExecDestroy(x);
    cudaGraphDestroy(g);
    cudaFree(sum);
    return 0;
}
