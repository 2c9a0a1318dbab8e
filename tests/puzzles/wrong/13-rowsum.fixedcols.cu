// must fail: value. Uses the stated 6 columns instead of cols.
#define TPB 8

__global__ void rowsum(float *out, const float *a, int cols)
{
    __shared__ float cache[TPB];
    int row = blockIdx.y;
    int t = threadIdx.x;
    cache[t] = t < 6 && t < cols ? a[row * 6 + t] : 0.0f;
    __syncthreads();
    for (int stride = TPB / 2; stride > 0; stride /= 2) {
        if (t < stride) cache[t] += cache[t + stride];
        __syncthreads();
    }
    if (t == 0) out[row] = cache[0];
}
