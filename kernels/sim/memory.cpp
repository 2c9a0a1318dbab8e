/* memory.cpp - the CUDA runtime's memory and error calls on the simulator.
 *
 * Device memory is host memory. Every allocation is remembered, so a copy or
 * a memset that misses an allocation, or runs past its end, is refused with
 * an explanation instead of corrupting the heap: the same mistakes that make
 * a GPU return cudaErrorInvalidValue (or crash later) are named here. Fresh
 * memory is filled with SIM_POISON_GLOBAL so outputs a kernel never wrote
 * stand out. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <map>

namespace gpulab_sim {

/* start -> bytes asked for */
static std::map<uintptr_t, size_t> &sim_allocs(void)
{
    static std::map<uintptr_t, size_t> m;
    return m;
}
static cudaError_t sim_last_err = cudaSuccess;

void sim_set_last_error(cudaError_t e)
{
    if (e != cudaSuccess) sim_last_err = e;
}

cudaError_t sim_cuda_last_error(int clear)
{
    cudaError_t e = sim_last_err;
    if (clear) sim_last_err = cudaSuccess;
    return e;
}

static cudaError_t sim_err(cudaError_t e)
{
    sim_set_last_error(e);
    return e;
}

/* The allocation holding [p, p + bytes): 0 and its start and size, or -1. */
static int sim_find(const void *p, uintptr_t *start, size_t *size)
{
    std::map<uintptr_t, size_t> &m = sim_allocs();
    uintptr_t a = (uintptr_t)p;
    auto it = m.upper_bound(a);
    if (it == m.begin()) return -1;
    --it;
    *start = it->first;
    *size = it->second;
    if (a >= it->first + (it->second ? it->second : 1)) return -1;
    return 0;
}

/* Check that [p, p + bytes) is device memory; explain when not. */
static int sim_check_range(const char *call, const char *which, const void *p, size_t bytes)
{
    uintptr_t start;
    size_t size;
    if (sim_find(p, &start, &size) != 0) {
        sim_diag("%s: the %s %p is not memory from cudaMalloc (a host pointer, a freed one, or never allocated)",
                 call, which, p);
        return -1;
    }
    size_t off = (size_t)((uintptr_t)p - start);
    if (bytes > size - off) {
        sim_diag("%s: %zu bytes from the %s %p run past the end of its allocation: it holds %zu bytes from "
                 "there (%zu in all)",
                 call, bytes, which, p, size - off, size);
        return -1;
    }
    return 0;
}

cudaError_t sim_cuda_malloc(void **p, size_t bytes, const char *what)
{
    if (!p) {
        sim_diag("%s: the pointer to store the address in is NULL", what);
        return sim_err(cudaErrorInvalidValue);
    }
    *p = nullptr;
    size_t rounded = (bytes + 255) / 256 * 256;
    if (rounded == 0) rounded = 256;
    if (rounded < bytes) {
        sim_diag("%s: %zu bytes is more than any memory", what, bytes);
        return sim_err(cudaErrorMemoryAllocation);
    }
    void *m = aligned_alloc(256, rounded);
    if (!m) {
        sim_diag("%s: could not allocate %zu bytes of host memory for the simulated device", what, bytes);
        return sim_err(cudaErrorMemoryAllocation);
    }
    memset(m, SIM_POISON_GLOBAL, rounded);
    sim_allocs()[(uintptr_t)m] = bytes;
    *p = m;
    return cudaSuccess;
}

cudaError_t sim_cuda_free(void *p, const char *what)
{
    if (!p) return cudaSuccess;
    std::map<uintptr_t, size_t> &m = sim_allocs();
    auto it = m.find((uintptr_t)p);
    if (it == m.end()) {
        sim_diag("%s: %p is not the start of a live allocation (freed twice, or not from cudaMalloc)", what, p);
        return sim_err(cudaErrorInvalidValue);
    }
    m.erase(it);
    free(p);
    return cudaSuccess;
}

static const char *sim_kind_name(cudaMemcpyKind k)
{
    switch (k) {
    case cudaMemcpyHostToHost: return "cudaMemcpyHostToHost";
    case cudaMemcpyHostToDevice: return "cudaMemcpyHostToDevice";
    case cudaMemcpyDeviceToHost: return "cudaMemcpyDeviceToHost";
    case cudaMemcpyDeviceToDevice: return "cudaMemcpyDeviceToDevice";
    default: return "cudaMemcpyDefault";
    }
}

