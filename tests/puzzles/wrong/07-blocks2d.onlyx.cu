// must fail: unwritten. The row ignores blockIdx.y: the lower blocks rewrite the top rows.
__global__ void blocks2d(float *out, const float *a, int size)
{
    int i = threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size && j < size) out[i * size + j] = a[i * size + j] + 10;
}
