// Reference solution of puzzle 7 (blocks in 2D).
__global__ void blocks2d(float *out, const float *a, int size)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size && j < size) out[i * size + j] = a[i * size + j] + 10;
}
