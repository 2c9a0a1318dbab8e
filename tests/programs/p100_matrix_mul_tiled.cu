// A student's tiled matrix multiply in the shape of the CUDA samples' matrixMul:
// C (hA x wB) = A (hA x wA) times B (wA x wB), tiles of 32 x 32 in shared memory,
// the sample's default sizes (A 320 x 320, B 320 rows x 640 columns), A filled
// with 1.0 and B with 0.01, so every element of C is wA * 0.01 = 3.2. One
// warm-up launch, then ITERS timed launches (the sample makes 300; the argument
// sets it, default 1); the result is checked against the known value with the
// sample's relative tolerance. bench/simspeed.sh times it on the simulator.
// ARGS: 1
// EXPECT: MatrixA(320,320), MatrixB(640,320)
// EXPECT: Result = PASS
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define TILE 32

// the idea: each block computes one TILE x TILE piece of C; for each pair of
// tiles of A's row band and B's column band it stages both in shared memory,
// waits, multiplies them from there and waits again before the next pair
__global__ void matmul_tiled(float *c, const float *a, const float *b, int wa, int wb)
{
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int a_first = wa * TILE * blockIdx.y, a_last = a_first + wa - 1;
    int b_first = TILE * blockIdx.x;
    float acc = 0;
    for (int ai = a_first, bi = b_first; ai <= a_last; ai += TILE, bi += TILE * wb) {
        as[ty][tx] = a[ai + wa * ty + tx];
        bs[ty][tx] = b[bi + wb * ty + tx];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) acc += as[ty][k] * bs[k][tx];
        __syncthreads();
    }
    c[wb * TILE * blockIdx.y + TILE * blockIdx.x + wb * ty + tx] = acc;
}

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 1;
    const int ha = 10 * TILE, wa = 10 * TILE, wb = 20 * TILE;
    printf("MatrixA(%d,%d), MatrixB(%d,%d)\n", wa, ha, wb, wa);
    std::vector<float> a((size_t)ha * wa, 1.0f), b((size_t)wa * wb, 0.01f), c((size_t)ha * wb);
    float *da, *db, *dc;
    cudaMalloc(&da, a.size() * sizeof(float));
    cudaMalloc(&db, b.size() * sizeof(float));
    cudaMalloc(&dc, c.size() * sizeof(float));
    cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice);
    dim3 threads(TILE, TILE), grid(wb / TILE, ha / TILE);
    matmul_tiled<<<grid, threads>>>(dc, da, db, wa, wb);
    cudaDeviceSynchronize();
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start);
    for (int i = 0; i < iters; i++) matmul_tiled<<<grid, threads>>>(dc, da, db, wa, wb);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    double per = iters > 0 ? ms / iters : 0, flops = 2.0 * ha * wa * wb;
    printf("Performance = %.2f GFlop/s, Time = %.3f msec, Size = %.0f Ops\n",
           per > 0 ? flops * 1e-9 / (per / 1e3) : 0.0, per, flops);
    cudaError_t e = cudaMemcpy(c.data(), dc, c.size() * sizeof(float), cudaMemcpyDeviceToHost);
    int bad = 0;
    const float want = wa * 0.01f;
    for (size_t i = 0; i < c.size(); i++)
        if (fabs(c[i] - want) / want > 1e-6 * wa && bad++ < 5)
            printf("Error! C[%zu] = %.8f, expected %.8f\n", i, c[i], want);
    printf("%s; Result = %s\n", cudaGetErrorName(e), e == cudaSuccess && !bad ? "PASS" : "FAIL");
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    return bad != 0 || e != cudaSuccess;
}
