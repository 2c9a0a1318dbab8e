// Tensor cores: one warp computes a 16 x 16 tile of out with nvcuda::wmma.
// The tensor cores take whole 16 x 16 tiles of half: stage the tiles of a
// and b in shared memory as half, with 0 past the matrices' edges.
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
    // Set acc to 0. For each k0 = 0, 16, ... below kk: the 32 lanes fill
    // ta[r * T + c] = a[row0 + r][k0 + c] and tb[r * T + c] = b[k0 + r][col0 + c]
    // (0 outside a and b), wait for the warp, load both fragments, mma_sync,
    // and wait again before the next tiles. Then store acc into tc and copy
    // the part of tc inside out.
}
