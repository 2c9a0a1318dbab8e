// An array declared in main, a local variable of host code, handed to a
// kernel: it lives on the host thread's stack, which is host memory too, so
// on a GPU whose device reports pageableMemoryAccess 0 the kernel's first
// write to it fails the launch (cudaErrorIllegalAddress) and the array
// keeps its values. The fix is p173's: cudaMalloc and cudaMemcpy, or
// cudaMallocManaged.
// MEMCHECK
// EXPECT: fill: an illegal memory access was encountered
// EXPECT: squares: 0 0 0 0
// EXPECT-SIM: block 0, thread 0 writes 4 bytes
// EXPECT-SIM: on the stack of the host thread that launched the kernel
// EXPECT-SIM: at p176_host_stack_in_kernel.cu:19
// EXPECT: exit status 0
#include <cstdio>

// Idea: only memory the device can reach is a kernel's to write.
__global__ void squares(int *out)
{
    out[threadIdx.x] = threadIdx.x * threadIdx.x;
}

int main()
{
    int h[32] = {0};
    squares<<<1, 32>>>(h); // the bug: h is on the host's stack
    printf("fill: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    printf("squares: %d %d %d %d\n", h[0], h[1], h[2], h[3]);
    return 0;
}
