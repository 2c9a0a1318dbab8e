// must fail: limit. Right sums, read straight from global memory: nothing is copied into shared memory, which the puzzle asks for.
__global__ void row_sums(float *out, const float *a, int rows, int cols)
{
    int lane = threadIdx.x;
    float sum = 0.0f;
    for (int j = lane; j < cols; j += 32) sum += a[blockIdx.x * cols + j];
    for (int d = 16; d > 0; d /= 2) sum += __shfl_down_sync(0xffffffffu, sum, d);
    if (lane == 0) out[blockIdx.x] = sum;
}
