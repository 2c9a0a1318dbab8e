// A cuda::barrier expects every thread of the block, but the threads past
// the end of the data return before they arrive: the phase can never
// complete, and on a GPU the kernel hangs until the time limit. The
// simulator sees that no thread that could arrive can still run, stops the
// launch and says who waits where and how many arrivals are missing.
// EXPECT-SIM: scale: block 0, thread 103 waits at cuda::barrier (line 22) for a phase that can never complete: 24 of its 128 arrivals are missing
// EXPECT-SIM: launch: cudaErrorLaunchFailure
// SIM-ONLY
#include <cuda/barrier>
#include <cstdio>

// Idea: every thread the barrier expects must arrive, also those with no work.
__global__ void scale(float *x, int n)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ float tile[128];
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    tile[threadIdx.x] = x[i];
    bar.arrive_and_wait();
    x[i] = 2 * tile[(threadIdx.x + 1) % (n - blockIdx.x * blockDim.x)];
}

int main()
{
    float *x;
    cudaMalloc(&x, 104 * sizeof(float));
    cudaMemset(x, 0, 104 * sizeof(float));
    scale<<<1, 128>>>(x, 104);
    printf("launch: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(x);
    return 0;
}
