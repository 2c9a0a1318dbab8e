// must pass. The twin of wrong/10-dot.lucky.cu: every thread adds its
// product atomically, and thread 0 writes the total after a barrier, when
// every thread has added, in whatever order they ran.
#define TPB 8

__global__ void dot(float *out, const float *a, const float *b)
{
    __shared__ float cache[TPB];
    int i = threadIdx.x;
    if (i == 0) cache[0] = 0;
    __syncthreads();
    atomicAdd(&cache[0], a[i] * b[i]);
    __syncthreads();
    if (i == 0) out[0] = cache[0];
}
