// must fail: bounds. The halo is loaded without the guard h < size: the last
// block reads past the end of a.
#define TPB 8
#define K 4

__global__ void conv1d(float *out, const float *a, const float *b, int size)
{
    __shared__ float tile[TPB + K - 1];
    __shared__ float w[K];
    int t = threadIdx.x;
    int i = blockIdx.x * TPB + t;
    tile[t] = i < size ? a[i] : 0.0f;
    if (t < K) {
        w[t] = b[t];
    } else if (t < 2 * K - 1) {
        int h = blockIdx.x * TPB + TPB + (t - K);
        tile[TPB + t - K] = a[h];
    }
    __syncthreads();
    if (i < size) {
        float s = 0;
        for (int j = 0; j < K; j++) s += tile[t + j] * w[j];
        out[i] = s;
    }
}
