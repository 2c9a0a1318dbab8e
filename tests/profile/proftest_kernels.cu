/* proftest_kernels.cu - the access patterns of the memory lessons, each
 * small enough that its counts can be worked out by hand (the test,
 * test_profile.c, states them): coalescing, strides, a column walk, a
 * broadcast, vector loads, shared-memory bank conflicts and the padded tile
 * that removes them, same-address atomics. */
#include "kernels/kern.h"
#include "tests/profile/proftest.h"

/* coalescing: consecutive lanes read consecutive floats, 4 sectors a warp */
static __global__ void copy_k(float *out, const float *in, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[(long long)i * stride]; /* @copy */
}

static __global__ void broadcast_k(float *out, const float *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[0];
}

/* vector loads: one 16-byte access per lane, 16 sectors a warp */
static __global__ void vec4_k(float4 *out, const float4 *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}

static __global__ void copy_double_k(double *out, const double *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}

/* divergence: half the lanes take part in the warp's request */
static __global__ void half_warp_k(float *out, const float *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if ((threadIdx.x & 31) < 16) out[i] = in[i];
}

/* bank conflicts: lanes 'stride' words apart meet in the same bank */
static __global__ void shared_stride_k(float *out, int stride)
{
    SHARED(float, s, 32 * 32);
    int t = threadIdx.x;
    s[t * stride] = (float)t;
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = s[t * stride]; /* @proxy */
}

/* the transpose tile: a column of a 32 x 32 tile is one bank; one padding
 * column spreads it over all 32 */
static __global__ void tile_k(float *out, int padded)
{
    SHARED2(float, tile, 32, 33);
    int t = threadIdx.x, w = padded ? 33 : 32;
    float *flat = &tile[0][0];
    for (int c = 0; c < 32; c++) flat[t * w + c] = (float)(t + c);
    __syncthreads();
    out[t] = flat[t * w + 5]; /* @column */
}

/* same-address atomics serialise */
static __global__ void atomic_k(int *out, int spread)
{
    atomicAdd(&out[threadIdx.x % spread], 1);
}

LAB_ENTRY(proftest_run)
{
    const proftest_params *p = (const proftest_params *)job->priv;
    const unsigned n = p->blocks * p->threads;
    const size_t big = (size_t)n * 32 + 64;
    float *in, *out;
    TRY(lab_alloc(job, &in, big));
    TRY(lab_alloc(job, &out, big));
    CK(cudaMemset(in, 0, big * sizeof(float)));
    CK(cudaMemset(out, 0, big * sizeof(float)));
    switch (p->kind) {
    case PROFTEST_COALESCED: LAUNCH(copy_k, p->blocks, p->threads, 0, out, in, 1); break;
    case PROFTEST_STRIDE2: LAUNCH(copy_k, p->blocks, p->threads, 0, out, in, 2); break;
    case PROFTEST_COLUMN: LAUNCH(copy_k, p->blocks, p->threads, 0, out, in, 32); break;
    case PROFTEST_BROADCAST: LAUNCH(broadcast_k, p->blocks, p->threads, 0, out, in); break;
    case PROFTEST_VEC4:
        LAUNCH(vec4_k, p->blocks, p->threads, 0, reinterpret_cast<float4 *>(out),
               reinterpret_cast<const float4 *>(in));
        break;
    case PROFTEST_SHARED_STRIDE: LAUNCH(shared_stride_k, p->blocks, p->threads, 0, out, p->arg); break;
    case PROFTEST_TILE: LAUNCH(tile_k, p->blocks, p->threads, 0, out, p->arg); break;
    case PROFTEST_ATOMIC: LAUNCH(atomic_k, p->blocks, p->threads, 0, reinterpret_cast<int *>(out), p->arg); break;
    case PROFTEST_DOUBLE:
        LAUNCH(copy_double_k, p->blocks, p->threads, 0, reinterpret_cast<double *>(out),
               reinterpret_cast<const double *>(in));
        break;
    case PROFTEST_HALF_WARP: LAUNCH(half_warp_k, p->blocks, p->threads, 0, out, in); break;
    default: snprintf(job->err, sizeof job->err, "unknown proftest kind %d", p->kind); return -1;
    }
    return 0;
}
