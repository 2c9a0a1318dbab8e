// must fail: race. No barrier after loading the tile and the weights:
// a thread reads its neighbours' slots before the threads loading them
// have written them.
#define T 4          // the block is T x T threads
#define H (T + 2)    // the tile with its halo

__global__ void conv2d(float *out, const float *a, const float *b, int size)
{
    __shared__ float tile[H][H];
    __shared__ float w[3][3];
    int tx = threadIdx.x, ty = threadIdx.y, t = ty * T + tx;
    int row0 = blockIdx.y * T - 1, col0 = blockIdx.x * T - 1;
    for (int k = t; k < H * H; k += T * T) {
        int y = row0 + k / H, x = col0 + k % H;
        tile[k / H][k % H] = y >= 0 && y < size && x >= 0 && x < size ? a[y * size + x] : 0.0f;
    }
    if (t < 9) w[t / 3][t % 3] = b[t];
    int i = blockIdx.y * T + ty, j = blockIdx.x * T + tx;
    if (i < size && j < size) {
        float s = 0.0f;
        for (int di = 0; di < 3; di++)
            for (int dj = 0; dj < 3; dj++) s += tile[ty + di][tx + dj] * w[di][dj];
        out[i * size + j] = s;
    }
}
