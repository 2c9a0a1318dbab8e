// Dot product: many products, one sum. The block adds its products in
// shared memory; a tree of halving strides needs log2(8) = 3 rounds.
#define TPB 8 // threads per block, as check launches them

__global__ void dot(float *out, const float *a, const float *b)
{
    __shared__ float cache[TPB];
    int i = threadIdx.x;
    // Each thread stores a[i] * b[i] in cache[i]; after a barrier the
    // block adds cache up, and one thread writes out[0].
}
