/* shim.h - CUDA as the simulator sees it.
 *
 * The simulator's one CUDA surface: kern.h includes this instead of
 * <cuda_runtime.h> when a built-in kernel source is compiled with g++
 * -DGPULAB_SIM, and a student's program gets it through
 * kernels/program/progrt.h. It gives the kernel the CUDA names it uses
 * (threadIdx, __syncthreads, atomics, warp shuffles, cooperative groups, the
 * runtime's memory calls) on top of the fiber runtime (fiber.cpp, sync.cpp,
 * launch.cpp and the others of kernels/sim/): every GPU thread of a block is
 * a fiber, and a fiber gives the CPU away only at a
 * barrier, a warp collective or its end. So everything between two such
 * points runs without interruption, atomics are plain read-modify-writes, and
 * every run takes the same path.
 *
 * What a kernel may write, and the few places where it differs from CUDA, are
 * listed in docs/simulator.md. The short version: shared memory is declared
 * with SHARED()/SHARED2()/DYNAMIC_SHARED() and indexed like an array; give a
 * shared element a real type when you copy it out (`float v = s[i]`, not
 * `auto v = s[i]`), and pass `&s[i]` where a function wants a pointer. */
#ifndef GPULAB_SIM_SHIM_H
#define GPULAB_SIM_SHIM_H

#if !defined(__cplusplus)
#  error "sim/shim.h is C++: the simulator compiles kernel sources with g++"
#endif

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <limits>
#include <type_traits>

#include "kernels/family.h"
#include "kernels/sim/record.h"
#include "kernels/sim/sim.h"
#include "kernels/sim/race.h"

/* ------------------------------------------------------ CUDA qualifiers */

#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __grid_constant__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
/* g++ knows __restrict__ already. A bare __shared__ would silently become one
 * variable for every block and thread, so it is refused with the fix. */
#define __shared__ \
    _Pragma("GCC error \"on the simulator declare shared memory with SHARED(T, name, N), SHARED2(T, name, R, C) or DYNAMIC_SHARED(T, name)\"")

/* kern.h's TRACE_* macros call sim_trace_emit(): their arguments are
 * evaluated only while tracing, as the GPU's timed build does not evaluate
 * them at all, so a TRACE_READ(.., a[i]) adds no load to profile's counts. */
#define sim_trace_emit(kind, space, a, b, v, v2, line) \
    (sim_tracing() ? (sim_trace_emit)((kind), (space), (a), (b), (v), (v2), (line)) : (void)0)

namespace gpulab_sim {

/* ---------------------------------------------------------------- types */

struct uint3 { unsigned int x, y, z; };

struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
        : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
};

/* Vector types with CUDA's sizes and alignments (a float4 load is one 16-byte
 * access on the GPU; code that reinterprets arrays relies on the alignment). */
#define SIM_VEC2(T, N, A)                                                      \
    struct __attribute__((aligned(A))) N { T x, y; };                         \
    static inline N make_##N(T x, T y) { N v; v.x = x; v.y = y; return v; }
#define SIM_VEC3(T, N)                                                         \
    struct N { T x, y, z; };                                                   \
    static inline N make_##N(T x, T y, T z) { N v; v.x = x; v.y = y; v.z = z; return v; }
#define SIM_VEC4(T, N, A)                                                      \
    struct __attribute__((aligned(A))) N { T x, y, z, w; };                   \
    static inline N make_##N(T x, T y, T z, T w)                               \
    { N v; v.x = x; v.y = y; v.z = z; v.w = w; return v; }

SIM_VEC2(signed char, char2, 2)      SIM_VEC3(signed char, char3)      SIM_VEC4(signed char, char4, 4)
SIM_VEC2(unsigned char, uchar2, 2)   SIM_VEC3(unsigned char, uchar3)   SIM_VEC4(unsigned char, uchar4, 4)
SIM_VEC2(short, short2, 4)           SIM_VEC3(short, short3)           SIM_VEC4(short, short4, 8)
SIM_VEC2(unsigned short, ushort2, 4) SIM_VEC3(unsigned short, ushort3) SIM_VEC4(unsigned short, ushort4, 8)
SIM_VEC2(int, int2, 8)               SIM_VEC3(int, int3)               SIM_VEC4(int, int4, 16)
SIM_VEC2(unsigned int, uint2, 8)                                       SIM_VEC4(unsigned int, uint4, 16)
SIM_VEC2(long long, longlong2, 16)
SIM_VEC2(unsigned long long, ulonglong2, 16)
SIM_VEC2(float, float2, 8)           SIM_VEC3(float, float3)           SIM_VEC4(float, float4, 16)
SIM_VEC2(double, double2, 16)        SIM_VEC3(double, double3)
/* the rest of vector_types.h: one-component types, long, and the 4-wide
 * 64-bit types (deprecated in CUDA 13 for the _16a/_32a forms) */
#define SIM_VEC1(T, N)                                                         \
    struct N { T x; };                                                         \
    static inline N make_##N(T x) { N v; v.x = x; return v; }
SIM_VEC1(signed char, char1) SIM_VEC1(unsigned char, uchar1) SIM_VEC1(short, short1) SIM_VEC1(unsigned short, ushort1)
SIM_VEC1(int, int1) SIM_VEC1(unsigned int, uint1) SIM_VEC1(long, long1) SIM_VEC1(unsigned long, ulong1)
SIM_VEC1(long long, longlong1) SIM_VEC1(unsigned long long, ulonglong1) SIM_VEC1(float, float1)
SIM_VEC1(double, double1)
SIM_VEC2(long, long2, 2 * sizeof(long))          SIM_VEC3(long, long3)          SIM_VEC4(long, long4, 16)
SIM_VEC2(unsigned long, ulong2, 2 * sizeof(long)) SIM_VEC3(unsigned long, ulong3) SIM_VEC4(unsigned long, ulong4, 16)
SIM_VEC3(long long, longlong3)   SIM_VEC4(long long, longlong4, 16)
SIM_VEC3(unsigned long long, ulonglong3) SIM_VEC4(unsigned long long, ulonglong4, 16)
SIM_VEC4(double, double4, 16)
SIM_VEC4(long, long4_16a, 16) SIM_VEC4(long, long4_32a, 32)
SIM_VEC4(unsigned long, ulong4_16a, 16) SIM_VEC4(unsigned long, ulong4_32a, 32)
SIM_VEC4(long long, longlong4_16a, 16) SIM_VEC4(long long, longlong4_32a, 32)
SIM_VEC4(unsigned long long, ulonglong4_16a, 16) SIM_VEC4(unsigned long long, ulonglong4_32a, 32)
SIM_VEC4(double, double4_16a, 16) SIM_VEC4(double, double4_32a, 32)
#undef SIM_VEC1
#undef SIM_VEC2
#undef SIM_VEC3
#undef SIM_VEC4
static inline uint3 make_uint3(unsigned x, unsigned y, unsigned z) { return uint3{x, y, z}; }

/* ------------------------------------------------------------ built-ins */

/* What kernel code reads about the running thread. */
struct sim_thread_info {
    uint3 tid;        /* threadIdx */
    unsigned linear;  /* x + blockDim.x * (y + blockDim.y * z) */
    unsigned lane;    /* linear % 32 */
    unsigned warp;    /* linear / 32 */
};
/* Per worker thread: a launch's blocks may run on several (par.cpp), each
 * with its own running fiber and block. The assembler names let the reads
 * below address them %fs-relative. */
extern __thread sim_thread_info *sim_cur __asm__("gpulab_sim_cur"); /* the running fiber (a zero thread outside launches) */
extern __thread uint3 sim_block_idx __asm__("gpulab_sim_block_idx");
extern __thread uint3 sim_tid __asm__("gpulab_sim_tid"); /* sim_cur->tid, kept beside it (sim_set_cur) */
extern __thread unsigned sim_worker __asm__("gpulab_sim_worker"); /* 0: the launching thread */
extern sim_thread_info sim_host_thread; /* what sim_cur points at outside kernel code */
/* Kernel code is running (a GPU thread's fiber or its lane of a loop), not
 * the host's: a __host__ __device__ function whose body tests __CUDA_ARCH__
 * goes to its copy as nvcc's device pass compiles it (the source pass's
 * hd_twin, kernels/program/translate.c) */
static inline bool sim_device_code() { return sim_cur != &sim_host_thread; }
enum { SIM_WORKERS_MAX = 32 };
/* 1 while the running block runs beside blocks before it (par.cpp): its
 * first global atomic, fence or printf must keep the one-worker order */
extern __thread int sim_par_unordered __asm__("gpulab_sim_par_unordered");
/* The running launch's shape (fiber.cpp; launch.cpp sets it between
 * launches). Kernel code reads it as constant, through a plain struct that
 * is declared const here: the instrumentation (record.h) leaves loads of a
 * const object alone, so blockDim.x costs no call of the access hook, and
 * the compiler reads it once per kernel call instead of after every call
 * (a barrier, the hook). It never changes while a launch runs. */
struct sim_launch_dim3 {
    unsigned int x, y, z;
};
extern const sim_launch_dim3 sim_block_dim_k __asm__("gpulab_sim_block_dim");
extern const sim_launch_dim3 sim_grid_dim_k __asm__("gpulab_sim_grid_dim");

static constexpr int warpSize = 32;

/* threadIdx and blockIdx: the simulator's state, not device memory. On
 * x86-64 (the simulator linked into the program) they are thread-local
 * copies of the running thread's and block's indices, which the switch
 * between fibers keeps current, declared const here like blockDim: the
 * instrumentation (record.h) leaves loads of a const object alone, so they
 * call no access hook, and the compiler reads each component as a scalar
 * where it is used and keeps it in a register across loops, barriers and
 * the hook's calls. That is right because a GPU thread's indices never
 * change while it runs (a fiber plays one thread from its start to its end;
 * a block parked at a grid barrier resumes as the same block), and the
 * copies always hold the running fiber's. Where the code is
 * position-independent (a shared library), not x86-64, or built with the
 * sanitizers (UBSan took the copy for a null reference), each is a const
 * function outside the instrumented code instead; the compiler merges those
 * within a statement but repeats them per loop iteration. */
