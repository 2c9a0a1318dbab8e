// must fail: unwritten. Only the lower triangle j <= i is written.
__global__ void broadcast(float *out, const float *a, const float *b, int size)
{
    int i = threadIdx.y;
    int j = threadIdx.x;
    if (i < size && j <= i) out[i * size + j] = a[i] + b[j];
}
