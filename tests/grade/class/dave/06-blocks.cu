// Does not compile: a missing semicolon.
__global__ void blocks(float *out, const float *a, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x
    if (i < size) out[i] = a[i] + 10;
}
