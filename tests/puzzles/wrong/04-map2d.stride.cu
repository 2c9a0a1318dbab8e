// must fail: bounds. The row stride is blockDim.x (4), not size.
__global__ void map2d(float *out, const float *a, int size)
{
    int i = threadIdx.y;
    int j = threadIdx.x;
    if (i < size && j < size) out[i * blockDim.x + j] = a[i * blockDim.x + j] + 10;
}
