/* progrt.h - what a student's program sees on the simulator.
 *
 * The source pass (translate.c) compiles every student file with
 * `-include progrt.h` (precompiled), after turning its __shared__
 * declarations and <<< >>> launches into the forms below. Everything else is
 * the CUDA runtime as the CUDA Programming Guide describes it, on top of the
 * simulator (kernels/sim): the same fibers, barriers, warp collectives and
 * diagnostics the built-in kernels run on. The runtime's host side
 * (streams, events, device properties...) is in progrt.cpp. */
#ifndef GPULAB_PROGRT_H
#define GPULAB_PROGRT_H

/* what nvcc makes visible without an #include */
#include <assert.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tuple>
#include <type_traits>
#include <utility>

#include "kernels/sim/shim.h"

namespace gpulab_sim {

void sim_set_last_error(cudaError_t e);

/* ------------------------------------------------------- shared memory */

/* `__shared__ T x;` : x is the block's one element */
#define SIM_SHARED_SCALAR(T, name)                                                        \
    static ::gpulab_sim::sim_shared_site sim_site_##name(#name, __FILE__, __LINE__, 0);  \
    typename ::gpulab_sim::sim_elem<T>::ref name = ::gpulab_sim::sim_shared_array<T>(&sim_site_##name, 1)[0]
/* three or more dimensions: the block's storage as a plain array (indices unchecked) */
#define SIM_SHARED_ND(T, name, COUNT, DIMS)                                               \
    static ::gpulab_sim::sim_shared_site sim_site_##name(#name, __FILE__, __LINE__, 0);  \
    T(&name) DIMS = *reinterpret_cast<T(*) DIMS>(                                          \
        ::gpulab_sim::sim_shared_get(&sim_site_##name, sizeof(T), alignof(T), (COUNT), 1))
/* file-scope __shared__: every use becomes sim_get_name() (the pass does it) */
#define SIM_SHARED_GLOBAL(T, name, N)                                                       \
    static ::gpulab_sim::sim_shared_site sim_site_##name(#name, __FILE__, __LINE__, 0);    \
    static inline ::gpulab_sim::sim_shared_array<T> sim_get_##name()                        \
    { return ::gpulab_sim::sim_shared_array<T>(&sim_site_##name, (size_t)(N)); }
#define SIM_SHARED_GLOBAL2(T, name, R, C)                                                   \
    static ::gpulab_sim::sim_shared_site sim_site_##name(#name, __FILE__, __LINE__, 0);    \
    static inline ::gpulab_sim::sim_shared_array2<T> sim_get_##name()                       \
    { return ::gpulab_sim::sim_shared_array2<T>(&sim_site_##name, (size_t)(R), (size_t)(C)); }
#define SIM_SHARED_GLOBAL_SCALAR(T, name)                                                   \
    static ::gpulab_sim::sim_shared_site sim_site_##name(#name, __FILE__, __LINE__, 0);    \
    static inline typename ::gpulab_sim::sim_elem<T>::ref sim_get_##name()                  \
    { return ::gpulab_sim::sim_shared_array<T>(&sim_site_##name, 1)[0]; }

/* A pointer into shared memory made in device code (`volatile int *v =
 * sdata`, a volatile parameter): the source pass makes it a sim_vptr, so
 * race-check sees its accesses like the array's own. */
void sim_race_addr(const void *addr, int kind);
template <class T> struct sim_aref {
    T *p;
    typedef typename std::remove_cv<T>::type V;
    V get() const
    {
        if (sim_race_on) sim_race_addr((const void *)p, SIM_ACC_READ);
        return *p;
    }
    void put(const V &v) const
    {
        if (sim_race_on) sim_race_addr((const void *)p, SIM_ACC_WRITE);
        *p = v;
    }
    operator V() const { return get(); }
    T *operator&() const { return p; }
    const sim_aref &operator=(const V &v) const { put(v); return *this; }
    const sim_aref &operator=(const sim_aref &o) const { put(o.get()); return *this; }
#define SIM_AREF_OP(op)                                            \
    template <class U> const sim_aref &operator op(const U &v) const \
    {                                                              \
        V x = get();                                               \
        x op sim_unref(v);                                         \
        put(x);                                                    \
        return *this;                                              \
    }
    SIM_AREF_OP(+=) SIM_AREF_OP(-=) SIM_AREF_OP(*=) SIM_AREF_OP(/=) SIM_AREF_OP(%=)
    SIM_AREF_OP(&=) SIM_AREF_OP(|=) SIM_AREF_OP(^=) SIM_AREF_OP(<<=) SIM_AREF_OP(>>=)
#undef SIM_AREF_OP
    const sim_aref &operator++() const { V x = get(); ++x; put(x); return *this; }
    const sim_aref &operator--() const { V x = get(); --x; put(x); return *this; }
    V operator++(int) const { V x = get(); V y = x; ++y; put(y); return x; }
    V operator--(int) const { V x = get(); V y = x; --y; put(y); return x; }
};
template <class T> static inline typename sim_aref<T>::V sim_unref(const sim_aref<T> &r) { return r.get(); }
template <class T> struct sim_value<sim_aref<T>> { typedef typename sim_aref<T>::V type; };

template <class T> struct sim_vptr {
    T *p;
    sim_vptr() = default;
    sim_vptr(T *q) : p(q) {}
    sim_vptr(std::nullptr_t) : p(nullptr) {}
    template <class U> sim_vptr(const sim_shared_array<U> &a) : p(a.base) {}
    template <class U> sim_vptr(const sim_shared_row<U> &a) : p(a.base) {}
    template <class U> sim_vptr(const sim_vptr<U> &o) : p(o.p) {}
    operator T *() const { return p; }
    template <class I> sim_aref<T> operator[](const I &i) const { return sim_aref<T>{p + (long long)sim_unref(i)}; }
    sim_aref<T> operator*() const { return sim_aref<T>{p}; }
    template <class I> sim_vptr operator+(const I &i) const { return sim_vptr(p + (long long)sim_unref(i)); }
    template <class I> sim_vptr operator-(const I &i) const { return sim_vptr(p - (long long)sim_unref(i)); }
    long long operator-(const sim_vptr &o) const { return p - o.p; }
    template <class I> sim_vptr &operator+=(const I &i) { p += (long long)sim_unref(i); return *this; }
    template <class I> sim_vptr &operator-=(const I &i) { p -= (long long)sim_unref(i); return *this; }
    sim_vptr &operator++() { ++p; return *this; }
    sim_vptr &operator--() { --p; return *this; }
    sim_vptr operator++(int) { sim_vptr o = *this; ++p; return o; }
    sim_vptr operator--(int) { sim_vptr o = *this; --p; return o; }
    explicit operator bool() const { return p != nullptr; }
};

/* printf with shared-memory elements among its arguments gets their values */
template <class T> static inline T sim_pf(const sim_ref<T> &r) { return r.get(); }
template <class T> static inline typename sim_aref<T>::V sim_pf(const sim_aref<T> &r) { return r.get(); }
template <class T> static inline const T &sim_pf(const T &v) { return v; }
template <class... A> static inline int sim_printf(const char *fmt, const A &...a)
{
    return ::printf(fmt, sim_pf(a)...);
}
static inline int sim_printf(const char *fmt) { return ::printf("%s", fmt); }

/* ------------------------------------------------------------- streams */

struct sim_stream_s;
struct sim_event_s;
} /* namespace gpulab_sim */
typedef ::gpulab_sim::sim_stream_s *cudaStream_t;
typedef ::gpulab_sim::sim_event_s *cudaEvent_t;
namespace gpulab_sim {

/* ------------------------------------------------------------- launches */

struct sim_cfg {
    dim3 grid, block;
    size_t smem;
    cudaStream_t stream;
    sim_cfg(dim3 g, dim3 b, size_t s = 0, cudaStream_t st = nullptr) : grid(g), block(b), smem(s), stream(st) {}
};

template <class F> static inline const void *sim_kaddr(F *f) { return (const void *)f; }

/* Runs one launch: body(void *) is called once per GPU thread. 0 or the error. */
cudaError_t sim_prog_launch(const void *func, const char *name, const char *file, int line, const sim_cfg &cfg,
                            void (*body)(void *), void *ctx);

/* kernel<<<cfg>>>(args) after the source pass: the arguments are copied once
 * (the launch's parameter buffer), every thread gets its own copy of them. */
template <class Body, class... A>
static inline void sim_launch_prog(const void *func, const char *name, const char *file, int line, sim_cfg cfg,
                                   Body body, A &&...args)
{
    std::tuple<typename std::decay<A>::type...> params(std::forward<A>(args)...);
    auto run = [&]() { std::apply(body, params); };
    sim_prog_launch(func, name, file, line, cfg, [](void *p) { (*static_cast<decltype(run) *>(p))(); }, &run);
}

/* Kernels by address, for cudaLaunchKernel((const void *)k, ...) and for
 * the names of kernels launched through a variable. The source pass adds one
 * sim_kreg() per kernel at the end of the file. */
int sim_kreg_add(const void *f, void (*call)(const void *, void **), const char *name);
const char *sim_kreg_name(const void *f);
void (*sim_kreg_find(const void *f))(const void *, void **);

/* cudaLaunchCooperativeKernel: the next launch is cooperative (read and
 * cleared by sim_prog_launch); the scope clears it however the launch ends. */
extern int sim_coop_next;
struct sim_coop_scope {
    sim_coop_scope() { sim_coop_next = 1; }
    ~sim_coop_scope() { sim_coop_next = 0; }
};

/* cudaLaunchKernel(kernel, grid, block, args, smem, stream) */
template <class... P, size_t... I>
static inline void sim_call_args(void (*f)(P...), void **args, std::index_sequence<I...>)
{
    f(*static_cast<typename std::decay<P>::type *>(args[I])...);
}
template <class... P>
static inline cudaError_t sim_launch_kernel(const char *file, int line, void (*f)(P...), dim3 grid, dim3 block,
                                            void **args, size_t smem = 0, cudaStream_t stream = nullptr)
{
    /* the arguments are read now, as CUDA does */
    std::tuple<typename std::decay<P>::type...> params(*static_cast<typename std::decay<P>::type *>(args[0])...);
    (void)params;
    auto run = [&]() { sim_call_args(f, args, std::index_sequence_for<P...>{}); };
    return sim_prog_launch((const void *)f, "?", file, line,
                           sim_cfg(grid, block, smem, stream), [](void *p) { (*static_cast<decltype(run) *>(p))(); },
                           &run);
}
template <class... P> static void sim_kreg_call(const void *f, void **args)
{
    sim_call_args(reinterpret_cast<void (*)(P...)>(const_cast<void *>(f)), args, std::index_sequence_for<P...>{});
}
template <class... P> static inline int sim_kreg(void (*f)(P...), const char *name)
{
    return sim_kreg_add((const void *)f, &sim_kreg_call<P...>, name);
}
static inline cudaError_t sim_launch_kernel(const char *file, int line, const void *f, dim3 grid, dim3 block,
                                            void **args, size_t smem = 0, cudaStream_t stream = nullptr)
{
    void (*call)(const void *, void **) = sim_kreg_find(f);
    if (!call) {
        sim_set_last_error(cudaErrorInvalidDeviceFunction);
        return cudaErrorInvalidDeviceFunction;
    }
    auto run = [&]() { call(f, args); };
    return sim_prog_launch(f, "?", file, line, sim_cfg(grid, block, smem, stream),
                           [](void *p) { (*static_cast<decltype(run) *>(p))(); }, &run);
}
static inline cudaError_t sim_launch_kernel(const char *file, int line, void (*f)(), dim3 grid, dim3 block, void **,
                                            size_t smem = 0, cudaStream_t stream = nullptr)
{
    auto run = [&]() { f(); };
    return sim_prog_launch((const void *)f, "?", file, line,
                           sim_cfg(grid, block, smem, stream), [](void *p) { (*static_cast<decltype(run) *>(p))(); },
                           &run);
}

/* ------------------------------------------------------------- runtime */

enum cudaStreamFlags_ { cudaStreamDefault = 0, cudaStreamNonBlocking = 1 };
enum cudaEventFlags_ { cudaEventDefault = 0, cudaEventBlockingSync = 1, cudaEventDisableTiming = 2 };
enum cudaHostAllocFlags_ { cudaHostAllocDefault = 0, cudaHostAllocPortable = 1, cudaHostAllocMapped = 2,
                           cudaHostAllocWriteCombined = 4 };
#define cudaStreamLegacy ((cudaStream_t)0)
#define cudaStreamPerThread ((cudaStream_t)0)

cudaError_t sim_prog_sticky(void); /* a kernel fault makes every later call fail, as on a GPU */

cudaError_t cudaStreamCreate(cudaStream_t *s);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaStreamQuery(cudaStream_t s);
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags = 0);
cudaError_t cudaEventCreate(cudaEvent_t *e);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags);
cudaError_t cudaEventDestroy(cudaEvent_t e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaEventQuery(cudaEvent_t e);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t stop);

static inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                                          cudaStream_t s = nullptr)
{
    (void)s;
    return cudaMemcpy(dst, src, bytes, kind);
}
static inline cudaError_t cudaMemsetAsync(void *p, int value, size_t bytes, cudaStream_t s = nullptr)
{
    (void)s;
    return cudaMemset(p, value, bytes);
}
cudaError_t sim_prog_pitch(void **p, size_t *pitch, size_t width, size_t height, const char *name, int line);
template <class T>
static inline cudaError_t cudaMallocPitch(T **p, size_t *pitch, size_t width, size_t height)
{
    return sim_prog_pitch(reinterpret_cast<void **>(p), pitch, width, height, "cudaMallocPitch", 0);
}
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         cudaMemcpyKind kind);
static inline cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                            size_t height, cudaMemcpyKind kind, cudaStream_t s = nullptr)
{
    (void)s;
    return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}
cudaError_t cudaMemset2D(void *p, size_t pitch, int value, size_t width, size_t height);
static inline cudaError_t cudaHostAlloc(void **p, size_t bytes, unsigned flags)
{
    (void)flags;
    return sim_cuda_malloc(p, bytes, "cudaHostAlloc");
}
template <class T> static inline cudaError_t cudaHostAlloc(T **p, size_t bytes, unsigned flags)
{
    return cudaHostAlloc(reinterpret_cast<void **>(p), bytes, flags);
}
static inline cudaError_t cudaHostGetDevicePointer(void **d, void *h, unsigned) { *d = h; return cudaSuccess; }
static inline cudaError_t cudaMemPrefetchAsync(const void *, size_t, int, cudaStream_t = nullptr) { return cudaSuccess; }
static inline cudaError_t cudaMemAdvise(const void *, size_t, int, int) { return cudaSuccess; }
static inline cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }
static inline cudaError_t cudaDeviceSetCacheConfig(int) { return cudaSuccess; }
static inline cudaError_t cudaFuncSetCacheConfig(const void *, int) { return cudaSuccess; }
#define cudaFuncCachePreferNone 0
#define cudaFuncCachePreferShared 1
#define cudaFuncCachePreferL1 2
#define cudaFuncCachePreferEqual 3
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes);
cudaError_t cudaGetDeviceCount(int *n);
cudaError_t cudaDriverGetVersion(int *v);
cudaError_t cudaRuntimeGetVersion(int *v);

struct cudaDeviceProp {
    char name[256];
    size_t totalGlobalMem, sharedMemPerBlock, sharedMemPerBlockOptin, sharedMemPerMultiprocessor;
    int regsPerBlock, regsPerMultiprocessor, warpSize;
    size_t memPitch;
    int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3];
    int clockRate;
    size_t totalConstMem;
    int major, minor;
    int multiProcessorCount, maxThreadsPerMultiProcessor, maxBlocksPerMultiProcessor;
    int memoryClockRate, memoryBusWidth, l2CacheSize;
    int concurrentKernels, unifiedAddressing, managedMemory, cooperativeLaunch, integrated, canMapHostMemory;
    int computeMode, asyncEngineCount, ECCEnabled, pciBusID, pciDeviceID;
};
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int device);

enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxBlockDimX = 2, cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4, cudaDevAttrMaxGridDimX = 5, cudaDevAttrMaxGridDimY = 6, cudaDevAttrMaxGridDimZ = 7,
    cudaDevAttrMaxSharedMemoryPerBlock = 8, cudaDevAttrTotalConstantMemory = 9, cudaDevAttrWarpSize = 10,
    cudaDevAttrMaxRegistersPerBlock = 12, cudaDevAttrClockRate = 13, cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrMemoryClockRate = 36, cudaDevAttrGlobalMemoryBusWidth = 37, cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39, cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76, cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrMaxRegistersPerMultiprocessor = 82, cudaDevAttrManagedMemory = 83, cudaDevAttrCooperativeLaunch = 95,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97, cudaDevAttrMaxBlocksPerMultiprocessor = 106
};
cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device);

