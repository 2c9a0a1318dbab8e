// Host code that checks the last element of a large device array through
// its pointer (a bug: on a GPU the program dies there with a segmentation
// fault); the simulator watches a large array's start and its end.
// FAILS
// EXPECT: filled
// EXPECT: the program was killed by SIGSEGV
// EXPECT-SIM: in host code at p181_host_reads_device_end.cu:27
// EXPECT-SIM: reads byte 16777212 of d (16777216 bytes from cudaMalloc at line 23), device memory
// REJECT: last:
#include <cstdio>

// a grid-stride loop: any grid covers the whole array
__global__ void fill(float *a, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        a[i] = 1.0f;
}

int main()
{
    const int n = 1 << 22;
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    fill<<<32, 256>>>(d, n);
    cudaDeviceSynchronize();
    printf("filled\n");
    printf("last: %g\n", d[n - 1]);
    cudaFree(d);
    return 0;
}