#if defined(__x86_64__) && (!defined(__PIC__) || defined(__PIE__)) && !defined(__SANITIZE_ADDRESS__)
/* local-exec thread-local reads: the simulator is linked into the program */
extern __thread const uint3 sim_tid_k __asm__("gpulab_sim_tid");
extern __thread const uint3 sim_block_idx_k __asm__("gpulab_sim_block_idx");
#define SIM_READ_GLOBAL(dst, sym) __asm__("movl %%fs:" sym "@tpoff, %0" : "=r"(dst))
static inline __attribute__((always_inline)) unsigned sim_worker_now()
{
    unsigned w;
    SIM_READ_GLOBAL(w, "gpulab_sim_worker");
    return w;
}
static inline __attribute__((always_inline)) int sim_par_unordered_now()
{
    int u;
    __asm__ volatile("movl %%fs:gpulab_sim_par_unordered@tpoff, %0" : "=r"(u));
    return u;
}
#undef SIM_READ_GLOBAL
#else
unsigned sim_thread_index_x(void) __attribute__((const));
unsigned sim_thread_index_y(void) __attribute__((const));
unsigned sim_thread_index_z(void) __attribute__((const));
unsigned sim_block_index_x(void) __attribute__((const));
unsigned sim_block_index_y(void) __attribute__((const));
unsigned sim_block_index_z(void) __attribute__((const));
static inline __attribute__((always_inline)) uint3 sim_thread_index()
{
    return uint3{sim_thread_index_x(), sim_thread_index_y(), sim_thread_index_z()};
}
static inline __attribute__((always_inline)) uint3 sim_block_index()
{
    return uint3{sim_block_index_x(), sim_block_index_y(), sim_block_index_z()};
}
unsigned sim_worker_index(void) __attribute__((const));
static inline __attribute__((always_inline)) unsigned sim_worker_now() { return sim_worker_index(); }
int sim_par_unordered_get(void);
static inline __attribute__((always_inline)) int sim_par_unordered_now() { return sim_par_unordered_get(); }
#endif

} /* namespace gpulab_sim */

#if defined(__x86_64__) && (!defined(__PIC__) || defined(__PIE__)) && !defined(__SANITIZE_ADDRESS__)
#define threadIdx (::gpulab_sim::sim_tid_k)
#define blockIdx  (::gpulab_sim::sim_block_idx_k)
namespace gpulab_sim {
/* threadIdx in a kernel's lane-loop form (lanes.cpp), where the running
 * thread changes inside one function: read where used, never kept */
static inline __attribute__((always_inline)) uint3 sim_lane_tid()
{
    uint3 t;
    __asm__ volatile("movl %%fs:gpulab_sim_tid@tpoff, %0" : "=r"(t.x));
    __asm__ volatile("movl %%fs:gpulab_sim_tid@tpoff+4, %0" : "=r"(t.y));
    __asm__ volatile("movl %%fs:gpulab_sim_tid@tpoff+8, %0" : "=r"(t.z));
    return t;
}
} /* namespace gpulab_sim */
#else
namespace gpulab_sim {
uint3 sim_lane_tid(void);
} /* namespace gpulab_sim */
#define threadIdx (::gpulab_sim::sim_thread_index())
#define blockIdx  (::gpulab_sim::sim_block_index())
#endif
/* the launch's shape is the same for all its threads: read-only names for
 * it, not macros, since the runtime's own structs have members called
 * gridDim and blockDim (cudaKernelNodeParams, cudaLaunchConfig_t) */
/* (a dim3 seen in sim_launch_dim3's storage: the same three words; kernel
 * code only reads them) */
static_assert(sizeof(::gpulab_sim::dim3) == sizeof(::gpulab_sim::sim_launch_dim3), "dim3's three words");
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-aliasing"
static const ::gpulab_sim::dim3 &blockDim __attribute__((unused)) =
    reinterpret_cast<const ::gpulab_sim::dim3 &>(::gpulab_sim::sim_block_dim_k);
static const ::gpulab_sim::dim3 &gridDim __attribute__((unused)) =
    reinterpret_cast<const ::gpulab_sim::dim3 &>(::gpulab_sim::sim_grid_dim_k);
#pragma GCC diagnostic pop

namespace gpulab_sim {

/* ------------------------------------------------------------- runtime */

/* The CUDA runtime's error codes (same numbers as CUDA's). */
enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorInvalidSymbol = 13,
    cudaErrorInvalidHostPointer = 16,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorInsufficientDriver = 35,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidKernelImage = 200,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorLaunchTimeout = 702,
    cudaErrorAssert = 710,
    cudaErrorHardwareStackError = 714,
    cudaErrorIllegalInstruction = 715,
    cudaErrorMisalignedAddress = 716,
    cudaErrorLaunchFailure = 719,
    cudaErrorCooperativeLaunchTooLarge = 720,
    cudaErrorNotSupported = 801,
    cudaErrorStreamCaptureUnsupported = 900,
    cudaErrorGraphExecUpdateFailure = 910,
    cudaErrorUnknown = 999
};
typedef cudaError cudaError_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02

/* Device memory is host memory: 256-byte aligned, filled with
 * SIM_POISON_GLOBAL, and remembered so that copies and frees can be checked. */
cudaError_t sim_cuda_malloc(void **p, size_t bytes, const char *what);
cudaError_t sim_cuda_free(void *p, const char *what);
cudaError_t sim_cuda_memcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind);
cudaError_t sim_cuda_memset(void *p, int value, size_t bytes);
/* a library call on the host (cuRAND, cuBLAS on the simulator) writes or
 * reads [p, p + bytes) of device memory: 0 when it lies in one allocation,
 * else -1 with the reason said (memory.cpp) */
int sim_lib_output(const char *call, void *p, size_t bytes);
int sim_lib_input(const char *call, const void *p, size_t bytes);
void sim_lib_at(int line);
cudaError_t sim_cuda_last_error(int clear);
const char *sim_cuda_error_string(cudaError_t e);
const char *sim_cuda_error_name(cudaError_t e);

static inline cudaError_t cudaMalloc(void **p, size_t bytes) { return sim_cuda_malloc(p, bytes, "cudaMalloc"); }
template <class T> static inline cudaError_t cudaMalloc(T **p, size_t bytes)
{
    return sim_cuda_malloc(reinterpret_cast<void **>(p), bytes, "cudaMalloc");
}
static inline cudaError_t cudaMallocManaged(void **p, size_t bytes, unsigned flags = cudaMemAttachGlobal)
{
    (void)flags;
    return sim_cuda_malloc(p, bytes, "cudaMallocManaged");
}
template <class T>
static inline cudaError_t cudaMallocManaged(T **p, size_t bytes, unsigned flags = cudaMemAttachGlobal)
{
    (void)flags;
    return sim_cuda_malloc(reinterpret_cast<void **>(p), bytes, "cudaMallocManaged");
}
static inline cudaError_t cudaMallocHost(void **p, size_t bytes) { return sim_cuda_malloc(p, bytes, "cudaMallocHost"); }
template <class T> static inline cudaError_t cudaMallocHost(T **p, size_t bytes)
{
    return sim_cuda_malloc(reinterpret_cast<void **>(p), bytes, "cudaMallocHost");
}
static inline cudaError_t cudaFree(void *p) { return sim_cuda_free(p, "cudaFree"); }
static inline cudaError_t cudaFreeHost(void *p) { return sim_cuda_free(p, "cudaFreeHost"); }
static inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    sim_race_device_sync(); /* a copy on the legacy default stream waits for the kernels before it */
    return sim_cuda_memcpy(dst, src, bytes, kind);
}
static inline cudaError_t cudaMemset(void *p, int value, size_t bytes) { return sim_cuda_memset(p, value, bytes); }
/* __constant__ and __device__ variables are ordinary host variables here. */
template <class T>
static inline cudaError_t cudaMemcpyToSymbol(T &symbol, const void *src, size_t bytes, size_t offset = 0,
                                             cudaMemcpyKind kind = cudaMemcpyHostToDevice)
{
    (void)kind;
    if (offset + bytes > sizeof(T)) return cudaErrorInvalidValue;
    memcpy(reinterpret_cast<char *>(&symbol) + offset, src, bytes);
    return cudaSuccess;
}
template <class T>
static inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t bytes, size_t offset = 0,
                                               cudaMemcpyKind kind = cudaMemcpyDeviceToHost)
{
    (void)kind;
    if (offset + bytes > sizeof(T)) return cudaErrorInvalidValue;
    memcpy(dst, reinterpret_cast<const char *>(&symbol) + offset, bytes);
    return cudaSuccess;
}
/* a __device__ variable's address, which kernels and copies may use */
template <class T> static inline cudaError_t cudaGetSymbolAddress(void **p, const T &symbol)
{
    if (!p) return cudaErrorInvalidValue;
    *p = const_cast<void *>(reinterpret_cast<const void *>(&symbol));
    return cudaSuccess;
}
template <class T> static inline cudaError_t cudaGetSymbolSize(size_t *n, const T &)
{
    if (!n) return cudaErrorInvalidValue;
    *n = sizeof(T);
    return cudaSuccess;
}
/* Launches finish before sim_launch returns, so there is nothing to wait for;
 * a failed launch has already reported itself through LAUNCH. */
cudaError_t sim_sticky_error(void); /* cudaSuccess unless a student's kernel faulted */
void sim_mem_device_synced(void);
static inline cudaError_t cudaDeviceSynchronize(void)
{
    sim_race_device_sync();
    sim_mem_device_synced();
    return sim_sticky_error();
}
static inline cudaError_t cudaDeviceReset(void) { return cudaSuccess; }
/* how far the runtime has gone, for the driver API (memory.cpp): 1 the
 * driver initialised, 2 the device's primary context current */
