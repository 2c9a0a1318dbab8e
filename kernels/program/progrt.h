/* progrt.h - what a student's program sees on the simulator.
 *
 * The source pass (translate.c) compiles every student .cu file with
 * `-include progrt.h` (precompiled), after turning its __shared__
 * declarations and <<< >>> launches into the forms below. The device side of
 * CUDA is kernels/sim/shim.h's, the one CUDA surface of the simulator that
 * the built-in kernels are compiled against too (a feature exists once);
 * here are only the source pass's forms and the host runtime (streams,
 * events, graphs, device properties...), which progrt.cpp implements. The
 * CUDA headers a program names (cuda_runtime.h, cuda_fp16.h...) are the
 * files of include/, all of them this one. */
#ifndef GPULAB_PROGRT_H
#define GPULAB_PROGRT_H

/* The macros the toolkit's headers define (nvcc includes cuda_runtime.h in
 * every .cu file; a .cpp file gets it from its own #include), with the
 * toolkit's values, so that helper headers and version checks compile as
 * under nvcc. nvcc's own (__CUDACC__, __NVCC__, __CUDACC_VER_MAJOR__...)
 * come from the build's command line for .cu files only, as nvcc defines
 * them. __CUDA_ARCH__ is the source pass's: the modelled GPU's value inside
 * device code only, as in nvcc's device pass; host code sees it undefined.
 * The toolkit's headers are the reference (tests/programs). */
#define CUDART_VERSION 13000
#define __CUDART_API_VERSION CUDART_VERSION
#define __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_API_H__
#define __DRIVER_TYPES_H__
#define __VECTOR_TYPES_H__
#define __VECTOR_FUNCTIONS_H__
#define __HOST_DEFINES_H__
#define __DEVICE_LAUNCH_PARAMETERS_H__
#define __COOPERATIVE_GROUPS_H__
/* the compute capability of the modelled GPU (h200: 9.0) in device code */
#define GPULAB_CUDA_ARCH 900

/* what nvcc makes visible without an #include */
#include <assert.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <functional>
/* before the shim's __noinline__ macro: the C++ library's shared_ptr names
 * the attribute __noinline__ itself */
