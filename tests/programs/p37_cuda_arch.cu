// __CUDA_ARCH__ as nvcc defines it: the GPU's compute capability (9.0 on
// an H200, 900) in device code, undefined in host code, so a kernel's
// `#if __CUDA_ARCH__ >= 700` branch is taken and a host function's
// `#ifndef __CUDA_ARCH__` one too.
// EXPECT: device: arch at least 700: 1, defined: 1
// EXPECT: host: __CUDA_ARCH__ undefined
// EXPECT: host and device helper on the host: host path
// EXPECT: device value 900
#include <cstdio>

__host__ __device__ const char *path_name()
{
#ifdef __CUDA_ARCH__
    return "device path";
#else
    return "host path";
#endif
}

__global__ void which(int *out)
{
#if __CUDA_ARCH__ >= 700
    out[0] = 1;
#else
    out[0] = 0;
#endif
#if defined(__CUDA_ARCH__)
    out[1] = 1;
    out[2] = __CUDA_ARCH__;
#else
    out[1] = 0;
#endif
}

int main()
{
    int *d, h[3] = {0, 0, 0};
    cudaMalloc(&d, sizeof h);
    which<<<1, 1>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("device: arch at least 700: %d, defined: %d\n", h[0], h[1]);
    printf("device value %d\n", h[2]);
#ifndef __CUDA_ARCH__
    printf("host: __CUDA_ARCH__ undefined\n");
#endif
    printf("host and device helper on the host: %s\n", path_name());
    cudaFree(d);
    return 0;
}
