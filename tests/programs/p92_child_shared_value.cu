// A child grid launched with a value read from its parent's shared memory,
// as CUDA's cdpSimplePrint sample passes its block's id: like every kernel
// argument, the value is copied when the child is launched, so the child
// sees it even though the parent's block (and its shared memory) is gone
// by the time the child runs.
// EXPECT: block 0's child got 7
// EXPECT: block 1's child got 8
// EXPECT: exit status 0
#include <cstdio>

__global__ void child(int *out, int slot, int id)
{
    out[slot] = id;
}

// Idea: a launch copies its arguments: a shared value goes to the child by value.
__global__ void parent(int *out)
{
    __shared__ int s_id;
    if (threadIdx.x == 0) s_id = 7 + blockIdx.x;
    __syncthreads();
    if (threadIdx.x == blockDim.x - 1) child<<<1, 1>>>(out, blockIdx.x, s_id);
}

int main()
{
    int *d, h[2] = {0, 0};
    cudaMalloc(&d, sizeof h);
    cudaMemset(d, 0, sizeof h);
    parent<<<2, 32>>>(d);
    cudaDeviceSynchronize();
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int b = 0; b < 2; b++) printf("block %d's child got %d\n", b, h[b]);
    cudaFree(d);
    return 0;
}
