// The lecture's first bug: one thread per element and no bounds check, with
// more threads than elements. On the simulator the writes past the end of c
// fail the launch (cudaErrorIllegalAddress), naming c and every thread.
// EXPECT-SIM: vecdiff: block 3, thread 232, at line 12 writes 4 bytes at byte 4000 of c (4000 bytes from cudaMalloc at line 20): 0 bytes past its end
// EXPECT-SIM: [the same error in 24 threads of 1 block: block 3 thread 232, block 3 thread 233, block 3 thread 234, block 3 thread 235, ...]
// EXPECT-SIM: copy back: an illegal memory access was encountered
#include <cstdio>

__global__ void vecdiff(const float *a, const float *b, float *c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = a[i] - b[i];
}

int main()
{
    const int n = 1000;
    float *a, *b, *c;
    cudaMalloc(&a, 1024 * sizeof(float));
    cudaMalloc(&b, 1024 * sizeof(float)); cudaMalloc(&c, n * sizeof(float));
    vecdiff<<<4, 256>>>(a, b, c);
    float h[1000];
    cudaError_t e = cudaMemcpy(h, c, sizeof h, cudaMemcpyDeviceToHost);
    printf("copy back: %s\n", cudaGetErrorString(e));
    return 0;
}
// MEMCHECK: what it expects comes from the simulator's memory checks
