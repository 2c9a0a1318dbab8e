// Two phases of a cooperative kernel: each block writes its partial sum,
// then block 0 adds them up. The second phase must start after
// this_grid().sync(); here block 0 reads the partial sums before it, so it
// may read a block's sum before that block wrote it. The shared array is
// reused across the grid barrier, which orders it, and raced on before it.
// RUN: set race-check on
// EXPECT-SIM: blocks 0 and 1: data race on partial (16 bytes from cudaMalloc at line 53), element 1 (bytes 4-7): block 0, thread 0 reads it at line 37 and block 1, thread 0 writes it at line 33
// EXPECT-SIM: the launch is cooperative, so put this_grid().sync() between the write and the read
// EXPECT-SIM: block 0: data race on shared array s (declared at line 25), element 1: thread 0 reads it at line 32 and thread 1 writes it at line 29
// EXPECT-SIM: block 0, thread 0, at line 32, reads s[1] (shared array s, declared at line 25) before any thread of the block wrote it
// EXPECT-SCHEDULE: blocks 0 and 1: data race on partial (16 bytes from cudaMalloc at line 53), element 1
// EXPECT-SCHEDULE: the launch is cooperative, so put this_grid().sync() between the write and the read
// EXPECT-SCHEDULE: data race on shared array s (declared at line 25), element
// EXPECT-SCHEDULE: reads it at line 32
// REJECT: at line 40
// REJECT: at line 42
// REJECT: at line 44
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void two_phases(const int *in, int *partial, int *out)
{
    cg::grid_group grid = cg::this_grid();
    __shared__ int s[64];
    int t = threadIdx.x;
    // phase 1: a block's sum (thread 0 adds what the others wrote: it
    // should wait at a barrier first)
    s[t] = in[blockIdx.x * 64 + t];
    int sum = 0;
    if (t == 0)
        for (int k = 0; k < 64; k++) sum += s[k];
    if (t == 0) partial[blockIdx.x] = sum;
    // phase 2 read too early: before the grid barrier
    int early = 0;
    if (blockIdx.x == 0 && t == 0)
        for (int b = 0; b < gridDim.x; b++) early += partial[b];
    grid.sync();
    // after the grid barrier: the shared array reused, ordered by it
    s[63 - t] = early;
    __syncthreads();
    if (blockIdx.x == 0 && t == 0) *out = s[0];
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

