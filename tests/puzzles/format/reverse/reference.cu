// Reference solution of the example puzzle: one thread per element.
__global__ void reverse(float *out, const float *a, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size) out[i] = a[size - 1 - i];
}
