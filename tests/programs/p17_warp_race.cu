// The classic warp-synchronous reduction: the last 32 elements are added
// through a volatile pointer without __syncwarp(). volatile accesses do not
// race with each other (PTX treats them as relaxed), but since Volta the
// lanes of a warp need not run in lockstep, so what a lane reads depends on
// the order they run; race-check names the two lines.
// RUN: set race-check on
// EXPECT-SIM: block 0: lanes of warp 0 depend on their order at shared array sdata (declared at line 25), element 1
// EXPECT-SIM: thread 0 reads it at line 20 and thread 1 writes it at line 15, both through volatile
// EXPECT-SIM: put __syncwarp() between the two accesses
// REJECT: data race
#include <cstdio>

__device__ void warp_reduce(volatile int *sdata, int tid)
{
    sdata[tid] += sdata[tid + 32];
    sdata[tid] += sdata[tid + 16];
    sdata[tid] += sdata[tid + 8];
    sdata[tid] += sdata[tid + 4];
    sdata[tid] += sdata[tid + 2];
    sdata[tid] += sdata[tid + 1];
}

__global__ void reduce(const int *in, int *out)
{
    __shared__ int sdata[128];
    int tid = threadIdx.x;
    sdata[tid] = in[tid];
    __syncthreads();
    if (tid < 64) sdata[tid] += sdata[tid + 64];
    __syncthreads();
    if (tid < 32) warp_reduce(sdata, tid);
    if (tid == 0) *out = sdata[0];
}

int main()
{
    int h[128], *d, *o, r = 0;
    for (int i = 0; i < 128; i++) h[i] = 1;
    cudaMalloc(&d, sizeof h);
    cudaMalloc(&o, sizeof r);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    reduce<<<1, 128>>>(d, o);
    cudaMemcpy(&r, o, sizeof r, cudaMemcpyDeviceToHost);
    printf("sum %d\n", r);
    return 0;
}
