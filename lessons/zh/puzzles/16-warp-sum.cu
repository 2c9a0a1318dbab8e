// 线程束洗牌归约：一个线程束的 32 个通道用 __shfl_down_sync 互相
// 传递寄存器，既不需要共享内存，也不需要屏障。
__global__ void warp_sum(float *out, const float *a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[i];
    // 对 d = 16, 8, 4, 2, 1：v += __shfl_down_sync(0xffffffff, v, d)。
    // 然后每个线程束的 0 号通道（threadIdx.x % 32 == 0）写出 out[i / 32]。
}
