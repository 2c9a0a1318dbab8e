// The twin of p67: block 0 adds the partial sums after this_grid().sync(),
// and thread 0 adds its block's values after __syncthreads(). The shared
// array is reused across both grid barriers, which order it.
// RUN: set race-check on
// EXPECT: cudaSuccess: sum 256
// REJECT: data race
// REJECT: failed
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void two_phases(const int *in, int *partial, int *out)
{
    cg::grid_group grid = cg::this_grid();
    __shared__ int s[64];
    int t = threadIdx.x;
    // phase 1: a block's sum
    s[t] = in[blockIdx.x * 64 + t];
    __syncthreads();
    int sum = 0;
    if (t == 0)
        for (int k = 0; k < 64; k++) sum += s[k];
    if (t == 0) partial[blockIdx.x] = sum;
    grid.sync();
    // phase 2: every partial sum is written
    int total = 0;
    if (blockIdx.x == 0 && t == 0)
        for (int b = 0; b < gridDim.x; b++) total += partial[b];
    s[63 - t] = total;
    __syncthreads();
    if (blockIdx.x == 0 && t == 0) *out = s[63];
    grid.sync();
    s[t] = t;
}

int main()
{
    const int blocks = 4, n = blocks * 64;
    int h[n], *in, *partial, *out, r = -1;
    for (int i = 0; i < n; i++) h[i] = 1;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&partial, blocks * sizeof(int));
    cudaMalloc(&out, sizeof(int));
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    void *args[] = {&in, &partial, &out};
    cudaError_t e = cudaLaunchCooperativeKernel((void *)two_phases, dim3(blocks), dim3(64), args, 0, 0);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost);
    printf("%s: sum %d\n", cudaGetErrorName(e), r);
    cudaFree(in);
    cudaFree(partial);
    cudaFree(out);
    return 0;
}
