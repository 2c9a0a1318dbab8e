// Reference solution of puzzle 18 (scan with a carried total): one tile of
// TPB at a time, scanned as in puzzle 12; the total so far stays in a
// register, and a barrier ends each tile before the next overwrites cache.
#define TPB 8

__global__ void scan_long(float *out, const float *a, int size)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x;
    float carry = 0.0f;
    for (int base = 0; base < size; base += TPB) {
        int i = base + t;
        cache[t] = i < size ? a[i] : 0.0f;
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
