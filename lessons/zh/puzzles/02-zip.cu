// 逐元素配对（zip）：同步遍历两个输入，两者的第 i 个元素在线程 i 中相遇。
__global__ void zip(float *out, const float *a, const float *b)
{
    int i = threadIdx.x;
    // 在这里写出 out[i]（一行）。
}
