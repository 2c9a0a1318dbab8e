// What the device says it can do, as programs ask before using a feature
// (the CUDA samples waive their test when an answer is 0): the H200's
// answers, on the simulator too. Pageable memory access is 0 there: a
// kernel may not touch the host's malloc'd memory (p172).
// EXPECT: map host memory 1
// EXPECT: concurrent kernels 1
// EXPECT: unified addressing 1
// EXPECT: stream priorities 1
// EXPECT: concurrent managed access 1
// EXPECT: host register 1
// EXPECT: memory pools 1
// EXPECT: pageable memory access 0
// EXPECT: props: map 1 unified 1 managed 1 concurrent managed 1 pageable 0
#include <cstdio>

int main()
{
    struct { cudaDeviceAttr a; const char *what; } asked[] = {
        {cudaDevAttrCanMapHostMemory, "map host memory"},
        {cudaDevAttrConcurrentKernels, "concurrent kernels"},
        {cudaDevAttrUnifiedAddressing, "unified addressing"},
        {cudaDevAttrStreamPrioritiesSupported, "stream priorities"},
        {cudaDevAttrConcurrentManagedAccess, "concurrent managed access"},
        {cudaDevAttrHostRegisterSupported, "host register"},
        {cudaDevAttrMemoryPoolsSupported, "memory pools"},
        {cudaDevAttrPageableMemoryAccess, "pageable memory access"},
    };
    for (auto &q : asked) {
        int v = -1;
        cudaError_t e = cudaDeviceGetAttribute(&v, q.a, 0);
        printf("%s %d%s\n", q.what, v, e == cudaSuccess ? "" : " (error)");
    }
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    printf("props: map %d unified %d managed %d concurrent managed %d pageable %d\n", p.canMapHostMemory,
           p.unifiedAddressing, p.managedMemory, p.concurrentManagedAccess, p.pageableMemoryAccess);
    return 0;
}
