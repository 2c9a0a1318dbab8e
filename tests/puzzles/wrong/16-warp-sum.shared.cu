// must fail: limit. Right sums through a shared array, which this puzzle forbids.
__global__ void warp_sum(float *out, const float *a)
{
    __shared__ float cache[64];
    int i = threadIdx.x;
    cache[i] = a[i];
    __syncthreads();
    if (i % 32 == 0) {
        float s = 0;
        for (int l = 0; l < 32; l++) s += cache[i + l];
        out[i / 32] = s;
    }
}
