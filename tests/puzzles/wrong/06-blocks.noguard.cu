// must fail: bounds. No guard: the last block's extra threads go past the end.
__global__ void blocks(float *out, const float *a, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[i] + 10;
}
