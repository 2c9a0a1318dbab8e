// must fail: race. No barrier between reading the maximum from cache[0]
// and reusing cache for the sum: thread 0 may overwrite cache[0] while
// another thread still reads the maximum there.
#define TPB 8

__global__ void softmax(float *out, const float *a, int cols)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x, row = blockIdx.y;
    float x = t < cols ? a[row * cols + t] : -INFINITY;
    cache[t] = x;
    __syncthreads();
    for (int stride = TPB / 2; stride > 0; stride /= 2) {
        if (t < stride) cache[t] = fmaxf(cache[t], cache[t + stride]);
        __syncthreads();
    }
    float m = cache[0];
    float e = t < cols ? expf(x - m) : 0.0f;
    cache[t] = e;
    __syncthreads();
    for (int stride = TPB / 2; stride > 0; stride /= 2) {
        if (t < stride) cache[t] += cache[t + stride];
        __syncthreads();
    }
    if (t < cols) out[row * cols + t] = e / cache[0];
}