void sim_runtime_used(int level);
/* the primary context becomes current, as CUDA 12 and later make it here */
static inline cudaError_t cudaSetDevice(int d)
{
    if (d != 0) return cudaErrorInvalidDevice;
    sim_runtime_used(2);
    return cudaSuccess;
}
static inline cudaError_t cudaGetDevice(int *d) { if (d) *d = 0; return cudaSuccess; }
static inline cudaError_t cudaGetLastError(void) { return sim_cuda_last_error(1); }
static inline cudaError_t cudaPeekAtLastError(void) { return sim_cuda_last_error(0); }
static inline const char *cudaGetErrorString(cudaError_t e) { return sim_cuda_error_string(e); }
/* A kernel opting in to more dynamic shared memory than the default 48 KiB
 * (up to the simulator's 227 KiB); launches of that kernel (LAUNCH passes its
 * address) may then ask for that much. */
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8 };
cudaError_t sim_func_set_max_dynamic_smem(const void *func, int bytes);
template <class F>
static inline cudaError_t cudaFuncSetAttribute(F *func, cudaFuncAttribute attr, int value)
{
    if (attr != cudaFuncAttributeMaxDynamicSharedMemorySize) return cudaErrorInvalidValue;
    return sim_func_set_max_dynamic_smem((const void *)func, value);
}
static inline const char *cudaGetErrorName(cudaError_t e) { return sim_cuda_error_name(e); }

/* kern.h's CK(): a failed runtime call becomes job->err (with the simulator's
 * explanation, when it has one) and -1. Inline so the compiler sees the -1
 * (and does not warn about outputs "maybe" left unset on that path). */
void sim_job_fail_msg(lab_job *job, cudaError_t e, const char *expr, const char *file, int line);
static inline int sim_job_fail(lab_job *job, cudaError_t e, const char *expr, const char *file, int line)
{
    sim_job_fail_msg(job, e, expr, file, line);
    return -1;
}

/* -------------------------------------------------------------- launches */

int sim_launch_fn(lab_job *job, const char *kernel, const char *file, int line, dim3 grid, dim3 block,
                  size_t smem, void (*fn)(void *), void *ctx, const void *func);
/* A cooperative launch (cudaLaunchCooperativeKernel): every block is alive at
 * once, so this_grid().sync() can be met. max_blocks: how many blocks of this
 * shape the modelled GPU holds at once; a larger grid is refused with
 * cudaErrorCooperativeLaunchTooLarge, as CUDA refuses it. */
int sim_launch_coop_fn(lab_job *job, const char *kernel, const char *file, int line, dim3 grid, dim3 block,
                       size_t smem, void (*fn)(void *), void *ctx, const void *func, unsigned long long max_blocks);

/* kern.h's LAUNCH(): run body (a lambda calling the kernel) once per GPU
 * thread of the grid. 0, or -1 with job->err set to a teaching message. */
template <class F>
static inline int sim_launch(lab_job *job, const char *kernel, const char *file, int line, dim3 grid,
                             dim3 block, size_t smem, F body, const void *func = nullptr)
{
    return sim_launch_fn(job, kernel, file, line, grid, block, smem,
                         [](void *p) { (*static_cast<F *>(p))(); }, &body, func);
}

/* -------------------------------------------------------------- barriers */

enum { SIM_BAR_SYNC = 0, SIM_BAR_COUNT, SIM_BAR_AND, SIM_BAR_OR, SIM_BAR_CG, SIM_BAR_TILE, SIM_BAR_GRID };
/* Wait until every thread of the block arrived at this barrier; returns the
 * count / and / or of pred for the _count/_and/_or forms. */
/* site: the call site's identity (a static object of each __syncthreads
 * written in the source), so two barriers on one line are two barriers */
int sim_barrier(int kind, int pred, int line, const char *file, const void *site = nullptr);
/* thread_block_tile<n>::sync() for a tile wider than a warp (n = 64 to 512):
 * wait until every thread of the caller's tile arrived at this barrier. */
void sim_tile_barrier(unsigned n, int line, const char *file);
/* this_grid().sync(): wait until every thread of the grid arrived. Only in a
 * cooperative launch; otherwise the launch fails, as the GPU traps there. */
void sim_grid_sync(int line, const char *file);
int sim_grid_valid(void);   /* 1 inside a cooperative launch (this_grid().is_valid()) */

} /* namespace gpulab_sim */

#define SIM_BAR_SITE (__extension__({ static const char sim_bar_site_ = 0; &sim_bar_site_; }))
#define __syncthreads() \
    ((void)::gpulab_sim::sim_barrier(::gpulab_sim::SIM_BAR_SYNC, 0, __LINE__, __FILE__, SIM_BAR_SITE))
#define __syncthreads_count(p) \
    ::gpulab_sim::sim_barrier(::gpulab_sim::SIM_BAR_COUNT, (p) ? 1 : 0, __LINE__, __FILE__, SIM_BAR_SITE)
#define __syncthreads_and(p) \
    ::gpulab_sim::sim_barrier(::gpulab_sim::SIM_BAR_AND, (p) ? 1 : 0, __LINE__, __FILE__, SIM_BAR_SITE)
#define __syncthreads_or(p) \
    ::gpulab_sim::sim_barrier(::gpulab_sim::SIM_BAR_OR, (p) ? 1 : 0, __LINE__, __FILE__, SIM_BAR_SITE)

namespace gpulab_sim {

/* ------------------------------------------------------------ lane loops */

/* A kernel's second form from the source pass (kernels/program/lanes.c):
 * each region between two barriers runs as a loop over the block's threads
 * (lanes.cpp). sim_lanes_here: 1 where the block may run so (its first
 * thread, nothing that needs the threads' own interleaving). */
int sim_lanes_here(void);
struct sim_lanes {
    unsigned n;                    /* the block's threads */
    sim_lanes();
    /* the form's last statement. Not a destructor: one would give every
     * call of the form an exception edge to it, and g++ then keeps the
     * values of the threads' loops (a sum, a loaded element) in memory */
    void end();
    void barrier(int line, const char *file); /* every thread has reached __syncthreads() */
    void *slot(size_t size, size_t align);    /* n copies of a variable */
    sim_lanes(const sim_lanes &) = delete;
    sim_lanes &operator=(const sim_lanes &) = delete;
};
void sim_lane_enter(unsigned i);   /* thread i of the block runs */
/* A variable's copy for the running thread, in and out. Outside the access
 * hook: the copies are the threads' registers, not device memory. */
template <class T> __attribute__((no_sanitize_thread, noipa)) static T sim_lane_get(const T *p) { return *p; }
template <class S, class V> __attribute__((no_sanitize_thread, noipa)) static void sim_lane_keep(S *p, V v)
{
    static_assert(sizeof(S) == sizeof(V), "a variable and its copies are of one type");
    static_assert(std::is_trivially_copyable<V>::value, "a variable kept across a barrier is copied");
    __builtin_memcpy((void *)p, (const void *)&v, sizeof v);
}
/* An array's copy comes in a struct, by value: the running thread's own
 * local array, as in the kernel, that no pointer of the block may alias. */
template <class T> struct sim_lane_box {
    alignas(T) unsigned char bytes[sizeof(T)];
    T &v() { return *reinterpret_cast<T *>(bytes); }
};
template <class T, class S>
__attribute__((no_sanitize_thread, noipa)) static sim_lane_box<T> sim_lane_get_array(const S *p)
{
    static_assert(sizeof(S) == sizeof(sim_lane_box<T>), "a variable and its copies are of one type");
    sim_lane_box<T> b;
    __builtin_memcpy((void *)&b, (const void *)p, sizeof b);
    return b;
}
template <class S, class V>
__attribute__((no_sanitize_thread, noipa)) static void sim_lane_keep_array(S *p, const V &v)
{
    static_assert(sizeof(S) == sizeof(V), "a variable and its copies are of one type");
    static_assert(std::is_trivially_copyable<typename std::remove_all_extents<V>::type>::value,
                  "a variable kept across a barrier is copied");
    __builtin_memcpy((void *)p, (const void *)&v, sizeof v);
}

/* --------------------------------------------------------- shared memory */

/* One SHARED()/DYNAMIC_SHARED() declaration: a static per declaration, so
 * every fiber of a block finds the same storage. ptr is valid while gen is
 * the running block's generation; the first fiber of a block to reach the
 * declaration places (and poisons) it. */
struct sim_shared_site {
    const char *name, *file;
    int line;
    int dynamic;
    /* where each worker thread's running block placed it (its own arena) */
    struct {
        unsigned long long gen;
        void *ptr;
    } at[SIM_WORKERS_MAX];
    size_t count, rows, cols, elem;
    size_t packed;             /* its offset in the block's shared memory as a GPU lays it out */
    const char *dims;          /* "[2][2][3]": an array of three or more dimensions, as declared */
    /* constexpr: a static site is initialised at compile time, no guard */
    constexpr sim_shared_site(const char *n, const char *f, int l, int dyn, const char *d = nullptr)
        : name(n), file(f), line(l), dynamic(dyn), at{}, count(0), rows(0), cols(0), elem(0), packed(0), dims(d) {}
};
extern __thread unsigned long long sim_block_gen; /* unique over all workers' blocks */

/* SIM_ACC_REF: a reference to a struct element, which may be read or written */
enum { SIM_ACC_READ = 0, SIM_ACC_WRITE = 1, SIM_ACC_ATOMIC = 2, SIM_ACC_REF = 3 };

void *sim_shared_place(sim_shared_site *s, size_t elem, size_t align, size_t rows, size_t cols);
/* an index outside the array: reported (memcheck's grouped report), and
 * the access goes to scratch storage so the thread can go on */
void *sim_shared_oob(const sim_shared_site *s, long long i, long long j, int dims);

/* A load of the simulator's own state from kernel code, which the
 * instrumentation (record.h) does not see: the access hook would take it for
 * a host variable at the cost of a call. A load like any other for the
 * compiler (its memory operand), so it is repeated after a call. */
template <class T> static inline __attribute__((always_inline)) T sim_own_load(const T &v)
{
#if defined(__x86_64__)
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "a word of the simulator's state");
    T r;
    __asm__("mov %1, %0" : "=r"(r) : "m"(v));
    return r;
#else
    return v;
#endif
}

