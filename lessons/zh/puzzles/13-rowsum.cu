// 沿某一轴求和：每行一个线程块，每个线程块在共享内存中归约
// 自己的那一行；blockIdx.y 指明是哪一行。
#define TPB 8 // 每个线程块的线程数，与 check 启动时一致

__global__ void rowsum(float *out, const float *a, int cols)
{
    __shared__ float cache[TPB];
    int row = blockIdx.y;
    int t = threadIdx.x;
    // 载入 a[row * cols + t]（超出行末则为 0），把 cache 加起来，
    // 并由一个线程写出 out[row]。
}
