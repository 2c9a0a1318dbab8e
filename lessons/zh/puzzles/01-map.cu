// 映射（map）：每个元素一个线程，每个线程对自己的元素做同样的事情。
__global__ void map(float *out, const float *a)
{
    int i = threadIdx.x;
    // 在这里写出 out[i]（一行）。
}
