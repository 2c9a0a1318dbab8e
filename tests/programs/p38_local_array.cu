// One past the end of a thread's local array (the index comes from the
// host, so the compiler cannot see it). On a GPU the read takes whatever
// lies next to the array in the thread's local memory, with no error; the
// simulator checks every index into an array whose size is known.
// EXPECT-SIM: taps: block 0, thread 0, at line 19: index 4 is outside the array of type 'float [4]'
// EXPECT-SIM: [the same error in 32 threads of 1 block: block 0 thread 0, block 0 thread 1
// EXPECT-SIM: taps: cudaErrorIllegalAddress
#include <cstdio>

#ifndef LAST
#define LAST 4
#endif

__global__ void taps(float *out, int last)
{
    float w[4] = {0.1f, 0.2f, 0.3f, 0.4f};
    float sum = 0;
    for (int k = 0; k <= last; k++)
        sum += w[k] * (threadIdx.x + k);
    out[threadIdx.x] = sum;
}

int main()
{
    float *d;
    cudaMalloc(&d, 32 * sizeof(float));
    taps<<<1, 32>>>(d, LAST);
    printf("taps: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(d);
    return 0;
}
// MEMCHECK: what it expects comes from the simulator's memory checks
