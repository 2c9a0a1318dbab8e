// must fail: bounds. a[size - i] reads one past the end of a for i = 0.
__global__ void reverse(float *out, const float *a, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size) out[i] = a[size - i];
}
