// must fail: unwritten. The guard uses the stated size 4 instead of the
// parameter: cases of other sizes leave elements unwritten.
__global__ void guard(float *out, const float *a, int size)
{
    int i = threadIdx.x;
    if (i < 4 && i < size) out[i] = a[i] + 10;
}
