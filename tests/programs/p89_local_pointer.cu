// A pointer into a thread's local array: each thread keeps 8 values and
// sums a window of them through `const int *w = vals + first`. The window
// loop runs one too far (`j <= width`), so with first = 4 and width = 4 the
// last read is w[4] = vals[8], past the array. On a GPU it reads whatever
// lies next to the array in the thread's local memory, with no error; the
// simulator keeps an array that goes to a pointer between red zones.
// EXPECT-SIM: window: block 0, thread 0, at line 24 reads 4 bytes 0 bytes past the end of the local array int vals[8] (32 bytes, declared at line 19), through a pointer
// EXPECT-SIM: [the same error in 32 threads of 1 block: block 0 thread 0, block 0 thread 1
// EXPECT-SIM: window: cudaErrorIllegalAddress
#include <cstdio>

#ifndef LAST
#define LAST(width) (j <= (width))
#endif

// Idea: a window into a local array: the pointer still belongs to the array.
__global__ void window(const int *in, int *out, int first, int width)
{
    int vals[8];
    for (int i = 0; i < 8; i++) vals[i] = in[threadIdx.x * 8 + i];
    const int *w = vals + first;
    int s = 0;
    for (int j = 0; LAST(width); j++)
        s += w[j];
    out[threadIdx.x] = s;
}

int main()
{
    int h[256], r[32], *in, *out;
    for (int i = 0; i < 256; i++) h[i] = i;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof r);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    window<<<1, 32>>>(in, out, 4, 4);
    printf("window: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    printf("thread 0: %d, thread 31: %d\n", r[0], r[31]);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
// MEMCHECK: what it expects comes from the simulator's memory checks
