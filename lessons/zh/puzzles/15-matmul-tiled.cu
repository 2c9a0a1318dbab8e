// 分块矩阵乘法：线程块把 a 和 b 各一个 TILE x TILE 的小块载入
// 共享内存，每个线程各载入一个值，然后每个线程都重复使用整个
// 分块。每个全局值每个线程块读取一次，而不是每个线程
// 读取一次。
#define TILE 4 // 线程块为 TILE x TILE 个线程，与 check 启动时一致

__global__ void matmul_tiled(float *out, const float *a, const float *b,
                             int size)
{
    __shared__ float ta[TILE][TILE];
    __shared__ float tb[TILE][TILE];
    int i = blockIdx.y * TILE + threadIdx.y; // out 的行
    int j = blockIdx.x * TILE + threadIdx.x; // out 的列
    // 对每个小于 size 的分块起点 t = 0, TILE, 2 * TILE, ...：
    //   载入 ta[threadIdx.y][threadIdx.x] = a[i][t + threadIdx.x] 和
    //   tb[threadIdx.y][threadIdx.x] = b[t + threadIdx.y][j]
    //   （矩阵之外为 0），
    //   等待，累加 TILE 个乘积，再次等待。
    // 然后在 i 和 j 都位于矩阵内时写出 out[i * size + j]。
}
