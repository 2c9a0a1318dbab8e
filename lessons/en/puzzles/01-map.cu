// Map: one thread per element, each doing the same thing to its own element.
__global__ void map(float *out, const float *a)
{
    int i = threadIdx.x;
    // Write out[i] here (one line).
}
