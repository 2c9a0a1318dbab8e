// 一维卷积：每个线程块需要它自己的元素，外加属于下一个线程块的
// K - 1 个 halo 元素。把分块和 halo 一次性载入共享内存；
// 任何线程读取全局内存都不得超过两次。
#define TPB 8 // 每个线程块的线程数，与 check 启动时一致
#define K 4   // b 中权重的个数

__global__ void conv1d(float *out, const float *a, const float *b, int size)
{
    __shared__ float tile[TPB + K - 1];
    __shared__ float w[K];
    int t = threadIdx.x;
    int i = blockIdx.x * TPB + t;
    // 填充 tile（从本线程块的第一个元素起取自 a，越过末尾则为 0）
    // 和 w，等待，然后对 i < size 计算
    //     out[i] = tile[t] * w[0] + ... + tile[t + K - 1] * w[K - 1]。
}
