// A scan over many blocks in one launch: each block scans its tile of 64
// elements, then adds the total of every tile before it, which the block
// of the tile before publishes in carry (and says so in ready).
#define TPB 64 // threads per block, as check launches them

__global__ void scan_device(float *out, const float *a, float *ticket, float *ready, float *carry, int size)
{
    __shared__ float warp_total, before;
    __shared__ int tile; // the tile this block scans: taken with atomicAdd(ticket, 1.0f)
    // 1. Thread 0 takes the tile; the block waits for it.
    // 2. v = a[tile * TPB + t] (0 past size); each warp scans with
    //    __shfl_up_sync; warp 1 adds warp 0's total (shared, after a barrier).
    // 3. Thread TPB - 1 waits for ready[tile - 1], reads carry[tile - 1] with
    //    atomics, publishes carry[tile] and then ready[tile] (a fence between).
    // 4. out[i] = v + the carry before this tile, for i < size.
}
