// Тензорні ядра: один варп обчислює плитку 16 x 16 з out через nvcuda::wmma.
// Тензорні ядра беруть цілі плитки 16 x 16 з half: розкладіть плитки a і b
// у спільній пам’яті як half, з 0 за краями матриць.
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
    // Обнуліть acc. Для кожного k0 = 0, 16, ... менше kk: 32 лінії заповнюють
    // ta[r * T + c] = a[row0 + r][k0 + c] і tb[r * T + c] = b[k0 + r][col0 + c]
    // (0 поза a і b), чекають на варп, завантажують обидва фрагменти, mma_sync
    // і знову чекають перед наступними плитками. Потім store acc у tc і
    // скопіюйте частину tc всередині out.
}
