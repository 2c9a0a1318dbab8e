// must fail: bounds. Without i < size the lanes past the end read past a.
__global__ void warp_vote(float *out, const float *a, int t, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool above = a[i] > t;
    unsigned mask = __ballot_sync(0xffffffff, above);
    if (threadIdx.x % 32 == 0 && i < size) out[i / 32] = __popc(mask);
}
