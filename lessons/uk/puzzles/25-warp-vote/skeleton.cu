// Голосування у варпі: лінії варпа голосують разом через __ballot_sync, а
// __popc рахує голоси, без спільної пам’яті.
__global__ void warp_vote(float *out, const float *a, int t, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // 1. above: чи i всередині a і a[i] > t?
    // 2. кожна лінія: mask = __ballot_sync(0xffffffff, above).
    // 3. лінія 0 варпа записує out[i / 32] = __popc(mask).
}
