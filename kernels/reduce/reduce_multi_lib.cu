/* reduce_multi_lib.cu - combining the partial sums of several GPUs, timed on
 * the GPUs (reduce_multi.c calls it). GPU only: the simulator computes the
 * combines' results without a time.
 *
 * Three ways, from the plainest to the one frameworks use:
 *   host  each GPU's partial copied to the host (cudaMemcpy) and added there
 *   p2p   the partials copied to GPU 0 (cudaMemcpyPeerAsync: over NVLink or
 *         PCIe when the two GPUs can reach each other's memory, through the
 *         host when not) and added there by one thread
 *   nccl  ncclAllReduce over one communicator per GPU (ncclCommInitAll, one
 *         process): every GPU ends with the total
 *
 * NCCL is loaded when the nccl row first runs (dlopen), not linked, as
 * cuBLAS is (matmul_lib.cu): a machine without libnccl still builds and runs
 * gpulab, and the row says why it is missing. NVLink multicast (NVLS) stays
 * off: NCCL_NVLS_ENABLE=0 is set before NCCL is loaded. */
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>


#include <cuda_runtime.h>
#include <string.h>

#include "kernels/family.h"
#include "kernels/reduce/reduce.h"

#if defined(GPULAB_HAVE_NCCL_H)
#  include <nccl.h>
#endif

/* One thread adds the N partials in GPU order: the whole of the work on
 * GPU 0 is N additions, so the copies and their latency are the cost. */
