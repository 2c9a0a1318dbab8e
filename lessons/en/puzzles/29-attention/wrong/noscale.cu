// must fail: value. Scores not divided by sqrt(d): the softmax is sharper than attention's.
#define DMAX 16

__global__ void attention(float *out, const float *q, const float *k, const float *v, int n, int m, int d)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float scale = 1.0f, qi[DMAX], acc[DMAX];
    for (int c = 0; c < d; c++) {
        qi[c] = q[i * d + c];
        acc[c] = 0;
    }
    float largest = -INFINITY;
    for (int j = 0; j < m; j++) {
        float s = 0;
        for (int c = 0; c < d; c++) s += qi[c] * k[j * d + c];
        largest = fmaxf(largest, s * scale);
    }
    float sum = 0;
    for (int j = 0; j < m; j++) {
        float s = 0;
        for (int c = 0; c < d; c++) s += qi[c] * k[j * d + c];
        float w = expf(s * scale - largest);
        sum += w;
        for (int c = 0; c < d; c++) acc[c] += w * v[j * d + c];
    }
    for (int c = 0; c < d; c++) out[i * d + c] = acc[c] / sum;
}
