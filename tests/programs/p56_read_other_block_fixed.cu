// The twin of p56: the step reads one buffer and writes another, so no
// block reads what another block writes in the same launch.
// RUN: set race-check on
// EXPECT: a[64] = 1
// REJECT: data race
#include <cstdio>

__global__ void smooth(const float *a, float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    b[i] = i > 0 && i < n - 1 ? (a[i - 1] + a[i] + a[i + 1]) / 3.0f : a[i];
}

int main()
{
    const int n = 256;
    float h[n], *d, *e;
    for (int i = 0; i < n; i++) h[i] = (float)(i % 7);
    cudaMalloc(&d, sizeof h);
    cudaMalloc(&e, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    smooth<<<n / 64, 64>>>(d, e, n);
    cudaMemcpy(h, e, sizeof h, cudaMemcpyDeviceToHost);
    printf("a[64] = %g\n", h[64]);
    cudaFree(d);
    cudaFree(e);
    return 0;
}
