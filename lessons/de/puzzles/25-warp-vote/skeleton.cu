// Abstimmung im Warp: die Lanes eines Warps stimmen mit __ballot_sync
// gemeinsam ab, und __popc zählt die Stimmen, ohne Shared Memory.
__global__ void warp_vote(float *out, const float *a, int t, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // 1. above: liegt i innerhalb von a, und ist a[i] > t?
    // 2. jede Lane: mask = __ballot_sync(0xffffffff, above).
    // 3. Lane 0 des Warps schreibt out[i / 32] = __popc(mask).
}
