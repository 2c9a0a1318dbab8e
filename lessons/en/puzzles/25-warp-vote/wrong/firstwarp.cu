// must fail: unwritten. threadIdx.x == 0 is lane 0 of the block's first warp only: the second warp writes nothing.
__global__ void warp_vote(float *out, const float *a, int t, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool above = i < size && a[i] > t;
    unsigned mask = __ballot_sync(0xffffffff, above);
    if (threadIdx.x == 0 && i < size) out[i / 32] = __popc(mask);
}
