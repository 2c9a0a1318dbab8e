// 两遍的层归一化：先求该行的均值，再求与均值偏差平方的均值。
// 捷径"x^2 的均值减去均值的平方"是两个很大且几乎相等的数相减，
// 会丢掉方差。
#define TPB 8 // 每个线程块的线程数，与 check 启动时一致

__global__ void layernorm(float *out, const float *a, int cols)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x, row = blockIdx.y;
    // 只读一次 x = a[row * cols + t]（t >= cols 的线程：0）。
    // 1. 在 cache 中用树形归约求该行之和；mean = sum / cols。每个线程
    //    读取它；在 cache 再次使用之前等待。
    // 2. d = x - mean（超出 cols 为 0）；用第二棵树求 d * d 之和；
    //    var = 这个和 / cols。
    // 3. out[row * cols + t] = d / sqrtf(var + 0.00001f)（仅 t < cols）。
}
