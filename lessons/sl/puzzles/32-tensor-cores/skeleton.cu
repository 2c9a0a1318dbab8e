// Tenzorska jedra: en snop izračuna ploščico 16 x 16 matrike out z nvcuda::wmma.
// Tenzorska jedra vzamejo cele ploščice 16 x 16 iz half: ploščici a in b
// postavite v skupni pomnilnik kot half, z 0 za robovi matrik.
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
    // Nastavite acc na 0. Za vsak k0 = 0, 16, ... pod kk: 32 stez napolni
    // ta[r * T + c] = a[row0 + r][k0 + c] in tb[r * T + c] = b[k0 + r][col0 + c]
    // (0 zunaj a in b), počaka na snop, naloži oba fragmenta, mma_sync in
    // spet počaka pred naslednjima ploščicama. Nato store acc v tc in
    // prepišite del tc znotraj out.
}
