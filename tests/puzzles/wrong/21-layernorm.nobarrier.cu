// must fail: race. No barrier between reading the sum from cache[0] and
// storing the squared deviations in cache: thread 0 may overwrite the sum
// while another thread still reads it.
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
    float d = t < cols ? x - mean : 0.0f;
    cache[t] = d * d;
    __syncthreads();
    for (int stride = TPB / 2; stride > 0; stride /= 2) {
        if (t < stride) cache[t] += cache[t + stride];
        __syncthreads();
    }
    float var = cache[0] / cols;
    if (t < cols) out[row * cols + t] = d / sqrtf(var + 0.00001f);
}
