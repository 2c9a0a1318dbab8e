// A tiled transpose: a 2D shared tile with one column of padding (no bank
// conflicts), a 2D grid of 2D blocks, and dim3.
// EXPECT: transpose of 70x45: ok
#include <cstdio>
#include <cstdlib>

#define TILE 16

__global__ void transpose(const float *in, float *out, int w, int h)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    if (x < w && y < h) tile[threadIdx.y][threadIdx.x] = in[y * w + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < h && y < w) out[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

int main()
{
    const int w = 70, h = 45;
    float *a = (float *)malloc(w * h * sizeof(float)), *b = (float *)malloc(w * h * sizeof(float));
    for (int i = 0; i < w * h; i++) a[i] = (float)i;
    float *da, *db;
    cudaMalloc(&da, w * h * sizeof(float));
    cudaMalloc(&db, w * h * sizeof(float));
    cudaMemcpy(da, a, w * h * sizeof(float), cudaMemcpyHostToDevice);
    dim3 block(TILE, TILE), grid((w + TILE - 1) / TILE, (h + TILE - 1) / TILE);
    transpose<<<grid, block>>>(da, db, w, h);
    cudaMemcpy(b, db, w * h * sizeof(float), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) bad += b[x * h + y] != a[y * w + x];
    printf("transpose of %dx%d: %s\n", w, h, bad ? "WRONG" : "ok");
    return bad != 0;
}
