/* vector.cu - the first kernels of every course: mapping threads to data.
 *
 * scale (c = 2a, the article's first example) and vecdiff (c = a - b, the
 * lecture's four steps and unified memory). Each kernel's comment names the
 * idea it shows; students read this file next to the coverage map, which
 * draws the TRACE_WRITE of every element: which block and thread wrote it,
 * what was written twice, never, or past the end.
 *
 * The lecture's wrong steps (vecdiff v1, v2, v3) run exactly as the lecture
 * wrote them. What keeps them safe is the memory around them: a, b and c get
 * a guard zone after the end, a and b hold 0 there, and c starts out poisoned
 * everywhere, so a write past the end lands in memory gpulab owns and an
 * element no thread reached still holds the poison afterwards. */
#include "kernels/intl.h"
#include "kernels/vector/vector.h"
#include "kernels/vector/vector_kern.h"

/* ------------------------------------------------------------ scale */

/* One thread per element (article, listing 1): the element's index is built
 * from threadIdx.x, blockIdx.x and blockDim.x, and there are
 * blocks = ceil(n / threads), so the last block has threads past the end:
 * the `if` keeps them out. Written out of place (the article's listing 5),
 * so that every timed repeat computes the same thing. */
template <class T>
static __global__ void scale_index_k(T *c, const T *a, long long n)
{
    long long i = threadIdx.x + (long long)blockIdx.x * blockDim.x;
    if (i < n) {
        T v = a[i] * (T)2;
        c[i] = v;
        TRACE_READ(LAB_SP_GLOBAL, i, a[i]);
        TRACE_WRITE(LAB_SP_GLOBAL, i, v);
    }
}

/* The grid-stride loop: a thread starts at its global index and jumps by the
 * number of threads in the whole grid, so any grid covers any n, and a grid
 * sized to the GPU (not to the data) keeps every thread busy with several
 * elements, reading memory in coalesced sweeps. */
template <class T>
static __global__ void scale_stride_k(T *c, const T *a, long long n)
{
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = threadIdx.x + (long long)blockIdx.x * blockDim.x; i < n; i += stride) {
        T v = a[i] * (T)2;
        c[i] = v;
        TRACE_READ(LAB_SP_GLOBAL, i, a[i]);
        TRACE_WRITE(LAB_SP_GLOBAL, i, v);
    }
}

/* ---------------------------------------------------------- vecdiff */

/* Step 1: one thread per element, and the element is threadIdx.x. No bounds
 * check: when the block has more threads than the vector has elements, the
 * extra threads read a and b and write c past their ends (here into the
 * guard zone). And since the index ignores blockIdx.x, a second block only
 * recomputes the first block's elements. */
template <class T>
static __global__ void vecdiff_v1_k(T *c, const T *a, const T *b, long long n)
{
    int i = threadIdx.x;
    T v = a[i] - b[i];
    c[i] = v;
    TRACE_READ(LAB_SP_GLOBAL, i, a[i]);
    TRACE_READ(LAB_SP_GLOBAL, i, b[i]);
    TRACE_WRITE(LAB_SP_GLOBAL, i, v);
    (void)n;
}

/* Step 2: the bounds check keeps threads past the end out, but the index is
 * still threadIdx.x alone: one block of threads is all it can use, so a
 * vector longer than the block keeps an untouched tail, however many blocks
 * are launched. */
template <class T>
static __global__ void vecdiff_v2_k(T *c, const T *a, const T *b, long long n)
{
    int i = threadIdx.x;
    if (i < n) {
        T v = a[i] - b[i];
        c[i] = v;
        TRACE_READ(LAB_SP_GLOBAL, i, a[i]);
        TRACE_READ(LAB_SP_GLOBAL, i, b[i]);
        TRACE_WRITE(LAB_SP_GLOBAL, i, v);
    }
}

/* Step 3: the global index blockIdx.x * blockDim.x + threadIdx.x spreads the
 * blocks over the vector, but each thread still does one element: with a
 * grid the user fixed and more elements than grid * block threads, the tail
 * stays untouched. */
template <class T>
static __global__ void vecdiff_v3_k(T *c, const T *a, const T *b, long long n)
{
    long long i = (long long)blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) {
        T v = a[i] - b[i];
        c[i] = v;
        TRACE_READ(LAB_SP_GLOBAL, i, a[i]);
        TRACE_READ(LAB_SP_GLOBAL, i, b[i]);
        TRACE_WRITE(LAB_SP_GLOBAL, i, v);
    }
}

/* Step 4, correct: a grid-stride loop, so when there are fewer threads than
 * elements each thread takes several, and the grid can be anything, by
 * default ceil(n / block). */
template <class T>
static __global__ void vecdiff_v4_k(T *c, const T *a, const T *b, long long n)
{
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockDim.x * blockIdx.x + threadIdx.x; i < n; i += stride) {
        T v = a[i] - b[i];
        c[i] = v;
        TRACE_READ(LAB_SP_GLOBAL, i, a[i]);
        TRACE_READ(LAB_SP_GLOBAL, i, b[i]);
        TRACE_WRITE(LAB_SP_GLOBAL, i, v);
    }
}

/* ------------------------------------------------------------ launchers */

