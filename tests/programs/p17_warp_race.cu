// The classic warp-synchronous reduction: the last 32 elements are added
// through a volatile pointer without __syncwarp(). Since Volta the lanes of a
// warp need not run in lockstep, so this is a race; race-check finds it.
// RUN: set race-check on
// EXPECT-SIM: data race on shared array sdata
// EXPECT-SIM: order them with __syncwarp()
// EXPECT-SIM: thread 0 reads it at line 17 and thread 1 writes it at line 12
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
