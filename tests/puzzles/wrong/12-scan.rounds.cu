// must fail: value. Three rounds (offset < 8) instead of four: each element
// adds at most 8 values.
#define TPB 16

__global__ void scan(float *out, const float *a)
{
    __shared__ float cache[TPB];
    int i = threadIdx.x;
    cache[i] = a[i];
    __syncthreads();
    for (int offset = 1; offset < 8; offset *= 2) {
        float left = i >= offset ? cache[i - offset] : 0.0f;
        __syncthreads();
        cache[i] += left;
        __syncthreads();
    }
    out[i] = cache[i];
}
