/* wmma.cpp - mma_sync of nvcuda::wmma (shim_wmma.h) on the simulator: the
 * lanes of a warp put their fragments' elements into the warp's matrices,
 * meet, and each computes its own elements of the result. */
#include "kernels/sim/internal.h"

#include <math.h>

#include <new>

namespace gpulab_sim {

/* the largest matrices of the shapes: A of 32x8x16, B of 8x32x16, C of either */
enum { SIM_WMMA_AB = 512, SIM_WMMA_C = 256 };
/* per worker thread (par.cpp), made at its first mma_sync */
struct sim_wmma_mats {
    double a[SIM_MAX_WARPS][SIM_WMMA_AB], b[SIM_MAX_WARPS][SIM_WMMA_AB], c[SIM_MAX_WARPS][SIM_WMMA_C];
};
static __thread sim_wmma_mats *wm;

void sim_wmma_mma(unsigned m, unsigned n, unsigned k, int kind, const double *a, unsigned na, const double *b,
                  unsigned nb, const double *c, unsigned nc, double *d, int line, const char *file)
{
    unsigned lane = sim_cur->lane, w = sim_cur->warp;
    unsigned ta = m * k, tb = k * n, tc = m * n;
    if (w >= SIM_MAX_WARPS || ta > SIM_WMMA_AB || tb > SIM_WMMA_AB || tc > SIM_WMMA_C) sim_unsupported(line, file, "wmma::mma_sync of this shape");
    if (!wm && !(wm = new (std::nothrow) sim_wmma_mats)) sim_fail("%s: out of memory for wmma::mma_sync", sim_g.kernel);
    double (*wm_a)[SIM_WMMA_AB] = wm->a, (*wm_b)[SIM_WMMA_AB] = wm->b, (*wm_c)[SIM_WMMA_C] = wm->c;
    for (unsigned i = 0; i < na; i++) wm_a[w][(lane * na + i) % ta] = a[i];
    for (unsigned i = 0; i < nb; i++) wm_b[w][(lane * nb + i) % tb] = b[i];
    for (unsigned i = 0; i < nc; i++) wm_c[w][(lane * nc + i) % tc] = c[i];
    /* every lane of the warp takes part, as the CUDA Programming Guide asks */
    (void)sim_warp(SIM_W_SYNC, 0xffffffffu, 0, 0, 32, line, file, "wmma::mma_sync", nullptr);
    const double *A = wm_a[w], *B = wm_b[w], *C = wm_c[w];
    for (unsigned i = 0; i < nc; i++) {
        unsigned e = (lane * nc + i) % tc, r = e / n, col = e % n;
        if (kind == 1) {
            long long s = (long long)C[e];
            for (unsigned q = 0; q < k; q++) s += (long long)A[r * k + q] * (long long)B[q * n + col];
            d[i] = (double)s;
        } else if (kind == 2) {
            double s = C[e];
            for (unsigned q = 0; q < k; q++) s = fma(A[r * k + q], B[q * n + col], s);
            d[i] = s;
        } else {
            double s = C[e];
            for (unsigned q = 0; q < k; q++) s += A[r * k + q] * B[q * n + col];
            d[i] = s;
        }
    }
    /* no lane overwrites the warp's matrices before every lane has read them */
    (void)sim_warp(SIM_W_SYNC, 0xffffffffu, 0, 0, 32, line, file, "wmma::mma_sync", nullptr);
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
