// must fail: race. No barrier inside the tree: a round reads slots the
// previous round is still writing.
#define TPB 8

__global__ void dot(float *out, const float *a, const float *b)
{
    __shared__ float cache[TPB];
    int i = threadIdx.x;
    cache[i] = a[i] * b[i];
    __syncthreads();
    for (int stride = TPB / 2; stride > 0; stride /= 2)
        if (i < stride) cache[i] += cache[i + stride];
    if (i == 0) out[0] = cache[0];
}
