// Pointers into a thread's local arrays, handed to device functions the
// compiler does not inline: fill() writes one int past `int a[8]` (the count
// is 9), and before() reads the float just before `float w[3]` (12 bytes, not
// a multiple of 16). A function sees only a pointer, so neither the compiler
// nor a bounds check of the index knows the array's size; on a GPU both land
// on the thread's other local variables, with no error. The simulator keeps
// such arrays between red zones and names each with its size and line.
// EXPECT-SIM: sums: block 0, thread 0, at line 24 writes 4 bytes 0 bytes past the end of the local array int a[8] (32 bytes, declared at line 34), through a pointer
// EXPECT-SIM: [the same error in 32 threads of 1 block: block 0 thread 0, block 0 thread 1
// EXPECT-SIM: sums: block 0, thread 0, at line 29 reads 4 bytes 4 bytes before the start of the local array float w[3] (12 bytes, declared at line 35), through a pointer
// EXPECT-SIM: sums: cudaErrorIllegalAddress
// MEMCHECK
#include <cstdio>

#ifndef COUNT
#define COUNT 9
#define FIRST -1
#endif

// Idea: a function given a pointer cannot know the size of the array behind it.
__device__ __noinline__ void fill(int *p, int n, int v)
{
    for (int k = 0; k < n; k++)
        p[k] = v + k;
}

__device__ __noinline__ float before(const float *q, int i)
{
    return q[i];
}

__global__ void sums(int *out, float *weights)
{
    int a[8];
    float w[3] = {1.0f, 2.0f, 3.0f};
    fill(a, COUNT, threadIdx.x);
    int s = 0;
    for (int k = 0; k < 8; k++)
        s += a[k];
    out[threadIdx.x] = s;
    weights[threadIdx.x] = before(w, FIRST);
}

int main()
{
    int *out, h[32];
    float *weights, hw[32];
    cudaMalloc(&out, sizeof h);
    cudaMalloc(&weights, sizeof hw);
    sums<<<1, 32>>>(out, weights);
    printf("sums: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    cudaMemcpy(hw, weights, sizeof hw, cudaMemcpyDeviceToHost);
    printf("thread 1: %d, weight %.1f\n", h[1], hw[1]);
    cudaFree(out);
    cudaFree(weights);
    return 0;
}
