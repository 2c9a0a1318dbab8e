// must fail: value. The tree starts at stride 2: the products of 4 to 7 are left out.
#define TPB 8

__global__ void dot(float *out, const float *a, const float *b)
{
    __shared__ float cache[TPB];
    int i = threadIdx.x;
    cache[i] = a[i] * b[i];
    __syncthreads();
    for (int stride = 2; stride > 0; stride /= 2) {
        if (i < stride) cache[i] += cache[i + stride];
        __syncthreads();
    }
    if (i == 0) out[0] = cache[0];
}
