// Child grids launched from many blocks at once (dynamic parallelism): each
// block's last thread launches a child with the block's number. Every child
// must be queued exactly once; on the simulator such a program runs on one
// worker thread (a child launched by a block on a second worker once waited
// forever for the launching host thread).
// EXPECT: 256 children ran, each once
// EXPECT: sum of slots 32640
// EXPECT: exit status 0
#include <cstdio>

__global__ void child(int *out, int slot)
{
    atomicAdd(&out[slot], 1);
    atomicAdd(&out[256], slot);
}

// Idea: every block may launch work of its own; the parent grid ends only when its children have.
__global__ void parent(int *out)
{
    if (threadIdx.x == blockDim.x - 1) child<<<1, 1>>>(out, blockIdx.x);
}

int main()
{
    int *d, h[257];
    cudaMalloc(&d, sizeof h);
    cudaMemset(d, 0, sizeof h);
    parent<<<256, 64>>>(d);
    cudaDeviceSynchronize();
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int once = 0;
    for (int b = 0; b < 256; b++) once += h[b] == 1;
    printf("%d children ran, each once\n", once);
    printf("sum of slots %d\n", h[256]);
    cudaFree(d);
    return 0;
}
