// 分块注意力：键和值每次 8 个经过共享内存，在线 softmax（当前最大值、
// 和与加权和，最大值增大时重新缩放）只需遍历一遍键。
#define T 8     // 每个图块的键数
#define DMAX 16 // d 最多为 16

__global__ void attention_tiled(float *out, const float *q, const float *k, const float *v, int n, int m, int d)
{
    __shared__ float ks[T][DMAX], vs[T][DMAX];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // 把 q[i] 放进寄存器（i >= n 时为 0：每个线程都帮忙载入图块）。
    // 对 m 以下的每个图块 t0 = 0, T, 2T, ...：载入 ks 和 vs（m 之后为 0），
    // 等待，用图块中的键更新当前最大值、和与 acc[c]，再等待。
    // 然后对 i < n 写 out[i][c] = acc[c] / sum。
}
