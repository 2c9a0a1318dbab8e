// must fail: value. Lane 31 writes: after shuffles down it holds only its own value.
__global__ void warp_sum(float *out, const float *a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[i];
    for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    if (threadIdx.x % 32 == 31) out[i / 32] = v;
}
