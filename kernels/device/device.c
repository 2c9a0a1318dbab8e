/* device.c - the GPU as gpulab sees it: found lazily, described, timed, and
 * switched off for the session (with an explanation) after a sticky error.
 * No GPU is a normal state: the simulator runs the kernels instead. */
#include "kernels/family.h"
#include "kernels/intl.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static lab_device_info info;
static int probed;
static int ndevices; /* CUDA devices found (0 without a GPU) */
static char disabled[LAB_NOTE_MAX];

static int attr(enum cudaDeviceAttr a, int dev)
{
    int v = 0;
    if (cudaDeviceGetAttribute(&v, a, dev) != cudaSuccess) return 0;
    return v;
}

static void probe(void)
{
    probed = 1;
    memset(&info, 0, sizeof info);
    const char *off = getenv("GPULAB_NO_GPU");
    if (off && *off && strcmp(off, "0") != 0) {
        snprintf(info.why_not, sizeof info.why_not, "%s", L_("GPULAB_NO_GPU is set"));
        return;
    }
    /* Both "no driver" and "a driver but no device" mean: no GPU. The count
     * starts at 0 because a failing call leaves it untouched. */
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        if (e == cudaErrorInsufficientDriver)
            snprintf(info.why_not, sizeof info.why_not, L_("no NVIDIA driver (or one too old for CUDA %d.%d)"),
                     CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
        else if (e == cudaErrorNoDevice || (e == cudaSuccess && count == 0))
            snprintf(info.why_not, sizeof info.why_not, "%s", L_("no CUDA device found"));
        else
            snprintf(info.why_not, sizeof info.why_not, L_("CUDA could not start: %s"), cudaGetErrorString(e));
        cudaGetLastError();
        return;
    }
    ndevices = count;
    int dev = 0;
    if ((e = cudaSetDevice(dev)) != cudaSuccess || (e = cudaFree(0)) != cudaSuccess) {
        snprintf(info.why_not, sizeof info.why_not, L_("CUDA could not start on device 0: %s"),
                 cudaGetErrorString(e));
        cudaGetLastError();
        ndevices = 0;
        return;
    }
    /* Properties through cudaDeviceGetAttribute: CUDA 13 removed several
     * cudaDeviceProp fields, the attributes stay. */
    struct cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, dev) == cudaSuccess)
        snprintf(info.name, sizeof info.name, "%s", p.name);
    info.cc_major = attr(cudaDevAttrComputeCapabilityMajor, dev);
    info.cc_minor = attr(cudaDevAttrComputeCapabilityMinor, dev);
    info.sms = attr(cudaDevAttrMultiProcessorCount, dev);
    info.max_threads_per_block = attr(cudaDevAttrMaxThreadsPerBlock, dev);
    info.max_threads_per_sm = attr(cudaDevAttrMaxThreadsPerMultiProcessor, dev);
    info.max_blocks_per_sm = attr(cudaDevAttrMaxBlocksPerMultiprocessor, dev);
    info.warp_size = attr(cudaDevAttrWarpSize, dev);
    info.smem_per_block = (size_t)attr(cudaDevAttrMaxSharedMemoryPerBlock, dev);
    info.smem_per_block_optin = (size_t)attr(cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
    info.smem_per_sm = (size_t)attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev);
    info.regs_per_block = attr(cudaDevAttrMaxRegistersPerBlock, dev);
    info.regs_per_sm = attr(cudaDevAttrMaxRegistersPerMultiprocessor, dev);
    info.max_grid[0] = attr(cudaDevAttrMaxGridDimX, dev);
    info.max_grid[1] = attr(cudaDevAttrMaxGridDimY, dev);
    info.max_grid[2] = attr(cudaDevAttrMaxGridDimZ, dev);
    info.max_block[0] = attr(cudaDevAttrMaxBlockDimX, dev);
    info.max_block[1] = attr(cudaDevAttrMaxBlockDimY, dev);
    info.max_block[2] = attr(cudaDevAttrMaxBlockDimZ, dev);
    info.clock_khz = attr(cudaDevAttrClockRate, dev);
    info.mem_clock_khz = attr(cudaDevAttrMemoryClockRate, dev);
    info.mem_bus_bits = attr(cudaDevAttrGlobalMemoryBusWidth, dev);
    size_t fr = 0, tot = 0;
    if (cudaMemGetInfo(&fr, &tot) == cudaSuccess) {
        info.mem_free = fr;
        info.mem_total = tot;
    }
    info.present = 1;
}

const lab_device_info *lab_device(void)
{
    if (!probed) probe();
    if (info.present) {
        size_t fr = 0, tot = 0;
        if (!disabled[0] && cudaMemGetInfo(&fr, &tot) == cudaSuccess) info.mem_free = fr;
    }
    return &info;
}

/* Cheap: called before every launch, so it asks CUDA nothing after the first time. */
int lab_gpu_available(void)
{
    if (!probed) probe();
    return info.present && !disabled[0];
}

const char *lab_device_disabled(void)
{
    return disabled[0] ? disabled : NULL;
}

/* Errors after which the context is unusable: every later call fails too. */
static int sticky(cudaError_t e)
{
    switch (e) {
    case cudaErrorIllegalAddress: case cudaErrorLaunchFailure:
    case cudaErrorIllegalInstruction: case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace: case cudaErrorInvalidPc:
    case cudaErrorHardwareStackError: case cudaErrorAssert:
    case cudaErrorLaunchTimeout: case cudaErrorECCUncorrectable:
    case cudaErrorUnknown:
        return 1;
    default:
        return 0;
    }
}

