// must fail: limit. Right counts, but every element is an atomicAdd on
// out in global memory: 16 global writes per block where 8 are allowed
// (and all blocks contend for the same 8 addresses).
#define TPB 16
#define BINS 8

__global__ void histogram(float *out, const float *a, int size)
{
    int t = threadIdx.x, i = blockIdx.x * TPB + t;
    if (i < size) atomicAdd(&out[(int)a[i]], 1.0f);
}
