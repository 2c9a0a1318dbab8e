// must fail: value. Divides the squared deviations by cols - 1 (the
// sample variance); the puzzle's var is their mean, divided by cols.
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
    cache[t] = d * d;
    __syncthreads();
    for (int stride = TPB / 2; stride > 0; stride /= 2) {
        if (t < stride) cache[t] += cache[t + stride];
        __syncthreads();
    }
    float var = cols > 1 ? cache[0] / (cols - 1) : 0.0f;
    if (t < cols) out[row * cols + t] = d / sqrtf(var + 0.00001f);
}
