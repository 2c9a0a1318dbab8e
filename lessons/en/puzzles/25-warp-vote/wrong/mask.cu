// must fail: value. The ballot is a mask with a bit per lane; the count is __popc(mask), not the mask.
__global__ void warp_vote(float *out, const float *a, int t, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool above = i < size && a[i] > t;
    unsigned mask = __ballot_sync(0xffffffff, above);
    if (threadIdx.x % 32 == 0 && i < size) out[i / 32] = mask;
}
