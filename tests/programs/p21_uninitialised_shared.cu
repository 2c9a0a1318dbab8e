// A block reads a shared element that no thread wrote: the tree adds
// s[t + 64] for t < 64 but only 100 threads filled s. On a GPU the value is
// whatever was there; race-check reports the read.
// RUN: set race-check on
// EXPECT-SIM: reads s[100] (shared array s, declared at line 10) before any thread of the block wrote it
#include <cstdio>

__global__ void partial(const int *in, int *out, int n)
{
    __shared__ int s[128];
    int t = threadIdx.x;
    if (t < n) s[t] = in[t];
    __syncthreads();
    if (t < 64) s[t] += s[t + 64];
    __syncthreads();
    if (t == 0) *out = s[0];
}

int main()
{
    int h[100], *d, *o;
    for (int i = 0; i < 100; i++) h[i] = 1;
    cudaMalloc(&d, sizeof h);
    cudaMalloc(&o, sizeof(int));
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    partial<<<1, 128>>>(d, o, 100);
    cudaDeviceSynchronize();
    return 0;
}
