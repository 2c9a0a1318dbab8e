// 线程块：一个线程块容纳的线程数有限，所以较大的数组需要多个
// 线程块；blockIdx 和 blockDim 给出每个线程的全局索引。
__global__ void blocks(float *out, const float *a, int size)
{
    // 由 blockIdx.x、blockDim.x 和 threadIdx.x 计算 i，
    // 然后在 i < size 时写出 out[i]。
}
