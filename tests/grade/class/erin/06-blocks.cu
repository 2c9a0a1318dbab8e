// Hangs: the loop never ends.
__global__ void blocks(float *out, const float *a, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    while (i < size) out[i] = a[i] + 10;
}