#include <memory>
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
    static ::gpulab_sim::sim_shared_site sim_site_##name(#name, __FILE__, __LINE__, 0, #DIMS); \
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
#define SIM_SHARED_GLOBAL_DYNAMIC(T, name)                                                  \
    static ::gpulab_sim::sim_shared_site sim_site_##name(#name, __FILE__, __LINE__, 1);    \
    static inline ::gpulab_sim::sim_shared_array<T> sim_get_##name()                        \
    { return ::gpulab_sim::sim_shared_array<T>(&sim_site_##name, 0); }
#define SIM_SHARED_GLOBAL_SCALAR(T, name)                                                   \
    static ::gpulab_sim::sim_shared_site sim_site_##name(#name, __FILE__, __LINE__, 0);    \
    static inline typename ::gpulab_sim::sim_elem<T>::ref sim_get_##name()                  \
    { return ::gpulab_sim::sim_shared_array<T>(&sim_site_##name, 1)[0]; }

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

/* A launch's work: called once per GPU thread. It owns a copy of the
 * arguments (the launch's parameter buffer), so that it can also run later:
 * a launch captured into a graph, a child launched from device code; its
 * copies share that buffer, which every thread only reads. Called through a
 * plain function pointer: std::function's call, made in the program's own
 * (instrumented) code, read its target through the access hook once per
 * GPU thread. */
class sim_work {
public:
    sim_work() = default;
    template <class F, class = typename std::enable_if<!std::is_same<typename std::decay<F>::type, sim_work>::value>::type>
    sim_work(F f) : ctx_(std::make_shared<F>(std::move(f))), run_([](void *p) { (*static_cast<F *>(p))(); })
    {
    }
    /* with the kernel's lane-loop form (kernels/program/lanes.c): lanes(ctx)
     * runs a whole block, once, on its first thread */
    template <class F> sim_work(F f, void (*run)(void *), void (*lanes)(void *))
        : ctx_(std::make_shared<F>(std::move(f))), run_(run), lanes_(lanes)
    {
    }
    void operator()() const { run_(ctx_.get()); }
    bool has_lanes() const { return lanes_ != nullptr; }
    void lanes() const { lanes_(ctx_.get()); }

private:
    std::shared_ptr<void> ctx_;
    void (*run_)(void *) = nullptr;
    void (*lanes_)(void *) = nullptr;
};

/* A GPU thread's copy of the launch's arguments, made here and handed to
 * the kernel (or the launch's body) by value. A kernel's parameters are
 * not device memory (CUDA passes them in a constant bank), so the copy is
 * made outside the access recording: the program's instrumented code would
 * send every argument of every thread through the access hook (a vector
 * add's two pointers, its scale and its n: four calls beside the three
 * accesses of its own). noipa: the compiler would otherwise move the loads
 * into the caller, which is instrumented. */
template <class Body, class... P>
__attribute__((no_sanitize_thread, noipa)) static void sim_call_copies(Body &body, P *...p)
{
    body(*p...);
}
template <class Body, class Tuple, size_t... I>
static inline void sim_apply_copies(Body &body, Tuple &params, std::index_sequence<I...>)
{
    sim_call_copies(body, &std::get<I>(params)...);
}
template <class Body, class Tuple> static inline void sim_apply_copies(Body &body, Tuple &params)
{
    sim_apply_copies(body, params, std::make_index_sequence<std::tuple_size<Tuple>::value>{});
}

/* Runs one launch (or records it, in a stream being captured; or queues it,
 * from device code). 0 or the error. */
cudaError_t sim_prog_launch(const void *func, const char *name, const char *file, int line, const sim_cfg &cfg,
                            const sim_work &work);

/* A launch from host code hands each pointer argument to the runtime: one
 * into a library container's block (a std::vector's data) is the host's
 * memory from then on (progrt_host.cpp; a kernel that touches it fails). */
void sim_host_arg(const void *p, const char *file, int line);
template <class T> static inline void sim_host_arg_of(T *p, const char *file, int line)
{
    sim_host_arg((const void *)p, file, line);
}
template <class T> static inline void sim_host_arg_of(const T &, const char *, int) {}
template <class... A> static inline void sim_host_args(const char *file, int line, const A &...a)
{
    int each[] = {0, (sim_host_arg_of(a, file, line), 0)...};
    (void)each;
}

/* kernel<<<cfg>>>(args) after the source pass: the arguments are copied once
 * (the launch's parameter buffer), every thread gets its own copy of them. */
template <class Body, class... A>
static inline void sim_launch_prog(const void *func, const char *name, const char *file, int line, sim_cfg cfg,
                                   Body body, A &&...args)
{
    /* a shared element (a proxy) is copied as its value: a child launched
     * from device code runs after the parent's block, whose shared memory
     * is gone by then */
    sim_host_args(file, line, args...);
    sim_work work = [params = std::tuple<typename sim_value<typename std::decay<A>::type>::type...>(
                         std::forward<A>(args)...),
                     body]() mutable { sim_apply_copies(body, params); };
    sim_prog_launch(func, name, file, line, cfg, work);
}

/* kernel<<<cfg>>>(args) of a kernel that also has a lane-loop form: the
 * source pass gives both bodies (sim_with_lanes); one copy of the
 * arguments serves the whole block in the lane loops, since such a kernel
 * never changes its parameters. */
template <class B, class L> struct sim_lanes_pair {
    B body;
    L lanes;
};
template <class B, class L> static inline sim_lanes_pair<B, L> sim_with_lanes(B b, L l) { return {b, l}; }
template <class B, class L, class Tuple> struct sim_lanes_work {
    sim_lanes_pair<B, L> both;
    Tuple params;
    static void run(void *p)
    {
        auto *w = static_cast<sim_lanes_work *>(p);
        sim_apply_copies(w->both.body, w->params);
    }
    static void lanes(void *p)
    {
        auto *w = static_cast<sim_lanes_work *>(p);
        sim_apply_copies(w->both.lanes, w->params);
    }
};
template <class B, class L, class... A>
static inline void sim_launch_prog(const void *func, const char *name, const char *file, int line, sim_cfg cfg,
                                   sim_lanes_pair<B, L> both, A &&...args)
{
    typedef std::tuple<typename sim_value<typename std::decay<A>::type>::type...> Tuple;
    typedef sim_lanes_work<B, L, Tuple> W;
    sim_host_args(file, line, args...);
    sim_work work(W{both, Tuple(std::forward<A>(args)...)}, &W::run, &W::lanes);
    sim_prog_launch(func, name, file, line, cfg, work);
}

/* kernel<<<cfg>>>(args) through a variable (a table of kernels): the lane
 * form of the kernel it holds, if it has one (registered at start) */
int sim_lanes_reg(const void *f, const void *lanes);
const void *sim_lanes_find(const void *f);
template <class K> struct sim_lanes_via {
    K k;
    template <class... A> void operator()(A... a) const
    {
        reinterpret_cast<K>(const_cast<void *>(sim_lanes_find(reinterpret_cast<const void *>(k))))(a...);
    }
};
template <class K, class B> static inline sim_lanes_pair<B, sim_lanes_via<K>> sim_with_lanes_of(K k, B b)
{
    return {b, sim_lanes_via<K>{k}};
}
template <class K, class B, class... A>
static inline void sim_launch_prog(const void *func, const char *name, const char *file, int line, sim_cfg cfg,
                                   sim_lanes_pair<B, sim_lanes_via<K>> both, A &&...args)
{
    typedef std::tuple<typename sim_value<typename std::decay<A>::type>::type...> Tuple;
    typedef sim_lanes_work<B, sim_lanes_via<K>, Tuple> W;
    const bool lanes = sim_lanes_find(reinterpret_cast<const void *>(both.lanes.k)) != nullptr;
    sim_host_args(file, line, args...);
    sim_work work(W{both, Tuple(std::forward<A>(args)...)}, &W::run, lanes ? &W::lanes : nullptr);
    sim_prog_launch(func, name, file, line, cfg, work);
}

/* A kernel's arguments from cudaLaunchKernel's array of pointers, copied
 * now, as CUDA reads them at the call */
template <class... P, size_t... I>
static inline sim_work sim_bind_args(void (*f)(P...), void **args, std::index_sequence<I...>)
{
    std::tuple<typename std::decay<P>::type...> params(*static_cast<typename std::decay<P>::type *>(args[I])...);
    return [f, params]() mutable { sim_apply_copies(f, params); };
}

/* Kernels by address, for cudaLaunchKernel((const void *)k, ...), graph
 * kernel nodes and the names of kernels launched through a variable. The
 * source pass adds one sim_kreg() per kernel at the end of the file. */
int sim_kreg_add(const void *f, sim_work (*bind)(const void *, void **), const char *name);
const char *sim_kreg_name(const void *f);
sim_work (*sim_kreg_find(const void *f))(const void *, void **);

/* cudaLaunchCooperativeKernel: the next launch is cooperative (read and
 * cleared by sim_prog_launch); the scope clears it however the launch ends. */
extern int sim_coop_next;
struct sim_coop_scope {
    sim_coop_scope() { sim_coop_next = 1; }
    ~sim_coop_scope() { sim_coop_next = 0; }
};

/* cudaLaunchKernel(kernel, grid, block, args, smem, stream) */
template <class... P>
static inline cudaError_t sim_launch_kernel(const char *file, int line, void (*f)(P...), dim3 grid, dim3 block,
                                            void **args, size_t smem = 0, cudaStream_t stream = nullptr)
{
    return sim_prog_launch((const void *)f, "?", file, line, sim_cfg(grid, block, smem, stream),
                           sim_bind_args(f, args, std::index_sequence_for<P...>{}));
}
template <class... P> static sim_work sim_kreg_bind(const void *f, void **args)
{
    return sim_bind_args(reinterpret_cast<void (*)(P...)>(const_cast<void *>(f)), args, std::index_sequence_for<P...>{});
}
template <class... P> static inline int sim_kreg(void (*f)(P...), const char *name)
{
    return sim_kreg_add((const void *)f, &sim_kreg_bind<P...>, name);
}
/* an instance of a template kernel whose address the program takes
 * (`(void *)k<int>`: the source pass wraps it) */
template <class... P> static inline auto sim_kreg_tmpl(void (*f)(P...), const char *name) -> void (*)(P...)
{
    if (!sim_kreg_find((const void *)f)) sim_kreg(f, name);
    return f;
}
cudaError_t sim_err_invalid_function(void);
static inline cudaError_t sim_launch_kernel(const char *file, int line, const void *f, dim3 grid, dim3 block,
                                            void **args, size_t smem = 0, cudaStream_t stream = nullptr)
{
    sim_work (*bind)(const void *, void **) = sim_kreg_find(f);
    if (!bind) return sim_err_invalid_function();
    return sim_prog_launch(f, "?", file, line, sim_cfg(grid, block, smem, stream), bind(f, args));
}

/* ------------------------------------------------------------- runtime */

enum cudaStreamFlags_ { cudaStreamDefault = 0, cudaStreamNonBlocking = 1 };
enum cudaEventFlags_ { cudaEventDefault = 0, cudaEventBlockingSync = 1, cudaEventDisableTiming = 2 };
enum cudaHostAllocFlags_ { cudaHostAllocDefault = 0, cudaHostAllocPortable = 1, cudaHostAllocMapped = 2,
                           cudaHostAllocWriteCombined = 4 };
#define cudaStreamLegacy ((cudaStream_t)0)
#define cudaStreamPerThread ((cudaStream_t)0)
/* the special streams of device-side launches: the child runs after its
 * parent's grid either way on the simulator */
#define cudaStreamFireAndForget ((cudaStream_t)0)
#define cudaStreamTailLaunch ((cudaStream_t)0)

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

/* The asynchronous calls run at once (the simulator finishes every call
 * before it returns, which is one order CUDA allows), or become nodes of the
 * graph when their stream is being captured. */
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, cudaStream_t s = nullptr);
cudaError_t cudaMemsetAsync(void *p, int value, size_t bytes, cudaStream_t s = nullptr);

/* stream priorities (a lower number is a higher priority) and flags */
cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags, int priority);
cudaError_t cudaStreamGetPriority(cudaStream_t s, int *priority);
cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned *flags);

/* host functions in stream order */
enum cudaStreamCallbackFlags_ { cudaStreamCallbackDefault = 0 };
typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void *user);
typedef void (*cudaHostFn_t)(void *user);
#define CUDART_CB
cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t cb, void *user, unsigned flags);
cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void *user);

