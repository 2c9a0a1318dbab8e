/* progrt_drv.cpp - the part of the CUDA driver API that a student's program
 * can use on the simulator (include/cuda.h): cuInit, the device, the
 * device's primary context, cuMemAlloc and its copies, and virtual memory
 * management. Each call answers as the driver does, including its errors:
 * a call before cuInit (and before any runtime call, which initialises the
 * driver) is CUDA_ERROR_NOT_INITIALIZED; one that needs a context while the
 * thread has none is CUDA_ERROR_INVALID_CONTEXT.
 *
 * Virtual memory management on one simulated device: cuMemAddressReserve
 * reserves address space that nothing may touch (PROT_NONE); cuMemCreate
 * makes a handle for `size` bytes; cuMemMap gives the handle's bytes that
 * address range (its pages become readable); cuMemSetAccess makes the range
 * device memory, which memcheck and initcheck then watch as they do
 * cudaMalloc's; cuMemUnmap and cuMemAddressFree undo them. A handle's bytes
 * are the pages of the range it is mapped at, so a handle is mapped at one
 * address at a time (mapping it at a second is CUDA_ERROR_NOT_SUPPORTED
 * here, with a message). */
#include "kernels/program/include/cuda.h"

#include <sys/mman.h>

#include <atomic>
#include <map>
#include <mutex>

#include "kernels/program/progrt_internal.h"
#include "kernels/sim/internal.h"

using namespace gpulab_sim;

struct CUctx_st {
    int device;
};
static CUctx_st drv_primary = {0};
static std::atomic<int> drv_inited;

/* ------------------------------------------------------------ the state */

static CUresult drv_need_init(void)
{
    return drv_inited || sim_runtime_state() ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
}
/* the calling thread's current context: the primary one once the runtime
 * made it current there, or cuCtxSetCurrent chose it */
static thread_local int drv_ctx_set;      /* cuCtxSetCurrent was called on this thread */
static thread_local CUcontext drv_ctx_cur; /* what it set */
static CUcontext drv_current(void)
{
    if (drv_ctx_set) return drv_ctx_cur;
    return sim_runtime_state() > 1 ? &drv_primary : nullptr;
}
static CUresult drv_need_ctx(void)
{
    CUresult r = drv_need_init();
    if (r != CUDA_SUCCESS) return r;
    return drv_current() ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}
static CUresult drv_from(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return CUDA_SUCCESS;
    case cudaErrorInvalidValue: return CUDA_ERROR_INVALID_VALUE;
    case cudaErrorMemoryAllocation: return CUDA_ERROR_OUT_OF_MEMORY;
    case cudaErrorInvalidDevice: return CUDA_ERROR_INVALID_DEVICE;
    case cudaErrorIllegalAddress: return CUDA_ERROR_ILLEGAL_ADDRESS;
    case cudaErrorLaunchFailure: return CUDA_ERROR_LAUNCH_FAILED;
    case cudaErrorNotSupported: return CUDA_ERROR_NOT_SUPPORTED;
    default: return CUDA_ERROR_UNKNOWN;
    }
}

/* --------------------------------------------------- version and errors */

CUresult cuInit(unsigned int flags)
{
    if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
    drv_inited = 1;
    return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int *version)
{
    if (!version) return CUDA_ERROR_INVALID_VALUE;
    return drv_from(cudaDriverGetVersion(version));
}

