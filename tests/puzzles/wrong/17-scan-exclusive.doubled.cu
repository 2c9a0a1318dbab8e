// must fail: limit. Hillis and Steele's scan with two buffers of 2 * TPB
// floats: right values, but 128 bytes of shared memory where 64 are allowed
// (and n log2 n additions instead of 2n).
#define TPB 8
#define N (2 * TPB)

__global__ void scan_exclusive(float *out, const float *a, int size)
{
    __shared__ float buf[2][N];
    int t = threadIdx.x, from = 0;
    buf[0][2 * t] = 2 * t < size ? a[2 * t] : 0.0f;
    buf[0][2 * t + 1] = 2 * t + 1 < size ? a[2 * t + 1] : 0.0f;
    __syncthreads();
    for (int d = 1; d < N; d *= 2) {
        for (int k = 2 * t; k < 2 * t + 2; k++)
            buf[1 - from][k] = buf[from][k] + (k >= d ? buf[from][k - d] : 0);
        from = 1 - from;
        __syncthreads();
    }
    for (int k = 2 * t; k < 2 * t + 2; k++)
        if (k < size) out[k] = k > 0 ? buf[from][k - 1] : 0.0f;
}
