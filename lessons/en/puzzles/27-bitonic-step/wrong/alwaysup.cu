// must fail: value. Every pair ascending: the descending halves that make the next sequence bitonic are lost.
__global__ void bitonic_step(float *out, const float *a, int j, int k, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= size) return;
    int p = i ^ j;
    float x = a[i], y = a[p];
    out[i] = i < p ? fminf(x, y) : fmaxf(x, y);
}
