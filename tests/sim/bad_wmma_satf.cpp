/* bad_wmma_satf.cpp - must NOT compile: the CUDA headers declare mma_sync's
 * satf argument for 8-bit integer inputs only, so nvcc refuses it with half
 * inputs; the shim refuses it too, and says why (test
 * sim_wmma_satf_refused). */
#define GPULAB_SIM 1
#include "kernels/kern.h"
#include "kernels/sim/shim_wmma.h"

static __global__ void bad_k(const __half *a, float *d)
{
    nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, __half, nvcuda::wmma::row_major> fa;
    nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, __half, nvcuda::wmma::col_major> fb;
    nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> acc;
    nvcuda::wmma::fill_fragment(acc, 0.0f);
    nvcuda::wmma::load_matrix_sync(fa, a, 16);
    nvcuda::wmma::load_matrix_sync(fb, a, 16);
    nvcuda::wmma::mma_sync(acc, fa, fb, acc, true);
    nvcuda::wmma::store_matrix_sync(d, acc, 16, nvcuda::wmma::mem_row_major);
}
