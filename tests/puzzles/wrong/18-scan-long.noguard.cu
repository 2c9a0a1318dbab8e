// must fail: bounds. The last tile loads a[base + t] without the guard
// i < size, reading past the end of a when size is not a multiple of 8.
#define TPB 8

__global__ void scan_long(float *out, const float *a, int size)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x;
    float carry = 0.0f;
    for (int base = 0; base < size; base += TPB) {
        int i = base + t;
        cache[t] = a[i];
        __syncthreads();
        for (int offset = 1; offset < TPB; offset *= 2) {
            float left = t >= offset ? cache[t - offset] : 0.0f;
            __syncthreads();
            cache[t] += left;
            __syncthreads();
        }
        if (i < size) out[i] = carry + cache[t];
        carry += cache[TPB - 1];
        __syncthreads();
    }
}