int lab_device_fail(int err, const char *expr, const char *file, int line, char *buf, size_t len)
{
    cudaError_t e = (cudaError_t)err;
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    if (sticky(e) && !disabled[0]) {
        snprintf(disabled, sizeof disabled,
                 "the GPU reported %s (%s) in %s:%d; such an error leaves the CUDA context "
                 "unusable, so the GPU is off for this session (restart gpulab to use it again); "
                 "kernel rows now run on the simulator",
                 cudaGetErrorName(e), cudaGetErrorString(e), base, line);
    }
    if (e == cudaErrorMemoryAllocation)
        snprintf(buf, len, "the GPU ran out of memory (%s at %s:%d)", expr, base, line);
    else
        snprintf(buf, len, "CUDA error %s: %s (%s at %s:%d)%s", cudaGetErrorName(e),
                 cudaGetErrorString(e), expr, base, line,
                 disabled[0] ? "; the GPU is now off for this session" : "");
    cudaGetLastError();
    return -1;
}

int lab_device_reserve(size_t bytes, char *msg, size_t len)
{
    size_t fr = 0, tot = 0;
    if (cudaMemGetInfo(&fr, &tot) != cudaSuccess) {
        cudaGetLastError();
        snprintf(msg, len, "could not ask the GPU for its free memory");
        return -1;
    }
    /* Leave a little for the runtime and the libraries' scratch space. */
    size_t margin = 64u << 20;
    if (bytes + margin > fr) {
        char need[32], have[32];
        lab_fmt_bytes((double)bytes, need, sizeof need);
        lab_fmt_bytes((double)fr, have, sizeof have);
        snprintf(msg, len, "this needs %s of GPU memory but only %s is free; choose a smaller n",
                 need, have);
        return -1;
    }
    return 0;
}

int lab_device_count(void)
{
    return lab_gpu_available() ? ndevices : 0;
}

int lab_device_describe(int i, char *name, size_t len, size_t *mem_total)
{
    if (i < 0 || i >= lab_device_count()) return -1;
    struct cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, i) != cudaSuccess) {
        cudaGetLastError();
        return -1;
    }
    snprintf(name, len, "%s", p.name);
    *mem_total = p.totalGlobalMem;
    return 0;
}

int lab_device_select(int d, char *msg, size_t len)
{
    cudaError_t e;
    if (d < 0 || d >= lab_device_count()) {
        snprintf(msg, len, "there is no GPU %d (this machine has %d)", d, lab_device_count());
        return -1;
    }
    if ((e = cudaSetDevice(d)) != cudaSuccess) return lab_device_fail(e, "cudaSetDevice", __FILE__, __LINE__, msg, len);
    return 0;
}

/* An event belongs to the device that was current when it was made: one
 * pair per device, so that a run on GPU d times with GPU d's events. */
int lab_device_events(cudaEvent_t *start, cudaEvent_t *stop)
{
    static cudaEvent_t s[LAB_MAX_GPUS], t[LAB_MAX_GPUS];
    static int made[LAB_MAX_GPUS];
    int d = 0;
    if (cudaGetDevice(&d) != cudaSuccess || d < 0 || d >= LAB_MAX_GPUS) {
        cudaGetLastError();
        return -1;
    }
    if (!made[d]) {
        if (cudaEventCreate(&s[d]) != cudaSuccess || cudaEventCreate(&t[d]) != cudaSuccess) {
            cudaGetLastError();
            return -1;
        }
        made[d] = 1;
    }
    *start = s[d];
    *stop = t[d];
    return 0;
}

/* "% of peak" is measured, not read off a datasheet: a large device-to-device
 * copy, counting the bytes read plus the bytes written. */
double lab_device_copy_gbps(void)
{
    if (!lab_gpu_available()) return 0;
    if (info.copy_gbps > 0) return info.copy_gbps;
    size_t bytes = 512u << 20;
    while (bytes > (16u << 20) && 2 * bytes + (256u << 20) > lab_device()->mem_free) bytes /= 2;
    void *a = NULL, *b = NULL;
    cudaEvent_t s, t;
    double ms[7];
    int ok = cudaMalloc(&a, bytes) == cudaSuccess && cudaMalloc(&b, bytes) == cudaSuccess &&
             lab_device_events(&s, &t) == 0 && cudaMemset(a, 1, bytes) == cudaSuccess;
    for (int i = 0; ok && i < 8; i++) {
        float f = 0;
        ok = cudaEventRecord(s, 0) == cudaSuccess &&
             cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice) == cudaSuccess &&
             cudaEventRecord(t, 0) == cudaSuccess && cudaEventSynchronize(t) == cudaSuccess &&
             cudaEventElapsedTime(&f, s, t) == cudaSuccess;
        if (i > 0) ms[i - 1] = f; /* the first copy is the warm-up */
    }
    if (a) cudaFree(a);
    if (b) cudaFree(b);
    cudaGetLastError();
    if (!ok) return 0;
    info.copy_gbps = 2.0 * (double)bytes / (lab_median(ms, 7) * 1e6);
    return info.copy_gbps;
}

void lab_job_free_allocs(lab_job *job)
{
    for (int i = job->nallocs - 1; i >= 0; i--)
        if (job->allocs[i] && job->alloc_free[i]) job->alloc_free[i](job->allocs[i]);
    job->nallocs = 0;
    job->trace_buf_threads = 0;
    if (job->backend == LAB_BACKEND_GPU && lab_gpu_available()) cudaGetLastError();
}
