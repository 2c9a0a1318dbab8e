// must fail: race. Writes out[t] = h[t] instead of adding: the blocks store
// to the same bins one over another, a race between blocks, and only one
// block's counts are left.
#define TPB 16
#define BINS 8

__global__ void histogram(float *out, const float *a, int size)
{
    __shared__ float h[BINS];
    int t = threadIdx.x, i = blockIdx.x * TPB + t;
    if (t < BINS) h[t] = 0.0f;
    __syncthreads();
    if (i < size) atomicAdd(&h[(int)a[i]], 1.0f);
    __syncthreads();
    if (t < BINS) out[t] = h[t];
}
