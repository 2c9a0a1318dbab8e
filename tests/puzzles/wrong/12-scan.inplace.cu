// must fail: race. Reads cache[i - offset] and writes cache[i] in the same
// step: a thread may read a slot its neighbour already updated.
#define TPB 16

__global__ void scan(float *out, const float *a)
{
    __shared__ float cache[TPB];
    int i = threadIdx.x;
    cache[i] = a[i];
    __syncthreads();
    for (int offset = 1; offset < TPB; offset *= 2) {
        if (i >= offset) cache[i] += cache[i - offset];
        __syncthreads();
    }
    out[i] = cache[i];
}
