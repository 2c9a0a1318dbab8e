// must fail: value. b is read at the wrong index (b[0] for every element).
__global__ void zip(float *out, const float *a, const float *b)
{
    int i = threadIdx.x;
    out[i] = a[i] + b[0];
}