struct cudaFuncAttributes {
    size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
    int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, maxDynamicSharedSizeBytes;
};
cudaError_t sim_func_attributes(cudaFuncAttributes *a, const void *f);
template <class F> static inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, F *f)
{
    return sim_func_attributes(a, (const void *)f);
}

/* The occupancy API over the modelled GPU (set model). The simulator does not
 * know a kernel's registers: it counts 32 per thread, which nvcc gives a
 * small kernel. */
cudaError_t sim_occ_blocks(int *blocks, int block, size_t smem);
cudaError_t sim_occ_suggest(int *min_grid, int *block, size_t smem, int limit);
template <class F>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, F *f, int block, size_t smem)
{
    (void)f;
    return sim_occ_blocks(blocks, block, smem);
}
template <class F>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *min_grid, int *block, F *f, size_t smem = 0,
                                                             int limit = 0)
{
    (void)f;
    return sim_occ_suggest(min_grid, block, smem, limit);
}

/* allocations carry the variable's name and line, for diagnostics */
cudaError_t sim_prog_malloc(void **p, const char *call, const char *name, int line, size_t bytes,
                            unsigned flags = 0);
cudaError_t sim_prog_free(void *p, const char *call, const char *name, int line);

/* ------------------------------------------------------- device side */

/* A failed assert in a kernel ends the launch with cudaErrorAssert, naming
 * the line and the thread; in host code it is the C library's assert. */
