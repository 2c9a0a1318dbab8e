// must fail: value. A copy, not a reverse: right only where a is the same both ways.
__global__ void reverse(float *out, const float *a, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size) out[i] = a[i];
}
