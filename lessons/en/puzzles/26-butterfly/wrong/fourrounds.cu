// must fail: value. Starting at d = 8 adds 16 lanes: the two halves of the warp never meet.
__global__ void butterfly(float *out, const float *a, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < size ? a[i] : 0.0f;
    for (int d = 8; d >= 1; d /= 2) v += __shfl_xor_sync(0xffffffff, v, d);
    if (i < size) out[i] = v;
}
