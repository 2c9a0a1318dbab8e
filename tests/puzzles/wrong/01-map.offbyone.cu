// must fail: bounds. Each thread writes the element after its own: the
// last thread writes out[4], past the end of out (and out[0] stays unwritten).
__global__ void map(float *out, const float *a)
{
    int i = threadIdx.x;
    out[i + 1] = a[i] + 10;
}
