// must fail: value. No halo: the last 3 outputs of a block use 0 where the
// next block's elements belong.
#define TPB 8
#define K 4

__global__ void conv1d(float *out, const float *a, const float *b, int size)
{
    __shared__ float tile[TPB + K - 1];
    __shared__ float w[K];
    int t = threadIdx.x;
    int i = blockIdx.x * TPB + t;
    tile[t] = i < size ? a[i] : 0.0f;
    if (t < K - 1) tile[TPB + t] = 0.0f;
    if (t < K) w[t] = b[t];
    __syncthreads();
    if (i < size) {
        float s = 0;
        for (int j = 0; j < K; j++) s += tile[t + j] * w[j];
        out[i] = s;
    }
}
