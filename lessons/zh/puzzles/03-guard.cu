// 边界保护：启动的线程通常比元素多；多出来的线程
// 不得越过数组末尾进行读写。
__global__ void guard(float *out, const float *a, int size)
{
    int i = threadIdx.x;
    // 在这里写出 out[i]，只针对有对应元素的线程。
}
