// must fail: race. The barrier after the loads is missing.
#define TPB 8

__global__ void rowsum(float *out, const float *a, int cols)
{
    __shared__ float cache[TPB];
    int row = blockIdx.y;
    int t = threadIdx.x;
    cache[t] = t < cols ? a[row * cols + t] : 0.0f;
    for (int stride = TPB / 2; stride > 0; stride /= 2) {
        if (t < stride) cache[t] += cache[t + stride];
        __syncthreads();
    }
    if (t == 0) out[row] = cache[0];
}
