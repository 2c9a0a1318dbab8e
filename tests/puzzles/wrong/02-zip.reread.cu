// must fail: limit. Right values, but a[i] is read twice: three global reads
// per thread where two are allowed (volatile keeps the compiler from merging them).
__global__ void zip(float *out, const float *a, const float *b)
{
    int i = threadIdx.x;
    const volatile float *va = a;
    float x = va[i];
    float y = va[i];
    out[i] = (x + y) / 2 + b[i];
}
