// Reference solution of puzzle 25 (warp-vote): one ballot per warp, counted by __popc.
__global__ void warp_vote(float *out, const float *a, int t, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool above = i < size && a[i] > t;
    unsigned mask = __ballot_sync(0xffffffff, above);
    if (threadIdx.x % 32 == 0 && i < size) out[i / 32] = __popc(mask);
}
