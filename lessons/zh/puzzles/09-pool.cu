// 池化（pooling）：每个输出都需要几个相邻的输入；把每个输入只载入
// 一次到共享内存中，相邻的线程就能共享这些载入。
#define TPB 8 // 每个线程块的线程数，与 check 启动时一致

__global__ void pool(float *out, const float *a)
{
    __shared__ float cache[TPB];
    int i = threadIdx.x;
    // 载入 a[i] 一次，在屏障处等待，然后从 cache 中
    // 把至多三个相邻的值加起来。
}
