// 二维线程块：由二维线程块组成的网格覆盖一个矩阵；最后一行
// 和最后一列线程块会伸出矩阵的边缘。
__global__ void blocks2d(float *out, const float *a, int size)
{
    // 由 y 坐标得到行 i，由 x 坐标得到列 j，
    // 然后在两者都位于矩阵内时写出 out[i * size + j]。
}
