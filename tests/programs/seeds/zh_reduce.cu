// A float reduction after the Chinese article: 1e8 values of 1.23 (exact sum
// 123000000), a grid-stride loop over GRID x BLOCK threads into registers,
// a shared-memory tree down to 32 values, the last warp with a
// thread_block_tile<32> and shfl_down, and a second launch of the same
// kernel instead of atomicAdd. The article prints 123000064.000000 with
// floats; -DUSE_DP sums doubles. ELEMENTS and REPEATS make it smaller.
// OPEN-SIM: -DELEMENTS=2000000 -DREPEATS=3
// EXPECT-GPU: sum = 123000064.000000.
// EXPECT-SIM: sum = 2460000.000000.
#include "check.cuh"
#include <stdio.h>
#include <cooperative_groups.h>
using namespace cooperative_groups;

#ifdef USE_DP
typedef double real;
#else
typedef float real;
#endif
#ifndef ELEMENTS
#define ELEMENTS 100000000
#endif
#ifndef REPEATS
#define REPEATS 100
#endif

const int N = ELEMENTS;
const int BLOCK = 128;
const int GRID = 10240;

void __global__ reduce_tile(const real *x, real *y, const int n)
{
    extern __shared__ real part[];
    const int t = threadIdx.x;
    real v = 0;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) v += x[i];
    part[t] = v;
    __syncthreads();
    for (int half = blockDim.x / 2; half >= 32; half /= 2) {
        if (t < half) part[t] += part[t + half];
        __syncthreads();
    }
    v = part[t];
    thread_block_tile<32> warp = tiled_partition<32>(this_thread_block());
    for (int d = warp.size() / 2; d > 0; d /= 2) v += warp.shfl_down(v, d);
    if (t == 0) y[blockIdx.x] = v;
}

real sum_on_gpu(const real *dx)
{
    real *dy, result = 0;
    CHECK(cudaMalloc(&dy, GRID * sizeof(real)));
    reduce_tile<<<GRID, BLOCK, BLOCK * sizeof(real)>>>(dx, dy, N);
    reduce_tile<<<1, 1024, 1024 * sizeof(real)>>>(dy, dy, GRID);
    CHECK(cudaMemcpy(&result, dy, sizeof(real), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(dy));
    return result;
}

int main(void)
{
    real *hx = (real *)malloc(N * sizeof(real));
    for (int i = 0; i < N; i++) hx[i] = 1.23;
    real *dx;
    CHECK(cudaMalloc(&dx, N * sizeof(real)));
    CHECK(cudaMemcpy(dx, hx, N * sizeof(real), cudaMemcpyHostToDevice));
    real sum = 0;
    for (int r = 0; r < REPEATS; r++) {
        cudaEvent_t a, b;
        CHECK(cudaEventCreate(&a));
        CHECK(cudaEventCreate(&b));
        CHECK(cudaEventRecord(a));
        sum = sum_on_gpu(dx);
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        printf("Time = %g ms.\n", ms);
        CHECK(cudaEventDestroy(a));
        CHECK(cudaEventDestroy(b));
    }
    printf("sum = %f.\n", sum);
    free(hx);
    CHECK(cudaFree(dx));
    return 0;
}
