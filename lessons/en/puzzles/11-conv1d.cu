// 1D convolution: each block needs its own elements plus a halo of K - 1
// elements that belong to the next block. Load the tile and the halo into
// shared memory once; no thread may read global memory more than twice.
#define TPB 8 // threads per block, as check launches them
#define K 4   // weights in b

__global__ void conv1d(float *out, const float *a, const float *b, int size)
{
    __shared__ float tile[TPB + K - 1];
    __shared__ float w[K];
    int t = threadIdx.x;
    int i = blockIdx.x * TPB + t;
    // Fill tile (a from this block's first element on, 0 past the end)
    // and w, wait, then for i < size
    //     out[i] = tile[t] * w[0] + ... + tile[t + K - 1] * w[K - 1].
}
