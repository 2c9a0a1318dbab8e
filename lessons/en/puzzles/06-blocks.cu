// Blocks: a block holds a limited number of threads, so larger arrays take
// several blocks; blockIdx and blockDim give each thread its global index.
__global__ void blocks(float *out, const float *a, int size)
{
    // Compute i from blockIdx.x, blockDim.x and threadIdx.x,
    // then write out[i] when i < size.
}
