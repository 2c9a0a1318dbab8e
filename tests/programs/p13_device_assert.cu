// A failed assert in a kernel ends that launch with cudaErrorAssert (the
// GPU prints which thread and line, and the function as nvcc spells it);
// the program itself goes on.
// EXPECT: : void check(const int *): block: [0,0,0], thread: [7,0,0] Assertion `v[i] >= 0` failed.
// EXPECT: synchronize: device-side assert triggered
// EXPECT: the program went on
#include <cassert>
#include <cstdio>

__global__ void check(const int *v)
{
    int i = threadIdx.x;
    assert(v[i] >= 0);
}

int main()
{
    int h[32], *d;
    for (int i = 0; i < 32; i++) h[i] = i == 7 ? -1 : i;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    check<<<1, 32>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    printf("synchronize: %s\n", cudaGetErrorString(e));
    printf("the program went on\n");
    return 0;
}
