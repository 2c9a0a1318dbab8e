// The classic off-by-one, `i <= n` instead of `i < n`, on arrays whose size
// (1001 floats, 4004 bytes) is not a multiple of 16 bytes: on a GPU thread
// 1001 reads and writes 4 bytes past the end without any error. The
// simulator checks every byte of every access: it names the kernel, the
// thread, the line, both allocations and how far past them it went, fails
// the launch with cudaErrorIllegalAddress, and says why the next launch and
// the copy back fail too (the error is sticky).
// EXPECT-SIM: add10: block 3, thread 233, at line 20 reads 4 bytes at byte 4004 of a (4004 bytes from cudaMalloc at line 31): 0 bytes past its end (valid bytes are 0 to 4003)
// EXPECT-SIM: add10: block 3, thread 233, at line 20 writes 4 bytes at byte 4004 of out (4004 bytes from cudaMalloc at line 32): 0 bytes past its end
// EXPECT-SIM: the write silently overwrites the allocation's padding or the next allocation
// EXPECT-SIM: add10 (line 37) did not run: an earlier kernel failed with cudaErrorIllegalAddress
// EXPECT-SIM: first launch: cudaErrorIllegalAddress
// EXPECT-SIM: copy back: cudaErrorIllegalAddress
#include <cstdio>

__global__ void add10(const float *a, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifndef CORRECT
    if (i <= n) out[i] = a[i] + 10;
#else
    if (i < n) out[i] = a[i] + 10;
#endif
}

int main()
{
    const int n = 1001;
    float h[n], *a, *out;
    for (int i = 0; i < n; i++) h[i] = (float)i;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
    add10<<<4, 256>>>(a, out, n);
    cudaError_t e = cudaDeviceSynchronize();
    printf("first launch: %s\n", cudaGetErrorName(e));
    add10<<<4, 256>>>(a, out, n);
    e = cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    printf("copy back: %s\n", cudaGetErrorName(e));
    if (e == cudaSuccess) printf("out[1000] = %g\n", h[1000]);
    cudaFree(a);
    cudaFree(out);
    return 0;
}
// MEMCHECK: what it expects comes from the simulator's memory checks
