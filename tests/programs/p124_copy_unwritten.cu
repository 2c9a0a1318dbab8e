// A copy back of memory the kernel wrote only in part: `fill` writes the
// first n of the 1000 floats of `out` (n = 600), and main copies all 1000
// to the host. On a GPU the copy brings whatever the other 400 held, with
// no error (compute-sanitizer's initcheck names the copy); with
// `set check initcheck` (or all) the simulator names the copy's line, the
// allocation and the bytes nothing wrote.
// RUN: set check all
// MEMCHECK
// EXPECT-SIM: simulator: cudaMemcpy(cudaMemcpyDeviceToHost) at line 35 copies 1600 bytes of out (4000 bytes from cudaMalloc at line 30) that nothing has written since it was allocated (bytes 2400 to 3999)
// EXPECT-SIM: simulator: cudaMemcpy(cudaMemcpyDeviceToHost) at line 34 copies 1600 bytes of out (4000 bytes from cudaMalloc at line 30) that nothing has written since it was allocated (bytes 2400 to 3999)
// EXPECT: out[599] = 1198.0
#include <cstdio>

#ifndef WRITTEN
#define WRITTEN 600
#endif

// Idea: a copy moves bytes, written or not; copy only what the kernel wrote.
__global__ void fill(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * i;
}

int main()
{
    const int size = 1000;
    static float h[size];
    float *out;
    cudaMalloc(&out, size * sizeof(float));
    fill<<<(size + 255) / 256, 256>>>(out, WRITTEN);
    // A second copy of the same bytes on another line: each line is named once.
    for (int k = 0; k < 2; k++)
        cudaMemcpy(h, out, size * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(h, out, size * sizeof(float), cudaMemcpyDeviceToHost);
    printf("out[599] = %.1f\n", h[599]);
    cudaFree(out);
    return 0;
}
