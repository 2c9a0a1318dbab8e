// must fail: value. One pass: var = mean of x^2 - mean^2. Near 1000 the
// squares are about 10^6, where a float keeps only 0.06, so the difference
// of two such numbers loses the variance's digits (beyond the tolerance).
#define TPB 8

__global__ void layernorm(float *out, const float *a, int cols)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x, row = blockIdx.y;
    float x = t < cols ? a[row * cols + t] : 0.0f;
    cache[t] = x;
    __syncthreads();
    for (int stride = TPB / 2; stride > 0; stride /= 2) {
        if (t < stride) cache[t] += cache[t + stride];
        __syncthreads();
    }
    float mean = cache[0] / cols;
    __syncthreads();
    float d = t < cols ? x - mean : 0.0f;
    cache[t] = x * x;
    __syncthreads();
    for (int stride = TPB / 2; stride > 0; stride /= 2) {
        if (t < stride) cache[t] += cache[t + stride];
        __syncthreads();
    }
    float var = cache[0] / cols - mean * mean;
    if (t < cols) out[row * cols + t] = d / sqrtf(var + 0.00001f);
}
