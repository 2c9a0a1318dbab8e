// 2D convolution with a halo: the output tile of a block needs the input
// tile one element wider on every side. Load the tile with its halo, and
// the weights, into shared memory once; every thread then reads its 9
// neighbours from there instead of from global memory.
#define T 4       // the block is T x T threads, as check launches them
#define H (T + 2) // the tile with its halo

__global__ void conv2d(float *out, const float *a, const float *b, int size)
{
    __shared__ float tile[H][H];
    __shared__ float w[3][3];
    int tx = threadIdx.x, ty = threadIdx.y;
    // The tile's corner in a is row blockIdx.y * T - 1, column
    // blockIdx.x * T - 1. The 16 threads load its 36 values (0 outside a)
    // and b's 9 weights; one barrier; then element [i][j] of the block's
    // tile adds tile[ty + di][tx + dj] * w[di][dj] for di, dj in 0..2.
}
