// 前缀和：在第 r 轮中，每个线程把它左边相距 2^r 的值加到自己身上。
// 先读取该值，等待，再相加并再次等待，这样就不会有线程
// 覆盖另一个线程还没有读取的槽位。
#define TPB 16 // 每个线程块的线程数，与 check 启动时一致

__global__ void scan(float *out, const float *a)
{
    __shared__ float cache[TPB];
    int i = threadIdx.x;
    // 把 a[i] 载入 cache[i]；对 offset = 1, 2, 4, 8：加上 cache[i - offset]
    // （当 i >= offset 时）；然后写出 out[i]。
}
