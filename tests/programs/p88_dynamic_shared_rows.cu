// A dynamic shared array of rows, `extern __shared__ float tile[][TILE + 1]`
// (the tensor-core samples declare theirs so): the launch gives the bytes,
// and the rows are padded by one float against bank conflicts. The launch
// below gives TILE * TILE floats, forgetting the padding, so the last row
// lies past the bytes the launch gave. On a GPU the reads take whatever is
// there; the simulator names the row, the array and the bytes given.
// EXPECT-SIM: transpose: block (0,0,0), thread 224 (x 0, y 7, z 0): index 31 is outside the dynamic shared array tile (declared at line 23), which holds 31 elements: the launch gave 4096 bytes of dynamic shared memory, at line 25
// EXPECT-SIM: transpose: block (0,0,0), thread 31 (x 31, y 0, z 0): index 31 is outside the dynamic shared array tile (declared at line 23), which holds 31 elements: the launch gave 4096 bytes of dynamic shared memory, at line 29
// EXPECT-SIM: transpose: cudaErrorIllegalAddress
#include <cstdio>

#define TILE 32
#ifdef CORRECT
#define SMEM (TILE * (TILE + 1) * sizeof(float))
#else
#define SMEM (TILE * TILE * sizeof(float))
#endif

// Idea: a tile with a padded row, its size chosen at launch: row y of the
// input becomes column y of the output.
__global__ void transpose(const float *in, float *out, int n)
{
    extern __shared__ float tile[][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int r = 0; r < TILE; r += blockDim.y) tile[threadIdx.y + r][threadIdx.x] = in[(y + r) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int r = 0; r < TILE; r += blockDim.y) out[(y + r) * n + x] = tile[threadIdx.x][threadIdx.y + r];
}

int main()
{
    const int n = 64;
    static float h[n * n], r[n * n];
    float *in, *out;
    for (int i = 0; i < n * n; i++) h[i] = (float)i;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof h);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    transpose<<<dim3(n / TILE, n / TILE), dim3(TILE, 8), SMEM>>>(in, out, n);
    printf("transpose: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) wrong += r[i * n + j] != h[j * n + i];
    printf("wrong elements: %d\n", wrong);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
// MEMCHECK: what it expects comes from the simulator's memory checks
