// A kernel launched on memory that was already given back with cudaFree.
// EXPECT-SIM: reads a (400 bytes from cudaMalloc at line 14) after cudaFree at line 16 freed it
#include <cstdio>

__global__ void twice(float *a, int n)
{
    int i = threadIdx.x;
    if (i < n) a[i] = 2 * a[i];
}

int main()
{
    float *a;
    cudaMalloc(&a, 100 * sizeof(float));
    cudaMemset(a, 0, 100 * sizeof(float));
    cudaFree(a);
    twice<<<1, 128>>>(a, 100);
    printf("synchronize: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}
