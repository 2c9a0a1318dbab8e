// Reduktion mit Warp-Shuffle: Die 32 Lanes eines Warps reichen einander mit
// __shfl_down_sync Register weiter, ohne Shared Memory und ohne Barriere.
__global__ void warp_sum(float *out, const float *a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[i];
    // Für d = 16, 8, 4, 2, 1: v += __shfl_down_sync(0xffffffff, v, d).
    // Lane 0 jedes Warps (threadIdx.x % 32 == 0) schreibt dann out[i / 32].
}