[[noreturn]] void sim_assert_fail(const char *expr, const char *file, int line, const char *func);
/* device code that the simulator cannot run: the launch stops with msg */
[[noreturn]] void sim_unsupported(int line, const char *file, const char *msg);
/* tiled_partition(parent, n) with an n the GPU refuses: the launch stops as
 * the GPU's does (__trap: cudaErrorLaunchFailure), saying why */
[[noreturn]] void sim_cg_tile_size(unsigned n, int line, const char *file);

/* __half: IEEE binary16, with float arithmetic rounded back to half */
struct __half {
    _Float16 h;
    __half() = default;
    __half(float f) : h((_Float16)f) {}
    __half(double f) : h((_Float16)f) {}
    __half(int i) : h((_Float16)i) {}
    operator float() const { return (float)h; }
    __half &operator+=(const __half &o) { h = (_Float16)((float)h + (float)o.h); return *this; }
    __half &operator-=(const __half &o) { h = (_Float16)((float)h - (float)o.h); return *this; }
    __half &operator*=(const __half &o) { h = (_Float16)((float)h * (float)o.h); return *this; }
    __half &operator/=(const __half &o) { h = (_Float16)((float)h / (float)o.h); return *this; }
};
struct __half2 { __half x, y; };
/* half and half2 are cuda_fp16.h's names: the translation declares them
 * where the program includes it (a kernel called half compiles without) */
