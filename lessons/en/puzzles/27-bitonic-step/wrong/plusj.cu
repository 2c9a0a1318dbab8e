// must fail: bounds. The partner is i ^ j, not i + j: for the upper element of a pair i + j lies beyond it.
__global__ void bitonic_step(float *out, const float *a, int j, int k, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= size) return;
    int p = i + j;
    bool up = (i & k) == 0;
    float x = a[i], y = a[p];
    out[i] = (i < p) == up ? fminf(x, y) : fmaxf(x, y);
}
