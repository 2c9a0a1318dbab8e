// must fail: bounds. The last tile is loaded whole: past key m - 1 it reads past k and v.
#define T 8
#define DMAX 16

__global__ void attention_tiled(float *out, const float *q, const float *k, const float *v, int n, int m, int d)
{
    __shared__ float ks[T][DMAX], vs[T][DMAX];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float scale = 1.0f / sqrtf((float)d), qi[DMAX], acc[DMAX];
    for (int c = 0; c < d; c++) {
        qi[c] = i < n ? q[i * d + c] : 0;
        acc[c] = 0;
    }
    float largest = -INFINITY, sum = 0;
    for (int t0 = 0; t0 < m; t0 += T) {
        for (int e = threadIdx.x; e < T * d; e += blockDim.x) {
            int j = t0 + e / d, c = e % d;
            ks[e / d][c] = k[j * d + c];
            vs[e / d][c] = v[j * d + c];
        }
        __syncthreads();
        int tn = min(T, m - t0);
        for (int jj = 0; jj < tn; jj++) {
            float s = 0;
            for (int c = 0; c < d; c++) s += qi[c] * ks[jj][c];
            s *= scale;
            float now = fmaxf(largest, s), r = expf(largest - now), w = expf(s - now);
            sum = sum * r + w;
            for (int c = 0; c < d; c++) acc[c] = acc[c] * r + w * vs[jj][c];
            largest = now;
        }
        __syncthreads();
    }
    if (i < n)
        for (int c = 0; c < d; c++) out[i * d + c] = acc[c] / sum;
}