static inline void *sim_shared_get(sim_shared_site *s, size_t elem, size_t align, size_t rows, size_t cols)
{
    const unsigned w = sim_worker_now();
    if (sim_own_load(s->at[w].gen) == sim_own_load(sim_block_gen)) return sim_own_load(s->at[w].ptr);
    return sim_shared_place(s, elem, align, rows, cols);
}

/* A shared element whose index the proxy has checked needs nothing more of
 * the access hook (check.h) unless a checker or a reader of the recording
 * wants it: memcheck's test of it would repeat the index test. Then the
 * proxy reads and writes it with asm the instrumentation does not see
 * (sim_acc_direct). When the one checker (the race check) takes plain loads
 * and stores itself (sim_acc_plain), the proxy gives them to it
 * (sim_acc_shared_load and _store) without the hook's search for the object
 * the proxy already knows. Both are set per block, so they are the same
 * through a kernel call and read like threadIdx. The direct way is the one
 * expected: with that, and g++'s loop-by-loop register allocation
 * (-fira-region=all), a kernel's values stay in registers across the other
 * ways' calls. */
#if defined(__x86_64__) && (!defined(__PIC__) || defined(__PIE__))
#define SIM_ACC_FLAG_NOW(name)                                              \
    static inline __attribute__((always_inline)) int name##_now()          \
    {                                                                       \
        int on;                                                             \
        __asm__("movl %%fs:" #name "@tpoff, %0" : "=r"(on));                \
        return on;                                                          \
    }
#else
#define SIM_ACC_FLAG_NOW(name) \
    static inline int name##_now() { return 0; }
#endif
SIM_ACC_FLAG_NOW(sim_acc_direct)
SIM_ACC_FLAG_NOW(sim_acc_plain)
#undef SIM_ACC_FLAG_NOW
template <class T, size_t N = sizeof(T)> struct sim_direct {
    static constexpr bool ok = false;
    static T load(const T *p) { return *p; }
    static void store(T *p, const T &v) { *p = v; }
};
#if defined(__x86_64__)
#define SIM_DIRECT(N, U, SUF)                                                                     \
    template <class T> struct sim_direct<T, N> {                                                  \
        static constexpr bool ok = std::is_arithmetic<T>::value;                                  \
        static __attribute__((always_inline)) T load(const T *p)                                  \
        {                                                                                         \
            U u;                                                                                  \
            __asm__("mov" SUF " %1, %0" : "=r"(u) : "m"(*(const U *)(const void *)p));             \
            T v;                                                                                  \
            __builtin_memcpy(&v, &u, N);                                                          \
            return v;                                                                             \
        }                                                                                         \
        static __attribute__((always_inline)) void store(T *p, const T &v)                        \
        {                                                                                         \
            U u;                                                                                  \
            __builtin_memcpy(&u, &v, N);                                                          \
            __asm__("mov" SUF " %1, %0" : "=m"(*(U *)(void *)p) : "r"(u));                         \
        }                                                                                         \
    };
/* may_alias: the asm's memory operand is the element itself, whatever its type */
typedef uint8_t sim_u8a __attribute__((may_alias));
typedef uint16_t sim_u16a __attribute__((may_alias));
typedef uint32_t sim_u32a __attribute__((may_alias));
typedef uint64_t sim_u64a __attribute__((may_alias));
SIM_DIRECT(1, sim_u8a, "b")
SIM_DIRECT(2, sim_u16a, "w")
SIM_DIRECT(4, sim_u32a, "l")
SIM_DIRECT(8, sim_u64a, "q")
#undef SIM_DIRECT
#endif

template <class T> struct sim_ref;

/* The value behind a shared element proxy, or the argument itself. */
template <class T> static inline const T &sim_unref(const T &v) { return v; }
template <class T> static inline __attribute__((always_inline)) T sim_unref(const sim_ref<T> &r) { return r.get(); }
template <class T> struct sim_value { typedef T type; };
template <class T> struct sim_value<sim_ref<T>> { typedef T type; };

template <class I> static inline long long sim_index(const I &i)
{
    typedef typename std::decay<decltype(sim_unref(i))>::type V;
    static_assert(std::is_integral<V>::value || std::is_enum<V>::value,
                  "a shared-memory index must be an integer");
    return (long long)sim_unref(i);
}

/* One element of a shared array of numbers: reads and writes go through here
 * so race-check mode can see them; &s[i] is the element's real address. */
template <class T> struct sim_ref {
    T *p;
    const sim_shared_site *site;
    long long i, j; /* the index (j < 0 for a 1D array) */

    __attribute__((always_inline)) T get() const
    {
        if (sim_direct<T>::ok && __builtin_expect(sim_acc_direct_now(), 1)) return sim_direct<T>::load(p);
        if (sim_direct<T>::ok && (sizeof(T) == 4 || sizeof(T) == 8) && !std::is_volatile<T>::value &&
            sim_acc_plain_now()) {
            sim_acc_shared_load(p, sizeof(T));
            return sim_direct<T>::load(p);
        }
        return *p;
    }
    __attribute__((always_inline)) void put(const T &v) const
    {
        if (sim_direct<T>::ok && __builtin_expect(sim_acc_direct_now(), 1)) return sim_direct<T>::store(p, v);
        if (sim_direct<T>::ok && (sizeof(T) == 4 || sizeof(T) == 8) && !std::is_volatile<T>::value &&
            sim_acc_plain_now()) {
            sim_acc_shared_store(p, sizeof(T));
            return sim_direct<T>::store(p, v);
        }
        *p = v;
    }
    /* always inlined, so that the access's site is the kernel's line
     * (kernels/sim/record.h names sites through the inlined calls) */
#define SIM_REF_INLINE __attribute__((always_inline))
    SIM_REF_INLINE operator T() const { return get(); }
    /* the element bound to a T& parameter (a swap or compare-exchange
     * helper): the function reads and writes it through the reference. A
     * template, so that the plain value conversion above wins every other
     * context */
    template <class U, class = typename std::enable_if<std::is_same<U, T>::value>::type>
    SIM_REF_INLINE operator U &() const
    {
        return *p;
    }
    T *operator&() const { return p; }

    SIM_REF_INLINE sim_ref &operator=(const T &v) { put(v); return *this; }
    SIM_REF_INLINE sim_ref &operator=(const sim_ref &o) { put(o.get()); return *this; }
    template <class U> SIM_REF_INLINE sim_ref &operator=(const sim_ref<U> &o) { put((T)o.get()); return *this; }

#define SIM_REF_COMPOUND(op)                                 \
    template <class U> SIM_REF_INLINE sim_ref &operator op(const U &v) \
    {                                                        \
        T x = get();                                         \
        x op sim_unref(v);                                   \
        put(x);                                              \
        return *this;                                        \
    }
    SIM_REF_COMPOUND(+=) SIM_REF_COMPOUND(-=) SIM_REF_COMPOUND(*=) SIM_REF_COMPOUND(/=)
    SIM_REF_COMPOUND(%=) SIM_REF_COMPOUND(&=) SIM_REF_COMPOUND(|=) SIM_REF_COMPOUND(^=)
    SIM_REF_COMPOUND(<<=) SIM_REF_COMPOUND(>>=)
#undef SIM_REF_COMPOUND

    SIM_REF_INLINE sim_ref &operator++() { T x = get(); ++x; put(x); return *this; }
    SIM_REF_INLINE sim_ref &operator--() { T x = get(); --x; put(x); return *this; }
    SIM_REF_INLINE T operator++(int) { T x = get(); T y = x; ++y; put(y); return x; }
    SIM_REF_INLINE T operator--(int) { T x = get(); T y = x; --y; put(y); return x; }
#undef SIM_REF_INLINE
};

/* Arrays of numbers hand out proxies; arrays of structs (float4, a pair...)
 * hand out plain references, so s[i].x works; their accesses count as reads
 * in race-check mode. */
template <class T, bool = std::is_arithmetic<T>::value> struct sim_elem {
    typedef sim_ref<T> ref;
    static ref make(T *p, const sim_shared_site *s, long long i, long long j) { return ref{p, s, i, j}; }
};
template <class T> struct sim_elem<T, false> {
    typedef T &ref;
    static T &make(T *p, const sim_shared_site *s, long long i, long long j)
    {
        return *p;
    }
};

template <class T> struct sim_shared_array {
    T *base;
    size_t n;
    const sim_shared_site *site;
    sim_shared_array(sim_shared_site *s, size_t count)
        : base(static_cast<T *>(sim_shared_get(s, sizeof(T), alignof(T), count, 1))), n(sim_own_load(s->count)),
          site(s) {}
    template <class I> typename sim_elem<T>::ref operator[](const I &idx) const
    {
        long long k = sim_index(idx);
        if (__builtin_expect((unsigned long long)k >= n, 0))
            return sim_elem<T>::make(static_cast<T *>(sim_shared_oob(site, k, -1, 1)), site, k, -1);
        return sim_elem<T>::make(base + k, site, k, -1);
    }
    operator T *() const { return base; }
    /* `(float *)sdata`, `(T *)smem`: the array's bytes seen as another
     * type. The pointer is the array's own address, so an access through it
     * past the array's bytes lands in the red zone after it (memcheck) */
    template <class U> explicit operator U *() const { return reinterpret_cast<U *>(base); }
};

template <class T> struct sim_shared_row {
    T *base;
    size_t cols;
    const sim_shared_site *site;
    long long r;
    template <class I> typename sim_elem<T>::ref operator[](const I &idx) const
    {
        long long c = sim_index(idx);
        if (__builtin_expect((unsigned long long)c >= cols, 0))
            return sim_elem<T>::make(static_cast<T *>(sim_shared_oob(site, r, c, 2)), site, r, c);
        return sim_elem<T>::make(base + c, site, r, c);
    }
    operator T *() const { return base; }
    template <class U> explicit operator U *() const { return reinterpret_cast<U *>(base); }
};

template <class T> struct sim_shared_array2 {
    T *base;
    size_t rows, cols;
    const sim_shared_site *site;
    sim_shared_array2(sim_shared_site *s, size_t r, size_t c)
        : base(static_cast<T *>(sim_shared_get(s, sizeof(T), alignof(T), r, c))), rows(r), cols(c), site(s) {}
    template <class I> sim_shared_row<T> operator[](const I &idx) const
    {
        long long r = sim_index(idx);
        if (__builtin_expect((unsigned long long)r >= rows, 0))
            return sim_shared_row<T>{static_cast<T *>(sim_shared_oob(site, r, -1, 2)), cols, site, r};
        return sim_shared_row<T>{base + r * cols, cols, site, r};
    }
    operator T *() const { return base; }
    template <class U> explicit operator U *() const { return reinterpret_cast<U *>(base); }
};

} /* namespace gpulab_sim */

