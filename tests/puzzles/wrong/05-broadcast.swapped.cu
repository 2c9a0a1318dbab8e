// must fail: value. a and b swapped: out[i][j] = a[j] + b[i].
__global__ void broadcast(float *out, const float *a, const float *b, int size)
{
    int i = threadIdx.y;
    int j = threadIdx.x;
    if (i < size && j < size) out[i * size + j] = a[j] + b[i];
}
