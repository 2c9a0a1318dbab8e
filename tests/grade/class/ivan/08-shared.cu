// must fail: race. No __syncthreads() between the write of cache[t] and the
// read of the neighbour's slot: a thread may read it before it is written.
#define TPB 4

__global__ void shared(float *out, const float *a, int size)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (i < size) cache[t] = a[i];
    int n = (t + 1) % TPB;
    int k = blockIdx.x * blockDim.x + n;
    if (k < size) out[k] = cache[n] + 10;
}