#define SIM_SHARED(T, name, N)                                                                         \
    static ::gpulab_sim::sim_shared_site sim_site_##name(#name, __FILE__, __LINE__, 0); \
    const ::gpulab_sim::sim_shared_array<T> name(&sim_site_##name, (size_t)(N))
#define SIM_SHARED2(T, name, R, C)                                                                     \
    static ::gpulab_sim::sim_shared_site sim_site_##name(#name, __FILE__, __LINE__, 0); \
    const ::gpulab_sim::sim_shared_array2<T> name(&sim_site_##name, (size_t)(R), (size_t)(C))
#define SIM_DYNAMIC_SHARED(T, name)                                                                    \
    static ::gpulab_sim::sim_shared_site sim_site_##name(#name, __FILE__, __LINE__, 1); \
    const ::gpulab_sim::sim_shared_array<T> name(&sim_site_##name, 0)

namespace gpulab_sim {

/* ---------------------------------------------------------------- atomics */

/* Ctrl-C (lab_interrupted) stops the launch at the next atomic, fence,
 * __nanosleep or barrier: a kernel that spins waiting for another block
 * would otherwise spin for ever, since blocks run one after another. */
void sim_stop_interrupted(void); /* in a kernel: fails the launch; in host code: nothing */
static inline void sim_poll_interrupt(void)
{
    if (lab_interrupted) sim_stop_interrupted();
}

/* Fibers switch only at barriers and collectives, so an atomic is a plain
 * read-modify-write. In race-check mode it is recorded as atomic: atomics on
 * one word do not race with each other, only with plain accesses. */
/* par.cpp: an atomic on p (or a fence: NULL) in a block that runs beside
 * earlier ones waits until they have ended, unless p is the block's own
 * shared memory; then the block runs in the one-worker order */
void sim_par_order(const void *p);
template <class T, class F> static inline __attribute__((always_inline)) T sim_rmw(T *p, F f)
{
    sim_poll_interrupt();
    if (sim_par_unordered_now()) sim_par_order(p);
    const int acc = ::sim_acc_on;
    if (acc) sim_rec_atomic(p, sizeof(T)); /* check.h: one atomic access */
    T old = *p;
    *p = f(old);
    /* its own load and store were not accesses of their own; the compiler
     * drops the load where f ignores it (atomicExch's value unused), so
     * the muting ends here rather than after a count */
    if (acc) sim_rec_atomic_end();
    return old;
}

/* wrap-around arithmetic, as the hardware does, without signed overflow */
static inline int atomicAdd(int *p, int v) { return sim_rmw(p, [v](int o) { return (int)((unsigned)o + (unsigned)v); }); }
static inline unsigned atomicAdd(unsigned *p, unsigned v) { return sim_rmw(p, [v](unsigned o) { return o + v; }); }
static inline unsigned long long atomicAdd(unsigned long long *p, unsigned long long v)
{
    return sim_rmw(p, [v](unsigned long long o) { return o + v; });
}
static inline float atomicAdd(float *p, float v) { return sim_rmw(p, [v](float o) { return o + v; }); }
static inline double atomicAdd(double *p, double v) { return sim_rmw(p, [v](double o) { return o + v; }); }
static inline int atomicSub(int *p, int v) { return sim_rmw(p, [v](int o) { return (int)((unsigned)o - (unsigned)v); }); }
static inline unsigned atomicSub(unsigned *p, unsigned v) { return sim_rmw(p, [v](unsigned o) { return o - v; }); }
static inline int atomicExch(int *p, int v) { return sim_rmw(p, [v](int) { return v; }); }
static inline unsigned atomicExch(unsigned *p, unsigned v) { return sim_rmw(p, [v](unsigned) { return v; }); }
static inline unsigned long long atomicExch(unsigned long long *p, unsigned long long v)
{
    return sim_rmw(p, [v](unsigned long long) { return v; });
}
static inline float atomicExch(float *p, float v) { return sim_rmw(p, [v](float) { return v; }); }
#define SIM_ATOMIC_MINMAX(T)                                                                        \
    static inline T atomicMin(T *p, T v) { return sim_rmw(p, [v](T o) { return v < o ? v : o; }); } \
    static inline T atomicMax(T *p, T v) { return sim_rmw(p, [v](T o) { return v > o ? v : o; }); }
SIM_ATOMIC_MINMAX(int)
SIM_ATOMIC_MINMAX(unsigned)
SIM_ATOMIC_MINMAX(long long)
SIM_ATOMIC_MINMAX(unsigned long long)
#undef SIM_ATOMIC_MINMAX
/* CUDA's wrapping counters */
static inline unsigned atomicInc(unsigned *p, unsigned v)
{
    return sim_rmw(p, [v](unsigned o) { return o >= v ? 0u : o + 1; });
}
static inline unsigned atomicDec(unsigned *p, unsigned v)
{
    return sim_rmw(p, [v](unsigned o) { return (o == 0 || o > v) ? v : o - 1; });
}
#define SIM_ATOMIC_CAS(T) \
    static inline T atomicCAS(T *p, T cmp, T v) { return sim_rmw(p, [cmp, v](T o) { return o == cmp ? v : o; }); }
SIM_ATOMIC_CAS(int)
SIM_ATOMIC_CAS(unsigned)
SIM_ATOMIC_CAS(unsigned long long)
SIM_ATOMIC_CAS(unsigned short)
#undef SIM_ATOMIC_CAS
#define SIM_ATOMIC_BITS(T)                                                                           \
    static inline T atomicAnd(T *p, T v) { return sim_rmw(p, [v](T o) { return (T)(o & v); }); }     \
    static inline T atomicOr(T *p, T v) { return sim_rmw(p, [v](T o) { return (T)(o | v); }); }      \
    static inline T atomicXor(T *p, T v) { return sim_rmw(p, [v](T o) { return (T)(o ^ v); }); }
SIM_ATOMIC_BITS(int)
SIM_ATOMIC_BITS(unsigned)
SIM_ATOMIC_BITS(unsigned long long)
#undef SIM_ATOMIC_BITS

} /* namespace gpulab_sim */

/* The scoped forms behave alike on one simulated device. */
#define atomicAdd_block atomicAdd
#define atomicAdd_system atomicAdd
#define atomicSub_block atomicSub
#define atomicSub_system atomicSub
#define atomicExch_block atomicExch
#define atomicExch_system atomicExch
#define atomicMin_block atomicMin
#define atomicMin_system atomicMin
#define atomicMax_block atomicMax
#define atomicMax_system atomicMax
#define atomicInc_block atomicInc
#define atomicInc_system atomicInc
#define atomicDec_block atomicDec
#define atomicDec_system atomicDec
#define atomicCAS_block atomicCAS
#define atomicCAS_system atomicCAS
#define atomicAnd_block atomicAnd
#define atomicAnd_system atomicAnd
#define atomicOr_block atomicOr
#define atomicOr_system atomicOr
#define atomicXor_block atomicXor
#define atomicXor_system atomicXor

namespace gpulab_sim {

/* ------------------------------------------------------ warp collectives */

enum {
    SIM_W_SHFL_IDX = 0, SIM_W_SHFL_UP, SIM_W_SHFL_DOWN, SIM_W_SHFL_XOR,
    SIM_W_BALLOT, SIM_W_ANY, SIM_W_ALL, SIM_W_MATCH_ANY, SIM_W_MATCH_ALL, SIM_W_SYNC,
    SIM_W_RED_ADD, SIM_W_RED_MIN_S, SIM_W_RED_MAX_S, SIM_W_RED_MIN_U, SIM_W_RED_MAX_U,
    SIM_W_RED_AND, SIM_W_RED_OR, SIM_W_RED_XOR, SIM_W_ACTIVEMASK
};
/* Deposit this lane's value and wait until every lane named in mask has
 * reached the same collective (same call site, same mask); then each gets
 * its result. pred receives __match_all_sync's predicate. */
unsigned long long sim_warp(int op, unsigned mask, unsigned long long value, int arg, int width, int line,
                            const char *file, const char *name, int *pred);

template <class T> static inline unsigned long long sim_bits(const T &v)
{
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable<T>::value,
                  "warp shuffles move values of at most 8 bytes");
    unsigned long long b = 0;
    memcpy(&b, &v, sizeof v);
    return b;
}
template <class T> static inline T sim_from_bits(unsigned long long b)
{
    T v;
    memcpy(&v, &b, sizeof v);
    return v;
}

/* A tile shuffle of any trivially copyable type (cooperative groups allow
 * more than 8 bytes): one collective per 8 bytes, as the GPU does it. */
template <class V>
static inline V sim_shfl_wide(int op, unsigned mask, const V &v, int arg, int width, int line, const char *file,
                              const char *name)
{
    static_assert(std::is_trivially_copyable<V>::value, "a shuffled value must be trivially copyable");
    if constexpr (sizeof(V) <= 8) {
        return sim_from_bits<V>(sim_warp(op, mask, sim_bits(v), arg, width, line, file, name, nullptr));
    }
    unsigned char in[(sizeof(V) + 7) / 8 * 8] = {0}, out[sizeof in];
    memcpy(in, &v, sizeof(V));
    for (size_t k = 0; k < sizeof in; k += 8) {
        unsigned long long b;
        memcpy(&b, in + k, 8);
        b = sim_warp(op, mask, b, arg, width, line, file, name, nullptr);
        memcpy(out + k, &b, 8);
    }
    V r;
    memcpy(&r, out, sizeof(V));
    return r;
}

#define SIM_SHFL(fn, op, argtype)                                                                      \
    template <class T>                                                                                 \
    static inline typename sim_value<T>::type fn(unsigned mask, const T &var, argtype arg, int width = 32, \
                                                 int line = __builtin_LINE(),                          \
                                                 const char *file = __builtin_FILE())                  \
    {                                                                                                  \
        typedef typename sim_value<T>::type V;                                                         \
        V v = sim_unref(var);                                                                          \
        return sim_from_bits<V>(sim_warp(op, mask, sim_bits(v), (int)arg, width, line, file, #fn, nullptr)); \
    }
SIM_SHFL(__shfl_sync, SIM_W_SHFL_IDX, int)
SIM_SHFL(__shfl_up_sync, SIM_W_SHFL_UP, unsigned int)
SIM_SHFL(__shfl_down_sync, SIM_W_SHFL_DOWN, unsigned int)
SIM_SHFL(__shfl_xor_sync, SIM_W_SHFL_XOR, int)
#undef SIM_SHFL

static inline unsigned __ballot_sync(unsigned mask, int pred, int line = __builtin_LINE(),
                                     const char *file = __builtin_FILE())
{
    return (unsigned)sim_warp(SIM_W_BALLOT, mask, pred != 0, 0, 32, line, file, "__ballot_sync", nullptr);
}
static inline int __any_sync(unsigned mask, int pred, int line = __builtin_LINE(), const char *file = __builtin_FILE())
{
    return (int)sim_warp(SIM_W_ANY, mask, pred != 0, 0, 32, line, file, "__any_sync", nullptr);
}
static inline int __all_sync(unsigned mask, int pred, int line = __builtin_LINE(), const char *file = __builtin_FILE())
{
    return (int)sim_warp(SIM_W_ALL, mask, pred != 0, 0, 32, line, file, "__all_sync", nullptr);
}
template <class T>
static inline unsigned __match_any_sync(unsigned mask, const T &value, int line = __builtin_LINE(),
                                        const char *file = __builtin_FILE())
{
    typename sim_value<T>::type v = sim_unref(value);
    return (unsigned)sim_warp(SIM_W_MATCH_ANY, mask, sim_bits(v), 0, 32, line, file, "__match_any_sync", nullptr);
}
template <class T>
static inline unsigned __match_all_sync(unsigned mask, const T &value, int *pred, int line = __builtin_LINE(),
                                        const char *file = __builtin_FILE())
{
    typename sim_value<T>::type v = sim_unref(value);
    return (unsigned)sim_warp(SIM_W_MATCH_ALL, mask, sim_bits(v), 0, 32, line, file, "__match_all_sync", pred);
}
static inline void __syncwarp(unsigned mask = 0xffffffffu, int line = __builtin_LINE(),
                              const char *file = __builtin_FILE())
{
    (void)sim_warp(SIM_W_SYNC, mask, 0, 0, 32, line, file, "__syncwarp", nullptr);
}
/* The lanes that reach this same call together: it returns once every live
 * lane of the warp has stopped somewhere (here, at a barrier, another
 * collective, or its end), with the lanes that stopped here. */
static inline unsigned __activemask(int line = __builtin_LINE(), const char *file = __builtin_FILE())
{
    return (unsigned)sim_warp(SIM_W_ACTIVEMASK, 0xffffffffu, 0, 0, 32, line, file, "__activemask", nullptr);
}

#define SIM_WREDUCE(fn, T, op)                                                                        \
    static inline T fn(unsigned mask, T value, int line = __builtin_LINE(), const char *file = __builtin_FILE()) \
    {                                                                                                 \
        return (T)sim_warp(op, mask, (unsigned long long)(unsigned)value, 0, 32, line, file, #fn, nullptr); \
    }
SIM_WREDUCE(__reduce_add_sync, unsigned, SIM_W_RED_ADD)
SIM_WREDUCE(__reduce_add_sync, int, SIM_W_RED_ADD)
SIM_WREDUCE(__reduce_min_sync, unsigned, SIM_W_RED_MIN_U)
SIM_WREDUCE(__reduce_min_sync, int, SIM_W_RED_MIN_S)
SIM_WREDUCE(__reduce_max_sync, unsigned, SIM_W_RED_MAX_U)
SIM_WREDUCE(__reduce_max_sync, int, SIM_W_RED_MAX_S)
SIM_WREDUCE(__reduce_and_sync, unsigned, SIM_W_RED_AND)
SIM_WREDUCE(__reduce_or_sync, unsigned, SIM_W_RED_OR)
SIM_WREDUCE(__reduce_xor_sync, unsigned, SIM_W_RED_XOR)
#undef SIM_WREDUCE

/* ------------------------------------------------ device math, intrinsics */

/* min/max over mixed types pick the common type, as CUDA's overloads do. */
template <class A, class B>
static inline auto min(const A &a, const B &b) -> decltype(sim_unref(a) + sim_unref(b))
{
    typedef decltype(sim_unref(a) + sim_unref(b)) R;
    R x = (R)sim_unref(a), y = (R)sim_unref(b);
    return y < x ? y : x;
}
template <class A, class B>
static inline auto max(const A &a, const B &b) -> decltype(sim_unref(a) + sim_unref(b))
{
    typedef decltype(sim_unref(a) + sim_unref(b)) R;
    R x = (R)sim_unref(a), y = (R)sim_unref(b);
    return x < y ? y : x;
}
static inline unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
static inline unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }
static inline long long llmin(long long a, long long b) { return a < b ? a : b; }
static inline long long llmax(long long a, long long b) { return a > b ? a : b; }
static inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
static inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }

static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline int __ffs(int x) { return __builtin_ffs(x); }
static inline int __ffsll(long long x) { return __builtin_ffsll(x); }
static inline int __clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
static inline int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
static inline unsigned __brev(unsigned x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    return __builtin_bswap32(x);
}
static inline unsigned long long __brevll(unsigned long long x)
{
    return ((unsigned long long)__brev((unsigned)x) << 32) | __brev((unsigned)(x >> 32));
}
/* byte n of the result is byte (s >> 4n) & 7 of the 8 bytes y:x */
static inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s)
{
    unsigned long long v = ((unsigned long long)y << 32) | x;
    unsigned r = 0;
    for (int n = 0; n < 4; n++) r |= (unsigned)((v >> (8 * ((s >> (4 * n)) & 7))) & 0xff) << (8 * n);
    return r;
}
static inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned sh)
{
    return (unsigned)(((((unsigned long long)hi << 32) | lo) << (sh & 31)) >> 32);
}
static inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned sh)
{
    return sh >= 32 ? lo : __funnelshift_l(lo, hi, sh);
}
static inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned sh)
{
    return (unsigned)((((unsigned long long)hi << 32) | lo) >> (sh & 31));
}
static inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned sh)
{
    return sh >= 32 ? hi : __funnelshift_r(lo, hi, sh);
}
static inline int __mul24(int a, int b)
{
    long long x = (long long)((int)((unsigned)a << 8) >> 8), y = (long long)((int)((unsigned)b << 8) >> 8);
    return (int)(unsigned)(x * y);
}
static inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffffu) * (b & 0xffffffu); }
static inline int __mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
static inline unsigned __umulhi(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a * b) >> 32); }
static inline long long __mul64hi(long long a, long long b) { return (long long)(((__int128)a * b) >> 64); }
static inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b)
{
    return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
static inline unsigned __sad(int x, int y, unsigned z) { return (unsigned)(x > y ? (long long)x - y : (long long)y - x) + z; }
static inline unsigned __usad(unsigned x, unsigned y, unsigned z) { return (x > y ? x - y : y - x) + z; }
static inline int __hadd(int x, int y) { return (int)(((long long)x + y) >> 1); }
static inline int __rhadd(int x, int y) { return (int)(((long long)x + y + 1) >> 1); }
static inline unsigned __uhadd(unsigned x, unsigned y) { return (unsigned)(((unsigned long long)x + y) >> 1); }
static inline unsigned __urhadd(unsigned x, unsigned y) { return (unsigned)(((unsigned long long)x + y + 1) >> 1); }

static inline int __float_as_int(float f) { int i; memcpy(&i, &f, 4); return i; }
static inline unsigned __float_as_uint(float f) { unsigned i; memcpy(&i, &f, 4); return i; }
static inline float __int_as_float(int i) { float f; memcpy(&f, &i, 4); return f; }
static inline float __uint_as_float(unsigned i) { float f; memcpy(&f, &i, 4); return f; }
static inline long long __double_as_longlong(double d) { long long i; memcpy(&i, &d, 8); return i; }
static inline double __longlong_as_double(long long i) { double d; memcpy(&d, &i, 8); return d; }
static inline int __double2hiint(double d) { return (int)(__double_as_longlong(d) >> 32); }
static inline int __double2loint(double d) { return (int)(unsigned)__double_as_longlong(d); }
static inline double __hiloint2double(int hi, int lo)
{
    return __longlong_as_double((long long)(((unsigned long long)(unsigned)hi << 32) | (unsigned)lo));
}

/* float -> integer conversions saturate like the hardware (NaN gives 0) */
template <class I> static inline I sim_sat(double x)
{
    if (x != x) return 0;
    if (x <= (double)std::numeric_limits<I>::min()) return std::numeric_limits<I>::min();
    if (x >= (double)std::numeric_limits<I>::max()) return std::numeric_limits<I>::max();
    return (I)x;
}
static inline int __float2int_rn(float x) { return sim_sat<int>(nearbyint((double)x)); }
static inline int __float2int_rz(float x) { return sim_sat<int>(trunc((double)x)); }
static inline int __float2int_rd(float x) { return sim_sat<int>(floor((double)x)); }
static inline int __float2int_ru(float x) { return sim_sat<int>(ceil((double)x)); }
static inline unsigned __float2uint_rn(float x) { return sim_sat<unsigned>(nearbyint((double)x)); }
static inline unsigned __float2uint_rz(float x) { return sim_sat<unsigned>(trunc((double)x)); }
static inline unsigned __float2uint_rd(float x) { return sim_sat<unsigned>(floor((double)x)); }
static inline unsigned __float2uint_ru(float x) { return sim_sat<unsigned>(ceil((double)x)); }
static inline long long __float2ll_rn(float x) { return sim_sat<long long>(nearbyint((double)x)); }
static inline long long __float2ll_rz(float x) { return sim_sat<long long>(trunc((double)x)); }
static inline int __double2int_rn(double x) { return sim_sat<int>(nearbyint(x)); }
static inline int __double2int_rz(double x) { return sim_sat<int>(trunc(x)); }
static inline float __int2float_rn(int x) { return (float)x; }
static inline float __uint2float_rn(unsigned x) { return (float)x; }
static inline float __ll2float_rn(long long x) { return (float)x; }
static inline double __int2double_rn(int x) { return (double)x; }
static inline float __double2float_rn(double x) { return (float)x; }

/* fast-math intrinsics: the exact functions here (the GPU's are approximate) */
static inline float __fdividef(float a, float b) { return a / b; }
static inline float __fdiv_rn(float a, float b) { return a / b; }
static inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
static inline float __frcp_rn(float a) { return 1.0f / a; }
static inline float __fsqrt_rn(float a) { return sqrtf(a); }
static inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }
static inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
static inline double rsqrt(double x) { return 1.0 / sqrt(x); }
static inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
static inline float sim_exp10f(float x) { return powf(10.0f, x); }
static inline void sim_sincosf(float x, float *s, float *c) { *s = sinf(x); *c = cosf(x); }
static inline float sinpif(float x) { return (float)sin(M_PI * (double)x); }
static inline float cospif(float x) { return (float)cos(M_PI * (double)x); }
static inline double sinpi(double x) { return sin(M_PI * x); }
static inline double cospi(double x) { return cos(M_PI * x); }
static inline void sincospi(double x, double *s, double *c) { *s = sin(M_PI * x); *c = cos(M_PI * x); }
static inline void sincospif(float x, float *s, float *c) { *s = sinpif(x); *c = cospif(x); }

