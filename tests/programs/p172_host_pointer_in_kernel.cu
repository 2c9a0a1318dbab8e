// The commonest unified-memory mistake: a kernel given the host's own
// memory. The array comes from malloc and its pointer goes straight to the
// kernel, with no cudaMalloc and no copy. On a GPU whose device reports
// pageableMemoryAccess 0 (the H200 here) the kernel cannot reach that memory:
// the launch fails with cudaErrorIllegalAddress and the array keeps its
// values. The correct twin is p173_host_data_copied.cu.
// MEMCHECK
// EXPECT: pageable access: 0
// EXPECT: after the launch: an illegal memory access was encountered
// EXPECT: h[3] = 3
// EXPECT-SIM: block 0, thread 0 reads 4 bytes
// EXPECT-SIM: byte 0 of the 1024 bytes from malloc at line 29: that is host memory
// EXPECT-SIM: at p172_host_pointer_in_kernel.cu:22
// EXPECT: exit status 0
#include <cstdio>
#include <cstdlib>

// Idea: a kernel may only touch memory the device can reach.
__global__ void increment(int *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += 1;
}

int main()
{
    const int n = 256;
    int pageable = -1;
    int *h = (int *)malloc(n * sizeof(int));
    cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, 0);
    printf("pageable access: %d\n", pageable);
    for (int i = 0; i < n; i++) h[i] = i;
    increment<<<2, 128>>>(h, n); // the bug: h is host memory
    printf("after the launch: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    printf("h[3] = %d\n", h[3]);
    free(h);
    return 0;
}
