// must fail: race. The tile is read before the threads that load it have written it.
#define TILE 8

__global__ void transpose(float *out, const float *a, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    if (y < rows && x < cols) tile[threadIdx.y][threadIdx.x] = a[y * cols + x];
    int i = blockIdx.y * TILE + threadIdx.x, j = blockIdx.x * TILE + threadIdx.y;
    if (j < cols && i < rows) out[j * rows + i] = tile[threadIdx.x][threadIdx.y];
}
