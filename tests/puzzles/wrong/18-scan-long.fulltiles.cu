// must fail: unwritten. Off by one tile: the loop runs only over whole
// tiles (base + TPB <= size), so the elements of a last, partial tile are
// never written.
#define TPB 8

__global__ void scan_long(float *out, const float *a, int size)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x;
    float carry = 0.0f;
    for (int base = 0; base + TPB <= size; base += TPB) {
        int i = base + t;
        cache[t] = a[i];
        __syncthreads();
        for (int offset = 1; offset < TPB; offset *= 2) {
            float left = t >= offset ? cache[t - offset] : 0.0f;
            __syncthreads();
            cache[t] += left;
            __syncthreads();
        }
        out[i] = carry + cache[t];
        carry += cache[TPB - 1];
        __syncthreads();
    }
}
