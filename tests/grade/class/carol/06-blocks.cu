// must fail: unwritten. i = threadIdx.x: every block writes the first 4.
__global__ void blocks(float *out, const float *a, int size)
{
    int i = threadIdx.x;
    if (i < size) out[i] = a[i] + 10;
}