template <class A>
static __global__ void add_partials_k(const A *gathered, int n, A *total)
{
    A s = 0;
    for (int i = 0; i < n; i++) s += gathered[i];
    *total = s;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

#define CKC(expr)                                                                            \
    do {                                                                                     \
        cudaError_t e_ = (expr);                                                             \
        if (e_ != cudaSuccess) {                                                             \
            lab_device_fail((int)e_, #expr, __FILE__, __LINE__, err, errlen);                \
            return -1;                                                                       \
        }                                                                                    \
    } while (0)

/* ------------------------------------------------------------- NCCL */

#if defined(GPULAB_HAVE_NCCL_H)
#  define NCCL_STR2(x) #x
#  define NCCL_STR(x) NCCL_STR2(x)
#  define NCCL_SO "libnccl.so." NCCL_STR(NCCL_MAJOR)

static struct {
    decltype(&ncclCommInitAll) init_all;
    decltype(&ncclCommDestroy) destroy;
    decltype(&ncclAllReduce) all_reduce;
    decltype(&ncclGroupStart) group_start;
    decltype(&ncclGroupEnd) group_end;
    decltype(&ncclGetErrorString) error;
} nccl;
static ncclComm_t comms[LAB_MAX_GPUS];
static int ncomms;

static int load_nccl(char *err, size_t errlen)
{
    if (nccl.all_reduce) return 0;
    /* multicast objects (NVLS) stay off, whatever the environment says */
    setenv("NCCL_NVLS_ENABLE", "0", 1);
    const char *names[] = {NCCL_SO, GPULAB_CUDA_LIBDIR "/" NCCL_SO, "/usr/local/cuda/lib64/" NCCL_SO};
    void *h = nullptr;
    for (const char *n : names)
        if ((h = dlopen(n, RTLD_NOW | RTLD_LOCAL)) != nullptr) break;
    if (!h) {
        snprintf(err, errlen, "cannot load NCCL (%s): %s", NCCL_SO, dlerror());
        return -1;
    }
    nccl.init_all = (decltype(nccl.init_all))dlsym(h, "ncclCommInitAll");
    nccl.destroy = (decltype(nccl.destroy))dlsym(h, "ncclCommDestroy");
    nccl.group_start = (decltype(nccl.group_start))dlsym(h, "ncclGroupStart");
    nccl.group_end = (decltype(nccl.group_end))dlsym(h, "ncclGroupEnd");
    nccl.error = (decltype(nccl.error))dlsym(h, "ncclGetErrorString");
    nccl.all_reduce = (decltype(nccl.all_reduce))dlsym(h, "ncclAllReduce");
    if (!nccl.init_all || !nccl.destroy || !nccl.group_start || !nccl.group_end || !nccl.error ||
        !nccl.all_reduce) {
        snprintf(err, errlen, "%s lacks ncclAllReduce or its companions", NCCL_SO);
        nccl.all_reduce = nullptr;
        return -1;
    }
    return 0;
}

/* One communicator per GPU, made once for a number of GPUs (making them
 * costs far more than an all-reduce) and again when the number changes. */
static int nccl_comms(int gpus, char *err, size_t errlen)
{
    if (ncomms == gpus) return 0;
    for (int d = 0; d < ncomms; d++) nccl.destroy(comms[d]);
    ncomms = 0;
    int devs[LAB_MAX_GPUS];
    for (int d = 0; d < gpus; d++) devs[d] = d;
    ncclResult_t r = nccl.init_all(comms, gpus, devs);
    if (r != ncclSuccess) {
        snprintf(err, errlen, "ncclCommInitAll over %d GPUs failed: %s", gpus, nccl.error(r));
        return -1;
    }
    ncomms = gpus;
    return 0;
}

static ncclDataType_t nccl_type(lab_dtype dt)
{
    return dt == LAB_FLOAT ? ncclFloat32 : dt == LAB_DOUBLE ? ncclFloat64 : ncclInt64;
}
#endif

/* -------------------------------------------------------- the combine */

struct combine_bufs {
    int gpus;
    void *part[LAB_MAX_GPUS], *recv[LAB_MAX_GPUS]; /* one partial on each GPU */
    void *gathered, *total;                         /* on GPU 0 */
    cudaStream_t stream[LAB_MAX_GPUS];
    ~combine_bufs()
    {
        for (int d = 0; d < gpus; d++) {
            cudaSetDevice(d);
            if (part[d]) cudaFree(part[d]);
            if (recv[d]) cudaFree(recv[d]);
            if (stream[d]) cudaStreamDestroy(stream[d]);
        }
        cudaSetDevice(0);
        if (gathered) cudaFree(gathered);
        if (total) cudaFree(total);
        cudaGetLastError();
    }
};

template <class A>
static int combine(lab_combine way, int gpus, lab_dtype dt, const reduce_out *partials, int repeats, double *ms,
                   reduce_out *out, char *note, size_t notelen, char *err, size_t errlen)
{
    combine_bufs b;
    memset((void *)&b, 0, sizeof b);
    b.gpus = gpus;
    const size_t es = sizeof(A);
    /* each partial back on its GPU, as its kernels left it (not timed) */
    for (int d = 0; d < gpus; d++) {
        A v = dt == LAB_INT ? (A)partials[d].isum : (A)partials[d].sum;
        CKC(cudaSetDevice(d));
        CKC(cudaMalloc(&b.part[d], es));
        CKC(cudaMalloc(&b.recv[d], es));
        CKC(cudaStreamCreateWithFlags(&b.stream[d], cudaStreamNonBlocking));
        CKC(cudaMemcpy(b.part[d], &v, es, cudaMemcpyHostToDevice));
    }
    CKC(cudaSetDevice(0));
    CKC(cudaMalloc(&b.gathered, es * gpus));
    CKC(cudaMalloc(&b.total, es));
    if (way == LAB_COMBINE_P2P) {
        int direct = 1;
        for (int d = 1; d < gpus; d++) {
            int can = 0;
            CKC(cudaDeviceCanAccessPeer(&can, 0, d));
            if (!can) {
                direct = 0;
                continue;
            }
            cudaError_t e = cudaDeviceEnablePeerAccess(d, 0); /* GPU 0 reads and writes GPU d */
            if (e == cudaErrorPeerAccessAlreadyEnabled) cudaGetLastError();
            else CKC(e);
        }
        if (gpus > 1)
            snprintf(note, notelen, "%s", direct ? "peer access: the copies go GPU to GPU"
                                                 : "no peer access between some GPUs: those copies go through the host");
    }
#if defined(GPULAB_HAVE_NCCL_H)
    if (way == LAB_COMBINE_NCCL) {
        if (load_nccl(err, errlen) != 0 || nccl_comms(gpus, err, errlen) != 0) return -1;
    }
#else
    if (way == LAB_COMBINE_NCCL) {
        snprintf(err, errlen, "gpulab was built without nccl.h (NCCL's header was not found by CMake)");
        return -1;
    }
#endif
    int reps = repeats < 1 ? 1 : repeats > LAB_MAX_REPEATS ? LAB_MAX_REPEATS : repeats;
    double samples[LAB_MAX_REPEATS];
    A host_total = 0;
    for (int i = 0; i < 1 + reps; i++) { /* the first is the warm-up */
        double t0 = now_ms();
        if (way == LAB_COMBINE_HOST) {
            host_total = 0;
            for (int d = 0; d < gpus; d++) {
                A v;
                CKC(cudaMemcpy(&v, b.part[d], es, cudaMemcpyDeviceToHost)); /* the GPU of the pointer */
                host_total += v;
            }
        } else if (way == LAB_COMBINE_P2P) {
            CKC(cudaMemcpyAsync(b.gathered, b.part[0], es, cudaMemcpyDeviceToDevice, b.stream[0]));
            for (int d = 1; d < gpus; d++)
                CKC(cudaMemcpyPeerAsync((char *)b.gathered + d * es, 0, b.part[d], d, es, b.stream[0]));
            add_partials_k<A><<<1, 1, 0, b.stream[0]>>>((const A *)b.gathered, gpus, (A *)b.total);
            CKC(cudaGetLastError());
            CKC(cudaStreamSynchronize(b.stream[0]));
        }
#if defined(GPULAB_HAVE_NCCL_H)
        else {
            /* one thread drives every GPU: the calls go inside one group */
            nccl.group_start();
            ncclResult_t r = ncclSuccess;
            for (int d = 0; d < gpus && r == ncclSuccess; d++)
                r = nccl.all_reduce(b.part[d], b.recv[d], 1, nccl_type(dt), ncclSum, comms[d], b.stream[d]);
            ncclResult_t g = nccl.group_end();
            if (r == ncclSuccess) r = g;
            if (r != ncclSuccess) {
                snprintf(err, errlen, "ncclAllReduce failed: %s", nccl.error(r));
                return -1;
            }
            for (int d = 0; d < gpus; d++) CKC(cudaStreamSynchronize(b.stream[d]));
        }
#endif
        if (i > 0) samples[i - 1] = now_ms() - t0;
        if (lab_interrupted && i > 0) {
            reps = i;
            break;
        }
    }
    *ms = lab_median(samples, reps);
    A t = host_total;
    if (way == LAB_COMBINE_P2P) CKC(cudaMemcpy(&t, b.total, es, cudaMemcpyDeviceToHost));
    if (way == LAB_COMBINE_NCCL) {
        /* every GPU holds the total: they must agree */
        CKC(cudaMemcpy(&t, b.recv[0], es, cudaMemcpyDeviceToHost));
        for (int d = 1; d < gpus; d++) {
            A u;
            CKC(cudaMemcpy(&u, b.recv[d], es, cudaMemcpyDeviceToHost));
            if (memcmp(&u, &t, es) != 0) {
                snprintf(err, errlen, "after ncclAllReduce GPU %d holds another total than GPU 0", d);
                return -1;
            }
        }
    }
    out->sum = (double)t;
    out->isum = (long long)t;
    return 0;
}

extern "C" int reduce_combine_gpu(lab_combine way, int gpus, lab_dtype dt, const reduce_out *partials,
                                  int repeats, double *ms, reduce_out *total, char *note, size_t notelen,
                                  char *err, size_t errlen)
{
    if (dt == LAB_FLOAT) return combine<float>(way, gpus, dt, partials, repeats, ms, total, note, notelen, err, errlen);
    if (dt == LAB_DOUBLE)
        return combine<double>(way, gpus, dt, partials, repeats, ms, total, note, notelen, err, errlen);
    return combine<long long>(way, gpus, dt, partials, repeats, ms, total, note, notelen, err, errlen);
}