template <class T>
static int run_scale(lab_job *job, int stride)
{
    const long long n = job->n;
    const int block = job->block;
    if (job->grid <= 0) /* the article's formula, or a grid sized to the GPU */
        job->grid = stride ? vec_resident_grid(job, n, block) : lab_ceil_div(n, block);
    TRY(vec_check_launch(job, job->grid, block));
    const unsigned grid = (unsigned)job->grid;
    T *d_a = NULL, *d_c = NULL;
    TRY(lab_upload(job, &d_a, job->in, n));
    TRY(lab_alloc(job, &d_c, n));
    LAB_TIMED(job) {
        if (stride) LAUNCH(scale_stride_k<T>, grid, block, 0, d_c, d_a, n);
        else LAUNCH(scale_index_k<T>, grid, block, 0, d_c, d_a, n);
    }
    TRY(lab_download(job, job->out, d_c, n));
    return 0;
}

/* The vecdiff steps: 1..4, the lecture's kernels on separate device memory
 * (a and b copied in, c copied out, only the kernel timed), 5 the unified
 * memory version of step 4 (the host writes a and b and reads c in place;
 * the pages move on demand, and that traffic is timed with the kernel). */
template <class T>
static int run_vecdiff(lab_job *job, int step)
{
    const long long n = job->n;
    const int block = job->block;
    const lab_dtype dt = job->cfg->dtype;
    if (job->grid <= 0) job->grid = step >= 4 ? lab_ceil_div(n, block) : 1;
    TRY(vec_check_launch(job, job->grid, block));
    const unsigned grid = (unsigned)job->grid;
    const long long guard = step <= 3 ? VEC_GUARD(block) : 0;
    const long long total = n + guard;
    const T *h_a = (const T *)job->in, *h_b = h_a + n;
    vec_report *rep = (vec_report *)job->out;
    T *h_c = (T *)(rep + 1);
    memset(rep, 0, sizeof *rep);
    rep->guard = guard;
    rep->grid = job->grid;
    rep->block = block;

    T *d_a = NULL, *d_b = NULL, *d_c = NULL;
    if (step == 5) {
        TRY(lab_alloc_managed(job, &d_a, n));
        TRY(lab_alloc_managed(job, &d_b, n));
        TRY(lab_alloc_managed(job, &d_c, n));
        memset((void *)d_c, vec_poison_byte(dt), sizeof(T) * n);
        LAB_TIMED(job) {
            memcpy(d_a, h_a, sizeof(T) * n);
            memcpy(d_b, h_b, sizeof(T) * n);
            LAUNCH(vecdiff_v4_k<T>, grid, block, 0, d_c, d_a, d_b, n);
            CK(cudaDeviceSynchronize());
            memcpy(h_c, d_c, sizeof(T) * n);
        }
        return 0;
    }

    TRY(lab_alloc(job, &d_a, total));
    TRY(lab_alloc(job, &d_b, total));
    TRY(lab_alloc(job, &d_c, total));
    CK(cudaMemcpy(d_a, h_a, sizeof(T) * n, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_b, h_b, sizeof(T) * n, cudaMemcpyHostToDevice));
    if (guard > 0) {
        CK(cudaMemset(d_a + n, 0, sizeof(T) * guard));
        CK(cudaMemset(d_b + n, 0, sizeof(T) * guard));
    }
    CK(cudaMemset(d_c, vec_poison_byte(dt), sizeof(T) * total));
    LAB_TIMED(job) {
        switch (step) {
        case 1: LAUNCH(vecdiff_v1_k<T>, grid, block, 0, d_c, d_a, d_b, n); break;
        case 2: LAUNCH(vecdiff_v2_k<T>, grid, block, 0, d_c, d_a, d_b, n); break;
        case 3: LAUNCH(vecdiff_v3_k<T>, grid, block, 0, d_c, d_a, d_b, n); break;
        default: LAUNCH(vecdiff_v4_k<T>, grid, block, 0, d_c, d_a, d_b, n); break;
        }
    }
    TRY(lab_download(job, h_c, d_c, n));
    if (guard > 0) {
        T g[1024];
        long long left = guard, at = 0;
        while (left > 0) {
            long long k = left < 1024 ? left : 1024;
            TRY(lab_download(job, g, d_c + n + at, k));
            for (long long i = 0; i < k; i++)
                if (!vec_is_poison(g, dt, i)) {
                    if (rep->stray == 0) rep->first_stray = n + at + i;
                    rep->last_stray = n + at + i;
                    rep->stray++;
                }
            left -= k;
            at += k;
        }
        /* v1's index is threadIdx.x alone: every block writes the same
         * elements, so each element past the end was written once per block. */
        rep->stray_threads = step == 1 ? rep->stray * (long long)grid : rep->stray;
    }
    if ((step == 1 || step == 2) && grid > 1) {
        long long same = n < block ? n : block;
        snprintf(job->note, sizeof job->note,
                 L_("all %u blocks computed the same c[0..%lld]"), grid,
                 same - 1);
    }
    return 0;
}

typedef lab_dtypes<int, float, double> vector_dtypes;

static int scale(lab_job *job, int stride)
{
    return lab_by_dtype(job, vector_dtypes(), [&](auto t) { return run_scale<decltype(t)>(job, stride); });
}
static int vecdiff(lab_job *job, int step)
{
    return lab_by_dtype(job, vector_dtypes(), [&](auto t) { return run_vecdiff<decltype(t)>(job, step); });
}

LAB_ENTRY(scale_index) { return scale(job, 0); }
LAB_ENTRY(scale_grid_stride) { return scale(job, 1); }

LAB_ENTRY(vecdiff_v1) { return vecdiff(job, 1); }
LAB_ENTRY(vecdiff_v2) { return vecdiff(job, 2); }
LAB_ENTRY(vecdiff_v3) { return vecdiff(job, 3); }
LAB_ENTRY(vecdiff_v4) { return vecdiff(job, 4); }
LAB_ENTRY(vecdiff_unified) { return vecdiff(job, 5); }
