// The CUDA driver API on the simulator as on a GPU: its errors before cuInit
// and without a context, the device and its primary context (which the
// runtime's cudaSetDevice makes current), cuMemAlloc and its copies, and
// virtual memory management: address space reserved, memory created, mapped
// there and made accessible, a kernel's stores through it, then unmapped and
// freed. Its twin, p158_driver_vmm_past_end.cu, stores past the mapping.
// EXPECT: before cuInit: CUDA_ERROR_NOT_INITIALIZED
// EXPECT: cuInit: CUDA_SUCCESS, 1 device, ordinal 1: CUDA_ERROR_INVALID_DEVICE
// EXPECT: context before the runtime: CUDA_ERROR_INVALID_CONTEXT, current null
// EXPECT: context after cudaSetDevice: device 0, current set
// EXPECT: compute capability 9.0, vmm 1
// EXPECT: cuMemAlloc: 3 5 7 9, free twice CUDA_ERROR_INVALID_VALUE
// EXPECT: granularity 2097152, reserve CUDA_SUCCESS, create CUDA_SUCCESS, map CUDA_SUCCESS, access CUDA_SUCCESS
// EXPECT: mapped memory: 0 2 4 6 ... 1048574, released while mapped CUDA_SUCCESS
// EXPECT: unmap CUDA_SUCCESS, address free CUDA_SUCCESS, release again CUDA_ERROR_INVALID_VALUE
// EXPECT: exit status 0
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>

static const char *name(CUresult r)
{
    const char *s = NULL;
    cuGetErrorName(r, &s);
    return s ? s : "?";
}

__global__ void twice(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = 2 * i;
}

__global__ void add_one(int *v) { v[threadIdx.x] += 1; }

int main()
{
    int n = -1;
    printf("before cuInit: %s\n", name(cuDeviceGetCount(&n)));
    CUresult r = cuInit(0);
    CUdevice dev = -1, bad;
    cuDeviceGetCount(&n);
    printf("cuInit: %s, %d device, ordinal 1: %s\n", name(r), n, name(cuDeviceGet(&bad, 1)));
    cuDeviceGet(&dev, 0);

    CUcontext ctx = (CUcontext)1;
    r = cuCtxGetDevice(&dev);
    cuCtxGetCurrent(&ctx);
    printf("context before the runtime: %s, current %s\n", name(r), ctx ? "set" : "null");
    cudaSetDevice(0);
    cuCtxGetDevice(&dev);
    cuCtxGetCurrent(&ctx);
    printf("context after cudaSetDevice: device %d, current %s\n", dev, ctx ? "set" : "null");

    int major = 0, minor = 0, vmm = 0;
    cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    cuDeviceGetAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, dev);
    printf("compute capability %d.%d, vmm %d\n", major, minor, vmm);

    /* cuMemAlloc and its copies */
    int h[4] = {2, 4, 6, 8};
    CUdeviceptr d;
    cuMemAlloc(&d, sizeof h);
    cuMemcpyHtoD(d, h, sizeof h);
    add_one<<<1, 4>>>((int *)d);
    cuMemcpyDtoH(h, d, sizeof h);
    cuMemFree(d);
    printf("cuMemAlloc: %d %d %d %d, free twice %s\n", h[0], h[1], h[2], h[3], name(cuMemFree(d)));

    /* virtual memory management */
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = dev;
    size_t gran = 0;
    cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
    size_t size = gran; /* one granule: 524288 ints */
    CUdeviceptr va;
    CUmemGenericAllocationHandle mem;
    CUresult rr = cuMemAddressReserve(&va, size, 0, 0, 0);
    CUresult rc = cuMemCreate(&mem, size, &prop, 0);
    CUresult rm = cuMemMap(va, size, 0, mem, 0);
    CUmemAccessDesc access;
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    CUresult ra = cuMemSetAccess(va, size, &access, 1);
    printf("granularity %zu, reserve %s, create %s, map %s, access %s\n", gran, name(rr), name(rc), name(rm),
           name(ra));
    int count = (int)(size / sizeof(int));
    twice<<<(count + 255) / 256, 256>>>((int *)va, count);
    int first[4], last;
    cuMemcpyDtoH(first, va, sizeof first);
    cuMemcpyDtoH(&last, va + size - sizeof(int), sizeof last);
    CUresult rel = cuMemRelease(mem);
    printf("mapped memory: %d %d %d %d ... %d, released while mapped %s\n", first[0], first[1], first[2], first[3],
           last, name(rel));
    CUresult ru = cuMemUnmap(va, size);
    CUresult rf = cuMemAddressFree(va, size);
    printf("unmap %s, address free %s, release again %s\n", name(ru), name(rf), name(cuMemRelease(mem)));
    return 0;
}
