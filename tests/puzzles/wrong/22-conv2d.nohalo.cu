// must fail: value. Loads only the block's own 4 x 4 elements: the
// neighbours across the tile's edge, which belong to other blocks, count
// as 0.
#define T 4          // the block is T x T threads
#define H (T + 2)    // the tile with its halo

__global__ void conv2d(float *out, const float *a, const float *b, int size)
{
    __shared__ float tile[H][H];
    __shared__ float w[3][3];
    int tx = threadIdx.x, ty = threadIdx.y, t = ty * T + tx;
    int row0 = blockIdx.y * T - 1, col0 = blockIdx.x * T - 1;
    for (int k = t; k < H * H; k += T * T) tile[k / H][k % H] = 0.0f;
    __syncthreads();
    if (row0 + 1 + ty < size && col0 + 1 + tx < size) tile[ty + 1][tx + 1] = a[(row0 + 1 + ty) * size + col0 + 1 + tx];
    if (t < 9) w[t / 3][t % 3] = b[t];
    __syncthreads();
    int i = blockIdx.y * T + ty, j = blockIdx.x * T + tx;
    if (i < size && j < size) {
        float s = 0.0f;
        for (int di = 0; di < 3; di++)
            for (int dj = 0; dj < 3; dj++) s += tile[ty + di][tx + dj] * w[di][dj];
        out[i * size + j] = s;
    }
}
