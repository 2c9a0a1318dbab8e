// Tensor Cores: ein Warp berechnet eine 16 x 16-Kachel von out mit nvcuda::wmma.
// Die Tensor Cores nehmen ganze 16 x 16-Kacheln aus half: legen Sie die Kacheln
// von a und b als half im Shared Memory ab, mit 0 hinter den Rändern der Matrizen.
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
    // acc auf 0 setzen. Für jedes k0 = 0, 16, ... unter kk: die 32 Lanes füllen
    // ta[r * T + c] = a[row0 + r][k0 + c] und tb[r * T + c] = b[k0 + r][col0 + c]
    // (0 außerhalb von a und b), warten auf den Warp, laden beide Fragmente,
    // mma_sync, und warten wieder vor den nächsten Kacheln. Dann acc in tc
    // speichern und den Teil von tc innerhalb von out kopieren.
}
