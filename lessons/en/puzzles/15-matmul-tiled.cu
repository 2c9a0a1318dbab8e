// Tiled matrix multiply: the block loads a TILE x TILE piece of a and of b
// into shared memory, one value of each per thread, and every thread then
// reuses the whole tile. Each global value is read once per block instead
// of once per thread.
#define TILE 4 // the block is TILE x TILE threads, as check launches it

__global__ void matmul_tiled(float *out, const float *a, const float *b,
                             int size)
{
    __shared__ float ta[TILE][TILE];
    __shared__ float tb[TILE][TILE];
    int i = blockIdx.y * TILE + threadIdx.y; // row of out
    int j = blockIdx.x * TILE + threadIdx.x; // column of out
    // For each tile t = 0, TILE, 2 * TILE, ... below size:
    //   load ta[threadIdx.y][threadIdx.x] = a[i][t + threadIdx.x] and
    //   tb[threadIdx.y][threadIdx.x] = b[t + threadIdx.y][j]
    //   (0 outside the matrix),
    //   wait, add the TILE products, wait again.
    // Then write out[i * size + j] when i and j are inside the matrix.
}
