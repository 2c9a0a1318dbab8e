// A whole reduction in one kernel: each block sums its share into
// partial[blockIdx.x], this_grid().sync() waits until every block has, then
// block 0 adds the partial sums. A grid barrier needs every block resident
// at once, so the kernel is launched with cudaLaunchCooperativeKernel and
// as many blocks as the GPU holds (the occupancy API); one block more is
// refused.
// EXPECT: cooperative launch supported: 1
// EXPECT: sum 1048576 (expected 1048576)
// EXPECT: one block more: cudaErrorCooperativeLaunchTooLarge
// Both launches are listed with their times, the refused one as failed:
// EXPECT-SIM: 2 launches on the simulator
// EXPECT-GPU: 2 launches on the GPU
// EXPECT: 1 (1 failed)  1057
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define THREADS 256

// Two phases separated by a grid-wide barrier instead of two launches.
__global__ void grid_sum(const int *in, int n, int *partial, int *out)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    __shared__ int s[THREADS];
    int sum = 0;
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) sum += in[i];
    s[threadIdx.x] = sum;
    block.sync();
    for (int k = blockDim.x / 2; k > 0; k /= 2) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        block.sync();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = s[0];

    grid.sync();  // every partial sum is written and visible now

    if (blockIdx.x == 0) {
        int v = 0;
        for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) v += partial[b];
        s[threadIdx.x] = v;
        block.sync();
        for (int k = blockDim.x / 2; k > 0; k /= 2) {
            if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
            block.sync();
        }
        if (threadIdx.x == 0) *out = s[0];
    }
}

int main()
{
    const int n = 1 << 20;
    int coop = 0, sms = 0, per_sm = 0;
    cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_sum, THREADS, 0);
    printf("cooperative launch supported: %d\n", coop);
    int blocks = sms * per_sm;

    int *h = new int[n];
    for (int i = 0; i < n; i++) h[i] = 1;
    int *in, *partial, *out;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&partial, (blocks + 1) * sizeof(int));
    cudaMalloc(&out, sizeof(int));
    cudaMemcpy(in, h, n * sizeof(int), cudaMemcpyHostToDevice);

    int nn = n;
    void *args[] = {&in, &nn, &partial, &out};
    cudaError_t e = cudaLaunchCooperativeKernel((void *)grid_sum, dim3(blocks), dim3(THREADS), args, 0, 0);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    int sum = 0;
    cudaMemcpy(&sum, out, sizeof sum, cudaMemcpyDeviceToHost);
    printf("%d blocks of %d: %s\n", blocks, THREADS, cudaGetErrorName(e));
    printf("sum %d (expected %d)\n", sum, n);

    e = cudaLaunchCooperativeKernel((void *)grid_sum, dim3(blocks + 1), dim3(THREADS), args, 0, 0);
    printf("one block more: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    delete[] h;
    return 0;
}
