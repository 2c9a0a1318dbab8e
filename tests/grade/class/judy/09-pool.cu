// must fail: limit. Right values, read from global memory three times per thread.
__global__ void pool(float *out, const float *a)
{
    int i = threadIdx.x;
    float s = a[i];
    if (i >= 1) s += a[i - 1];
    if (i >= 2) s += a[i - 2];
    out[i] = s;
}
