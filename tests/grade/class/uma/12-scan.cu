// Reference solution of puzzle 12 (prefix sum): Hillis and Steele's scan
// in one shared array, a barrier between the reads and the writes.
#define TPB 16

__global__ void scan(float *out, const float *a)
{
    __shared__ float cache[TPB];
    int i = threadIdx.x;
    cache[i] = a[i];
    __syncthreads();
    for (int offset = 1; offset < TPB; offset *= 2) {
        float left = i >= offset ? cache[i - offset] : 0.0f;
        __syncthreads();
        cache[i] += left;
        __syncthreads();
    }
    out[i] = cache[i];
}
