// must fail: bounds. Only the column is guarded: the rows past size go past the end.
__global__ void blocks2d(float *out, const float *a, int size)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < size) out[i * size + j] = a[i * size + j] + 10;
}
