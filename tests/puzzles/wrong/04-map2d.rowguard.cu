// must fail: bounds. Only the row is guarded: the columns past size write
// into the next row and past the end.
__global__ void map2d(float *out, const float *a, int size)
{
    int i = threadIdx.y;
    int j = threadIdx.x;
    if (i < size) out[i * size + j] = a[i * size + j] + 10;
}
