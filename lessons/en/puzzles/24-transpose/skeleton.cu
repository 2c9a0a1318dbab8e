// Transpose through shared memory: a block turns one 8 x 8 tile of a in
// shared memory, so that it reads a and writes out along rows.
#define TILE 8

__global__ void transpose(float *out, const float *a, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1]; // the + 1 keeps a column in 8 banks
    // Load a[blockIdx.y * TILE + threadIdx.y][blockIdx.x * TILE + threadIdx.x]
    // into tile[threadIdx.y][threadIdx.x] (when inside a), wait for the block,
    // then write tile[threadIdx.x][threadIdx.y] to its place in out.
}
