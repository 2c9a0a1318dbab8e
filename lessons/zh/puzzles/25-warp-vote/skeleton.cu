// 线程束投票：线程束的各通道用 __ballot_sync 一起投票，__popc 计票，
// 无需共享内存。
__global__ void warp_vote(float *out, const float *a, int t, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // 1. above：i 是否在 a 之内，且 a[i] > t？
    // 2. 每个通道：mask = __ballot_sync(0xffffffff, above)。
    // 3. 线程束的通道 0 写 out[i / 32] = __popc(mask)。
}