static const struct {
    CUresult e;
    const char *name, *text;
} drv_errors[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {CUDA_ERROR_DEINITIALIZED, "CUDA_ERROR_DEINITIALIZED", "driver shutting down"},
    {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {CUDA_ERROR_CONTEXT_ALREADY_CURRENT, "CUDA_ERROR_CONTEXT_ALREADY_CURRENT", "context already current"},
    {CUDA_ERROR_ALREADY_MAPPED, "CUDA_ERROR_ALREADY_MAPPED", "resource already mapped"},
    {CUDA_ERROR_NOT_MAPPED, "CUDA_ERROR_NOT_MAPPED", "resource not mapped"},
    {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {CUDA_ERROR_NOT_READY, "CUDA_ERROR_NOT_READY", "device not ready"},
    {CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"},
    {CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
    {CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

/* an error's name (text 0) or its sentence (text 1), as the driver's */
static CUresult drv_error_word(CUresult error, const char **out, int text)
{
    if (!out) return CUDA_ERROR_INVALID_VALUE;
    for (const auto &d : drv_errors)
        if (d.e == error) {
            *out = text ? d.text : d.name;
            return CUDA_SUCCESS;
        }
    *out = nullptr;
    return CUDA_ERROR_INVALID_VALUE;
}
CUresult cuGetErrorName(CUresult error, const char **name) { return drv_error_word(error, name, 0); }
CUresult cuGetErrorString(CUresult error, const char **text) { return drv_error_word(error, text, 1); }

/* ------------------------------------------------------------ the device */

/* Generic compression, said where the modelled GPU's compute capability is
 * 8.0 or later (an H100's driver says 1, measured 2026-12-06): it changes
 * how the GPU stores memory, never what a program reads back, so on the
 * simulator it is a property of the handle and nothing more. */
static int drv_compression(void)
{
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    return p.major >= 8;
}

/* what every query of a device checks, in the driver's order: the driver
 * initialised, a place for the answer, a device that exists */
static CUresult drv_need_device(const void *out, CUdevice dev)
{
    CUresult r = drv_need_init();
    if (r != CUDA_SUCCESS) return r;
    if (!out) return CUDA_ERROR_INVALID_VALUE;
    return dev == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CUresult cuDeviceGetCount(int *count)
{
    CUresult r = drv_need_init();
    if (r != CUDA_SUCCESS) return r;
    if (!count) return CUDA_ERROR_INVALID_VALUE;
    *count = 1;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
    CUresult r = drv_need_device(device, ordinal);
    if (r != CUDA_SUCCESS) return r;
    *device = 0;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
    CUresult r = drv_need_device(len > 0 ? name : nullptr, dev);
    if (r != CUDA_SUCCESS) return r;
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    snprintf(name, (size_t)len, "%s", p.name);
    return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem(size_t *bytes, CUdevice dev)
{
    CUresult r = drv_need_device(bytes, dev);
    if (r != CUDA_SUCCESS) return r;
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    *bytes = p.totalGlobalMem;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attrib, CUdevice dev)
{
    CUresult r = drv_need_device(value, dev);
    if (r != CUDA_SUCCESS) return r;
    switch (attrib) {
    /* the simulator's virtual memory management (this file) */
    case CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED: *value = 1; return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED: *value = drv_compression(); return CUDA_SUCCESS;
    default:
        /* the runtime's attributes are the driver's, number for number */
        return drv_from(cudaDeviceGetAttribute(value, (cudaDeviceAttr)attrib, 0));
    }
}

/* ------------------------------------------------------- the context */

CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
    CUresult r = drv_need_device(pctx, dev);
    if (r != CUDA_SUCCESS) return r;
    *pctx = &drv_primary;
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease(CUdevice dev)
{
    CUresult r = drv_need_init();
    if (r != CUDA_SUCCESS) return r;
    return dev == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CUresult cuCtxGetCurrent(CUcontext *pctx)
{
    CUresult r = drv_need_init();
    if (r != CUDA_SUCCESS) return r;
    if (!pctx) return CUDA_ERROR_INVALID_VALUE;
    *pctx = drv_current();
    return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext ctx)
{
    CUresult r = drv_need_init();
    if (r != CUDA_SUCCESS) return r;
    if (ctx && ctx != &drv_primary) return CUDA_ERROR_INVALID_CONTEXT;
    drv_ctx_set = 1;
    drv_ctx_cur = ctx;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetDevice(CUdevice *device)
{
    CUresult r = drv_need_ctx();
    if (r != CUDA_SUCCESS) return r;
    if (!device) return CUDA_ERROR_INVALID_VALUE;
    *device = 0;
    return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize(void)
{
    CUresult r = drv_need_ctx();
    if (r != CUDA_SUCCESS) return r;
    return drv_from(cudaDeviceSynchronize());
}

/* ------------------------------------------------------------- memory */

CUresult cuMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    CUresult r = drv_need_ctx();
    if (r != CUDA_SUCCESS) return r;
    return drv_from(cudaMemGetInfo(free_bytes, total_bytes));
}

CUresult cuMemAlloc(CUdeviceptr *dptr, size_t bytesize)
{
    CUresult r = drv_need_ctx();
    if (r != CUDA_SUCCESS) return r;
    if (!dptr || bytesize == 0) return CUDA_ERROR_INVALID_VALUE;
    void *p = nullptr;
    r = drv_from(sim_cuda_malloc_named(&p, bytesize, "cuMemAlloc", nullptr, 0));
    *dptr = (CUdeviceptr)(uintptr_t)p;
    return r;
}

CUresult cuMemFree(CUdeviceptr dptr)
{
    CUresult r = drv_need_ctx();
    if (r != CUDA_SUCCESS) return r;
    if (!dptr) return CUDA_ERROR_INVALID_VALUE;
    return drv_from(sim_cuda_free_at((void *)(uintptr_t)dptr, "cuMemFree", 0));
}

CUresult cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t bytes)
{
    CUresult r = drv_need_ctx();
    if (r != CUDA_SUCCESS) return r;
    return drv_from(sim_cuda_memcpy((void *)(uintptr_t)dst, src, bytes, cudaMemcpyHostToDevice));
}

CUresult cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t bytes)
{
    CUresult r = drv_need_ctx();
    if (r != CUDA_SUCCESS) return r;
    return drv_from(sim_cuda_memcpy(dst, (const void *)(uintptr_t)src, bytes, cudaMemcpyDeviceToHost));
}

CUresult cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t bytes)
{
    CUresult r = drv_need_ctx();
    if (r != CUDA_SUCCESS) return r;
    return drv_from(
        sim_cuda_memcpy((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, bytes, cudaMemcpyDeviceToDevice));
}

CUresult cuMemsetD8(CUdeviceptr dst, unsigned char value, size_t n)
{
    CUresult r = drv_need_ctx();
    if (r != CUDA_SUCCESS) return r;
    return drv_from(cudaMemset((void *)(uintptr_t)dst, value, n));
}

CUresult cuMemsetD32(CUdeviceptr dst, unsigned int value, size_t n)
{
    CUresult r = drv_need_ctx();
    if (r != CUDA_SUCCESS) return r;
    if (dst % 4) return CUDA_ERROR_INVALID_VALUE;
    /* the pattern written from the host, through the checked copy */
    std::unique_ptr<unsigned int[]> buf(new (std::nothrow) unsigned int[n ? n : 1]);
    if (!buf) return CUDA_ERROR_OUT_OF_MEMORY;
    for (size_t i = 0; i < n; i++) buf[i] = value;
    return drv_from(sim_cuda_memcpy((void *)(uintptr_t)dst, buf.get(), n * 4, cudaMemcpyHostToDevice));
}

/* --------------------------------------------- virtual memory management */

/* The simulator's granularity: the H100's and H200's (2 MiB, measured with
 * cuMemGetAllocationGranularity on both), minimum and recommended. */
static const size_t drv_granularity = 2u << 20;

struct drv_handle {
    size_t size;
    CUmemAllocationProp prop;
    CUdeviceptr mapped_at; /* 0: not mapped */
    int released;          /* cuMemRelease was called: gone once unmapped */
    char *kept;            /* its bytes while it is not mapped (NULL: never written) */
};
struct drv_mapping {
    size_t size;
    CUmemGenericAllocationHandle handle;
    int accessible; /* cuMemSetAccess made it device memory */
    int restored;   /* holds the bytes of an earlier mapping of its handle */
};
static std::mutex drv_mu;
static std::map<CUmemGenericAllocationHandle, drv_handle> drv_handles;
static std::map<CUdeviceptr, size_t> drv_reserved;     /* start -> size */
static std::map<CUdeviceptr, drv_mapping> drv_mappings; /* start -> mapping */
static CUmemGenericAllocationHandle drv_next_handle = 1;

static CUresult drv_check_prop(const CUmemAllocationProp *prop)
{
    if (!prop || prop->type != CU_MEM_ALLOCATION_TYPE_PINNED || prop->location.type != CU_MEM_LOCATION_TYPE_DEVICE)
        return CUDA_ERROR_INVALID_VALUE;
    if (prop->location.id != 0) return CUDA_ERROR_INVALID_DEVICE;
    return CUDA_SUCCESS;
}

/* the reservation that holds [p, p + size), or drv_reserved.end() */
static std::map<CUdeviceptr, size_t>::iterator drv_reservation_of(CUdeviceptr p, size_t size)
{
    auto it = drv_reserved.upper_bound(p);
    if (it == drv_reserved.begin()) return drv_reserved.end();
    --it;
    if (p + size < p || p + size > it->first + it->second) return drv_reserved.end();
    return it;
}

/* [ptr, ptr + size) is mappings from end to end, the first at ptr */
static bool drv_covered(CUdeviceptr ptr, size_t size)
{
    CUdeviceptr at = ptr;
    for (auto m = drv_mappings.find(ptr); at < ptr + size; ++m) {
        if (m == drv_mappings.end() || m->first != at) return false;
        at += m->second.size;
    }
    return at == ptr + size;
}

CUresult cuMemGetAllocationGranularity(size_t *granularity, const CUmemAllocationProp *prop,
                                       CUmemAllocationGranularity_flags option)
{
    CUresult r = drv_need_init();
    if (r != CUDA_SUCCESS) return r;
    if (!granularity || (option != CU_MEM_ALLOC_GRANULARITY_MINIMUM && option != CU_MEM_ALLOC_GRANULARITY_RECOMMENDED))
        return CUDA_ERROR_INVALID_VALUE;
    r = drv_check_prop(prop);
    if (r != CUDA_SUCCESS) return r;
    *granularity = drv_granularity;
    return CUDA_SUCCESS;
}

/* An address in reserved address space that nothing maps, for a kernel's
 * fault there (sim_mem_explain): past which mapping, or none. From the
 * SIGSEGV handler: it waits for no lock. */
static int drv_explain(uintptr_t a, int is_write, char *buf, size_t len)
{
    std::unique_lock<std::mutex> lock(drv_mu, std::try_to_lock);
    if (!lock.owns_lock()) return 0;
    auto r = drv_reservation_of((CUdeviceptr)a, 1);
    if (r == drv_reserved.end()) return 0;
    const char *acc = is_write ? "writes" : "reads";
    auto m = drv_mappings.upper_bound((CUdeviceptr)a);
    if (m != drv_mappings.begin() && std::prev(m)->first >= r->first) {
        --m;
        snprintf(buf, len,
                 "%s address %p, %zu bytes past the end of the %zu bytes mapped at %p (cuMemMap), in address "
                 "space that cuMemAddressReserve reserved and nothing maps (cudaErrorIllegalAddress on a GPU)",
                 acc, (void *)a, (size_t)(a - (m->first + m->second.size)), m->second.size,
                 (void *)(uintptr_t)m->first);
    } else {
        snprintf(buf, len,
                 "%s address %p, in address space that cuMemAddressReserve reserved at %p and nothing maps "
                 "there: cuMemMap and cuMemSetAccess make it memory (cudaErrorIllegalAddress on a GPU)",
                 acc, (void *)a, (void *)(uintptr_t)r->first);
    }
    return 1;
}

CUresult cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t alignment, CUdeviceptr addr,
                             unsigned long long flags)
{
    CUresult r = drv_need_init();
    if (r != CUDA_SUCCESS) return r;
    (void)addr; /* a hint, which the driver may ignore */
    if (!ptr || size == 0 || size % drv_granularity || flags != 0 ||
        (alignment && (alignment & (alignment - 1))))
        return CUDA_ERROR_INVALID_VALUE;
    size_t align = alignment > drv_granularity ? alignment : drv_granularity;
    /* over-reserve, then trim to the alignment */
    char *m = (char *)mmap(nullptr, size + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) return CUDA_ERROR_OUT_OF_MEMORY;
    uintptr_t start = ((uintptr_t)m + align - 1) & ~(uintptr_t)(align - 1);
    if (start > (uintptr_t)m) munmap(m, start - (uintptr_t)m);
    uintptr_t end = (uintptr_t)m + size + align;
    if (end > start + size) munmap((void *)(start + size), end - (start + size));
    std::lock_guard<std::mutex> lock(drv_mu);
    sim_mem_set_reserved_explainer(drv_explain);
    drv_reserved[(CUdeviceptr)start] = size;
    *ptr = (CUdeviceptr)start;
    return CUDA_SUCCESS;
}

CUresult cuMemAddressFree(CUdeviceptr ptr, size_t size)
{
    CUresult r = drv_need_init();
    if (r != CUDA_SUCCESS) return r;
    std::lock_guard<std::mutex> lock(drv_mu);
    auto it = drv_reserved.find(ptr);
    if (it == drv_reserved.end() || it->second != size) return CUDA_ERROR_INVALID_VALUE;
    auto m = drv_mappings.lower_bound(ptr);
    if (m != drv_mappings.end() && m->first < ptr + size) {
        sim_diag("cuMemAddressFree: the range at %p is still mapped (cuMemUnmap it first)", (void *)(uintptr_t)ptr);
        return CUDA_ERROR_INVALID_VALUE;
    }
    munmap((void *)(uintptr_t)ptr, size);
    drv_reserved.erase(it);
    return CUDA_SUCCESS;
}

CUresult cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size, const CUmemAllocationProp *prop,
                     unsigned long long flags)
{
    CUresult r = drv_need_init();
    if (r != CUDA_SUCCESS) return r;
    if (!handle || size == 0 || size % drv_granularity || flags != 0) return CUDA_ERROR_INVALID_VALUE;
    r = drv_check_prop(prop);
    if (r != CUDA_SUCCESS) return r;
    if (prop->requestedHandleTypes != CU_MEM_HANDLE_TYPE_NONE) {
        sim_diag("cuMemCreate: shareable handles (requestedHandleTypes) share memory between processes, which "
                 "the simulator's one process cannot");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    drv_handle h;
    h.size = size;
    h.prop = *prop;
    /* compressible where the modelled GPU has compression; where it has
     * not, the handle says so, as the driver's does */
    if (!drv_compression()) h.prop.allocFlags.compressionType = CU_MEM_ALLOCATION_COMP_NONE;
    h.mapped_at = 0;
    h.released = 0;
    h.kept = nullptr;
    std::lock_guard<std::mutex> lock(drv_mu);
    *handle = drv_next_handle++;
    drv_handles[*handle] = h;
    return CUDA_SUCCESS;
}

CUresult cuMemRelease(CUmemGenericAllocationHandle handle)
{
    CUresult r = drv_need_init();
    if (r != CUDA_SUCCESS) return r;
    std::lock_guard<std::mutex> lock(drv_mu);
    auto it = drv_handles.find(handle);
    if (it == drv_handles.end() || it->second.released) return CUDA_ERROR_INVALID_VALUE;
    /* a mapped handle's memory lives until it is unmapped */
    if (it->second.mapped_at) {
        it->second.released = 1;
    } else {
        free(it->second.kept);
        drv_handles.erase(it);
    }
    return CUDA_SUCCESS;
}

CUresult cuMemGetAllocationPropertiesFromHandle(CUmemAllocationProp *prop, CUmemGenericAllocationHandle handle)
{
    CUresult r = drv_need_init();
    if (r != CUDA_SUCCESS) return r;
    if (!prop) return CUDA_ERROR_INVALID_VALUE;
    std::lock_guard<std::mutex> lock(drv_mu);
    auto it = drv_handles.find(handle);
    if (it == drv_handles.end() || it->second.released) return CUDA_ERROR_INVALID_VALUE;
    *prop = it->second.prop;
    return CUDA_SUCCESS;
}

CUresult cuMemMap(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
                  unsigned long long flags)
{
    CUresult r = drv_need_init();
    if (r != CUDA_SUCCESS) return r;
    std::lock_guard<std::mutex> lock(drv_mu);
    auto h = drv_handles.find(handle);
    if (h == drv_handles.end() || h->second.released || flags != 0 || size == 0 || size % drv_granularity ||
        offset % drv_granularity || offset + size > h->second.size)
        return CUDA_ERROR_INVALID_VALUE;
    if (drv_reservation_of(ptr, size) == drv_reserved.end() || ptr % drv_granularity) return CUDA_ERROR_INVALID_VALUE;
    auto m = drv_mappings.upper_bound(ptr);
    if ((m != drv_mappings.end() && m->first < ptr + size) ||
        (m != drv_mappings.begin() && std::prev(m)->first + std::prev(m)->second.size > ptr))
        return CUDA_ERROR_ALREADY_MAPPED;
    if (h->second.mapped_at || offset != 0 || size != h->second.size) {
        sim_diag("cuMemMap: the simulator maps a handle whole (offset 0, its whole size) at one address at a time; "
                 "a second mapping of the same memory (an alias) needs a GPU");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    if (mprotect((void *)(uintptr_t)ptr, size, PROT_READ | PROT_WRITE) != 0) return CUDA_ERROR_OUT_OF_MEMORY;
    /* the handle's bytes from its last mapping, as physical memory keeps them */
    int restored = h->second.kept != nullptr;
    if (restored) {
        memcpy((void *)(uintptr_t)ptr, h->second.kept, size);
        free(h->second.kept);
        h->second.kept = nullptr;
    }
    h->second.mapped_at = ptr;
    drv_mappings[ptr] = drv_mapping{size, handle, 0, restored};
    return CUDA_SUCCESS;
}

CUresult cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc, size_t count)
{
    CUresult r = drv_need_init();
    if (r != CUDA_SUCCESS) return r;
    if (!desc || count == 0) return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < count; i++) {
        if (desc[i].location.type != CU_MEM_LOCATION_TYPE_DEVICE) return CUDA_ERROR_INVALID_VALUE;
        if (desc[i].location.id != 0) return CUDA_ERROR_INVALID_DEVICE;
        if (desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE) {
            sim_diag("cuMemSetAccess: the simulator gives device memory read and write access only "
                     "(CU_MEM_ACCESS_FLAGS_PROT_READWRITE)");
            return CUDA_ERROR_NOT_SUPPORTED;
        }
    }
    std::lock_guard<std::mutex> lock(drv_mu);
    if (!drv_covered(ptr, size)) return CUDA_ERROR_INVALID_VALUE;
    std::map<CUdeviceptr, drv_mapping>::iterator m;
    for (m = drv_mappings.find(ptr); m != drv_mappings.end() && m->first < ptr + size; ++m)
        if (!m->second.accessible) {
            r = drv_from(sim_mem_adopt((void *)(uintptr_t)m->first, m->second.size, "cuMemMap"));
            if (r != CUDA_SUCCESS) return r;
            if (m->second.restored) sim_mem_written((void *)(uintptr_t)m->first, m->second.size);
            m->second.accessible = 1;
        }
    return CUDA_SUCCESS;
}

CUresult cuMemUnmap(CUdeviceptr ptr, size_t size)
{
    CUresult r = drv_need_init();
    if (r != CUDA_SUCCESS) return r;
    std::lock_guard<std::mutex> lock(drv_mu);
    if (!drv_covered(ptr, size)) return CUDA_ERROR_INVALID_VALUE;
    std::map<CUdeviceptr, drv_mapping>::iterator m;
    /* as on a GPU, the memory leaves when the work before it is done */
    cudaDeviceSynchronize();
    for (m = drv_mappings.find(ptr); m != drv_mappings.end() && m->first < ptr + size;) {
        void *p = (void *)(uintptr_t)m->first;
        if (m->second.accessible) sim_mem_disown(p);
        auto h = drv_handles.find(m->second.handle);
        if (h != drv_handles.end()) {
            h->second.mapped_at = 0;
            if (h->second.released) {
                drv_handles.erase(h);
            } else {
                /* kept for the handle's next mapping */
                h->second.kept = (char *)malloc(m->second.size);
                if (h->second.kept) memcpy(h->second.kept, p, m->second.size);
            }
        }
        mprotect(p, m->second.size, PROT_NONE);
        madvise(p, m->second.size, MADV_DONTNEED);
        m = drv_mappings.erase(m);
    }
    return CUDA_SUCCESS;
}
