// The twin of p158_driver_vmm.cu: a kernel stores one int past the end of
// memory mapped with cuMemMap. Past the mapping lies address space that is
// reserved but not mapped: on a GPU the store is an illegal address
// (compute-sanitizer: an invalid global write); the simulator names the
// kernel, the thread, the line and the mapping it went past.
// EXPECT: exit status 1
// MEMCHECK
// EXPECT-SIM: past_end: block 2048, thread 0 writes address
// EXPECT-SIM: 0 bytes past the end of the 2097152 bytes mapped at
// EXPECT-SIM: in address space that cuMemAddressReserve reserved and nothing maps (cudaErrorIllegalAddress on a GPU), at p158_driver_vmm_past_end.cu:21
// EXPECT-SIM: leaked: an allocation of 2097152 bytes from cuMemMap, never unmapped (cuMemUnmap, then cuMemRelease and cuMemAddressFree)
// EXPECT-GPU: an illegal memory access was encountered
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>

__global__ void past_end(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    /* off by one: i == n is past the mapping */
    if (i <= n) v[i] = i;
}

int main()
{
    cudaSetDevice(0);
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    size_t size = 0;
    cuMemGetAllocationGranularity(&size, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
    CUdeviceptr va;
    CUmemGenericAllocationHandle mem;
    cuMemAddressReserve(&va, 2 * size, 0, 0, 0);
    cuMemCreate(&mem, size, &prop, 0);
    cuMemMap(va, size, 0, mem, 0);
    CUmemAccessDesc access;
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    cuMemSetAccess(va, size, &access, 1);
    int n = (int)(size / sizeof(int));
    past_end<<<n / 256 + 1, 256>>>((int *)va, n);
    cudaError_t e = cudaDeviceSynchronize();
    printf("past_end: %s\n", cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : 1;
}
