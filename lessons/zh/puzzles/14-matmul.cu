// 矩阵乘法：结果的每个元素一个线程，每个线程遍历 a 的一行
// 和 b 的一列。
__global__ void matmul(float *out, const float *a, const float *b, int size)
{
    int i = threadIdx.y; // 行
    int j = threadIdx.x; // 列
    // out[i * size + j] = a[i * size + 0] * b[0 * size + j] + ...
}
