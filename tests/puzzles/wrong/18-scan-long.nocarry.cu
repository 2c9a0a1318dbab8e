// must fail: value. Scans every tile on its own: the elements after the
// first tile leave out the sum of the tiles before them.
#define TPB 8

__global__ void scan_long(float *out, const float *a, int size)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x;
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
        if (i < size) out[i] = cache[t];
        __syncthreads();
    }
}
