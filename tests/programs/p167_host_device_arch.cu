// __host__ __device__ functions that test __CUDA_ARCH__: nvcc compiles each
// twice, and the copy a kernel calls sees __CUDA_ARCH__ defined (900 on an
// sm_90 GPU) while the copy host code calls does not. The same helpers are
// called from a kernel and from main, in the forms real code writes them: a
// plain function, a template, a member function and an operator of a
// functor, a recursive one, a default argument, a reference parameter, and
// a declaration that differs between the passes.
// EXPECT: device: side 1 arch 900 twice 42 scaled 7.5 fact 120 seed 8 op 13 flags 3 rounds 2
// EXPECT: host:   side 0 arch 0 twice 42 scaled 7.5 fact 8 seed 3 op 4 flags 4 rounds 2
// EXPECT: exit status 0
#include <cstdio>

// Idea: code shared by host and device, with a branch for each side.
__host__ __device__ int side()
{
#ifdef __CUDA_ARCH__
    return 1;
#else
    return 0;
#endif
}

__host__ __device__ int arch()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
    return __CUDA_ARCH__;
#elif !defined(__CUDA_ARCH__)
    return 0;
#else
    return -1;
#endif
}

// a template whose two sides agree: the twin must give the same value
template <typename T> __host__ __device__ T twice(T v)
{
#ifdef __CUDA_ARCH__
    T r = v + v;
#else
    T r = 2 * v;
#endif
    return r;
}

// a default argument and a reference the caller reads back
__host__ __device__ void scale(float &out, float v, float by = 2.5f)
{
#ifndef __CUDA_ARCH__
    out = v * by;
#else
    out = by * v;
#endif
}

// recursion: the device side counts one level less
__host__ __device__ int fact(int n)
{
#ifdef __CUDA_ARCH__
    if (n <= 1) return 1;
#else
    if (n <= 2) return n < 1 ? 1 : n;
    n--;
#endif
    return n * fact(n - 1);
}

namespace lab {
struct Gen {
    int count;
    __host__ __device__ Gen() : count(0) {}
    // a member, const
    __host__ __device__ int seed(int base) const
    {
#ifdef __CUDA_ARCH__
        int s = base + 5;
#else
        int s = base;
#endif
        return s + count;
    }
    // an operator that changes the object
    __host__ __device__ int operator()(int a, int b)
    {
#ifdef __CUDA_ARCH__
        count += 10;
#else
        count += 1;
#endif
        return a + b + count;
    }
};
} // namespace lab

// a pack of arguments
template <typename... Ts> __host__ __device__ int flags(Ts... vs)
{
#ifdef __CUDA_ARCH__
    return sizeof...(vs);
#else
    return (int)sizeof...(vs) + 1;
#endif
}

// `#if __CUDA_ARCH__`: a loop on one side only
__host__ __device__ int rounds()
{
    int n = 0;
#if __CUDA_ARCH__
    for (int i = 0; i < 2; i++) n++;
#else
    n = 2;
#endif
    return n;
}

__global__ void probe(int *ints, float *f)
{
    if (threadIdx.x != 0 || blockIdx.x != 0) return;
    lab::Gen g;
    ints[0] = side();
    ints[1] = arch();
    ints[2] = twice(21);
    scale(f[0], 3.0f);
    ints[3] = fact(5);
    ints[4] = g.seed(3);
    ints[5] = g(1, 2);
    ints[6] = flags(1, 2.0, 'c');
    ints[7] = rounds();
}

int main()
{
    int *d_ints, h[8];
    float *d_f, hf;
    cudaMalloc(&d_ints, sizeof h);
    cudaMalloc(&d_f, sizeof hf);
    probe<<<2, 32>>>(d_ints, d_f);
    cudaMemcpy(h, d_ints, sizeof h, cudaMemcpyDeviceToHost);
    cudaMemcpy(&hf, d_f, sizeof hf, cudaMemcpyDeviceToHost);
    printf("device: side %d arch %d twice %d scaled %.1f fact %d seed %d op %d flags %d rounds %d\n", h[0], h[1],
           h[2], hf, h[3], h[4], h[5], h[6], h[7]);
    lab::Gen g;
    float s;
    scale(s, 3.0f);
    int seed = g.seed(3), op = g(1, 2);
    printf("host:   side %d arch %d twice %d scaled %.1f fact %d seed %d op %d flags %d rounds %d\n", side(), arch(),
           twice(21), s, fact(5), seed, op, flags(1, 2.0, 'c'), rounds());
    cudaFree(d_ints);
    cudaFree(d_f);
    return 0;
}
