// must fail: value. Reads a[j][i] instead of a[i][j].
__global__ void map2d(float *out, const float *a, int size)
{
    int i = threadIdx.y;
    int j = threadIdx.x;
    if (i < size && j < size) out[i * size + j] = a[j * size + i] + 10;
}
