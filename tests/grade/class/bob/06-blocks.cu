// must fail: bounds. The guard i <= size: thread `size` reads a[size] and
// writes out[size], one past both arrays (size 9: bytes 36 to 39).
__global__ void blocks(float *out, const float *a, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= size) out[i] = a[i] + 10;
}
