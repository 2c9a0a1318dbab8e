// must fail: limit. Right sums through shared memory and a barrier, which the puzzle leaves out.
__global__ void butterfly(float *out, const float *a, int size)
{
    __shared__ float s[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < size ? a[i] : 0.0f;
    __syncthreads();
    float v = 0;
    for (int l = 0; l < 32; l++) v += s[threadIdx.x / 32 * 32 + l];
    if (i < size) out[i] = v;
}
