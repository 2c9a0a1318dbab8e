// The lecture's first bug: one thread per element and no bounds check, with
// more threads than elements. On the simulator the first write past the end
// of c fails the launch (cudaErrorIllegalAddress) and names the allocation.
// EXPECT-SIM: writes byte 4000 of c (4000 bytes from cudaMalloc at line 20), past its end
// EXPECT-SIM: at p19_global_out_of_bounds.cu:12
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
