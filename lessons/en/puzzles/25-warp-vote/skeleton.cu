// Warp vote: the lanes of a warp vote together with __ballot_sync, and
// __popc counts the votes, without shared memory.
__global__ void warp_vote(float *out, const float *a, int t, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // 1. above: is i inside a, and a[i] > t?
    // 2. every lane: mask = __ballot_sync(0xffffffff, above).
    // 3. lane 0 of the warp writes out[i / 32] = __popc(mask).
}
