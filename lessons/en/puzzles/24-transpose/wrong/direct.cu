// must fail: limit. Right values, but straight from global memory: the writes of a warp are strided.
__global__ void transpose(float *out, const float *a, int rows, int cols)
{
    int x = blockIdx.x * 8 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
    if (y < rows && x < cols) out[x * rows + y] = a[y * cols + x];
}