/* stream-ordered allocation: the memory pools of the one device */
struct sim_mempool_s;
typedef sim_mempool_s *cudaMemPool_t;
enum cudaMemPoolAttr {
    cudaMemPoolReuseFollowEventDependencies = 1, cudaMemPoolReuseAllowOpportunistic = 2,
    cudaMemPoolReuseAllowInternalDependencies = 3, cudaMemPoolAttrReleaseThreshold = 4,
    cudaMemPoolAttrReservedMemCurrent = 5, cudaMemPoolAttrReservedMemHigh = 6, cudaMemPoolAttrUsedMemCurrent = 7,
    cudaMemPoolAttrUsedMemHigh = 8
};
cudaError_t sim_prog_malloc_async(void **p, const char *name, int line, size_t bytes, cudaStream_t s = nullptr);
cudaError_t sim_prog_free_async(void *p, const char *name, int line, cudaStream_t s = nullptr);
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int device);
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *pool, int device);
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool);
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void *value);
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void *value);
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t keep);
static inline cudaError_t cudaMallocFromPoolAsync(void **p, size_t bytes, cudaMemPool_t, cudaStream_t s)
{
    return sim_prog_malloc_async(p, "cudaMallocFromPoolAsync", 0, bytes, s);
}

/* host memory: registration and mapping (host and device are one memory on
 * the simulator, so a registered or mapped pointer is its own device one) */
enum cudaHostRegisterFlags_ { cudaHostRegisterDefault = 0, cudaHostRegisterPortable = 1, cudaHostRegisterMapped = 2,
                              cudaHostRegisterIoMemory = 4, cudaHostRegisterReadOnly = 8 };
enum cudaDeviceFlags_ { cudaDeviceScheduleAuto = 0, cudaDeviceScheduleSpin = 1, cudaDeviceScheduleYield = 2,
                        cudaDeviceScheduleBlockingSync = 4, cudaDeviceBlockingSync = 4, cudaDeviceMapHost = 8,
                        cudaDeviceLmemResizeToMax = 16 };
cudaError_t cudaHostRegister(void *p, size_t bytes, unsigned flags);
cudaError_t cudaHostUnregister(void *p);
cudaError_t cudaHostGetFlags(unsigned *flags, void *p);
cudaError_t cudaSetDeviceFlags(unsigned flags);
cudaError_t cudaGetDeviceFlags(unsigned *flags);

/* limits and L2 access policies: kept, but the simulator has no cache */
enum cudaLimit { cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2,
                 cudaLimitDevRuntimeSyncDepth = 3, cudaLimitDevRuntimePendingLaunchCount = 4,
                 cudaLimitMaxL2FetchGranularity = 5, cudaLimitPersistingL2CacheSize = 6 };
cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t *value, cudaLimit limit);
enum cudaAccessProperty { cudaAccessPropertyNormal = 0, cudaAccessPropertyStreaming = 1,
                          cudaAccessPropertyPersisting = 2 };
struct cudaAccessPolicyWindow {
    void *base_ptr;
    size_t num_bytes;
    float hitRatio;
    cudaAccessProperty hitProp, missProp;
};
enum cudaStreamAttrID { cudaStreamAttributeAccessPolicyWindow = 1, cudaStreamAttributeSynchronizationPolicy = 3,
                        cudaStreamAttributePriority = 8 };
union cudaStreamAttrValue {
    cudaAccessPolicyWindow accessPolicyWindow;
    int syncPolicy;
    int priority;
};
typedef cudaStreamAttrID cudaLaunchAttributeID;
cudaError_t cudaStreamSetAttribute(cudaStream_t s, cudaStreamAttrID id, const cudaStreamAttrValue *v);
cudaError_t cudaStreamGetAttribute(cudaStream_t s, cudaStreamAttrID id, cudaStreamAttrValue *v);
static inline cudaError_t cudaCtxResetPersistingL2Cache(void) { return sim_prog_sticky(); }

/* ---------------------------------------------------------------- graphs */

struct sim_graph_s;
struct sim_graph_exec_s;
struct sim_graph_node_s;
typedef sim_graph_s *cudaGraph_t;
typedef sim_graph_exec_s *cudaGraphExec_t;
typedef sim_graph_node_s *cudaGraphNode_t;
enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal = 0, cudaStreamCaptureModeThreadLocal = 1,
                             cudaStreamCaptureModeRelaxed = 2 };
enum cudaStreamCaptureStatus { cudaStreamCaptureStatusNone = 0, cudaStreamCaptureStatusActive = 1,
                               cudaStreamCaptureStatusInvalidated = 2 };
enum cudaGraphInstantiateFlags { cudaGraphInstantiateFlagAutoFreeOnLaunch = 1, cudaGraphInstantiateFlagUpload = 2,
                                 cudaGraphInstantiateFlagDeviceLaunch = 4, cudaGraphInstantiateFlagUseNodePriority = 8 };
enum cudaGraphExecUpdateResult { cudaGraphExecUpdateSuccess = 0, cudaGraphExecUpdateError = 1,
                                 cudaGraphExecUpdateErrorTopologyChanged = 2,
                                 cudaGraphExecUpdateErrorNodeTypeChanged = 3 };
struct cudaGraphExecUpdateResultInfo {
    cudaGraphExecUpdateResult result;
    cudaGraphNode_t errorNode, errorFromNode;
};
struct cudaKernelNodeParams {
    void *func;
    dim3 gridDim, blockDim;
    unsigned sharedMemBytes;
    void **kernelParams;
    void **extra;
};
struct cudaHostNodeParams {
    cudaHostFn_t fn;
    void *userData;
};
struct cudaMemsetParams {
    void *dst;
    size_t pitch;
    unsigned value, elementSize;
    size_t width, height;
};
struct cudaPitchedPtr { void *ptr; size_t pitch, xsize, ysize; };
struct cudaPos { size_t x, y, z; };
struct cudaExtent { size_t width, height, depth; };
struct cudaArray;
typedef cudaArray *cudaArray_t;
struct cudaMemcpy3DParms {
    cudaArray_t srcArray;
    cudaPos srcPos;
    cudaPitchedPtr srcPtr;
    cudaArray_t dstArray;
    cudaPos dstPos;
    cudaPitchedPtr dstPtr;
    cudaExtent extent;
    cudaMemcpyKind kind;
};
static inline cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p, size_t xsz, size_t ysz)
{
    return cudaPitchedPtr{d, p, xsz, ysz};
}
static inline cudaPos make_cudaPos(size_t x, size_t y, size_t z) { return cudaPos{x, y, z}; }
static inline cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) { return cudaExtent{w, h, d}; }
cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms *p);
static inline cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms *p, cudaStream_t = nullptr) { return cudaMemcpy3D(p); }

/* ------------------------------------------- textures and surfaces */

/* CUDA arrays and the texture and surface objects over them or over
 * linear memory (progrt_tex.cpp); the fetches are shim_tex.h's */
