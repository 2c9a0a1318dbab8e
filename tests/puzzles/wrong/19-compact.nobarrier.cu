// must fail: bounds. The scan of the flags reads cache[t - offset] and adds
// it to cache[t] in the same step, without a barrier between the two: the
// places come out wrong and a kept element is written past the end of out.
#define TPB 16

__global__ void compact(float *out, const float *a, int size)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x;
    float v = t < size ? a[t] : 0.0f;
    float flag = v > 0.0f ? 1.0f : 0.0f;
    cache[t] = flag;
    __syncthreads();
    for (int offset = 1; offset < TPB; offset *= 2) {
        if (t >= offset) cache[t] += cache[t - offset];
        __syncthreads();
    }
    int count = (int)cache[TPB - 1];
    if (flag > 0.0f) out[(int)cache[t] - 1] = v;
    if (t >= count && t < size) out[t] = 0.0f;
}
