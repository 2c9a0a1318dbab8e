// must fail: limit. Right value, but a shared array of 64 floats (256 bytes)
// where the puzzle allows 32 bytes.
__global__ void dot(float *out, const float *a, const float *b)
{
    __shared__ float cache[64];
    int i = threadIdx.x;
    cache[i] = a[i] * b[i];
    __syncthreads();
    for (int stride = 4; stride > 0; stride /= 2) {
        if (i < stride) cache[i] += cache[i + stride];
        __syncthreads();
    }
    if (i == 0) out[0] = cache[0];
}