static inline __half __float2half(float f) { return __half(f); }
static inline __half __float2half_rn(float f) { return __half(f); }
static inline float __half2float(__half h) { return (float)h.h; }
static inline __half __int2half_rn(int i) { return __half((float)i); }
static inline int __half2int_rz(__half h) { return (int)(float)h.h; }
static inline __half __hadd(__half a, __half b) { return __half((float)a.h + (float)b.h); }
static inline __half __hsub(__half a, __half b) { return __half((float)a.h - (float)b.h); }
static inline __half __hmul(__half a, __half b) { return __half((float)a.h * (float)b.h); }
static inline __half __hdiv(__half a, __half b) { return __half((float)a.h / (float)b.h); }
static inline __half __hneg(__half a) { return __half(-(float)a.h); }
static inline __half __hfma(__half a, __half b, __half c) { return __half(fmaf((float)a.h, (float)b.h, (float)c.h)); }
static inline bool __heq(__half a, __half b) { return (float)a.h == (float)b.h; }
static inline bool __hlt(__half a, __half b) { return (float)a.h < (float)b.h; }
static inline bool __hgt(__half a, __half b) { return (float)a.h > (float)b.h; }
static inline __half __hmax(__half a, __half b) { return (float)a.h < (float)b.h ? b : a; }
static inline __half __hmin(__half a, __half b) { return (float)b.h < (float)a.h ? b : a; }
static inline __half hsqrt(__half a) { return __half(sqrtf((float)a.h)); }
static inline __half2 __floats2half2_rn(float a, float b) { return __half2{__half(a), __half(b)}; }
static inline __half2 __float2half2_rn(float a) { return __half2{__half(a), __half(a)}; }
static inline float __low2float(__half2 v) { return (float)v.x.h; }
static inline float __high2float(__half2 v) { return (float)v.y.h; }
static inline __half2 __hadd2(__half2 a, __half2 b) { return __half2{__hadd(a.x, b.x), __hadd(a.y, b.y)}; }
static inline __half2 __hmul2(__half2 a, __half2 b) { return __half2{__hmul(a.x, b.x), __hmul(a.y, b.y)}; }
static inline __half operator+(__half a, __half b) { return __hadd(a, b); }
static inline __half operator-(__half a, __half b) { return __hsub(a, b); }
static inline __half operator*(__half a, __half b) { return __hmul(a, b); }
static inline __half operator/(__half a, __half b) { return __hdiv(a, b); }
static inline __half operator-(__half a) { return __hneg(a); }
static inline bool operator==(__half a, __half b) { return __heq(a, b); }
static inline bool operator<(__half a, __half b) { return __hlt(a, b); }
static inline bool operator>(__half a, __half b) { return __hgt(a, b); }
static inline __half atomicAdd(__half *p, __half v) { return sim_rmw(p, [v](__half o) { return __hadd(o, v); }); }

