// 广播（broadcast）：一列和一行组合成一整张结果表；
// 每个输入值都被一整行或一整列的线程使用。
__global__ void broadcast(float *out, const float *a, const float *b, int size)
{
    int i = threadIdx.y; // 行
    int j = threadIdx.x; // 列
    // 对 i, j < size 写出 out[i * size + j]。
}
