// A block reads what another block writes in the same launch: an in-place
// smoothing step reads its neighbours' elements, which the neighbouring
// block may already have overwritten, or not yet.
// RUN: set race-check on
// EXPECT-SIM: data race on d (1024 bytes from cudaMalloc at line 27)
// EXPECT-SIM: writes it at line 19 and block 1, thread 0 reads it at line 18
// EXPECT-SIM: one block reads what another block writes in the same launch
// EXPECT-SIM: split the work into two launches
// EXPECT-SCHEDULE: data race on d (1024 bytes from cudaMalloc at line 27)
// EXPECT-SCHEDULE: writes it at line 19 and block
// EXPECT-SCHEDULE: reads it at line 18
// EXPECT-SCHEDULE: one block reads what another block writes in the same launch
#include <cstdio>

__global__ void smooth(float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i > 0 && i < n - 1 ? (a[i - 1] + a[i] + a[i + 1]) / 3.0f : a[i];
    a[i] = v;
}

int main()
{
    const int n = 256;
    float h[n], *d;
    for (int i = 0; i < n; i++) h[i] = (float)(i % 7);
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    smooth<<<n / 64, 64>>>(d, n);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("a[64] = %g\n", h[64]);
    cudaFree(d);
    return 0;
}
