// must fail: bounds. The load has no guard: in the last, partial block the
// extra threads read past the end of a.
#define TPB 4

__global__ void shared(float *out, const float *a, int size)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    cache[t] = a[i];
    __syncthreads();
    int n = (t + 1) % TPB;
    int k = blockIdx.x * blockDim.x + n;
    if (k < size) out[k] = cache[n] + 10;
}
