// 寄存器分块：每个线程在四个寄存器中计算 out 的一个 2 x 2 小块，
// 因此读到的一个 a 值用于两个乘积，b 值也一样。
__global__ void matmul_reg(float *out, const float *a, const float *b, int size)
{
    int r0 = blockIdx.y * 8 + threadIdx.y, c0 = blockIdx.x * 8 + threadIdx.x;
    // 行 r0 和 r0 + 4，列 c0 和 c0 + 4：四个和。对每个 k，为两行读取
    // a[r][k]，为两列读取 b[k][c]（矩阵之外为 0），加上四个乘积；
    // 然后写出落在 out 之内的和。
}
