// must fail: bounds. i <= size and j <= size: one row and column too many.
__global__ void broadcast(float *out, const float *a, const float *b, int size)
{
    int i = threadIdx.y;
    int j = threadIdx.x;
    if (i <= size && j <= size) out[i * size + j] = a[i] + b[j];
}
