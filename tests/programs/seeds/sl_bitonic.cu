// Bitonic sort after the Slovenian lecture: the host runs the k and j loops,
// one launch per step, one thread per element, and only the thread with
// i2 > i1 compares (half the threads idle: variant o). Sorts the lecture's
// eight numbers, then n random ints (n from the command line, a power of two).
// ARGS-SIM: 4096
// ARGS-GPU: 16777216
// EXPECT: 2 3 5 7 11 13 17 19
// EXPECT: sorted: yes
#include <stdio.h>
#include <stdlib.h>

__global__ void bitonic_step(int *a, int n, int k, int j)
{
    int i1 = blockIdx.x * blockDim.x + threadIdx.x;
    if (i1 >= n) return;
    int i2 = i1 ^ j;
    int descending = i1 & k;
    if (i2 > i1) {
        int x = a[i1], y = a[i2];
        if ((!descending && x > y) || (descending && x < y)) {
            a[i1] = y;
            a[i2] = x;
        }
    }
}

static void bitonic_sort(int *d, int n)
{
    int threads = n < 256 ? n : 256;
    for (int k = 2; k <= n; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1) bitonic_step<<<(n + threads - 1) / threads, threads>>>(d, n, k, j);
}

int main(int argc, char **argv)
{
    int eight[8] = {2, 5, 7, 13, 3, 11, 17, 19}, *d;
    cudaMalloc(&d, sizeof eight);
    cudaMemcpy(d, eight, sizeof eight, cudaMemcpyHostToDevice);
    bitonic_sort(d, 8);
    cudaMemcpy(eight, d, sizeof eight, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 8; i++) printf("%d ", eight[i]);
    printf("\n");
    cudaFree(d);

    int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
    int *h = (int *)malloc(n * sizeof(int));
    srand(7);
    for (int i = 0; i < n; i++) h[i] = rand() % 100000;
    cudaMalloc(&d, n * sizeof(int));
    cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
    bitonic_sort(d, n);
    cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    int ok = 1;
    for (int i = 1; i < n; i++) ok &= h[i - 1] <= h[i];
    printf("n = %d sorted: %s\n", n, ok ? "yes" : "no");
    free(h);
    cudaFree(d);
    return !ok;
}
