// A dynamic shared array declared once at file scope, `extern __shared__
// unsigned char LocalBlock[]`, used by two kernels and a __device__ helper
// that views it as floats (the CUDA samples' FunctionPointers does so). Every
// extern __shared__ array of a block starts at the same address: the launch's
// dynamic shared memory, sized by the launch's third argument.
// EXPECT: reversed: 14 12 10 8 6 4 2 0
// EXPECT: bytes: 0 1 2 3 4 5 6 7 (sum 28)
#include <cstdio>

extern __shared__ unsigned char LocalBlock[];

// the block's dynamic shared memory, seen as floats
__device__ float *as_floats() { return (float *)LocalBlock; }

__global__ void reverse(float *out)
{
    float *s = as_floats();
    s[threadIdx.x] = threadIdx.x * 2.0f;
    __syncthreads();
    out[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

__global__ void bytes(unsigned *out)
{
    LocalBlock[threadIdx.x] = (unsigned char)threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned sum = 0;
        for (unsigned i = 0; i < blockDim.x; i++) sum += LocalBlock[i];
        out[blockDim.x] = sum;
    }
    out[threadIdx.x] = LocalBlock[threadIdx.x];
}

int main()
{
    const int n = 8;
    float *f, hf[n];
    unsigned *u, hu[n + 1];
    cudaMalloc(&f, sizeof hf);
    cudaMalloc(&u, sizeof hu);
    reverse<<<1, n, n * sizeof(float)>>>(f);
    bytes<<<1, n, n>>>(u);
    cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost);
    cudaMemcpy(hu, u, sizeof hu, cudaMemcpyDeviceToHost);
    printf("reversed:");
    for (int i = 0; i < n; i++) printf(" %g", hf[i]);
    printf("\nbytes:");
    for (int i = 0; i < n; i++) printf(" %u", hu[i]);
    printf(" (sum %u)\n", hu[n]);
    cudaFree(f);
    cudaFree(u);
    return 0;
}
