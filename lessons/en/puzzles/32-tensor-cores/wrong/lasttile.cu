// must fail: value. The loop takes whole tiles of 16 columns only (k0 + 16 <= kk): the last, partial tile of kk is never added.
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;
#define T 16

__global__ void matmul_wmma(float *out, const float *a, const float *b, int m, int n, int kk)
{
    __shared__ half ta[T * T], tb[T * T];
    __shared__ float tc[T * T];
    int row0 = blockIdx.y * T, col0 = blockIdx.x * T, lane = threadIdx.x;
    wmma::fragment<wmma::matrix_a, T, T, T, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, T, T, T, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, T, T, T, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k0 = 0; k0 + T <= kk; k0 += T) {
        for (int e = lane; e < T * T; e += 32) { // 8 elements of each tile per lane
            int r = e / T, c = e % T;
            ta[e] = __float2half(row0 + r < m && k0 + c < kk ? a[(row0 + r) * kk + k0 + c] : 0.0f);
            tb[e] = __float2half(k0 + r < kk && col0 + c < n ? b[(k0 + r) * n + col0 + c] : 0.0f);
        }
        __syncwarp();
        wmma::load_matrix_sync(fa, ta, T);
        wmma::load_matrix_sync(fb, tb, T);
        wmma::mma_sync(acc, fa, fb, acc);
        __syncwarp(); // the next tiles overwrite ta and tb
    }
    wmma::store_matrix_sync(tc, acc, T, wmma::mem_row_major);
    __syncwarp();
    for (int e = lane; e < T * T; e += 32) {
        int r = row0 + e / T, c = col0 + e % T;
        if (r < m && c < n) out[r * n + c] = tc[e];
    }
}
