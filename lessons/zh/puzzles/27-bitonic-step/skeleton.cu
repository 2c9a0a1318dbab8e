// 双调排序的一步：每个元素与配对元素 i ^ j 比较，按 i 的第 k 位
// 把这一对排成升序或降序：排序网络中的一步。
__global__ void bitonic_step(float *out, const float *a, int j, int k, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // 在 a 之内：配对元素 p = i ^ j；up = (i & k) == 0；
    // (i < p) == up 时 out[i] = a[i] 与 a[p] 中较小者，否则为较大者。
}
