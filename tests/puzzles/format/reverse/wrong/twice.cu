// must fail: limit. Right values, but a is read twice per thread.
__global__ void reverse(float *out, const float *a, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size) out[i] = a[size - 1 - i] * 0.5f + *(volatile const float *)&a[size - 1 - i] * 0.5f;
}
