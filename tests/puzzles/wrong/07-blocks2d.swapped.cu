// must fail: value. Row and column swapped on the read only: out[i][j] = a[j][i] + 10.
__global__ void blocks2d(float *out, const float *a, int size)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size && j < size) out[i * size + j] = a[j * size + i] + 10;
}
