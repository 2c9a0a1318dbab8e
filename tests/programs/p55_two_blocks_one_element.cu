// Two blocks write one element: the index forgets blockIdx, so every block
// writes out[0..63]. The threads of different blocks are never ordered
// within a launch, so the race check names both blocks and the line.
// RUN: set race-check on
// EXPECT-SIM: blocks 0 and 1: data race on dout (1024 bytes from cudaMalloc at line 27), element 0 (bytes 0-3)
// EXPECT-SIM: block 0, thread 0 writes it at line 17 and block 1, thread 0 writes it at line 17
// EXPECT-SIM: two blocks write one element
// EXPECT-SIM: one owner
// EXPECT-SCHEDULE: data race on dout (1024 bytes from cudaMalloc at line 27)
// EXPECT-SCHEDULE: writes it at line 17 and block
// EXPECT-SCHEDULE: two blocks write one element
#include <cstdio>

__global__ void scale(const float *in, float *out, int n)
{
    int i = threadIdx.x;
    if (i < n) out[i] = 2.0f * in[blockIdx.x * blockDim.x + threadIdx.x];
}

int main()
{
    const int n = 256;
    float h[n], *din, *dout;
    for (int i = 0; i < n; i++) h[i] = (float)i;
    cudaMalloc(&din, sizeof h);
    cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMalloc(&dout, sizeof h);
    scale<<<n / 64, 64>>>(din, dout, n);
    cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost);
    printf("out[0] = %g\n", h[0]);
    cudaFree(din);
    cudaFree(dout);
    return 0;
}
