// must fail: race. Uses the inclusive scan as the place: every kept
// element lands one place late, on places the zero fill of the tail also
// writes, so two threads write one element of out.
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
        float left = t >= offset ? cache[t - offset] : 0.0f;
        __syncthreads();
        cache[t] += left;
        __syncthreads();
    }
    int count = (int)cache[TPB - 1];
    if (flag > 0.0f) out[(int)cache[t] < size ? (int)cache[t] : size - 1] = v;
    if (t >= count && t < size || t == 0) out[t] = 0.0f;
}
