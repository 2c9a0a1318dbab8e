// must fail: unwritten. Only the even threads write; out[1] keeps its fill.
__global__ void map(float *out, const float *a)
{
    int i = threadIdx.x;
    if (i % 2 == 0) out[i] = a[i] + 10;
}