/* CUDA's inverse error functions, which C's library lacks: a first guess
 * (Winitzki's approximation, from log(z (2 - z)) = log(1 - y^2) so that z
 * near 0 keeps its digits) refined by Newton steps on erfc, in double */
static inline double erfcinv(double z)
{
    if (!(z > 0.0 && z < 2.0)) return z == 0.0 ? INFINITY : z == 2.0 ? -INFINITY : NAN;
    if (z > 1.0) return -erfcinv(2.0 - z);
    const double a = 0.147, l = log(z * (2.0 - z)), t = 2.0 / (M_PI * a) + l / 2.0;
    double x = sqrt(sqrt(t * t - l / a) - t);
    for (int i = 0; i < 6; i++) {
        double d = -2.0 / sqrt(M_PI) * exp(-x * x);
        if (d == 0.0) break;
        double step = (erfc(x) - z) / d;
        x -= step;
        if (fabs(step) <= 1e-17 * fabs(x)) break;
    }
    return x;
}
static inline double erfinv(double y)
{
    if (fabs(y) >= 0.5) return y > 0 ? erfcinv(1.0 - y) : -erfcinv(1.0 + y);
    /* small y: Newton on erf, from the series' first term */
    double x = y * sqrt(M_PI) / 2.0;
    for (int i = 0; i < 6; i++) x -= (erf(x) - y) / (2.0 / sqrt(M_PI) * exp(-x * x));
    return x;
}
static inline float erfcinvf(float z) { return (float)erfcinv(z); }
static inline float erfinvf(float y) { return (float)erfinv(y); }
static inline double normcdf(double x) { return 0.5 * erfc(-x / M_SQRT2); }
static inline float normcdff(float x) { return (float)normcdf(x); }
static inline double normcdfinv(double p) { return -M_SQRT2 * erfcinv(2.0 * p); }
static inline float normcdfinvf(float p) { return (float)normcdfinv(p); }
static inline float __saturatef(float x) { return x != x ? 0.0f : x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }

