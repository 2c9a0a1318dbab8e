// must fail: bounds. Without the guard the last block's extra threads write past out.
__global__ void reverse(float *out, const float *a, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[size - 1 - i];
}
