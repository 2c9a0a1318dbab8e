// must fail: bounds. Every thread loads a[row * cols + t], also t >= cols:
// the last row's extra threads read past the end of a.
#define TPB 8

__global__ void softmax(float *out, const float *a, int cols)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x, row = blockIdx.y;
    float x = a[row * cols + t];
    if (t >= cols) x = -INFINITY;
    cache[t] = x;
    __syncthreads();
    for (int stride = TPB / 2; stride > 0; stride /= 2) {
        if (t < stride) cache[t] = fmaxf(cache[t], cache[t + stride]);
        __syncthreads();
    }
    float m = cache[0];
    __syncthreads();
    float e = t < cols ? expf(x - m) : 0.0f;
    cache[t] = e;
    __syncthreads();
    for (int stride = TPB / 2; stride > 0; stride /= 2) {
        if (t < stride) cache[t] += cache[t + stride];
        __syncthreads();
    }
    if (t < cols) out[row * cols + t] = e / cache[0];
}
