// must fail: limit. Right values without tiles: each thread reads 2 * size
// values of global memory where 4 are allowed.
__global__ void matmul_tiled(float *out, const float *a, const float *b, int size)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= size || j >= size) return;
    float s = 0;
    for (int k = 0; k < size; k++) s += a[i * size + k] * b[k * size + j];
    out[i * size + j] = s;
}
