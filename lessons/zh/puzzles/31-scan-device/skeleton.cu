// 一次启动跨越许多线程块的扫描：每个线程块扫描自己的 64 元素块，然后加上
// 它前面所有块的和，这个和由前一块所在的线程块发布在 carry 中（并在 ready 中
// 告知）。
#define TPB 64 // 每个线程块的线程数，与 check 的启动一致

__global__ void scan_device(float *out, const float *a, float *ticket, float *ready, float *carry, int size)
{
    __shared__ float warp_total, before;
    __shared__ int tile; // 这个线程块扫描的块：用 atomicAdd(ticket, 1.0f) 取得
    // 1. 线程 0 取得块；线程块等待它。
    // 2. v = a[tile * TPB + t]（超出 size 为 0）；每个线程束用 __shfl_up_sync
    //    扫描；线程束 1 加上线程束 0 的总和（共享内存，屏障之后）。
    // 3. 线程 TPB - 1 等待 ready[tile - 1]，用原子操作读取 carry[tile - 1]，
    //    发布 carry[tile]，然后发布 ready[tile]（中间一个 fence）。
    // 4. 当 i < size 时，out[i] = v + 这个块之前的进位。
}
