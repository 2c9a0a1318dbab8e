// Histogram with privatisation: a block counts its elements in its own
// histogram in shared memory, where atomics are cheap and only the block's
// threads contend, then adds each bin to the global one with one atomic.
#define TPB 16 // threads per block, as check launches them
#define BINS 8

__global__ void histogram(float *out, const float *a, int size)
{
    __shared__ float h[BINS];
    int t = threadIdx.x, i = blockIdx.x * TPB + t;
    // Clear h (threads t < BINS); wait; atomicAdd(&h[(int)a[i]], 1.0f) for
    // i < size; wait; threads t < BINS atomicAdd(&out[t], h[t]).
}
