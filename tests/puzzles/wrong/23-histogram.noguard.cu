// must fail: bounds. Counts a[i] without the guard i < size: the last
// block's extra threads read past the end of a.
#define TPB 16
#define BINS 8

__global__ void histogram(float *out, const float *a, int size)
{
    __shared__ float h[BINS];
    int t = threadIdx.x, i = blockIdx.x * TPB + t;
    if (t < BINS) h[t] = 0.0f;
    __syncthreads();
    atomicAdd(&h[(int)a[i] & (BINS - 1)], 1.0f);
    __syncthreads();
    if (t < BINS && h[t] > 0.0f) atomicAdd(&out[t], h[t]);
}
