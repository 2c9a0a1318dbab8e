// must fail: bounds. The lanes past the end read past a.
__global__ void butterfly(float *out, const float *a, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[i];
    for (int d = 16; d >= 1; d /= 2) v += __shfl_xor_sync(0xffffffff, v, d);
    if (i < size) out[i] = v;
}
