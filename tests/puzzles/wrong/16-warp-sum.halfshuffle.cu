// must fail: value. The shuffles start at d = 8: lane 0 adds only 16 lanes.
__global__ void warp_sum(float *out, const float *a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[i];
    for (int d = 8; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    if (threadIdx.x % 32 == 0) out[i / 32] = v;
}
