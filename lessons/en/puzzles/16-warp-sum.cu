// Warp-shuffle reduction: the 32 lanes of a warp pass registers to each
// other with __shfl_down_sync, no shared memory and no barrier needed.
__global__ void warp_sum(float *out, const float *a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[i];
    // For d = 16, 8, 4, 2, 1: v += __shfl_down_sync(0xffffffff, v, d).
    // Lane 0 of each warp (threadIdx.x % 32 == 0) then writes out[i / 32].
}