/* math constants of math_constants.h */
#define CUDART_PI_F 3.141592654f
#define CUDART_PI 3.1415926535897931e+0
#define CUDART_INF_F __builtin_inff()
#define CUDART_NAN_F __builtin_nanf("")

} /* namespace gpulab_sim */

/* ------------------------------------------------ cooperative groups, more */

namespace gpulab_sim_cg {

/* A group whose size is known only at run time: a whole block or a tile of
 * tiled_partition(parent, n). */
class thread_group {
public:
    unsigned n_;  /* 0: the whole block */
    thread_group(const thread_block &) : n_(0) {}
    template <unsigned N, class P> thread_group(const thread_block_tile<N, P> &) : n_(N) {}
    explicit thread_group(unsigned n) : n_(n) {}
    /* a tile cut short by the end of the block holds the threads it has, as
     * on the GPU */
    unsigned size() const
    {
        if (!n_) return thread_block::size();
        unsigned base = ::gpulab_sim::sim_cur->linear & ~(n_ - 1), nt = thread_block::size();
        return nt - base < n_ ? nt - base : n_;
    }
    unsigned num_threads() const { return size(); }
    unsigned thread_rank() const { return n_ ? (::gpulab_sim::sim_cur->linear & (n_ - 1)) : thread_block::thread_rank(); }
    void sync(int line = __builtin_LINE(), const char *file = __builtin_FILE()) const
    {
        if (!n_) { thread_block().sync(line, file); return; }
        if (n_ > 32) { ::gpulab_sim::sim_tile_barrier(n_, line, file); return; }
        unsigned lane = ::gpulab_sim::sim_cur->lane;
        unsigned m = n_ >= 32 ? 0xffffffffu : (((1u << n_) - 1u) << (lane & ~(n_ - 1)));
        (void)::gpulab_sim::sim_warp(::gpulab_sim::SIM_W_SYNC, m, 0, 0, 32, line, file, "thread_group::sync", nullptr);
    }
};

/* The run-time form of tiled_partition makes tiles of 1 to 32 threads only
 * (the CUDA Programming Guide: "limited to native hardware sizes"; the CUDA
 * headers stop the kernel at any other n). A parent no larger than n is the
 * tile itself. */
static inline thread_group tiled_partition(const thread_group &parent, unsigned n, int line = __builtin_LINE(),
                                           const char *file = __builtin_FILE())
{
    if (n == 0 || n > 32 || (n & (n - 1))) ::gpulab_sim::sim_cg_tile_size(n, line, file);
    return thread_group(parent.n_ && parent.n_ <= n ? parent.n_ : n);
}
static inline thread_group tiled_partition(const thread_block &parent, unsigned n, int line = __builtin_LINE(),
                                           const char *file = __builtin_FILE())
{
    return tiled_partition(thread_group(parent), n, line, file);
}

/* The lanes of the warp that reach this call together (__activemask). */
class coalesced_group {
public:
    unsigned mask_;
    explicit coalesced_group(unsigned m) : mask_(m) {}
    unsigned size() const { return (unsigned)__builtin_popcount(mask_); }
    unsigned num_threads() const { return size(); }
    unsigned thread_rank() const
    {
        unsigned lane = ::gpulab_sim::sim_cur->lane;
        return (unsigned)__builtin_popcount(mask_ & ((1u << lane) - 1u));
    }
    unsigned lane_of(unsigned rank) const
    {
        unsigned m = mask_;
        for (unsigned r = 0; r < rank && m; r++) m &= m - 1;
        return m ? (unsigned)__builtin_ctz(m) : 0;
    }
    void sync(int line = __builtin_LINE(), const char *file = __builtin_FILE()) const
    {
        (void)::gpulab_sim::sim_warp(::gpulab_sim::SIM_W_SYNC, mask_, 0, 0, 32, line, file, "coalesced_group::sync",
                                     nullptr);
    }
    template <class T>
    typename ::gpulab_sim::sim_value<T>::type shfl(const T &v, unsigned rank, int line = __builtin_LINE(),
                                                   const char *file = __builtin_FILE()) const
    {
        return ::gpulab_sim::__shfl_sync(mask_, v, (int)lane_of(rank), 32, line, file);
    }
    template <class T>
    typename ::gpulab_sim::sim_value<T>::type shfl_down(const T &v, unsigned d, int line = __builtin_LINE(),
                                                        const char *file = __builtin_FILE()) const
    {
        unsigned r = thread_rank() + d;
        return ::gpulab_sim::__shfl_sync(mask_, v, (int)lane_of(r < size() ? r : thread_rank()), 32, line, file);
    }
    template <class T>
    typename ::gpulab_sim::sim_value<T>::type shfl_up(const T &v, unsigned d, int line = __builtin_LINE(),
                                                      const char *file = __builtin_FILE()) const
    {
        unsigned r = thread_rank();
        return ::gpulab_sim::__shfl_sync(mask_, v, (int)lane_of(r >= d ? r - d : r), 32, line, file);
    }
    unsigned ballot(int pred, int line = __builtin_LINE(), const char *file = __builtin_FILE()) const
    {
        unsigned b = ::gpulab_sim::__ballot_sync(mask_, pred, line, file), r = 0, k = 0;
        for (unsigned l = 0; l < 32; l++)
            if (mask_ >> l & 1) r |= ((b >> l) & 1u) << k++;
        return r;
    }
    int any(int pred, int line = __builtin_LINE(), const char *file = __builtin_FILE()) const
    {
        return ::gpulab_sim::__any_sync(mask_, pred, line, file);
    }
    int all(int pred, int line = __builtin_LINE(), const char *file = __builtin_FILE()) const
    {
        return ::gpulab_sim::__all_sync(mask_, pred, line, file);
    }
};
static inline coalesced_group coalesced_threads(int line = __builtin_LINE(), const char *file = __builtin_FILE())
{
    return coalesced_group(::gpulab_sim::__activemask(line, file));
}

/* The function objects of <cooperative_groups/functional.h>: less and
 * greater give the smaller and the larger value. */
template <class T> struct plus { T operator()(const T &a, const T &b) const { return a + b; } };
template <class T> struct less { T operator()(const T &a, const T &b) const { return a < b ? a : b; } };
template <class T> struct greater { T operator()(const T &a, const T &b) const { return a < b ? b : a; } };
template <class T> struct bit_and { T operator()(const T &a, const T &b) const { return a & b; } };
template <class T> struct bit_or { T operator()(const T &a, const T &b) const { return a | b; } };
template <class T> struct bit_xor { T operator()(const T &a, const T &b) const { return a ^ b; } };

template <class G> struct sim_reduce_group { enum { ok = 0, tile = 0 }; };
template <unsigned N, class P> struct sim_reduce_group<thread_block_tile<N, P>> { enum { ok = 1, tile = N }; };
template <> struct sim_reduce_group<coalesced_group> { enum { ok = 1, tile = 0 }; };

/* a tile of 64 to 512 threads: each warp's result, read by the whole tile
 * between two tile barriers (blocks run one at a time) */
alignas(8) inline unsigned char sim_reduce_scratch[32][8];

/* cg::reduce(group, value, op) as <cooperative_groups/reduce.h> defines it:
 * on a thread_block_tile (up to 512 threads) or a coalesced_group, every
 * thread of the group gets op over all their values, combined in the order
 * the CUDA headers use (a float sum comes out the same, bit for bit):
 *   tile of up to 32: a butterfly of shfl_xor;
 *   coalesced group: a shfl_down tree when its size is a power of two,
 *     otherwise an inclusive scan over the ranks, then the last rank's value;
 *   tile of 64 to 512: the butterfly in each warp, then over the warps. */
template <class G, class T, class Op>
static inline typename ::gpulab_sim::sim_value<T>::type reduce(const G &g, const T &value, Op op,
                                                                int line = __builtin_LINE(),
                                                                const char *file = __builtin_FILE())
{
    typedef typename ::gpulab_sim::sim_value<T>::type V;
    typedef sim_reduce_group<typename std::remove_cv<G>::type> K;
    static_assert(K::ok, "cg::reduce works on a thread_block_tile<N> (tiled_partition<N>) or a coalesced_group "
                         "(coalesced_threads()) only: a thread_block or the thread_group of tiled_partition(g, n) "
                         "does not exclusively represent a tile");
    static_assert(std::is_same<V, typename std::decay<decltype(op(std::declval<V>(), std::declval<V>()))>::type>::value,
                  "cg::reduce: the operator's input and output types differ from the value's type (cg::plus<int> "
                  "takes an int: write the value's type in the operator, or cast the value)");
    static_assert(std::is_trivially_copyable<V>::value, "cg::reduce: the value must be trivially copyable");
    static_assert(sizeof(V) <= ((unsigned)K::tile > 32 ? 8 : 32),
                  "cg::reduce: a value of at most 32 bytes (at most 8 in a tile wider than 32 threads)");
    V v = ::gpulab_sim::sim_unref(value);
    const char *name = "cg::reduce";
    if constexpr ((unsigned)K::tile > 0 && (unsigned)K::tile <= 32) {
        for (unsigned i = K::tile / 2; i > 0; i /= 2)
            v = op(v, ::gpulab_sim::sim_shfl_wide<V>(::gpulab_sim::SIM_W_SHFL_XOR, g.tile_mask(), v, (int)i,
                                                     (int)K::tile, line, file, name));
        return v;
    } else if constexpr ((unsigned)K::tile > 32) {
        const unsigned nw = K::tile / 32, me = ::gpulab_sim::sim_cur->linear;
        for (unsigned i = 16; i > 0; i /= 2)
            v = op(v, ::gpulab_sim::sim_shfl_wide<V>(::gpulab_sim::SIM_W_SHFL_XOR, 0xffffffffu, v, (int)i, 32, line,
                                                     file, name));
        if ((me & 31) == 0) memcpy(sim_reduce_scratch[me / 32], &v, sizeof v);
        ::gpulab_sim::sim_tile_barrier(K::tile, line, file);
        /* the warps the tile has (one cut short by the end of the block has fewer) */
        const unsigned base = me & ~(K::tile - 1), left = (thread_block::size() - base + 31) / 32;
        const unsigned have = left < nw ? left : nw;
        V w[nw];
        for (unsigned k = 0; k < have; k++) memcpy(&w[k], sim_reduce_scratch[base / 32 + k], sizeof(V));
        ::gpulab_sim::sim_tile_barrier(K::tile, line, file);
        for (unsigned m = nw / 2; m > 0; m /= 2)
            for (unsigned l = 0; l < m; l++)
                if (l + m < have) w[l] = op(w[l], w[l + m]);
        return w[0];
    } else {
        const unsigned n = g.size(), rank = g.thread_rank();
        if ((n & (n - 1)) == 0) {
            for (unsigned d = n / 2; d > 0; d /= 2) {
                unsigned r = rank + d < n ? rank + d : rank;
                v = op(v, ::gpulab_sim::sim_shfl_wide<V>(::gpulab_sim::SIM_W_SHFL_IDX, g.mask_, v, (int)g.lane_of(r),
                                                         32, line, file, name));
            }
            return ::gpulab_sim::sim_shfl_wide<V>(::gpulab_sim::SIM_W_SHFL_IDX, g.mask_, v, (int)g.lane_of(0), 32,
                                                  line, file, name);
        }
        for (unsigned i = 1; i < n; i *= 2) {
            V x = ::gpulab_sim::sim_shfl_wide<V>(::gpulab_sim::SIM_W_SHFL_IDX, g.mask_, v,
                                                 (int)g.lane_of(i <= rank ? rank - i : rank), 32, line, file, name);
            if (i <= rank) v = op(v, x);
        }
        return ::gpulab_sim::sim_shfl_wide<V>(::gpulab_sim::SIM_W_SHFL_IDX, g.mask_, v, (int)g.lane_of(n - 1), 32,
                                              line, file, name);
    }
}

/* The grid of a cooperative launch (cudaLaunchCooperativeKernel), whose
 * blocks are all alive at once: sync() waits for every thread of the grid.
 * In any other launch it is not valid, and sync() stops the kernel, as the
 * CUDA headers do (__trap). */
class grid_group {
public:
    void sync(int line = __builtin_LINE(), const char *file = __builtin_FILE()) const
    {
        ::gpulab_sim::sim_grid_sync(line, file);
    }
    static unsigned long long block_rank()
    {
        return blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
    }
    static unsigned long long num_blocks() { return (unsigned long long)gridDim.x * gridDim.y * gridDim.z; }
    static dim3 group_dim() { return gridDim; }
    static dim3 dim_blocks() { return gridDim; }
    static dim3 block_index() { return dim3(blockIdx); }
    unsigned long long thread_rank() const
    {
        unsigned long long b = blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
        return b * thread_block::size() + thread_block::thread_rank();
    }
    unsigned long long size() const
    {
        return (unsigned long long)gridDim.x * gridDim.y * gridDim.z * thread_block::size();
    }
    unsigned long long num_threads() const { return size(); }
    bool is_valid() const { return ::gpulab_sim::sim_grid_valid() != 0; }
};
static inline grid_group this_grid() { return grid_group(); }

} /* namespace gpulab_sim_cg */

