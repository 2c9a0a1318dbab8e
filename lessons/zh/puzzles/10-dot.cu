// 点积：许多个乘积，一个和。线程块在共享内存中把它的乘积加起来；
// 步长逐次减半的树需要 log2(8) = 3 轮。
#define TPB 8 // 每个线程块的线程数，与 check 启动时一致

__global__ void dot(float *out, const float *a, const float *b)
{
    __shared__ float cache[TPB];
    int i = threadIdx.x;
    // 每个线程把 a[i] * b[i] 存入 cache[i]；屏障之后，线程块
    // 把 cache 加起来，并由一个线程写出 out[0]。
}
