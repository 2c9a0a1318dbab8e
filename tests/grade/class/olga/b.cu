#include <stdio.h>
// A program: one block of 4 threads squares its index; the host prints them.
__global__ void square(int *out) { out[threadIdx.x] = threadIdx.x * threadIdx.x; }
int main(void)
{
    int *d, h[4];
    cudaMalloc((void **)&d, sizeof h);
    square<<<1, 4>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 4; i++) printf("%d\n", h[i]);
    cudaFree(d);
    return 0;
}
