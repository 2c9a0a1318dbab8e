// must fail: limit. Right values, straight from global memory: each
// thread reads 9 values of a and 9 weights, where 5 reads are allowed.
#define T 4          // the block is T x T threads
#define H (T + 2)    // the tile with its halo

__global__ void conv2d(float *out, const float *a, const float *b, int size)
{
    int tx = threadIdx.x, ty = threadIdx.y;
    int i = blockIdx.y * T + ty, j = blockIdx.x * T + tx;
    if (i < size && j < size) {
        float s = 0.0f;
        for (int di = 0; di < 3; di++)
            for (int dj = 0; dj < 3; dj++) {
                int y = i + di - 1, x = j + dj - 1;
                if (y >= 0 && y < size && x >= 0 && x < size) s += a[y * size + x] * b[di * 3 + dj];
            }
        out[i * size + j] = s;
    }
}
