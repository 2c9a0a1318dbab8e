// Reference solution of puzzle 2 (zip).
__global__ void zip(float *out, const float *a, const float *b)
{
    int i = threadIdx.x;
    out[i] = a[i] + b[i];
}
