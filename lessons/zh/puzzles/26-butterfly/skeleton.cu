// 蝶形全归约：__shfl_xor_sync 在索引仅差一位的通道之间交换值，
// 因此五轮之后每个通道都有总和。
__global__ void butterfly(float *out, const float *a, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // 在 a 之内 v = a[i]，末尾之后为 0；五轮 d = 16, 8, 4, 2, 1：
    // v += __shfl_xor_sync(0xffffffff, v, d)；然后写 out[i] = v（i < size）。
}
