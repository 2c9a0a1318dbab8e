// must fail: limit. The lower thread of each pair writes both elements: right values, two writes a thread.
__global__ void bitonic_step(float *out, const float *a, int j, int k, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= size) return;
    int p = i ^ j;
    if (p < i) return;
    bool up = (i & k) == 0;
    float x = a[i], y = a[p];
    out[i] = up ? fminf(x, y) : fmaxf(x, y);
    out[p] = up ? fmaxf(x, y) : fminf(x, y);
}
