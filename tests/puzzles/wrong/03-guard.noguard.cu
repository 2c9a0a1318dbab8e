// must fail: bounds. No guard: all 8 threads read and write, past the end
// whenever size < 8.
__global__ void guard(float *out, const float *a, int size)
{
    int i = threadIdx.x;
    out[i] = a[i] + 10;
}