#define cudaArrayDefault 0x00
#define cudaArrayLayered 0x01
#define cudaArraySurfaceLoadStore 0x02
#define cudaArrayCubemap 0x04
#define cudaArrayTextureGather 0x08
typedef const cudaArray *cudaArray_const_t;
enum cudaResourceType { cudaResourceTypeArray = 0, cudaResourceTypeMipmappedArray = 1, cudaResourceTypeLinear = 2,
                        cudaResourceTypePitch2D = 3 };
struct cudaResourceDesc {
    cudaResourceType resType;
    union {
        struct { cudaArray_t array; } array;
        struct { void *mipmap; } mipmap;
        struct { void *devPtr; cudaChannelFormatDesc desc; size_t sizeInBytes; } linear;
        struct { void *devPtr; cudaChannelFormatDesc desc; size_t width, height, pitchInBytes; } pitch2D;
    } res;
};
struct cudaTextureDesc {
    cudaTextureAddressMode addressMode[3];
    cudaTextureFilterMode filterMode;
    cudaTextureReadMode readMode;
    int sRGB;
    float borderColor[4];
    int normalizedCoords;
    unsigned maxAnisotropy;
    cudaTextureFilterMode mipmapFilterMode;
    float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
    int disableTrilinearOptimization, seamlessCubemap;
};
struct cudaResourceViewDesc { int format; size_t width, height, depth; unsigned firstMipmapLevel, lastMipmapLevel,
                              firstLayer, lastLayer; };
cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f);
template <class T> struct sim_channel_of;
#define SIM_CHANNEL(T, X, Y, Z, W, K) \
    template <> struct sim_channel_of<T> { static cudaChannelFormatDesc d() { return {X, Y, Z, W, K}; } };
#define SIM_CHANNELS(T, B, K) \
    SIM_CHANNEL(T, B, 0, 0, 0, K) SIM_CHANNEL(T##2, B, B, 0, 0, K) SIM_CHANNEL(T##4, B, B, B, B, K)
SIM_CHANNELS(float, 32, cudaChannelFormatKindFloat)
SIM_CHANNELS(int, 32, cudaChannelFormatKindSigned)
SIM_CHANNELS(short, 16, cudaChannelFormatKindSigned)
SIM_CHANNELS(char, 8, cudaChannelFormatKindSigned)
SIM_CHANNEL(unsigned int, 32, 0, 0, 0, cudaChannelFormatKindUnsigned)
SIM_CHANNEL(uint2, 32, 32, 0, 0, cudaChannelFormatKindUnsigned)
SIM_CHANNEL(uint4, 32, 32, 32, 32, cudaChannelFormatKindUnsigned)
SIM_CHANNEL(unsigned short, 16, 0, 0, 0, cudaChannelFormatKindUnsigned)
SIM_CHANNEL(ushort2, 16, 16, 0, 0, cudaChannelFormatKindUnsigned)
SIM_CHANNEL(ushort4, 16, 16, 16, 16, cudaChannelFormatKindUnsigned)
SIM_CHANNEL(unsigned char, 8, 0, 0, 0, cudaChannelFormatKindUnsigned)
SIM_CHANNEL(uchar2, 8, 8, 0, 0, cudaChannelFormatKindUnsigned)
SIM_CHANNEL(uchar4, 8, 8, 8, 8, cudaChannelFormatKindUnsigned)
SIM_CHANNEL(signed char, 8, 0, 0, 0, cudaChannelFormatKindSigned)
SIM_CHANNEL(__half, 16, 0, 0, 0, cudaChannelFormatKindFloat)
#undef SIM_CHANNELS
#undef SIM_CHANNEL
template <class T> static inline cudaChannelFormatDesc cudaCreateChannelDesc() { return sim_channel_of<T>::d(); }
static inline cudaChannelFormatDesc cudaCreateChannelDescHalf() { return {16, 0, 0, 0, cudaChannelFormatKindFloat}; }
cudaError_t cudaMallocArray(cudaArray_t *a, const cudaChannelFormatDesc *d, size_t w, size_t h = 0, unsigned flags = 0);
cudaError_t cudaMalloc3DArray(cudaArray_t *a, const cudaChannelFormatDesc *d, cudaExtent e, unsigned flags = 0);
cudaError_t cudaFreeArray(cudaArray_t a);
cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc *d, cudaArray_const_t a);
cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc *d, cudaExtent *e, unsigned *flags, cudaArray_t a);
cudaError_t cudaMemcpy2DToArray(cudaArray_t a, size_t xb, size_t y, const void *src, size_t spitch, size_t width,
                                size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t a, size_t xb, size_t y, size_t width,
                                  size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemcpyToArray(cudaArray_t a, size_t xb, size_t y, const void *src, size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t a, size_t xb, size_t y, size_t bytes, cudaMemcpyKind kind);
cudaError_t sim_memcpy3d_array(const cudaMemcpy3DParms *p);
static inline cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t a, size_t xb, size_t y, const void *src, size_t sp,
                                                   size_t w, size_t h, cudaMemcpyKind k, cudaStream_t = nullptr)
{
    return cudaMemcpy2DToArray(a, xb, y, src, sp, w, h, k);
}
cudaError_t cudaCreateTextureObject(cudaTextureObject_t *obj, const cudaResourceDesc *r, const cudaTextureDesc *t,
                                    const cudaResourceViewDesc *view);
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t obj);
cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *obj, const cudaResourceDesc *r);
cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t obj);

cudaError_t cudaStreamBeginCapture(cudaStream_t s, cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t *g);
cudaError_t cudaStreamIsCapturing(cudaStream_t s, cudaStreamCaptureStatus *status);
cudaError_t cudaGraphCreate(cudaGraph_t *g, unsigned flags);
cudaError_t cudaGraphDestroy(cudaGraph_t g);
cudaError_t cudaGraphClone(cudaGraph_t *clone, cudaGraph_t g);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *e, cudaGraph_t g, unsigned long long flags = 0);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *e, cudaGraph_t g, cudaGraphNode_t *error_node, char *log,
                                 size_t log_size);
static inline cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *e, cudaGraph_t g, unsigned long long flags)
{
    return cudaGraphInstantiate(e, g, flags);
}
cudaError_t cudaGraphLaunch(cudaGraphExec_t e, cudaStream_t s);
static inline cudaError_t cudaGraphUpload(cudaGraphExec_t, cudaStream_t) { return sim_prog_sticky(); }
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t e);
cudaError_t cudaGraphGetNodes(cudaGraph_t g, cudaGraphNode_t *nodes, size_t *n);
cudaError_t cudaGraphGetRootNodes(cudaGraph_t g, cudaGraphNode_t *nodes, size_t *n);
cudaError_t cudaGraphAddDependencies(cudaGraph_t g, const cudaGraphNode_t *from, const cudaGraphNode_t *to, size_t n);
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps);
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps,
                                   const cudaKernelNodeParams *p);
