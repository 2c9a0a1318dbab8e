// A lookup table declared at file scope in host code, its address handed to
// a kernel: a host variable is host memory, so on a GPU whose device reports
// pageableMemoryAccess 0 the kernel's first read of it fails the launch
// (cudaErrorIllegalAddress). The table belongs in a __device__ (or
// __constant__) array filled with cudaMemcpyToSymbol, or in cudaMalloc
// memory; p173 copies a file-scope array to the device correctly.
// MEMCHECK
// EXPECT: lookup: an illegal memory access was encountered
// EXPECT: out[5] = -1
// EXPECT-SIM: block 0, thread 0 reads 4 bytes
// EXPECT-SIM: byte 0 of the host array weights (64 bytes, declared at line 18)
// EXPECT-SIM: at p177_host_global_in_kernel.cu:23
// EXPECT: exit status 0
#include <cstdio>

const int n = 16;
static int scale = 3, unused_pair[2] = {1, 2};
float weights[n];

// Idea: a kernel reads only what the device can reach.
__global__ void lookup(const float *w, float *out)
{
    out[threadIdx.x] = w[threadIdx.x] * 2.0f;
}

int main()
{
    for (int i = 0; i < n; i++) weights[i] = i * scale + unused_pair[0];
    float *out, h[n];
    cudaMalloc(&out, n * sizeof(float));
    for (int i = 0; i < n; i++) h[i] = -1;
    cudaMemcpy(out, h, sizeof h, cudaMemcpyHostToDevice);
    lookup<<<1, n>>>(weights, out); // the bug: weights is a host variable
    printf("lookup: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost); // fails too: the error is sticky
    printf("out[5] = %g\n", h[5]);
    cudaFree(out);
    return 0;
}
