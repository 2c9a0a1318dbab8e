// One thread per element, a bounds check, and a grid that covers n.
// EXPECT: c[0] = 0.0 c[999] = 2997.0
// EXPECT: max error 0
// EXPECT: add
#include <cstdio>
#include <cuda_runtime.h>

__global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

int main()
{
    const int n = 1000;
    size_t bytes = n * sizeof(float);
    float *ha = (float *)malloc(bytes), *hb = (float *)malloc(bytes), *hc = (float *)malloc(bytes);
    for (int i = 0; i < n; i++) { ha[i] = i; hb[i] = 2.0f * i; }
    float *da, *db, *dc;
    cudaMalloc(&da, bytes);
    cudaMalloc((void **)&db, bytes);
    cudaMalloc(&dc, bytes);
    cudaMemcpy(da, ha, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(db, hb, bytes, cudaMemcpyHostToDevice);
    int threads = 256, blocks = (n + threads - 1) / threads;
    add<<<blocks, threads>>>(da, db, dc, n);
    cudaMemcpy(hc, dc, bytes, cudaMemcpyDeviceToHost);
    float err = 0;
    for (int i = 0; i < n; i++) err = fmaxf(err, fabsf(hc[i] - 3.0f * i));
    printf("c[0] = %.1f c[999] = %.1f\n", hc[0], hc[999]);
    printf("max error %g\n", err);
    cudaFree(da); cudaFree(db); cudaFree(dc);
    free(ha); free(hb); free(hc);
    return 0;
}
