// Редукція обміном у варпі: 32 лінії варпа передають регістри одна одній
// через __shfl_down_sync, без спільної пам’яті й без бар’єра.
__global__ void warp_sum(float *out, const float *a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[i];
    // Для d = 16, 8, 4, 2, 1: v += __shfl_down_sync(0xffffffff, v, d).
    // Потім лінія 0 кожного варпа (threadIdx.x % 32 == 0) записує out[i / 32].
}
