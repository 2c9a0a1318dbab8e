// Reference solution of puzzle 3 (guards).
__global__ void guard(float *out, const float *a, int size)
{
    int i = threadIdx.x;
    if (i < size) out[i] = a[i] + 10;
}