void sim_graph_at(const char *file, int line);
cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, cudaKernelNodeParams *p);
cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams *p);
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t e, cudaGraphNode_t node, const cudaKernelNodeParams *p);
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps,
                                   const cudaMemcpy3DParms *p);
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps,
                                     void *dst, const void *src, size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps,
                                   const cudaMemsetParams *p);
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps,
                                 const cudaHostNodeParams *p);
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps,
                                       size_t ndeps, cudaGraph_t child);
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t e, cudaGraph_t g, cudaGraphExecUpdateResultInfo *info);
/* the older form (CUDA 11), which cuda_runtime.h keeps for C++ */
static inline cudaError_t cudaGraphExecUpdate(cudaGraphExec_t e, cudaGraph_t g, cudaGraphNode_t *error_node,
                                              cudaGraphExecUpdateResult *result)
{
    cudaGraphExecUpdateResultInfo info;
    cudaError_t rc = cudaGraphExecUpdate(e, g, &info);
    if (error_node) *error_node = info.errorNode;
    if (result) *result = info.result;
    return rc;
}
cudaError_t sim_prog_pitch(void **p, size_t *pitch, size_t width, size_t height, const char *name, int line);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         cudaMemcpyKind kind);
static inline cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                            size_t height, cudaMemcpyKind kind, cudaStream_t s = nullptr)
{
    (void)s;
    return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}
/* a copy on a stream finishes before the call returns (launches are synchronous) */
template <class T>
static inline cudaError_t cudaMemcpyToSymbolAsync(T &symbol, const void *src, size_t bytes, size_t offset = 0,
                                                  cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t = nullptr)
{
    return cudaMemcpyToSymbol(symbol, src, bytes, offset, kind);
}
template <class T>
static inline cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t bytes, size_t offset = 0,
                                                    cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t = nullptr)
{
    return cudaMemcpyFromSymbol(dst, symbol, bytes, offset, kind);
}
cudaError_t cudaMemset2D(void *p, size_t pitch, int value, size_t width, size_t height);
static inline cudaError_t cudaMemset2DAsync(void *p, size_t pitch, int value, size_t width, size_t height,
                                            cudaStream_t = nullptr)
{
    return cudaMemset2D(p, pitch, value, width, height);
}
/* 3D: rows of `pitch` bytes, `ysize` rows a slice */
cudaError_t cudaMalloc3D(cudaPitchedPtr *p, cudaExtent e);
cudaError_t cudaMemset3D(cudaPitchedPtr p, int value, cudaExtent e);
static inline cudaError_t cudaMemset3DAsync(cudaPitchedPtr p, int value, cudaExtent e, cudaStream_t = nullptr)
{
    return cudaMemset3D(p, value, e);
}
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
/* the typed form cuda_runtime.h adds (cudaHostGetDevicePointer(&float_ptr, ...)) */
template <class T> static inline cudaError_t cudaHostGetDevicePointer(T **d, void *h, unsigned f)
{
    return cudaHostGetDevicePointer(reinterpret_cast<void **>(d), h, f);
}
#define cudaCpuDeviceId (-1)
#define cudaInvalidDeviceId (-2)
static inline cudaError_t cudaMemPrefetchAsync(const void *, size_t, int, cudaStream_t = nullptr) { return cudaSuccess; }
/* CUDA 13's prefetch to a memory location, and stream attachment of managed
 * memory: one memory for host and device on the simulator, nothing moves */
enum cudaMemLocationType {
    cudaMemLocationTypeInvalid = 0,
    cudaMemLocationTypeNone = 0,
    cudaMemLocationTypeDevice = 1,
    cudaMemLocationTypeHost = 2,
    cudaMemLocationTypeHostNuma = 3,
    cudaMemLocationTypeHostNumaCurrent = 4
};
struct cudaMemLocation {
    enum cudaMemLocationType type;
    int id;
};
#define cudaMemAttachSingle 0x04
static inline cudaError_t cudaMemPrefetchAsync(const void *, size_t, cudaMemLocation, unsigned, cudaStream_t = nullptr)
{
    return sim_prog_sticky();
}
static inline cudaError_t cudaStreamAttachMemAsync(cudaStream_t, void *, size_t = 0, unsigned = cudaMemAttachSingle)
{
    return sim_prog_sticky();
}
/* Hints about managed memory: one memory for host and device here, so
 * nothing moves; what the runtime checks (the range is one managed
 * allocation, or host memory, which this device may access; a known
 * advice) is checked. CUDA 13's form takes a memory location; CUDA 12's
 * took a device number, which CUDA 13 removed (nvcc 13 refuses it): the
 * simulator keeps it for programs written for CUDA 12 (p169) */
enum cudaMemoryAdvise {
    cudaMemAdviseSetReadMostly = 1,
    cudaMemAdviseUnsetReadMostly = 2,
    cudaMemAdviseSetPreferredLocation = 3,
    cudaMemAdviseUnsetPreferredLocation = 4,
    cudaMemAdviseSetAccessedBy = 5,
    cudaMemAdviseUnsetAccessedBy = 6
};
cudaError_t sim_prog_advise(const void *p, size_t n, int advice);
static inline cudaError_t cudaMemAdvise(const void *p, size_t n, cudaMemoryAdvise a, cudaMemLocation)
{
    return sim_prog_advise(p, n, a);
}
static inline cudaError_t cudaMemAdvise(const void *p, size_t n, cudaMemoryAdvise a, int) { return sim_prog_advise(p, n, a); }
/* What memory a pointer is in (CUDA 11 on: unregistered host memory is
 * cudaMemoryTypeUnregistered, not an error) */
enum cudaMemoryType {
    cudaMemoryTypeUnregistered = 0,
    cudaMemoryTypeHost = 1,
    cudaMemoryTypeDevice = 2,
    cudaMemoryTypeManaged = 3
};
struct cudaPointerAttributes {
    enum cudaMemoryType type;
    int device;
    void *devicePointer;
    void *hostPointer;
};
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *a, const void *p);
/* graph memory nodes (progrt_graph.cpp): the toolkit's types, fields in its order */
enum cudaMemAllocationType { cudaMemAllocationTypeInvalid = 0, cudaMemAllocationTypePinned = 1,
                             cudaMemAllocationTypeManaged = 2, cudaMemAllocationTypeMax = 0x7FFFFFFF };
enum cudaMemAllocationHandleType { cudaMemHandleTypeNone = 0, cudaMemHandleTypePosixFileDescriptor = 1,
                                   cudaMemHandleTypeWin32 = 2, cudaMemHandleTypeWin32Kmt = 4,
                                   cudaMemHandleTypeFabric = 8 };
enum cudaMemAccessFlags { cudaMemAccessFlagsProtNone = 0, cudaMemAccessFlagsProtRead = 1,
                          cudaMemAccessFlagsProtReadWrite = 3 };
struct cudaMemAccessDesc {
    struct cudaMemLocation location;
    enum cudaMemAccessFlags flags;
};
struct cudaMemPoolProps {
    enum cudaMemAllocationType allocType;
    enum cudaMemAllocationHandleType handleTypes;
    struct cudaMemLocation location;
    void *win32SecurityAttributes;
    size_t maxSize;
    unsigned short usage;
    unsigned char reserved[54];
};
struct cudaMemAllocNodeParams {
    struct cudaMemPoolProps poolProps;
    const struct cudaMemAccessDesc *accessDescs;
    size_t accessDescCount;
    size_t bytesize;
    void *dptr;
};
enum cudaGraphMemAttributeType { cudaGraphMemAttrUsedMemCurrent = 0, cudaGraphMemAttrUsedMemHigh = 1,
                                 cudaGraphMemAttrReservedMemCurrent = 2, cudaGraphMemAttrReservedMemHigh = 3 };
cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps,
                                     size_t ndeps, cudaMemAllocNodeParams *p);
cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps,
                                    size_t ndeps, void *dptr);
cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, cudaMemAllocNodeParams *p);
cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr);
cudaError_t cudaDeviceGetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void *value);
cudaError_t cudaDeviceSetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void *value);
cudaError_t cudaDeviceGraphMemTrim(int device);
/* conditional nodes and the generic node API (progrt_graph.cpp), the
 * toolkit's names and numbers (driver_types.h) */
typedef unsigned long long cudaGraphConditionalHandle;
enum cudaGraphConditionalHandleFlags { cudaGraphCondAssignDefault = 1 };
enum cudaGraphConditionalNodeType { cudaGraphCondTypeIf = 0, cudaGraphCondTypeWhile = 1, cudaGraphCondTypeSwitch = 2 };
enum cudaGraphNodeType {
    cudaGraphNodeTypeKernel = 0, cudaGraphNodeTypeMemcpy = 1, cudaGraphNodeTypeMemset = 2, cudaGraphNodeTypeHost = 3,
    cudaGraphNodeTypeGraph = 4, cudaGraphNodeTypeEmpty = 5, cudaGraphNodeTypeWaitEvent = 6,
    cudaGraphNodeTypeEventRecord = 7, cudaGraphNodeTypeExtSemaphoreSignal = 8, cudaGraphNodeTypeExtSemaphoreWait = 9,
    cudaGraphNodeTypeMemAlloc = 10, cudaGraphNodeTypeMemFree = 11, cudaGraphNodeTypeConditional = 13,
    cudaGraphNodeTypeCount
};
struct cudaGraphEdgeData {
    unsigned char from_port, to_port, type, reserved[5];
};
enum cudaStreamUpdateCaptureDependenciesFlags { cudaStreamAddCaptureDependencies = 0,
                                                cudaStreamSetCaptureDependencies = 1 };
struct cudaConditionalNodeParams {
    cudaGraphConditionalHandle handle;
    enum cudaGraphConditionalNodeType type;
    unsigned int size;
    cudaGraph_t *phGraph_out;
};
typedef cudaKernelNodeParams cudaKernelNodeParamsV2;
typedef cudaMemsetParams cudaMemsetParamsV2;
typedef cudaHostNodeParams cudaHostNodeParamsV2;
typedef cudaMemAllocNodeParams cudaMemAllocNodeParamsV2;
struct cudaMemcpyNodeParams {
    int flags;
    int reserved[3];
    cudaMemcpy3DParms copyParams;
};
struct cudaChildGraphNodeParams { cudaGraph_t graph; };
struct cudaEventWaitNodeParams { cudaEvent_t event; };
struct cudaEventRecordNodeParams { cudaEvent_t event; };
struct cudaMemFreeNodeParams { void *dptr; };
struct cudaGraphNodeParams {
    enum cudaGraphNodeType type;
    int reserved0[3];
    union {
        long long reserved1[29];
        cudaKernelNodeParamsV2 kernel;
        cudaMemcpyNodeParams memcpy;
        cudaMemsetParamsV2 memset;
        cudaHostNodeParamsV2 host;
        cudaChildGraphNodeParams graph;
        cudaEventWaitNodeParams eventWait;
        cudaEventRecordNodeParams eventRecord;
        cudaMemAllocNodeParamsV2 alloc;
        cudaMemFreeNodeParams free;
        cudaConditionalNodeParams conditional;
    };
    long long reserved2;
};
cudaError_t cudaGraphAddNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps,
                             const cudaGraphEdgeData *edges, size_t ndeps, cudaGraphNodeParams *p);
cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *h, cudaGraph_t g,
                                             unsigned default_value = 0, unsigned flags = 0);
/* device code: the value a conditional node reads when it runs */
void sim_graph_set_conditional(cudaGraphConditionalHandle h, unsigned value);
static inline void cudaGraphSetConditional(cudaGraphConditionalHandle h, unsigned value)
{
    sim_graph_set_conditional(h, value);
}
cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t s, cudaGraph_t g, const cudaGraphNode_t *deps,
                                          const cudaGraphEdgeData *edges, size_t ndeps, cudaStreamCaptureMode mode);
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t s, cudaStreamCaptureStatus *status, unsigned long long *id = 0,
                                     cudaGraph_t *g = 0, const cudaGraphNode_t **deps = 0,
                                     const cudaGraphEdgeData **edges = 0, size_t *ndeps = 0);
cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t s, cudaGraphNode_t *deps, const cudaGraphEdgeData *edges,
                                                size_t ndeps, unsigned flags = 0);
static inline cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }
/* The L1/shared split and the shared memory bank size: preferences the
 * device keeps and gives back; the simulator's shared memory is the same
 * whatever they say. This GPU's banks are four bytes wide, whatever a
 * program asks for (the bank-size calls are deprecated, and do nothing on
 * such a device). */
enum cudaFuncCache { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2,
                     cudaFuncCachePreferEqual = 3 };
enum cudaSharedMemConfig { cudaSharedMemBankSizeDefault = 0, cudaSharedMemBankSizeFourByte = 1,
                           cudaSharedMemBankSizeEightByte = 2 };
