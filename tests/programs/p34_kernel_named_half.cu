// Names are the program's own unless it includes the header that declares
// them: half is cuda_fp16.h's type, so without that include a kernel may be
// called half (nvcc compiles it; so must the simulator).
// EXPECT: out[0] = 3, out[31] = 34
// EXPECT: 1 launch
#include <cstdio>

__global__ void half(const int *a, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[i] / 2;
}

int main()
{
    const int n = 32;
    int h[n];
    for (int i = 0; i < n; i++) h[i] = 2 * i + 6;
    int *a, *out;
    cudaMalloc(&a, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    cudaMemcpy(a, h, n * sizeof(int), cudaMemcpyHostToDevice);
    half<<<1, n>>>(a, out);
    cudaMemcpy(h, out, n * sizeof(int), cudaMemcpyDeviceToHost);
    printf("out[0] = %d, out[31] = %d\n", h[0], h[31]);
    cudaFree(a);
    cudaFree(out);
    return 0;
}