#undef assert
#define assert(e) ((e) ? (void)0 : ::gpulab_sim::sim_assert_fail(#e, __FILE__, __LINE__, __func__))

/* Allocations remember the variable they were stored in. */
#define cudaMalloc(p, ...) ::gpulab_sim::sim_prog_malloc((void **)(p), "cudaMalloc", #p, __LINE__, __VA_ARGS__)
#define cudaMallocManaged(p, ...) \
    ::gpulab_sim::sim_prog_malloc((void **)(p), "cudaMallocManaged", #p, __LINE__, __VA_ARGS__)
#define cudaMallocHost(p, ...) ::gpulab_sim::sim_prog_malloc((void **)(p), "cudaMallocHost", #p, __LINE__, __VA_ARGS__)
#define cudaFree(p) ::gpulab_sim::sim_prog_free((void *)(p), "cudaFree", #p, __LINE__)
#define cudaFreeHost(p) ::gpulab_sim::sim_prog_free((void *)(p), "cudaFreeHost", #p, __LINE__)
#define cudaLaunchKernel(...) ::gpulab_sim::sim_launch_kernel(__FILE__, __LINE__, __VA_ARGS__)
#define cudaLaunchCooperativeKernel(...) \
    (::gpulab_sim::sim_coop_scope(), ::gpulab_sim::sim_launch_kernel(__FILE__, __LINE__, __VA_ARGS__))

#endif
