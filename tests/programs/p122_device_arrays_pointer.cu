// Pointers into a __device__ array and a __constant__ array, handed to
// functions the compiler does not inline: scale() writes one int past
// `__device__ int hist[10]` (40 bytes, not a multiple of 16) and weight()
// reads one float past `__constant__ float taps[5]`. A GPU lays these
// variables out next to each other, so the write lands in the next one and
// the read returns its value, with no error; the simulator puts a red zone
// around each such array and names it.
// EXPECT-SIM: bump: block 0, thread 10, at line 25 writes 4 bytes at byte 40 of hist (40 bytes, declared at line 18): 0 bytes past its end (valid bytes are 0 to 39)
// EXPECT-SIM: bump: block 0, thread 5, at line 30 reads 4 bytes at byte 20 of taps (20 bytes, declared at line 19): 0 bytes past its end (valid bytes are 0 to 19)
// EXPECT-SIM: bump: cudaErrorIllegalAddress
// MEMCHECK
#include <cstdio>

#ifndef LAST
#define LAST(n) (n)
#endif

__device__ int hist[10];
__constant__ float taps[5];
__device__ int next_to_hist[4];

// Idea: through a pointer, an array's size is the caller's to keep.
__device__ __noinline__ void scale(int *p, int i)
{
    p[i] = 2 * i;
}

__device__ __noinline__ float weight(const float *w, int i)
{
    return w[i];
}

__global__ void bump(float *out)
{
    int t = threadIdx.x;
    if (t <= LAST(10)) scale(hist, t);
    if (t <= LAST(5)) out[t] = weight(taps, t);
}

int main()
{
    float h[5] = {0.5f, 1.0f, 1.5f, 2.0f, 2.5f}, r[32];
    float *out;
    cudaMalloc(&out, sizeof r);
    cudaMemset(out, 0, sizeof r); // every byte copied back was written
    cudaMemcpyToSymbol(taps, h, sizeof h);
    bump<<<1, 32>>>(out);
    printf("bump: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    int hh[10];
    cudaMemcpyFromSymbol(hh, hist, sizeof hh);
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    printf("hist[9] = %d, out[4] = %.1f\n", hh[9], r[4]);
    cudaFree(out);
    return 0;
}
