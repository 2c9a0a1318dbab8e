// 共享内存：由一个线程块的线程共享的小数组，以及在任何线程读取
// 另一个线程写入的内容之前必须经过的屏障（__syncthreads）。
#define TPB 4 // 每个线程块的线程数，与 check 启动时一致

__global__ void shared(float *out, const float *a, int size)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    // 1. 把 a[i] 复制到 cache[t]。
    // 2. 等待，直到线程块中的每个线程都写好了自己的槽位。
    // 3. 令 n = (t + 1) % TPB：写出 out[blockIdx.x * blockDim.x + n]
    //    = cache[n] + 10。
}
