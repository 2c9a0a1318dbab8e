// must fail: value. Fitted to the stated inputs (a[i] = i, b[i] = 100 + i):
// out[i] = 2 i + 100 is right only for them.
__global__ void zip(float *out, const float *a, const float *b)
{
    int i = threadIdx.x;
    out[i] = 2 * i + 100;
}
