// Host code that reads device memory through its pointer: on a GPU the
// program dies there with a segmentation fault (cudaMalloc's memory is not
// the host's); the simulator stops it at the same line and says why.
// FAILS
// EXPECT: copied: 4 9
// EXPECT: the program was killed by SIGSEGV
// EXPECT-SIM: in host code at p178_host_reads_device.cu:29
// EXPECT-SIM: reads byte 12 of d (1024 bytes from cudaMalloc at line 24), device memory
// EXPECT-SIM: copy it with cudaMemcpy, or allocate it with cudaMallocManaged
// REJECT: never printed
#include <cstdio>

// one thread per element: thread i squares its own index
__global__ void square(float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = (float)i * i;
}

int main()
{
    const int n = 256;
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    square<<<1, 256>>>(d, n);
    float h[4];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("copied: %g %g\n", h[2], h[3]);
    printf("never printed: %g\n", d[3]);
    cudaFree(d);
    return 0;
}