/* cache-hinted loads and stores are plain ones */
template <class T> static inline T __ldg(const T *p) { return *p; }
template <class T> static inline T __ldcg(const T *p) { return *p; }
template <class T> static inline T __ldca(const T *p) { return *p; }
template <class T> static inline T __ldcs(const T *p) { return *p; }
template <class T> static inline T __ldlu(const T *p) { return *p; }
template <class T> static inline T __ldcv(const T *p) { return *p; }
template <class T> static inline void __stwb(T *p, T v) { *p = v; }
template <class T> static inline void __stcg(T *p, T v) { *p = v; }
template <class T> static inline void __stcs(T *p, T v) { *p = v; }
template <class T> static inline void __stwt(T *p, T v) { *p = v; }

/* One thread runs at a time: memory is always coherent. */
/* a fence: the race check orders the stores after it (race.h) */
static inline void __threadfence(void)
{
    sim_poll_interrupt();
    if (sim_par_unordered_now()) sim_par_order(nullptr);
    sim_threadfence(1);
}
static inline void __threadfence_block(void) { sim_poll_interrupt(); sim_threadfence(0); }
static inline void __threadfence_system(void)
{
    sim_poll_interrupt();
    if (sim_par_unordered_now()) sim_par_order(nullptr);
    sim_threadfence(2);
}
static inline void __nanosleep(unsigned ns) { (void)ns; sim_poll_interrupt(); }

/* A counter that grows by one per call: deterministic, unlike a clock. */
long long sim_clock64(void);
static inline long long clock64(void) { return sim_clock64(); }

int sim_is_shared(const void *p);
static inline unsigned __isShared(const void *p) { return sim_is_shared(p) ? 1u : 0u; }
static inline unsigned __isGlobal(const void *p) { return sim_is_shared(p) ? 0u : 1u; }

/* __trap(): the launch fails with a diagnostic naming the thread and line. */
[[noreturn]] void sim_trap(int line, const char *file);

} /* namespace gpulab_sim */

#define __trap() ::gpulab_sim::sim_trap(__LINE__, __FILE__)

/* glibc declares (but does not export) functions of these names, so they are
 * macros: the GPU's fast approximations become the exact functions. */
#define __expf(x) expf(x)
#define __exp10f(x) ::gpulab_sim::sim_exp10f(x)
#define __logf(x) logf(x)
#define __log2f(x) log2f(x)
#define __log10f(x) log10f(x)
#define __sinf(x) sinf(x)
#define __cosf(x) cosf(x)
#define __tanf(x) tanf(x)
#define __powf(x, y) powf((x), (y))
#define __sincosf(x, s, c) ::gpulab_sim::sim_sincosf((x), (s), (c))

/* ---------------------------------------------------- cooperative groups */

