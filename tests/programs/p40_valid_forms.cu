// Valid CUDA that a source pass must not refuse: a template kernel whose
// type the compiler deduces from the arguments, kernels both in this file
// and in a header it includes, and a __shared__ element passed to a T&
// parameter (the compare-exchange of a sorting network), and a template
// kernel's instance given to cudaFuncSetCacheConfig as it is.
// EXPECT: cache config: cudaSuccess
// EXPECT: deduced: 2 4 6 8
// EXPECT: from the header: 10 20 30 40
// EXPECT: sorted: 1 2 3 4 5 6 7 8
// EXPECT: exit status 0
#include <cstdio>
#include "p40_kernels.cuh"

template <class T> __global__ void twice(T *p, int n)
{
    int i = threadIdx.x;
    if (i < n) p[i] = p[i] * 2;
}

__device__ void order(unsigned &a, unsigned &b, bool up)
{
    if ((a > b) == up) {
        unsigned t = a;
        a = b;
        b = t;
    }
}

/* bitonic sort of 8 keys in one block of 4 threads */
__global__ void sort8(unsigned *keys)
{
    __shared__ unsigned s[8];
    unsigned t = threadIdx.x;
    s[t] = keys[t];
    s[t + 4] = keys[t + 4];
    __syncthreads();
    for (unsigned size = 2; size <= 8; size *= 2)
        for (unsigned stride = size / 2; stride > 0; stride /= 2) {
            unsigned pos = 2 * t - (t & (stride - 1));
            bool up = ((pos & size) == 0) || size == 8;
            order(s[pos], s[pos + stride], up);
            __syncthreads();
        }
    keys[t] = s[t];
    keys[t + 4] = s[t + 4];
}

int main()
{
    float h[4] = {1, 2, 3, 4}, *d;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    printf("cache config: %s\n", cudaGetErrorName(cudaFuncSetCacheConfig(twice<float>, cudaFuncCachePreferL1)));
    twice<<<1, 4>>>(d, 4);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("deduced: %g %g %g %g\n", h[0], h[1], h[2], h[3]);
    int hi[4] = {1, 2, 3, 4}, *di;
    cudaMalloc(&di, sizeof hi);
    cudaMemcpy(di, hi, sizeof hi, cudaMemcpyHostToDevice);
    times_ten<<<1, 4>>>(di);
    cudaMemcpy(hi, di, sizeof hi, cudaMemcpyDeviceToHost);
    printf("from the header: %d %d %d %d\n", hi[0], hi[1], hi[2], hi[3]);
    unsigned k[8] = {5, 3, 8, 1, 7, 2, 6, 4}, *dk;
    cudaMalloc(&dk, sizeof k);
    cudaMemcpy(dk, k, sizeof k, cudaMemcpyHostToDevice);
    sort8<<<1, 4>>>(dk);
    cudaMemcpy(k, dk, sizeof k, cudaMemcpyDeviceToHost);
    printf("sorted:");
    for (int i = 0; i < 8; i++) printf(" %u", k[i]);
    printf("\n");
    return 0;
}
