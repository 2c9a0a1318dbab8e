// must fail: limit. Right values straight from global memory: the threads
// that write out never read shared memory.
__global__ void shared(float *out, const float *a, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size) out[i] = a[i] + 10;
}
