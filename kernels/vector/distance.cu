/* distance.cu - the distance between two vectors, sqrt(sum (a - b)^2):
 * the step from a map (every element on its own) to a reduction (every
 * element into one number), in the lecture's order.
 *
 * Every row's timed region runs from the vectors on the device to the
 * distance on the host: the kernel, the copy back of what it produced, and
 * the host's share of the sum. Where the work is split between device and
 * host is exactly what the variants change. */
#include "kernels/intl.h"
#include "kernels/vector/vector.h"
#include "kernels/vector/vector_kern.h"

#include <math.h>

/* Step g: the vector difference kernel, squaring what it subtracts. The
 * device squares, the host adds all n squares (in double, as the lecture
 * does): n values cross the bus back, and one CPU thread walks them all. */
template <class T>
static __global__ void dist_g_k(T *sq, const T *a, const T *b, long long n)
{
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        T d = a[i] - b[i];
        sq[i] = d * d;
        TRACE_READ(LAB_SP_GLOBAL, i, a[i]);
        TRACE_READ(LAB_SP_GLOBAL, i, b[i]);
        TRACE_WRITE(LAB_SP_GLOBAL, i, d * d);
    }
}

/* Step ls: each thread keeps its squares in its own slot of a statically
 * sized shared array; after a barrier, thread 0 adds the block's slots one by
 * one, and the host adds one partial sum per block. Shared memory lets the
 * threads of a block meet; but thread 0 adds blockDim.x values alone while
 * the others wait, so the block's sum takes blockDim.x steps. */
template <class T>
static __global__ void dist_ls_k(T *partial, const T *a, const T *b, long long n)
{
    SHARED(T, part, 1024);
    const int tid = threadIdx.x;
    const long long stride = (long long)gridDim.x * blockDim.x;
    T acc = 0;
    for (long long i = (long long)blockIdx.x * blockDim.x + tid; i < n; i += stride) {
        T d = a[i] - b[i];
        acc += d * d;
        TRACE_READ(LAB_SP_GLOBAL, i, a[i]);
        TRACE_READ(LAB_SP_GLOBAL, i, b[i]);
    }
    part[tid] = acc;
    TRACE_WRITE(LAB_SP_SHARED, tid, acc);
    __syncthreads();
    if (tid == 0) {
        T s = 0;
        for (int k = 0; k < (int)blockDim.x; k++) s += part[k];
        partial[blockIdx.x] = s;
        /* one mark for the whole serial loop: v2 says how many slots it added */
        TRACE_MARK(DIST_MARK_PARTIAL, blockIdx.x, s, blockDim.x);
    }
}

/* Step tree: the block's slots are added pairwise, halving the active
 * threads at every step (sequential addressing: threads 0..s-1 add the slot
 * s away), so a block of 1024 needs 10 steps instead of 1023. The grid is
 * sized to the GPU and each thread first adds its grid-stride share in a
 * register, so the host adds only a few hundred partial sums. */
template <class T>
static __global__ void dist_tree_k(T *partial, const T *a, const T *b, long long n)
{
    DYNAMIC_SHARED(T, s);
    const int tid = threadIdx.x;
    const long long stride = (long long)gridDim.x * blockDim.x;
    T acc = 0;
    for (long long i = (long long)blockIdx.x * blockDim.x + tid; i < n; i += stride) {
        T d = a[i] - b[i];
        acc += d * d;
        TRACE_READ(LAB_SP_GLOBAL, i, a[i]);
        TRACE_READ(LAB_SP_GLOBAL, i, b[i]);
    }
    s[tid] = acc;
    TRACE_WRITE(LAB_SP_SHARED, tid, acc);
    __syncthreads();
    for (int step = blockDim.x / 2; step > 0; step /= 2) {
        if (tid < step) {
            s[tid] += s[tid + step];
            TRACE_ADD(LAB_SP_SHARED, tid, tid + step, s[tid], s[tid + step]);
        }
        __syncthreads();
    }
    if (tid == 0) {
        partial[blockIdx.x] = s[0];
        TRACE_MARK(DIST_MARK_PARTIAL, blockIdx.x, s[0], blockDim.x);
    }
}

/* ------------------------------------------------------------ launchers */

/* A host buffer freed on every path out of the launcher. */
struct host_buf {
    void *p;
    host_buf() : p(NULL) {}
    ~host_buf() { free(p); }
};

enum dist_step { DIST_G, DIST_LS, DIST_TREE };

template <class T>
static int run_distance(lab_job *job, dist_step step)
{
    const long long n = job->n;
    const int block = job->block;
    if (job->grid <= 0) {
        /* tree: a grid sized to the GPU; g and ls: the lecture's ceil(n / block) */
        job->grid = step == DIST_TREE ? vec_resident_grid(job, n, block) : lab_ceil_div(n, block);
    }
    TRY(vec_check_launch(job, job->grid, block));
    const unsigned grid = (unsigned)job->grid;
    const T *h_a = (const T *)job->in, *h_b = h_a + n;
    if (job->trace) job->trace->smem_elem_bytes = sizeof(T);

    T *d_a = NULL, *d_b = NULL, *d_out = NULL;
    const long long nout = step == DIST_G ? n : (long long)grid;
    TRY(lab_upload(job, &d_a, h_a, n));
    TRY(lab_upload(job, &d_b, h_b, n));
    TRY(lab_alloc(job, &d_out, nout));
    host_buf hb;
    hb.p = malloc(sizeof(T) * (size_t)nout);
    if (!hb.p) {
        snprintf(job->err, sizeof job->err, L_("out of host memory for %lld values"), nout);
        return -1;
    }
    T *h_out = (T *)hb.p;
    double sum = 0;
    LAB_TIMED(job) {
        switch (step) {
        case DIST_G: LAUNCH(dist_g_k<T>, grid, block, 0, d_out, d_a, d_b, n); break;
        case DIST_LS: LAUNCH(dist_ls_k<T>, grid, block, 0, d_out, d_a, d_b, n); break;
        case DIST_TREE:
            LAUNCH(dist_tree_k<T>, grid, block, block * sizeof(T), d_out, d_a, d_b, n);
            break;
        }
        CK(cudaMemcpy(h_out, d_out, sizeof(T) * nout, cudaMemcpyDeviceToHost));
        double s = 0;
        for (long long i = 0; i < nout; i++) s += (double)h_out[i];
        sum = s;
    }
    dist_out *o = (dist_out *)job->out;
    o->sumsq = sum;
    o->dist = sqrt(sum);
    return 0;
}

static int by_dtype(lab_job *job, dist_step step)
{
    return lab_by_dtype(job, lab_dtypes<float, double>(), [&](auto t) { return run_distance<decltype(t)>(job, step); });
}

LAB_ENTRY(distance_g) { return by_dtype(job, DIST_G); }
LAB_ENTRY(distance_ls) { return by_dtype(job, DIST_LS); }
LAB_ENTRY(distance_tree) { return by_dtype(job, DIST_TREE); }
