// Graph memory nodes: a graph that allocates its own scratch memory, uses
// it and frees it, built explicitly and by capturing cudaMallocAsync and
// cudaFreeAsync. CUDA gives an allocation node its address when the node is
// made and the same address at every launch; an allocation ordered after a
// free of the same graph may take that address again. The physical memory
// behind graph allocations (the footprint) is held until it is trimmed, and
// a block freed in one stream is reused by that stream's next graph; the
// H200 (CUDA 13.0) holds 32 MiB for a 4 MiB allocation.
// RUN: set check all
// REJECT: simulator:
// EXPECT: explicit: sums 1024 2048, same address at each launch: yes
// EXPECT: reuse: the second allocation takes the first one's address: yes
// EXPECT: footprint after one launch: 32 MiB, after a second graph in the same stream: 32 MiB
// EXPECT: footprint with the allocation left live: 32 MiB, after cudaFree: 32 MiB, after trim: 0 MiB
// EXPECT: captured: sum 3072, nodes 4, errors: no error
#include <cstdio>
#include <cuda_runtime.h>

// each element of out: the index, doubled
__global__ void fill(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2 * i;
}

// one thread adds up the scratch array (small n: the point is the memory)
__global__ void total(const int *in, int n, int *sum)
{
    int s = 0;
    for (int i = 0; i < n; i++) s += in[i] & 3;
    *sum = s;
}

static size_t footprint()
{
    size_t used = 0;
    cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used);
    return used >> 20;
}

static cudaMemAllocNodeParams params(size_t bytes)
{
    cudaMemAllocNodeParams p = {};
    p.poolProps.allocType = cudaMemAllocationTypePinned;
    p.poolProps.location.type = cudaMemLocationTypeDevice;
    p.poolProps.location.id = 0;
    p.bytesize = bytes;
    return p;
}

int main()
{
    const int n = 1024;
    const size_t bytes = (size_t)4 << 20; // 4 MiB, room for n ints and more
    int *sum;
    cudaMalloc(&sum, sizeof(int));
    cudaStream_t st;
    cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);

    // allocate -> fill -> total -> free, built node by node
    cudaGraph_t g;
    cudaGraphCreate(&g, 0);
    cudaMemAllocNodeParams ap = params(bytes);
    cudaGraphNode_t alloc, kfill, ktotal, freed;
    cudaGraphAddMemAllocNode(&alloc, g, NULL, 0, &ap);
    int *scratch = (int *)ap.dptr;
    int nn = n;
    void *fill_args[] = {&scratch, &nn};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)fill;
    kp.gridDim = dim3(n / 256);
    kp.blockDim = dim3(256);
    kp.kernelParams = fill_args;
    cudaGraphAddKernelNode(&kfill, g, &alloc, 1, &kp);
    void *total_args[] = {&scratch, &nn, &sum};
    kp.func = (void *)total;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(1);
    kp.kernelParams = total_args;
    cudaGraphAddKernelNode(&ktotal, g, &kfill, 1, &kp);
    cudaGraphAddMemFreeNode(&freed, g, &ktotal, 1, scratch);
    cudaGraphExec_t x;
    cudaGraphInstantiate(&x, g, NULL, NULL, 0);
    int s1 = 0, s2 = 0;
    cudaGraphLaunch(x, st);
    cudaStreamSynchronize(st);
    cudaMemcpy(&s1, sum, sizeof s1, cudaMemcpyDeviceToHost);
    cudaGraphLaunch(x, st);
    cudaStreamSynchronize(st);
    cudaMemcpy(&s2, sum, sizeof s2, cudaMemcpyDeviceToHost);
    cudaMemAllocNodeParams again;
    cudaGraphMemAllocNodeGetParams(alloc, &again);
    printf("explicit: sums %d %d, same address at each launch: %s\n", s1, s1 + s2,
           again.dptr == scratch ? "yes" : "no");

    // a second allocation that depends on the first one's free
    cudaGraph_t g2;
    cudaGraphCreate(&g2, 0);
    cudaMemAllocNodeParams a1 = params(bytes), a2 = params(bytes);
    cudaGraphNode_t n1, f1, n2, f2;
    cudaGraphAddMemAllocNode(&n1, g2, NULL, 0, &a1);
    cudaGraphAddMemFreeNode(&f1, g2, &n1, 1, a1.dptr);
    cudaGraphAddMemAllocNode(&n2, g2, &f1, 1, &a2);
    cudaGraphAddMemFreeNode(&f2, g2, &n2, 1, a2.dptr);
    printf("reuse: the second allocation takes the first one's address: %s\n", a1.dptr == a2.dptr ? "yes" : "no");

    // the footprint: trimmed to nothing, then one graph, then another graph
    // in the same stream reuses the same physical memory
    cudaDeviceGraphMemTrim(0);
    cudaGraphExec_t x2;
    cudaGraphInstantiate(&x2, g2, NULL, NULL, 0);
    cudaGraphLaunch(x, st);
    cudaStreamSynchronize(st);
    size_t one = footprint();
    cudaGraphLaunch(x2, st);
    cudaStreamSynchronize(st);
    printf("footprint after one launch: %zu MiB, after a second graph in the same stream: %zu MiB\n", one,
           footprint());

    // an allocation the graph leaves live: the program frees it, as CUDA allows
    cudaGraph_t g3;
    cudaGraphCreate(&g3, 0);
    cudaMemAllocNodeParams a3 = params(bytes);
    cudaGraphNode_t n3;
    cudaGraphAddMemAllocNode(&n3, g3, NULL, 0, &a3);
    cudaGraphExec_t x3;
    cudaGraphInstantiate(&x3, g3, NULL, NULL, 0);
    cudaGraphLaunch(x3, st);
    cudaStreamSynchronize(st);
    size_t live = footprint();
    cudaFree(a3.dptr);
    size_t after_free = footprint();
    cudaDeviceGraphMemTrim(0);
    printf("footprint with the allocation left live: %zu MiB, after cudaFree: %zu MiB, after trim: %zu MiB\n",
           live, after_free, footprint());

    // the same work captured from a stream: cudaMallocAsync and cudaFreeAsync
    // become an allocation node and a free node
    cudaGraph_t g4;
    cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal);
    int *tmp;
    cudaMallocAsync(&tmp, n * sizeof(int), st);
    fill<<<n / 256, 256, 0, st>>>(tmp, n);
    total<<<1, 1, 0, st>>>(tmp, n, sum);
    cudaFreeAsync(tmp, st);
    cudaStreamEndCapture(st, &g4);
    size_t nodes = 0;
    cudaGraphGetNodes(g4, NULL, &nodes);
    cudaGraphExec_t x4;
    cudaGraphInstantiate(&x4, g4, NULL, NULL, 0);
    int s4 = 0;
    for (int i = 0; i < 3; i++) {
        int s = 0;
        cudaGraphLaunch(x4, st);
        cudaStreamSynchronize(st);
        cudaMemcpy(&s, sum, sizeof s, cudaMemcpyDeviceToHost);
        s4 += s;
    }
    printf("captured: sum %d, nodes %zu, errors: %s\n", s4, nodes, cudaGetErrorString(cudaGetLastError()));

    cudaGraphExecDestroy(x);
    cudaGraphExecDestroy(x2);
    cudaGraphExecDestroy(x3);
    cudaGraphExecDestroy(x4);
    cudaGraphDestroy(g);
    cudaGraphDestroy(g2);
    cudaGraphDestroy(g3);
    cudaGraphDestroy(g4);
    cudaStreamDestroy(st);
    cudaFree(sum);
    return 0;
}
