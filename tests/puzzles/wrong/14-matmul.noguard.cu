// must fail: bounds. No guard: with size < 3 the extra threads read and
// write past the arrays.
__global__ void matmul(float *out, const float *a, const float *b, int size)
{
    int i = threadIdx.y;
    int j = threadIdx.x;
    float s = 0;
    for (int k = 0; k < size; k++) s += a[i * size + k] * b[k * size + j];
    out[i * size + j] = s;
}
