// must fail: bounds. Threads t >= cols load a[row * cols + t] too: the next
// row's values, and past the end of a in the last row.
#define TPB 8

__global__ void rowsum(float *out, const float *a, int cols)
{
    __shared__ float cache[TPB];
    int row = blockIdx.y;
    int t = threadIdx.x;
    cache[t] = a[row * cols + t];
    __syncthreads();
    for (int stride = TPB / 2; stride > 0; stride /= 2) {
        if (t < stride) cache[t] += cache[t + stride];
        __syncthreads();
    }
    if (t == 0) out[row] = cache[0];
}
