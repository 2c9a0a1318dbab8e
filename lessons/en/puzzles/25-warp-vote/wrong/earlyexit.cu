// must fail: launch. The lanes past the end leave before the vote, but the mask 0xffffffff names them: the last warp's vote waits for lanes that have exited.
__global__ void warp_vote(float *out, const float *a, int t, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= size) return;
    unsigned mask = __ballot_sync(0xffffffff, a[i] > t);
    if (threadIdx.x % 32 == 0) out[i / 32] = __popc(mask);
}
