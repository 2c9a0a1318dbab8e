// Reference solution of puzzle 15 (tiled matrix multiply).
#define TILE 4

__global__ void matmul_tiled(float *out, const float *a, const float *b, int size)
{
    __shared__ float ta[TILE][TILE];
    __shared__ float tb[TILE][TILE];
    int ty = threadIdx.y, tx = threadIdx.x;
    int i = blockIdx.y * TILE + ty;
    int j = blockIdx.x * TILE + tx;
    float s = 0;
    for (int t = 0; t < size; t += TILE) {
        ta[ty][tx] = i < size && t + tx < size ? a[i * size + t + tx] : 0.0f;
        tb[ty][tx] = t + ty < size && j < size ? b[(t + ty) * size + j] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++) s += ta[ty][k] * tb[k][tx];
        __syncthreads();
    }
    if (i < size && j < size) out[i * size + j] = s;
}
