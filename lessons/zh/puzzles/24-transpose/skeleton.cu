// 经由共享内存的转置：线程块在共享内存中把 a 的一个 8 x 8 图块转过来，
// 从而按行读取 a、按行写入 out。
#define TILE 8

__global__ void transpose(float *out, const float *a, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1]; // + 1 让一列分布在 8 个存储体上
    // 把 a[blockIdx.y * TILE + threadIdx.y][blockIdx.x * TILE + threadIdx.x]
    // 载入 tile[threadIdx.y][threadIdx.x]（在 a 之内时），等待整个线程块，
    // 然后把 tile[threadIdx.x][threadIdx.y] 写到它在 out 中的位置。
}
