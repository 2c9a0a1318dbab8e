// must fail: race. A row of out holds rows values, not cols: the write uses the wrong stride, so two threads write one element.
#define TILE 8

__global__ void transpose(float *out, const float *a, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    if (y < rows && x < cols) tile[threadIdx.y][threadIdx.x] = a[y * cols + x];
    __syncthreads();
    int i = blockIdx.y * TILE + threadIdx.x, j = blockIdx.x * TILE + threadIdx.y;
    if (j < cols && i < rows) out[j * cols + i] = tile[threadIdx.x][threadIdx.y];
}
