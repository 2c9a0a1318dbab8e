// Vector difference c = a - b after the Slovenian lecture's fourth (correct)
// step: a bounds check and a grid computed from n and the block, or given on
// the command line: n [threads per block [blocks]]. The host checks every
// element. With unified memory when the fourth argument is "unified".
// ARGS-SIM: 100000 256
// EXPECT-GPU: n = 1048576
// EXPECT-SIM: n = 100000, 256 threads per block, 391 blocks
// EXPECT: errors: 0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__global__ void difference(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] - b[i];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
    int threads = argc > 2 ? atoi(argv[2]) : 128;
    int blocks = argc > 3 && atoi(argv[3]) > 0 ? atoi(argv[3]) : (n + threads - 1) / threads;
    int unified = argc > 4 && strcmp(argv[4], "unified") == 0;
    size_t bytes = (size_t)n * sizeof(float);
    float *ha, *hb, *hc, *da, *db, *dc;
    if (unified) {
        cudaMallocManaged(&da, bytes);
        cudaMallocManaged(&db, bytes);
        cudaMallocManaged(&dc, bytes);
        ha = da; hb = db; hc = dc;
    } else {
        ha = (float *)malloc(bytes); hb = (float *)malloc(bytes); hc = (float *)malloc(bytes);
        cudaMalloc(&da, bytes);
        cudaMalloc(&db, bytes);
        cudaMalloc(&dc, bytes);
    }
    for (int i = 0; i < n; i++) { ha[i] = 1.0f / (i + 1); hb[i] = 2.0f / (i + 1); }
    if (!unified) {
        cudaMemcpy(da, ha, bytes, cudaMemcpyHostToDevice);
        cudaMemcpy(db, hb, bytes, cudaMemcpyHostToDevice);
    }
    difference<<<blocks, threads>>>(da, db, dc, n);
    if (unified) cudaDeviceSynchronize();
    else cudaMemcpy(hc, dc, bytes, cudaMemcpyDeviceToHost);
    int errors = 0;
    for (int i = 0; i < n; i++) errors += hc[i] != -1.0f / (i + 1);
    printf("n = %d, %d threads per block, %d blocks\n", n, threads, blocks);
    printf("errors: %d\n", errors);
    cudaFree(da); cudaFree(db); cudaFree(dc);
    if (!unified) { free(ha); free(hb); free(hc); }
    return errors != 0;
}
