// A tiled matrix product whose shared tiles are declared inside the loop
// over the tiles, as the CUDA samples' matrixMul declares them: one array
// of the block all the same, whatever iteration names it. A template kernel
// on the tile's size, C (64 x 80) = A (64 x 48) times B (48 x 80), tiles of
// 16 x 16; the elements are small integers, so every sum is exact.
// EXPECT: C[0][0] = 278 C[63][79] = 282 C[17][42] = 287
// EXPECT: sum 1474080, 0 wrong
// EXPECT: exit status 0
#include <cstdio>

// Idea: each block computes one tile of C; for each pair of tiles of A's
// row band and B's column band it stages both in shared memory, waits,
// multiplies them from there and waits again before the next pair.
template <int TILE> __global__ void product(float *c, const float *a, const float *b, int wa, int wb)
{
    const int bx = blockIdx.x, by = blockIdx.y;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int a_first = wa * TILE * by, a_last = a_first + wa - 1, a_step = TILE;
    const int b_first = TILE * bx, b_step = TILE * wb;
    float sum = 0;
    for (int ai = a_first, bi = b_first; ai <= a_last; ai += a_step, bi += b_step) {
        __shared__ float as[TILE][TILE];
        __shared__ float bs[TILE][TILE];
        as[ty][tx] = a[ai + wa * ty + tx];
        bs[ty][tx] = b[bi + wb * ty + tx];
        __syncthreads();
        for (int k = 0; k < TILE; ++k) sum += as[ty][k] * bs[k][tx];
        __syncthreads();
    }
    c[wb * TILE * by + TILE * bx + wb * ty + tx] = sum;
}

int main()
{
    const int ha = 64, wa = 48, wb = 80;
    static float a[ha * wa], b[wa * wb], c[ha * wb];
    for (int i = 0; i < ha; i++)
        for (int k = 0; k < wa; k++) a[i * wa + k] = (float)((i + k) % 7);
    for (int k = 0; k < wa; k++)
        for (int j = 0; j < wb; j++) b[k * wb + j] = (float)((3 * k + j) % 5);
    float *da, *db, *dc;
    cudaMalloc(&da, sizeof a);
    cudaMalloc(&db, sizeof b);
    cudaMalloc(&dc, sizeof c);
    cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
    product<16><<<dim3(wb / 16, ha / 16), dim3(16, 16)>>>(dc, da, db, wa, wb);
    cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost);
    long long total = 0;
    int wrong = 0;
    for (int i = 0; i < ha; i++)
        for (int j = 0; j < wb; j++) {
            long long ref = 0;
            for (int k = 0; k < wa; k++) ref += (long long)((i + k) % 7) * ((3 * k + j) % 5);
            wrong += c[i * wb + j] != (float)ref;
            total += (long long)c[i * wb + j];
        }
    printf("C[0][0] = %g C[63][79] = %g C[17][42] = %g\n", c[0], c[63 * wb + 79], c[17 * wb + 42]);
    printf("sum %lld, %d wrong\n", total, wrong);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    return 0;
}