cudaError_t cudaDeviceSetCacheConfig(int config);
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache *config);
static inline cudaError_t cudaFuncSetCacheConfig(const void *, int) { return cudaSuccess; }
/* cuda_runtime.h's form for a kernel itself (cudaFuncSetCacheConfig(k, ...)) */
template <class F> static inline cudaError_t cudaFuncSetCacheConfig(F *, int) { return cudaSuccess; }
cudaError_t cudaDeviceSetSharedMemConfig(int config);
cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig *config);
static inline cudaError_t cudaFuncSetSharedMemConfig(const void *, int config)
{
    return config >= 0 && config <= 2 ? cudaSuccess : cudaErrorInvalidValue;
}
template <class F> static inline cudaError_t cudaFuncSetSharedMemConfig(F *f, int config)
{
    return cudaFuncSetSharedMemConfig((const void *)f, config);
}
/* the one device: its number, and a stream's or a program's choice of it */
cudaError_t cudaInitDevice(int device, unsigned device_flags, unsigned flags);
cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop);
cudaError_t cudaStreamGetDevice(cudaStream_t s, int *device);
cudaError_t cudaStreamGetId(cudaStream_t s, unsigned long long *id);
#define cudaEventRecordDefault 0x00
#define cudaEventRecordExternal 0x01
static inline cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s = nullptr, unsigned flags = 0)
{
    return flags > cudaEventRecordExternal ? cudaErrorInvalidValue : cudaEventRecord(e, s);
}
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
    int computeMode, asyncEngineCount, ECCEnabled, pciBusID, pciDeviceID, pciDomainID;
    int kernelExecTimeoutEnabled, deviceOverlap, streamPrioritiesSupported, globalL1CacheSupported,
        localL1CacheSupported, isMultiGpuBoard, multiGpuBoardGroupID, hostNativeAtomicSupported,
        singleToDoublePrecisionPerfRatio, pageableMemoryAccess, concurrentManagedAccess,
        computePreemptionSupported, canUseHostPointerForRegisteredMem, cooperativeMultiDeviceLaunch,
        pageableMemoryAccessUsesHostPageTables, directManagedMemAccessFromHost, accessPolicyMaxWindowSize,
        persistingL2CacheMaxSize, memoryPoolsSupported, hostRegisterSupported, maxSurface1D, maxTexture1D,
        maxTexture1DLinear;
    int maxTexture2D[2], maxTexture3D[3], maxSurface2D[2], maxSurface3D[3];
    size_t textureAlignment, texturePitchAlignment, surfaceAlignment, reservedSharedMemPerBlock;
    char uuid[16];
    char luid[8];
    unsigned luidDeviceNodeMask;
    int tccDriver, clusterLaunch, unifiedFunctionPointers;
    /* the rest of CUDA 13's fields (the ones above it removed, clockRate,
     * memoryClockRate, deviceOverlap, kernelExecTimeoutEnabled,
     * computeMode, maxTexture1DLinear, singleToDoublePrecisionPerfRatio,
     * cooperativeMultiDeviceLaunch, stay for programs written before) */
    int maxTexture1DMipmap, maxTexture2DMipmap[2], maxTexture2DLinear[3], maxTexture2DGather[2],
        maxTexture3DAlt[3], maxTextureCubemap, maxTexture1DLayered[2], maxTexture2DLayered[3],
        maxTextureCubemapLayered[2], maxSurface1DLayered[2], maxSurface2DLayered[3], maxSurfaceCubemap,
        maxSurfaceCubemapLayered[2];
    int ipcEventSupported, sparseCudaArraySupported, hostRegisterReadOnlySupported,
        timelineSemaphoreInteropSupported;
    unsigned memoryPoolSupportedHandleTypes;
    int gpuDirectRDMASupported;
    unsigned gpuDirectRDMAFlushWritesOptions;
    int gpuDirectRDMAWritesOrdering, deferredMappingCudaArraySupported, deviceNumaConfig, deviceNumaId,
        mpsEnabled, hostNumaId;
    unsigned gpuPciDeviceID, gpuPciSubsystemID;
    int hostNumaMultinodeIpcSupported;
    int reserved[56];
};
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int device);

/* the attributes by the toolkit's names and numbers (driver_types.h) */
enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxBlockDimX = 2, cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4, cudaDevAttrMaxGridDimX = 5, cudaDevAttrMaxGridDimY = 6, cudaDevAttrMaxGridDimZ = 7,
    cudaDevAttrMaxSharedMemoryPerBlock = 8, cudaDevAttrTotalConstantMemory = 9, cudaDevAttrWarpSize = 10,
    cudaDevAttrMaxPitch = 11, cudaDevAttrMaxRegistersPerBlock = 12, cudaDevAttrClockRate = 13,
    cudaDevAttrTextureAlignment = 14, cudaDevAttrGpuOverlap = 15, cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrKernelExecTimeout = 17, cudaDevAttrIntegrated = 18, cudaDevAttrCanMapHostMemory = 19,
    cudaDevAttrComputeMode = 20, cudaDevAttrMaxTexture1DWidth = 21, cudaDevAttrMaxTexture2DWidth = 22,
    cudaDevAttrMaxTexture2DHeight = 23, cudaDevAttrMaxTexture3DWidth = 24, cudaDevAttrMaxTexture3DHeight = 25,
    cudaDevAttrMaxTexture3DDepth = 26, cudaDevAttrMaxTexture2DLayeredWidth = 27,
    cudaDevAttrMaxTexture2DLayeredHeight = 28, cudaDevAttrMaxTexture2DLayeredLayers = 29,
    cudaDevAttrSurfaceAlignment = 30, cudaDevAttrConcurrentKernels = 31, cudaDevAttrEccEnabled = 32,
    cudaDevAttrPciBusId = 33, cudaDevAttrPciDeviceId = 34, cudaDevAttrTccDriver = 35,
    cudaDevAttrMemoryClockRate = 36, cudaDevAttrGlobalMemoryBusWidth = 37, cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39, cudaDevAttrAsyncEngineCount = 40,
    cudaDevAttrUnifiedAddressing = 41, cudaDevAttrMaxTexture1DLayeredWidth = 42,
    cudaDevAttrMaxTexture1DLayeredLayers = 43, cudaDevAttrMaxTexture2DGatherWidth = 45,
    cudaDevAttrMaxTexture2DGatherHeight = 46, cudaDevAttrMaxTexture3DWidthAlt = 47,
    cudaDevAttrMaxTexture3DHeightAlt = 48, cudaDevAttrMaxTexture3DDepthAlt = 49, cudaDevAttrPciDomainId = 50,
    cudaDevAttrTexturePitchAlignment = 51, cudaDevAttrMaxTextureCubemapWidth = 52,
    cudaDevAttrMaxTextureCubemapLayeredWidth = 53, cudaDevAttrMaxTextureCubemapLayeredLayers = 54,
    cudaDevAttrMaxSurface1DWidth = 55, cudaDevAttrMaxSurface2DWidth = 56, cudaDevAttrMaxSurface2DHeight = 57,
    cudaDevAttrMaxSurface3DWidth = 58, cudaDevAttrMaxSurface3DHeight = 59, cudaDevAttrMaxSurface3DDepth = 60,
    cudaDevAttrMaxSurface1DLayeredWidth = 61, cudaDevAttrMaxSurface1DLayeredLayers = 62,
    cudaDevAttrMaxSurface2DLayeredWidth = 63, cudaDevAttrMaxSurface2DLayeredHeight = 64,
    cudaDevAttrMaxSurface2DLayeredLayers = 65, cudaDevAttrMaxSurfaceCubemapWidth = 66,
    cudaDevAttrMaxSurfaceCubemapLayeredWidth = 67, cudaDevAttrMaxSurfaceCubemapLayeredLayers = 68,
    cudaDevAttrMaxTexture1DLinearWidth = 69, cudaDevAttrMaxTexture2DLinearWidth = 70,
    cudaDevAttrMaxTexture2DLinearHeight = 71, cudaDevAttrMaxTexture2DLinearPitch = 72,
    cudaDevAttrMaxTexture2DMipmappedWidth = 73, cudaDevAttrMaxTexture2DMipmappedHeight = 74,
    cudaDevAttrComputeCapabilityMajor = 75, cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrMaxTexture1DMipmappedWidth = 77, cudaDevAttrStreamPrioritiesSupported = 78,
    cudaDevAttrGlobalL1CacheSupported = 79, cudaDevAttrLocalL1CacheSupported = 80,
    cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81, cudaDevAttrMaxRegistersPerMultiprocessor = 82,
    cudaDevAttrManagedMemory = 83, cudaDevAttrIsMultiGpuBoard = 84, cudaDevAttrMultiGpuBoardGroupID = 85,
    cudaDevAttrHostNativeAtomicSupported = 86, cudaDevAttrSingleToDoublePrecisionPerfRatio = 87,
    cudaDevAttrPageableMemoryAccess = 88, cudaDevAttrConcurrentManagedAccess = 89,
    cudaDevAttrComputePreemptionSupported = 90, cudaDevAttrCanUseHostPointerForRegisteredMem = 91,
    cudaDevAttrCooperativeLaunch = 95, cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
    cudaDevAttrCanFlushRemoteWrites = 98, cudaDevAttrHostRegisterSupported = 99,
    cudaDevAttrPageableMemoryAccessUsesHostPageTables = 100, cudaDevAttrDirectManagedMemAccessFromHost = 101,
    cudaDevAttrMaxBlocksPerMultiprocessor = 106, cudaDevAttrMaxPersistingL2CacheSize = 108,
    cudaDevAttrMaxAccessPolicyWindowSize = 109, cudaDevAttrSparseCudaArraySupported = 112,
    cudaDevAttrHostRegisterReadOnlySupported = 113, cudaDevAttrTimelineSemaphoreInteropSupported = 114,
    cudaDevAttrMemoryPoolsSupported = 115, cudaDevAttrGPUDirectRDMASupported = 116,
    cudaDevAttrGPUDirectRDMAFlushWritesOptions = 117, cudaDevAttrGPUDirectRDMAWritesOrdering = 118,
    cudaDevAttrMemoryPoolSupportedHandleTypes = 119, cudaDevAttrClusterLaunch = 120,
    cudaDevAttrDeferredMappingCudaArraySupported = 121, cudaDevAttrIpcEventSupport = 125,
    cudaDevAttrMemSyncDomainCount = 126, cudaDevAttrNumaConfig = 130, cudaDevAttrNumaId = 131,
    cudaDevAttrMpsEnabled = 133, cudaDevAttrHostNumaId = 134, cudaDevAttrD3D12CigSupported = 135,
    cudaDevAttrVulkanCigSupported = 138, cudaDevAttrGpuPciDeviceId = 139, cudaDevAttrGpuPciSubsystemId = 140,
    cudaDevAttrHostNumaMemoryPoolsSupported = 142, cudaDevAttrHostNumaMultinodeIpcSupported = 143,
    cudaDevAttrHostMemoryPoolsSupported = 144, cudaDevAttrOnlyPartialHostNativeAtomicSupported = 147
};
enum cudaComputeMode {
    cudaComputeModeDefault = 0, cudaComputeModeExclusive = 1, cudaComputeModeProhibited = 2,
    cudaComputeModeExclusiveProcess = 3
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
#define cudaOccupancyDefault 0x00
#define cudaOccupancyDisableCachingOverride 0x01
template <class F>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *blocks, F *f, int block,
                                                                                size_t smem, unsigned flags)
{
    (void)f;
    /* cudaOccupancyDefault or cudaOccupancyDisableCachingOverride: the same count */
    return flags > 1 ? cudaErrorInvalidValue : sim_occ_blocks(blocks, block, smem);
}
template <class F>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *min_grid, int *block, F *f, size_t smem = 0,
                                                             int limit = 0)
{
    (void)f;
    return sim_occ_suggest(min_grid, block, smem, limit);
}

