// must fail: value. b read as b[j][k]: the product with b transposed.
__global__ void matmul(float *out, const float *a, const float *b, int size)
{
    int i = threadIdx.y;
    int j = threadIdx.x;
    if (i >= size || j >= size) return;
    float s = 0;
    for (int k = 0; k < size; k++) s += a[i * size + k] * b[j * size + k];
    out[i * size + j] = s;
}
