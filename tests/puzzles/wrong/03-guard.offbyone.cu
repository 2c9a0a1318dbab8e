// must fail: bounds. The guard i <= size lets thread `size` read a[size] and
// write out[size], one past both arrays.
__global__ void guard(float *out, const float *a, int size)
{
    int i = threadIdx.x;
    if (i <= size) out[i] = a[i] + 10;
}