namespace gpulab_sim_cg {

using ::gpulab_sim::dim3;

class thread_block {
public:
    void sync(int line = __builtin_LINE(), const char *file = __builtin_FILE()) const
    {
        (void)::gpulab_sim::sim_barrier(::gpulab_sim::SIM_BAR_CG, 0, line, file);
    }
    static unsigned thread_rank() { return ::gpulab_sim::sim_cur->linear; }
    static unsigned size() { return blockDim.x * blockDim.y * blockDim.z; }
    static unsigned num_threads() { return size(); }
    static dim3 group_index() { return dim3(blockIdx); }
    static dim3 thread_index() { return dim3(threadIdx); }
    static dim3 group_dim() { return blockDim; }
    static dim3 dim_threads() { return blockDim; }
};
static inline thread_block this_thread_block() { return thread_block(); }

/* A tile of N consecutive threads of the block, N a power of two up to 512.
 * Up to 32 it lies inside a warp, and its collectives are the warp
 * intrinsics with the tile's lanes as the mask and N as the width. Wider
 * tiles (64 to 512: several whole warps) have sync(), size(), thread_rank()
 * and the meta_group ranks only; the CUDA headers refuse their shuffles and
 * votes, and so does the shim. */
template <unsigned N, class Parent = void> class thread_block_tile;

#define SIM_TILE_NARROW(fn)                                                                              \
    static_assert(N <= 32, "thread_block_tile::" fn " exists only for tiles of at most 32 threads (one "  \
                           "warp); a wider tile has sync(), size(), thread_rank(), meta_group_rank() and " \
                           "meta_group_size()")

template <unsigned N> class thread_block_tile<N, void> {
    static_assert(N >= 1 && N <= 512 && (N & (N - 1)) == 0,
                  "a tile holds a power of two of threads, at most 512");

protected:
    unsigned meta_rank_, meta_size_; /* this tile's place among its parent's tiles */

public:
    thread_block_tile()
        : meta_rank_(::gpulab_sim::sim_cur->linear / N), meta_size_((thread_block::size() + N - 1) / N) {}
    static constexpr unsigned num_threads() { return N; }
    static constexpr unsigned size() { return N; }
    static unsigned thread_rank() { return ::gpulab_sim::sim_cur->linear & (N - 1); }
    unsigned meta_group_rank() const { return meta_rank_; }
    unsigned meta_group_size() const { return meta_size_; }
    /* the tile's lanes in the warp (a wider tile: the whole warp) */
    static unsigned tile_mask()
    {
        unsigned lane = ::gpulab_sim::sim_cur->lane;
        return N >= 32 ? 0xffffffffu : (((1u << (N & 31)) - 1u) << (lane & ~(N - 1)));
    }
    void sync(int line = __builtin_LINE(), const char *file = __builtin_FILE()) const
    {
        if constexpr (N <= 32)
            (void)::gpulab_sim::sim_warp(::gpulab_sim::SIM_W_SYNC, tile_mask(), 0, 0, 32, line, file,
                                         "thread_block_tile::sync", nullptr);
        else
            ::gpulab_sim::sim_tile_barrier(N, line, file);
    }
#define SIM_TILE_SHFL(fn, op, argtype)                                                                 \
    template <class T>                                                                                 \
    typename ::gpulab_sim::sim_value<T>::type fn(const T &var, argtype arg, int line = __builtin_LINE(), \
                                                 const char *file = __builtin_FILE()) const            \
    {                                                                                                  \
        SIM_TILE_NARROW(#fn);                                                                          \
        typedef typename ::gpulab_sim::sim_value<T>::type V;                                           \
        V v = ::gpulab_sim::sim_unref(var);                                                            \
        return ::gpulab_sim::sim_shfl_wide<V>(op, tile_mask(), v, (int)arg, (int)N, line, file,        \
                                              "thread_block_tile::" #fn);                              \
    }
    SIM_TILE_SHFL(shfl, ::gpulab_sim::SIM_W_SHFL_IDX, int)
    SIM_TILE_SHFL(shfl_up, ::gpulab_sim::SIM_W_SHFL_UP, unsigned int)
    SIM_TILE_SHFL(shfl_down, ::gpulab_sim::SIM_W_SHFL_DOWN, unsigned int)
    SIM_TILE_SHFL(shfl_xor, ::gpulab_sim::SIM_W_SHFL_XOR, int)
#undef SIM_TILE_SHFL
    /* the tile's own lanes, as bits 0..N-1 */
    unsigned ballot(int pred, int line = __builtin_LINE(), const char *file = __builtin_FILE()) const
    {
        SIM_TILE_NARROW("ballot");
        unsigned m = tile_mask();
        unsigned b = (unsigned)::gpulab_sim::sim_warp(::gpulab_sim::SIM_W_BALLOT, m, pred != 0, 0, 32, line,
                                                      file, "thread_block_tile::ballot", nullptr);
        return (b & m) >> __builtin_ctz(m);
    }
    int any(int pred, int line = __builtin_LINE(), const char *file = __builtin_FILE()) const
    {
        SIM_TILE_NARROW("any");
        return (int)::gpulab_sim::sim_warp(::gpulab_sim::SIM_W_ANY, tile_mask(), pred != 0, 0, 32, line, file,
                                           "thread_block_tile::any", nullptr);
    }
    /* as CUDA computes it: the tile's ballot against the whole tile mask, so a
     * tile cut short by the end of the block is never "all" */
    int all(int pred, int line = __builtin_LINE(), const char *file = __builtin_FILE()) const
    {
        SIM_TILE_NARROW("all");
        unsigned m = tile_mask();
        unsigned b = (unsigned)::gpulab_sim::sim_warp(::gpulab_sim::SIM_W_BALLOT, m, pred != 0, 0, 32, line, file,
                                                      "thread_block_tile::all", nullptr);
        return b == m;
    }
    template <class T>
    unsigned match_any(const T &value, int line = __builtin_LINE(), const char *file = __builtin_FILE()) const
    {
        SIM_TILE_NARROW("match_any");
        unsigned m = tile_mask();
        typename ::gpulab_sim::sim_value<T>::type v = ::gpulab_sim::sim_unref(value);
        unsigned b = (unsigned)::gpulab_sim::sim_warp(::gpulab_sim::SIM_W_MATCH_ANY, m, ::gpulab_sim::sim_bits(v),
                                                      0, 32, line, file, "thread_block_tile::match_any", nullptr);
        return (b & m) >> __builtin_ctz(m);
    }
    template <class T>
    unsigned match_all(const T &value, int &pred, int line = __builtin_LINE(),
                       const char *file = __builtin_FILE()) const
    {
        SIM_TILE_NARROW("match_all");
        unsigned m = tile_mask();
        typename ::gpulab_sim::sim_value<T>::type v = ::gpulab_sim::sim_unref(value);
        unsigned b = (unsigned)::gpulab_sim::sim_warp(::gpulab_sim::SIM_W_MATCH_ALL, m, ::gpulab_sim::sim_bits(v),
                                                      0, 32, line, file, "thread_block_tile::match_all", &pred);
        return (b & m) >> __builtin_ctz(m);
    }
};

/* tiled_partition<N>(parent) gives thread_block_tile<N, Parent>, which
 * converts to thread_block_tile<N> as in CUDA. */
#undef SIM_TILE_NARROW

template <unsigned N, class Parent> class thread_block_tile : public thread_block_tile<N, void> {
public:
    thread_block_tile()
    {
        this->meta_rank_ = Parent::thread_rank() / N;
        this->meta_size_ = (Parent::size() + N - 1) / N;
    }
};

template <unsigned N, class Parent> static inline thread_block_tile<N, Parent> tiled_partition(const Parent &)
{
    return thread_block_tile<N, Parent>();
}

template <class Group>
static inline void sync(const Group &g, int line = __builtin_LINE(), const char *file = __builtin_FILE())
{
    g.sync(line, file);
}

} /* namespace gpulab_sim_cg */

namespace gpulab_sim {

/* ----------------------------------------- pointers into shared memory */

/* A pointer into shared memory made in device code (`volatile int *v =
 * sdata`, a volatile parameter): the source pass makes it a sim_vptr, so
 * race-check sees its accesses like the array's own. */
template <class T> struct sim_aref {
    T *p;
    typedef typename std::remove_cv<T>::type V;
    V get() const
    {
        return *p;
    }
    void put(const V &v) const
    {
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
    /* `(int *)v` of a shared pointer: the same address as another type */
    template <class U> explicit operator U *() const { return (U *)(p); }
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

/* reinterpret_cast<float4 *>(smem) of a shared array or pointer (the
 * source pass wraps the name): its address; anything else as it is */
template <class P> static inline P &&sim_addr(P &&p) { return static_cast<P &&>(p); }
template <class T> static inline T *sim_addr(const sim_shared_array<T> &a) { return a.base; }
template <class T> static inline T *sim_addr(sim_shared_array<T> &a) { return a.base; }
template <class T> static inline T *sim_addr(const sim_shared_array2<T> &a) { return a.base; }
template <class T> static inline T *sim_addr(sim_vptr<T> &a) { return a.p; }
template <class T> static inline T *sim_addr(const sim_vptr<T> &a) { return a.p; }
/* a shared element given to a template device function's `T &` (the
 * source pass wraps each plain argument of such a call): the element */
template <class T> static inline T &sim_addr(sim_ref<T> &r) { return *r.p; }
template <class T> static inline T &sim_addr(const sim_ref<T> &r) { return *r.p; }

/* memcpy and memset in device code (the source pass names these): their
 * bytes are checked like the kernel's own accesses (record.cpp), at the
 * line of the call (the asm keeps it a call, never a jump at a kernel's
 * end, whose return address would be the simulator's) */
void *sim_dev_memcpy_at(void *dst, const void *src, size_t n);
void *sim_dev_memset_at(void *dst, int c, size_t n);
static inline __attribute__((always_inline)) void *sim_dev_memcpy(void *dst, const void *src, size_t n)
{
    void *r = sim_dev_memcpy_at(dst, src, n);
    __asm__ __volatile__("" : "+r"(r));
    return r;
}
static inline __attribute__((always_inline)) void *sim_dev_memset(void *dst, int c, size_t n)
{
    void *r = sim_dev_memset_at(dst, c, n);
    __asm__ __volatile__("" : "+r"(r));
    return r;
}

/* A thread's local array whose address leaves it (handed to a function,
 * kept in a pointer): the source pass (kernels/program/translate.c)
 * declares it between red zones and registers it with its thread while it
 * is in scope, so that an access through any pointer, in any function,
 * that runs past its end (or before its start) lands in a red zone and is
 * reported with the array (check.cpp). Direct indexing is -fsanitize=bounds'
 * part. */
template <class A> struct sim_local_array {
    unsigned char lz[16];
    A v;
    unsigned char rz[32];
};
struct sim_local_guard;
void sim_local_enter(sim_local_guard *g, const void *obj, size_t objsize, const void *v, size_t vsize, const char *decl,
                     const char *file, int line);
void sim_local_leave(sim_local_guard *g);
struct sim_local_guard {
    sim_local_guard *prev;     /* the thread's guards, innermost first */
    uintptr_t lo, hi;          /* the array with its red zones */
    uintptr_t vlo, vhi;        /* the array */
    const char *decl, *file;
    int line, active;
    template <class A>
    sim_local_guard(sim_local_array<A> &o, const char *d, const char *f, int l)
    {
        sim_local_enter(this, &o, sizeof o, &o.v, sizeof o.v, d, f, l);
    }
    ~sim_local_guard() { sim_local_leave(this); }
    sim_local_guard(const sim_local_guard &) = delete;
    sim_local_guard &operator=(const sim_local_guard &) = delete;
};

/* printf with shared-memory elements among its arguments gets their values */
template <class T> static inline T sim_pf(const sim_ref<T> &r) { return r.get(); }
template <class T> static inline typename sim_aref<T>::V sim_pf(const sim_aref<T> &r) { return r.get(); }
template <class T> static inline const T &sim_pf(const T &v) { return v; }
/* par.cpp: a block that runs beside earlier ones keeps its output until
 * they have printed theirs */
int sim_par_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
template <class... A> static inline int sim_printf(const char *fmt, const A &...a)
{
    if (sim_par_unordered_now()) return sim_par_printf(fmt, sim_pf(a)...);
    return ::printf(fmt, sim_pf(a)...);
}
static inline int sim_printf(const char *fmt)
{
    if (sim_par_unordered_now()) return sim_par_printf("%s", fmt);
    return ::printf("%s", fmt);
}

/* ------------------------------------------------------- device side */

/* A failed assert in a kernel ends the launch with cudaErrorAssert, naming
 * the line and the thread; in host code it is the C library's assert. */
[[noreturn]] void sim_assert_fail(const char *expr, const char *file, int line, const char *func);
/* device code that the simulator cannot run: the launch stops with msg */
[[noreturn]] void sim_unsupported(int line, const char *file, const char *msg);
/* tiled_partition(parent, n) with an n the GPU refuses: the launch stops as
 * the GPU's does (__trap: cudaErrorLaunchFailure), saying why */
[[noreturn]] void sim_cg_tile_size(unsigned n, int line, const char *file);

} /* namespace gpulab_sim */

#include "kernels/sim/shim_fp.h"
#include "kernels/sim/shim_cg.h"
#include "kernels/sim/shim_tex.h"

namespace cooperative_groups = gpulab_sim_cg;

using namespace gpulab_sim;

#endif
