// 数值稳定的 softmax：exp(a - m)（m 为该行最大值）永远不会溢出
// （每个指数都 <= 0），而且得到相同的比例，因为因子 exp(-m)
// 在分子和总和之间约掉了。
#define TPB 8 // 每个线程块的线程数，与 check 启动时一致

__global__ void softmax(float *out, const float *a, int cols)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x, row = blockIdx.y;
    // 只读一次 x = a[row * cols + t]（t >= cols 的线程：-INFINITY）。
    // 1. 该行最大值 m：像谜题 10 那样在 cache 中用 fmaxf 做树形归约。
    // 2. 每个线程读取 m；在 cache 再次使用之前等待。
    // 3. e = expf(x - m)（超出 cols 为 0），用第二棵树求它们的和。
    // 4. out[row * cols + t] = e / sum（仅 t < cols）。
}
