// Tiled attention: keys and values go through shared memory 8 at a time, and
// an online softmax (a running maximum, sum and weighted sums, rescaled when
// the maximum grows) needs one pass over the keys.
#define T 8     // keys per tile
#define DMAX 16 // d is at most 16

__global__ void attention_tiled(float *out, const float *q, const float *k, const float *v, int n, int m, int d)
{
    __shared__ float ks[T][DMAX], vs[T][DMAX];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // q[i] into registers (0 for i >= n: every thread helps to load the tiles).
    // For each tile t0 = 0, T, 2T, ... below m: load ks and vs (0 past m),
    // wait, update the running maximum, sum and acc[c] for the tile's keys,
    // wait again. Then out[i][c] = acc[c] / sum for i < n.
}
