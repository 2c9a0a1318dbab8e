// 二维映射：二维线程块，threadIdx.x 对应列，threadIdx.y
// 对应行，作用于按行依次存储的数组。
__global__ void map2d(float *out, const float *a, int size)
{
    int i = threadIdx.y; // 行
    int j = threadIdx.x; // 列
    // 对 i, j < size 写出 out[i][j]，即 out[i * size + j]。
}