/* allocations carry the variable's name and line, for diagnostics */
/* thrust's device_vector memory (include/gpulab_thrust.h): device memory
 * like cudaMalloc's, named by the line that made it; NULL when none is left
 * (or after a sticky error) */
void *sim_thrust_alloc(size_t bytes, const char *what);
void sim_thrust_free(void *p);
cudaError_t sim_prog_malloc(void **p, const char *call, const char *name, int line, size_t bytes,
                            unsigned flags = 0);
cudaError_t sim_prog_free(void *p, const char *call, const char *name, int line);

} /* namespace gpulab_sim */


/* assert: in a kernel, the GPU's; the runtime's assert.h (include/assert.h)
 * keeps it so whoever includes <assert.h> later */
/* (the expression's text as written: #e inside assert's own expansion,
 * before threadIdx and the other macros in it are expanded) */
#define GPULAB_PROGRT_ASSERT(e, text) ((e) ? (void)0 : ::gpulab_sim::sim_assert_fail(text, __FILE__, __LINE__, __PRETTY_FUNCTION__))
#ifndef NDEBUG
#undef assert
#define assert(e) GPULAB_PROGRT_ASSERT(e, #e)
#endif

/* the source pass registers every kernel of a file at its end */
#define SIM_KREG_CAT2(a, b) a##b
#define SIM_KREG_CAT(a, b) SIM_KREG_CAT2(a, b)
#define SIM_KREG(k, name) \
    static int SIM_KREG_CAT(sim_kreg_, __COUNTER__) __attribute__((unused)) = ::gpulab_sim::sim_kreg(k, name)

/* Allocations remember the variable they were stored in. */
#define cudaMalloc(p, ...) ::gpulab_sim::sim_prog_malloc((void **)(p), "cudaMalloc", #p, __LINE__, __VA_ARGS__)
#define cudaMallocManaged(p, ...) \
    ::gpulab_sim::sim_prog_malloc((void **)(p), "cudaMallocManaged", #p, __LINE__, __VA_ARGS__)
#define cudaMallocHost(p, ...) ::gpulab_sim::sim_prog_malloc((void **)(p), "cudaMallocHost", #p, __LINE__, __VA_ARGS__)
#define cudaMallocPitch(p, pitch, width, height) \
    ::gpulab_sim::sim_prog_pitch((void **)(p), pitch, width, height, #p, __LINE__)
#define cudaFree(p) ::gpulab_sim::sim_prog_free((void *)(p), "cudaFree", #p, __LINE__)
#define cudaFreeHost(p) ::gpulab_sim::sim_prog_free((void *)(p), "cudaFreeHost", #p, __LINE__)
#define cudaMallocAsync(p, ...) ::gpulab_sim::sim_prog_malloc_async((void **)(p), #p, __LINE__, __VA_ARGS__)
#define cudaFreeAsync(p, ...) ::gpulab_sim::sim_prog_free_async((void *)(p), #p, __LINE__, __VA_ARGS__)
#define cudaLaunchKernel(...) ::gpulab_sim::sim_launch_kernel(__FILE__, __LINE__, __VA_ARGS__)
/* a graph's kernel node runs with the line of the call that gave it its kernel */
#define cudaGraphAddKernelNode(...) (::gpulab_sim::sim_graph_at(__FILE__, __LINE__), cudaGraphAddKernelNode(__VA_ARGS__))
#define cudaGraphAddMemAllocNode(...) \
    (::gpulab_sim::sim_graph_at(__FILE__, __LINE__), cudaGraphAddMemAllocNode(__VA_ARGS__))
#define cudaGraphAddMemFreeNode(...) \
    (::gpulab_sim::sim_graph_at(__FILE__, __LINE__), cudaGraphAddMemFreeNode(__VA_ARGS__))
#define cudaGraphAddNode(...) (::gpulab_sim::sim_graph_at(__FILE__, __LINE__), cudaGraphAddNode(__VA_ARGS__))
#define cudaGraphKernelNodeSetParams(...) \
    (::gpulab_sim::sim_graph_at(__FILE__, __LINE__), cudaGraphKernelNodeSetParams(__VA_ARGS__))
#define cudaGraphExecKernelNodeSetParams(...) \
    (::gpulab_sim::sim_graph_at(__FILE__, __LINE__), cudaGraphExecKernelNodeSetParams(__VA_ARGS__))
#define cudaLaunchCooperativeKernel(...) \
    (::gpulab_sim::sim_coop_scope(), ::gpulab_sim::sim_launch_kernel(__FILE__, __LINE__, __VA_ARGS__))

#endif
