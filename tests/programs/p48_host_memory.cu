// Host memory the kernels read and write directly: pageable memory pinned
// and mapped with cudaHostRegister, and memory from cudaHostAlloc with the
// mapped flag (zero copy); the device pointer of each comes from
// cudaHostGetDevicePointer.
// EXPECT: registered: 0 2 4 ... 2046
// EXPECT: zero-copy: 1 2 3 ... 1024
// EXPECT: exit status 0
#include <cstdio>
#include <cstdlib>

__global__ void twice(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] *= 2;
}

__global__ void count(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = i + 1;
}

int main()
{
    const int n = 1024;
    cudaSetDeviceFlags(cudaDeviceMapHost);
    int *h = (int *)malloc(n * sizeof(int)), *d;
    for (int i = 0; i < n; i++) h[i] = i;
    cudaHostRegister(h, n * sizeof(int), cudaHostRegisterMapped);
    cudaHostGetDevicePointer((void **)&d, h, 0);
    twice<<<n / 256, 256>>>(d, n);
    cudaDeviceSynchronize();
    printf("registered: %d %d %d ... %d\n", h[0], h[1], h[2], h[n - 1]);
    cudaHostUnregister(h);
    free(h);
    int *z, *dz;
    cudaHostAlloc((void **)&z, n * sizeof(int), cudaHostAllocMapped);
    cudaHostGetDevicePointer((void **)&dz, z, 0);
    count<<<n / 256, 256>>>(dz, n);
    cudaDeviceSynchronize();
    printf("zero-copy: %d %d %d ... %d\n", z[0], z[1], z[2], z[n - 1]);
    cudaFreeHost(z);
    return 0;
}
