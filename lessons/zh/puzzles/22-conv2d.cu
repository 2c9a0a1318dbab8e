// 带光环的二维卷积：线程块的输出块需要每边宽出一个元素的输入块。
// 把带光环的输入块和权重一次性载入共享内存；之后每个线程从那里
// 而不是从全局内存读取它的 9 个邻居。
#define T 4       // 线程块为 T x T 个线程，与 check 启动时一致
#define H (T + 2) // 带光环的块

__global__ void conv2d(float *out, const float *a, const float *b, int size)
{
    __shared__ float tile[H][H];
    __shared__ float w[3][3];
    int tx = threadIdx.x, ty = threadIdx.y;
    // 该块在 a 中的角为第 blockIdx.y * T - 1 行、第 blockIdx.x * T - 1
    // 列。16 个线程载入它的 36 个值（a 之外为 0）和 b 的 9 个权重；
    // 一个屏障；然后线程块的元素 [i][j] 对 di, dj = 0..2 累加
    // tile[ty + di][tx + dj] * w[di][dj]。
}
