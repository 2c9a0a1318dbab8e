// Host code that fills device memory in a loop, as if it were the host's:
// on a GPU the first store kills the program (a segmentation fault).
// FAILS
// EXPECT: allocated
// EXPECT: the program was killed by SIGSEGV
// EXPECT-SIM: in host code at p179_host_writes_device.cu:27
// EXPECT-SIM: writes byte 0 of d_in (4096 bytes from cudaMalloc at line 24), device memory
// REJECT: filled
#include <cstdio>

// each thread doubles one element
__global__ void twice(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2 * in[i];
}

int main()
{
    const int n = 1024;
    int *d_in, *d_out;
    // d_out first: the allocation the message names is d_in, not the first
    cudaMalloc(&d_out, n * sizeof(int));
    cudaMalloc(&d_in, n * sizeof(int));
    printf("allocated\n");
    for (int i = 0; i < n; i++)
        d_in[i] = i;
    printf("filled\n");
    twice<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
    cudaDeviceSynchronize();
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
