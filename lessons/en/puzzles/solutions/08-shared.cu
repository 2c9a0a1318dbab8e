// Reference solution of puzzle 8 (shared memory): the barrier makes the
// neighbour's slot safe to read.
#define TPB 4

__global__ void shared(float *out, const float *a, int size)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (i < size) cache[t] = a[i];
    __syncthreads();
    int n = (t + 1) % TPB;
    int k = blockIdx.x * blockDim.x + n;
    if (k < size) out[k] = cache[n] + 10;
}
