/* wmma.cpp - mma_sync of nvcuda::wmma (shim_wmma.h) on the simulator: the
 * lanes of a warp put their fragments' elements into the warp's matrices
 * and meet; the first lane back computes the product, and each lane takes
 * its own elements of it. */
#include "kernels/sim/internal.h"
#include "kernels/sim/shim_wmma.h"

#include <math.h>
#include <string.h>

#include <new>

namespace gpulab_sim {

/* the largest matrices of the shapes: A of 32x8x16, B of 8x32x16, C of either */
enum { SIM_WMMA_AB = 512, SIM_WMMA_C = 256 };
/* per worker thread (par.cpp), made at its first mma_sync */
struct sim_wmma_mats {
    double a[SIM_MAX_WARPS][SIM_WMMA_AB], b[SIM_MAX_WARPS][SIM_WMMA_AB], c[SIM_MAX_WARPS][SIM_WMMA_C],
        d[SIM_MAX_WARPS][SIM_WMMA_C];
};
static __thread sim_wmma_mats *wm;

/* the n elements of a fragment of type t at p, exactly, as doubles; tf32:
 * the tensor core reads 10 of a float's 23 fraction bits */
static void wm_get(int t, const void *p, unsigned n, double *out)
{
    switch (t) {
    case SIM_WT_HALF:
        for (unsigned i = 0; i < n; i++) out[i] = sim_half_to_float(((const __half *)p)[i].h);
        break;
    case SIM_WT_BF16:
        for (unsigned i = 0; i < n; i++) out[i] = (float)((const __nv_bfloat16 *)p)[i];
        break;
    case SIM_WT_S8:
        for (unsigned i = 0; i < n; i++) out[i] = ((const signed char *)p)[i];
        break;
    case SIM_WT_U8:
        for (unsigned i = 0; i < n; i++) out[i] = ((const unsigned char *)p)[i];
        break;
    case SIM_WT_TF32:
        for (unsigned i = 0; i < n; i++) {
            uint32_t u;
            memcpy(&u, (const float *)p + i, 4);
            if ((u & 0x7f800000u) != 0x7f800000u) u &= ~0x1fffu;
            float f;
            memcpy(&f, &u, 4);
            out[i] = f;
        }
        break;
    case SIM_WT_F32:
        for (unsigned i = 0; i < n; i++) out[i] = ((const float *)p)[i];
        break;
    case SIM_WT_F64:
        for (unsigned i = 0; i < n; i++) out[i] = ((const double *)p)[i];
        break;
    default:
        for (unsigned i = 0; i < n; i++) out[i] = ((const int *)p)[i];
    }
}

/* the sum s rounded once to the accumulator's type t, into element i */
static inline void wm_put(int t, void *p, unsigned i, double s, bool satf)
{
    if (t == SIM_WT_I32) {
        long long v = (long long)s;
        if (satf) v = v > 2147483647ll ? 2147483647ll : v < -2147483648ll ? -2147483648ll : v;
        ((int *)p)[i] = (int)(uint32_t)(unsigned long long)v;
        return;
    }
    if (t == SIM_WT_F64) ((double *)p)[i] = s;
    else if (t == SIM_WT_F32) ((float *)p)[i] = (float)s;
    else ((__half *)p)[i] = __half(s);
}

/* eight elements of D: row Ar of A times columns B.. of B, plus C, each
 * summed in k order, the eight side by side (in registers) */
static inline void wm_sums8(int kind, const double *Ar, const double *B, const double *C, unsigned n, unsigned k,
                            double *D)
{
    if (kind == 1) {
        long long s[8];
        for (unsigned i = 0; i < 8; i++) s[i] = (long long)C[i];
        for (unsigned q = 0; q < k; q++)
#pragma GCC unroll 8
            for (unsigned i = 0; i < 8; i++) s[i] += (long long)Ar[q] * (long long)B[q * n + i];
        for (unsigned i = 0; i < 8; i++) D[i] = (double)s[i];
        return;
    }
    double s[8];
    for (unsigned i = 0; i < 8; i++) s[i] = C[i];
    for (unsigned q = 0; q < k; q++) {
        double av = Ar[q];
        const double *Bq = B + q * n;
        if (kind == 2) {
#pragma GCC unroll 8
            for (unsigned i = 0; i < 8; i++) s[i] = fma(av, Bq[i], s[i]);
        } else {
#pragma GCC unroll 8
            for (unsigned i = 0; i < 8; i++) s[i] += av * Bq[i];
        }
    }
    for (unsigned i = 0; i < 8; i++) D[i] = s[i];
}

/* D = A * B + C for the warp, row by row, eight columns at a time */
static void wm_product(int kind, unsigned m, unsigned n, unsigned k, const double *A, const double *B,
                       const double *C, double *D)
{
    for (unsigned r = 0; r < m; r++)
        for (unsigned c0 = 0; c0 < n; c0 += 8) wm_sums8(kind, A + r * k, B + c0, C + r * n + c0, n, k, D + r * n + c0);
}

void sim_wmma_mma(unsigned m, unsigned n, unsigned k, int ta, const void *a, unsigned na, const void *b, unsigned nb,
                  int tc, const void *c, int td, void *d, unsigned nc, bool satf, int line, const char *file)
{
    unsigned lane = sim_cur->lane, w = sim_cur->warp;
    unsigned sa = m * k, sb = k * n, sc = m * n;
    if (w >= SIM_MAX_WARPS || sa > SIM_WMMA_AB || sb > SIM_WMMA_AB || sc > SIM_WMMA_C || sa % na || sb % nb ||
        (nc != 8 && nc != 2) || n % 8 || (sa & (sa - 1)) || (sb & (sb - 1)) || (sc & (sc - 1)) || (n & (n - 1)))
        sim_unsupported(line, file, "wmma::mma_sync of this shape");
    if (!wm && !(wm = new (std::nothrow) sim_wmma_mats)) sim_fail("%s: out of memory for wmma::mma_sync", sim_g.kernel);
    /* kind 0: exact products summed, 1: integers, 2: fused multiply-adds */
    int kind = ta == SIM_WT_S8 || ta == SIM_WT_U8 ? 1 : ta == SIM_WT_F64 ? 2 : 0;
    /* a lane's elements are consecutive in the warp's matrix (its count
     * divides the matrix's size), and those of C one piece of a row (8 of
     * 16, 8 or 32 columns, or 2 of 8) */
    unsigned oa = (lane * na) & (sa - 1), ob = (lane * nb) & (sb - 1), oc = (lane * nc) & (sc - 1); /* powers of 2 */
    /* the half types' A and B: the upper 16 lanes hold what the lower hold */
    if (lane * na < sa) wm_get(ta, a, na, wm->a[w] + oa);
    if (lane * nb < sb) wm_get(ta, b, nb, wm->b[w] + ob);
    wm_get(tc, c, nc, wm->c[w] + oc);
    /* every lane of the warp takes part, as the CUDA Programming Guide asks.
     * The first lane back computes the whole of D; each lane then takes its
     * part, and none can bring the next product's inputs to a meeting
     * before every lane has taken its part of this one */
    (void)sim_warp(SIM_W_SYNC, 0xffffffffu, 0, 0, 32, line, file, "wmma::mma_sync", nullptr);
    sim_warp_state *ws = &sim_g.warps[w];
    if (!ws->mma_readers) {
        wm_product(kind, m, n, k, wm->a[w], wm->b[w], wm->c[w], wm->d[w]);
        ws->mma_readers = (unsigned)__builtin_popcount(ws->exists);
    }
    ws->mma_readers--;
    for (unsigned i = 0; i < nc; i++) wm_put(td, d, i, wm->d[w][oc + i], satf);
}

void sim_wmma_misaligned(const char *what, const void *p, unsigned ldm, unsigned elem, int line, const char *file)
{
    char where[96];
    sim_where(where, sizeof where, line, file);
    unsigned per16 = elem >= 16 ? 1 : 16 / elem;
    if (!sim_in_fiber()) {
        fprintf(stderr, "simulator: wmma::%s in host code (%s)\n", what, where);
        abort();
    }
    char blk[64], thr[96];
    sim_block_name(blk, sizeof blk);
    sim_thread_name(thr, sizeof thr, sim_cur->linear);
    sim_fail_code(cudaErrorMisalignedAddress,
                  "%s: %s, %s: wmma::%s (%s) with pointer %p and ldm %u: the pointer must be a multiple of 16 "
                  "bytes (the CUDA Programming Guide asks for 32, 256 bits) and ldm a multiple of %u elements "
                  "of %u bytes (16 bytes); the GPU's result is undefined",
                  sim_g.kernel, blk, thr, what, where, p, ldm, per16, elem);
}

} /* namespace gpulab_sim */
