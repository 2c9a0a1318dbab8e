// must fail: race. No barrier between the block's counting and the adding
// of the bins to out: thread t may read h[t] while others still count
// into it.
#define TPB 16
#define BINS 8

__global__ void histogram(float *out, const float *a, int size)
{
    __shared__ float h[BINS];
    int t = threadIdx.x, i = blockIdx.x * TPB + t;
    if (t < BINS) h[t] = 0.0f;
    __syncthreads();
    if (i < size) atomicAdd(&h[(int)a[i]], 1.0f);
    if (t < BINS && h[t] > 0.0f) atomicAdd(&out[t], h[t]);
}
