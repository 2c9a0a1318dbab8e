// must fail: bounds. The last block's threads past the end read and write past the arrays.
__global__ void bitonic_step(float *out, const float *a, int j, int k, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int p = i ^ j;
    bool up = (i & k) == 0;
    float x = a[i], y = a[p];
    out[i] = (i < p) == up ? fminf(x, y) : fmaxf(x, y);
}
