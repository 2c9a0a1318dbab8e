// must fail: value. Fitted to the stated inputs a[i] = i: out[i] = i + 10
// without reading a, so every random case differs.
__global__ void map(float *out, const float *a)
{
    int i = threadIdx.x;
    out[i] = i + 10;
}
