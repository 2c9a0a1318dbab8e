// Memory made with cuMemCreate keeps its bytes from one mapping to the
// next: written through one address, unmapped, mapped at another address
// and read there, as the GPU's physical memory stays while its handle lives.
// EXPECT: first mapping: 0 3 6 9
// EXPECT: second mapping: 0 3 6 9, same address: no
// EXPECT: exit status 0
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>

__global__ void thrice(int *v) { v[threadIdx.x] = 3 * threadIdx.x; }

int main()
{
    cudaSetDevice(0);
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    size_t size = 0;
    cuMemGetAllocationGranularity(&size, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED);
    CUdeviceptr a, b;
    cuMemAddressReserve(&a, size, 0, 0, 0);
    cuMemAddressReserve(&b, size, 0, 0, 0);
    CUmemGenericAllocationHandle mem;
    cuMemCreate(&mem, size, &prop, 0);
    CUmemAccessDesc access;
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;

    cuMemMap(a, size, 0, mem, 0);
    cuMemSetAccess(a, size, &access, 1);
    thrice<<<1, 256>>>((int *)a);
    int h[4];
    cuMemcpyDtoH(h, a, sizeof h);
    printf("first mapping: %d %d %d %d\n", h[0], h[1], h[2], h[3]);
    cuMemUnmap(a, size);

    cuMemMap(b, size, 0, mem, 0);
    cuMemSetAccess(b, size, &access, 1);
    cuMemcpyDtoH(h, b, sizeof h);
    printf("second mapping: %d %d %d %d, same address: %s\n", h[0], h[1], h[2], h[3], a == b ? "yes" : "no");
    cuMemUnmap(b, size);
    cuMemRelease(mem);
    cuMemAddressFree(a, size);
    cuMemAddressFree(b, size);
    return 0;
}
