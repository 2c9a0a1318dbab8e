// The twin of p55: each element has one owner (the global thread index),
// so no two blocks write the same element and the race check is silent.
// RUN: set race-check on
// EXPECT: out[200] = 400
// REJECT: data race
#include <cstdio>

__global__ void scale(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * in[i];
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
    printf("out[200] = %g\n", h[200]);
    cudaFree(din);
    cudaFree(dout);
    return 0;
}
