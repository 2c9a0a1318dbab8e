// A failed assert in one block ends the launch: the blocks before it ran,
// the blocks after it did not. On the simulator with several worker threads
// the report and the output are those of the one-worker run: later blocks
// that had started beside it leave no output.
// SIM-ONLY
// EXPECT-SIM: block 0 before
// EXPECT-SIM: block 6 before
// EXPECT-SIM: block 6, thread 3
// EXPECT-SIM: cudaErrorAssert
// REJECT: block 7 before
// REJECT: block 20 before
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void stop_in_block_6(int *out)
{
    if (threadIdx.x == 0) printf("block %d before\n", blockIdx.x);
    __syncthreads();
    assert(!(blockIdx.x == 6 && threadIdx.x == 3));
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

int main()
{
    int *out;
    cudaMalloc(&out, 32 * 64 * sizeof(int));
    stop_in_block_6<<<32, 64>>>(out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("launch: %s\n", cudaGetErrorName(e));
    cudaFree(out);
    return 0;
}
