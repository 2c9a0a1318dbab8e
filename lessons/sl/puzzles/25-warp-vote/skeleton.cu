// Glasovanje v snopu: steze snopa glasujejo skupaj s __ballot_sync, __popc
// pa prešteje glasove, brez skupnega pomnilnika.
__global__ void warp_vote(float *out, const float *a, int t, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // 1. above: je i znotraj a in a[i] > t?
    // 2. vsaka steza: mask = __ballot_sync(0xffffffff, above).
    // 3. steza 0 snopa zapiše out[i / 32] = __popc(mask).
}