cudaError_t sim_cuda_memcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    if ((int)kind < 0 || (int)kind > 4) {
        sim_diag("cudaMemcpy: %d is not a cudaMemcpyKind", (int)kind);
        return sim_err(cudaErrorInvalidMemcpyDirection);
    }
    if (bytes == 0) return cudaSuccess;
    char call[64];
    snprintf(call, sizeof call, "cudaMemcpy(%s)", sim_kind_name(kind));
    if (!dst || !src) {
        sim_diag("%s: the %s is NULL", call, dst ? "source" : "destination");
        return sim_err(cudaErrorInvalidValue);
    }
    bool dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    bool src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    /* the classic mix-up: source and destination, or the kind, swapped */
    uintptr_t s0;
    size_t sz;
    bool d_is_dev = sim_find(dst, &s0, &sz) == 0, s_is_dev = sim_find(src, &s0, &sz) == 0;
    if ((kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToHost) && dst_dev != d_is_dev &&
        src_dev != s_is_dev) {
        sim_diag("%s: the destination is %s memory and the source is %s memory: the arguments are "
                 "(destination, source, bytes, kind), and the kind names the direction",
                 call, d_is_dev ? "device" : "host", s_is_dev ? "device" : "host");
        return sim_err(cudaErrorInvalidValue);
    }
    if (dst_dev && sim_check_range(call, "destination", dst, bytes) != 0) return sim_err(cudaErrorInvalidValue);
    if (src_dev && sim_check_range(call, "source", src, bytes) != 0) return sim_err(cudaErrorInvalidValue);
    memmove(dst, src, bytes);
    return cudaSuccess;
}

cudaError_t sim_cuda_memset(void *p, int value, size_t bytes)
{
    if (bytes == 0) return cudaSuccess;
    if (sim_check_range("cudaMemset", "pointer", p, bytes) != 0) return sim_err(cudaErrorInvalidValue);
    memset(p, value, bytes);
    return cudaSuccess;
}

const char *sim_cuda_error_name(cudaError_t e)
{
    switch (e) {
#define SIM_NAME(x) case x: return #x;
        SIM_NAME(cudaSuccess)
        SIM_NAME(cudaErrorInvalidValue)
        SIM_NAME(cudaErrorMemoryAllocation)
        SIM_NAME(cudaErrorInitializationError)
        SIM_NAME(cudaErrorInvalidConfiguration)
        SIM_NAME(cudaErrorInvalidSymbol)
        SIM_NAME(cudaErrorInvalidHostPointer)
        SIM_NAME(cudaErrorInvalidDevicePointer)
        SIM_NAME(cudaErrorInvalidMemcpyDirection)
        SIM_NAME(cudaErrorInsufficientDriver)
        SIM_NAME(cudaErrorNoDevice)
        SIM_NAME(cudaErrorInvalidDevice)
        SIM_NAME(cudaErrorInvalidKernelImage)
        SIM_NAME(cudaErrorInvalidResourceHandle)
        SIM_NAME(cudaErrorNotReady)
        SIM_NAME(cudaErrorIllegalAddress)
        SIM_NAME(cudaErrorLaunchOutOfResources)
        SIM_NAME(cudaErrorLaunchTimeout)
        SIM_NAME(cudaErrorAssert)
        SIM_NAME(cudaErrorHardwareStackError)
        SIM_NAME(cudaErrorIllegalInstruction)
        SIM_NAME(cudaErrorMisalignedAddress)
        SIM_NAME(cudaErrorLaunchFailure)
        SIM_NAME(cudaErrorNotSupported)
        SIM_NAME(cudaErrorUnknown)
#undef SIM_NAME
    }
    return "cudaErrorUnknown";
}

const char *sim_cuda_error_string(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidSymbol: return "invalid device symbol";
    case cudaErrorInvalidHostPointer: return "invalid host pointer";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorInsufficientDriver: return "CUDA driver version is insufficient for CUDA runtime version";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidKernelImage: return "device kernel image is invalid";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
    case cudaErrorLaunchTimeout: return "the launch timed out and was terminated";
    case cudaErrorAssert: return "device-side assert triggered";
    case cudaErrorHardwareStackError: return "hardware stack error";
    case cudaErrorIllegalInstruction: return "an illegal instruction was encountered";
    case cudaErrorMisalignedAddress: return "misaligned address";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorNotSupported: return "operation not supported";
    case cudaErrorUnknown: return "unknown error";
    }
    return "unknown error";
}

void sim_job_fail_msg(lab_job *job, cudaError_t e, const char *expr, const char *file, int line)
{
    const char *why = sim_diag_take();
    snprintf(job->err, sizeof job->err, "%s failed (%s:%d): %s%s%s", expr, sim_basename(file), line,
             sim_cuda_error_string(e), why ? ": " : "", why ? why : "");
}

} /* namespace gpulab_sim */

using namespace gpulab_sim;

extern "C" int sim_owns(const void *p)
{
    uintptr_t s;
    size_t n;
    return p && sim_find(p, &s, &n) == 0;
}

extern "C" int sim_free(void *p)
{
    if (!p) return 0;
    return sim_cuda_free(p, "sim_free") == cudaSuccess ? 0 : -1;
}
