// must fail: value. The loop stops at k < size - 1: the last term is missing.
__global__ void matmul(float *out, const float *a, const float *b, int size)
{
    int i = threadIdx.y;
    int j = threadIdx.x;
    if (i >= size || j >= size) return;
    float s = 0;
    for (int k = 0; k < size - 1; k++) s += a[i * size + k] * b[k * size + j];
    out[i * size + j] = s;
}
