// 张量核心：一个线程束用 nvcuda::wmma 计算 out 的一个 16 x 16 块。
// 张量核心只接受完整的 16 x 16 half 块：把 a 和 b 的块以 half 放入共享内存，
// 矩阵边缘之外为 0。
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
    // 把 acc 置 0。对每个小于 kk 的 k0 = 0、16、……：32 个通道填入
    // ta[r * T + c] = a[row0 + r][k0 + c] 和 tb[r * T + c] = b[k0 + r][col0 + c]
    // （a 和 b 之外为 0），等待线程束，载入两个片段，mma_sync，
    // 在下一组块之前再等待。然后把 acc 存入 tc，
    // 并复制 tc 中位于 out 之内的部分。
}
