// 私有化的直方图：线程块在共享内存中自己的直方图里统计它的元素，
// 那里原子操作很便宜，而且只有本块的线程相互竞争；然后用一次原子
// 操作把每个桶加到全局直方图上。
#define TPB 16 // 每个线程块的线程数，与 check 启动时一致
#define BINS 8

__global__ void histogram(float *out, const float *a, int size)
{
    __shared__ float h[BINS];
    int t = threadIdx.x, i = blockIdx.x * TPB + t;
    // 清零 h（t < BINS 的线程）；等待；对 i < size 执行
    // atomicAdd(&h[(int)a[i]], 1.0f)；等待；t < BINS 的线程执行
    // atomicAdd(&out[t], h[t])。
}
