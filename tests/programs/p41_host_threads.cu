// Kernels launched from several host threads at once: an OpenMP parallel
// for around the launches, each iteration on its own stream and its own
// slice, as the multi-stream exercises of CUDA courses do. Every slice comes
// out right, whatever order the threads run in.
// EXPECT: 16 slices right, 0 wrong
// EXPECT: exit status 0
// REJECT: failed)
#include <cstdio>
#include <omp.h>

__global__ void offset(int *p, int n, int by)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = i + by;
}

int main()
{
    const int slices = 16, n = 300;
    int *d;
    cudaMalloc(&d, slices * n * sizeof(int));
    int right[16] = {0};
#pragma omp parallel for num_threads(4)
    for (int s = 0; s < slices; s++) {
        cudaStream_t st;
        cudaStreamCreate(&st);
        offset<<<(n + 127) / 128, 128, 0, st>>>(d + s * n, n, 1000 * s);
        int h[300];
        cudaMemcpyAsync(h, d + s * n, sizeof h, cudaMemcpyDeviceToHost, st);
        cudaStreamSynchronize(st);
        int bad = 0;
        for (int i = 0; i < n; i++) bad += h[i] != i + 1000 * s;
        right[s] = bad == 0;
        cudaStreamDestroy(st);
    }
    int ok = 0;
    for (int s = 0; s < slices; s++) {
        int h[300], bad = 0;
        cudaMemcpy(h, d + s * n, sizeof h, cudaMemcpyDeviceToHost);
        for (int i = 0; i < n; i++) bad += h[i] != i + 1000 * s;
        ok += right[s] && bad == 0;
    }
    printf("%d slices right, %d wrong\n", ok, slices - ok);
    cudaFree(d);
    return 0;
}
