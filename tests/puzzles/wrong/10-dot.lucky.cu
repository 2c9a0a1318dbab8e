// must fail: schedule. The thread with the last index writes the running total it saw: the whole sum only when it adds last, as in the fixed order.
#define TPB 8

__global__ void dot(float *out, const float *a, const float *b)
{
    __shared__ float cache[TPB];
    int i = threadIdx.x;
    if (i == 0) cache[0] = 0;
    __syncthreads();
    float p = a[i] * b[i];
    float total = atomicAdd(&cache[0], p) + p;
    if (i == TPB - 1) out[0] = total;
}
