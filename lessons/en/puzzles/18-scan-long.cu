// A scan longer than the block: the block walks the array a tile of TPB
// elements at a time, scans the tile in shared memory, and adds the total
// of the tiles before it, carried from tile to tile in a register.
#define TPB 8 // threads per block, as check launches them

__global__ void scan_long(float *out, const float *a, int size)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x;
    float carry = 0.0f; // the sum of the tiles already done
    for (int base = 0; base < size; base += TPB) {
        // Load a[base + t] into cache[t] (0 past size), scan the tile as in
        // puzzle 12, write out[base + t] = carry + cache[t] (when in range),
        // add the tile's total cache[TPB - 1] to carry, and wait before the
        // next tile overwrites cache.
    }
}
