// must fail: bounds. cache[i - 1] and cache[i - 2] without the guards i >= 1,
// i >= 2: threads 0 and 1 index below the shared array (cache[-1], cache[-2]).
#define TPB 8

__global__ void pool(float *out, const float *a)
{
    __shared__ float cache[TPB];
    int i = threadIdx.x;
    cache[i] = a[i];
    __syncthreads();
    out[i] = cache[i] + cache[i - 1] + cache[i - 2];
}
