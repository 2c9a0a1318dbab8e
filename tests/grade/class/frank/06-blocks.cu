// Crashes: writes through a null pointer.
__global__ void blocks(float *out, const float *a, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float *p = 0;
    if (i < size) p[i] = a[i] + 10;
}
