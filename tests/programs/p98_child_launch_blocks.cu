// Dynamic parallelism from many blocks: each of 16 parent blocks allocates
// memory in device code and launches a child grid that fills it; a second
// kernel reads the children's results and frees the memory. On the
// simulator with several worker threads, the children still run after
// their parent grid in the order they were launched, and every allocation
// is made in block order, so the output is the same as with one worker.
// RUN: set sim-threads 2
// EXPECT: block 0: 37 values, sum 666
// EXPECT: block 15: 52 values, sum 1326
// EXPECT: total 15656 in 16 blocks
// EXPECT: freed 16
#include <cstdio>

struct piece {
    int *values;
    int n;
};

__global__ void fill(int *v, int n, int first)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = first + i;
}

__global__ void parent(piece *pieces)
{
    if (threadIdx.x == 0) {
        piece &p = pieces[blockIdx.x];
        p.n = 37 + blockIdx.x;
        cudaMalloc((void **)&p.values, p.n * sizeof(int));
        fill<<<(p.n + 31) / 32, 32>>>(p.values, p.n, 0);
    }
}

__global__ void sum_and_free(piece *pieces, int *sums, int *freed)
{
    piece &p = pieces[blockIdx.x];
    __shared__ int s;
    if (threadIdx.x == 0) s = 0;
    __syncthreads();
    for (int i = threadIdx.x; i < p.n; i += blockDim.x) atomicAdd(&s, p.values[i]);
    __syncthreads();
    if (threadIdx.x == 0) {
        sums[blockIdx.x] = s;
        if (cudaFree(p.values) == cudaSuccess) atomicAdd(freed, 1);
    }
}

int main()
{
    const int blocks = 16;
    piece *pieces;
    int *sums, *freed;
    cudaMalloc(&pieces, blocks * sizeof(piece));
    cudaMalloc(&sums, blocks * sizeof(int));
    cudaMallocManaged(&freed, sizeof(int));
    *freed = 0;
    parent<<<blocks, 32>>>(pieces);
    sum_and_free<<<blocks, 64>>>(pieces, sums, freed);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("error %s\n", cudaGetErrorString(e));
        return 1;
    }
    int h[blocks], total = 0;
    cudaMemcpy(h, sums, sizeof h, cudaMemcpyDeviceToHost);
    for (int b = 0; b < blocks; b++) {
        if (b == 0 || b == blocks - 1) printf("block %d: %d values, sum %d\n", b, 37 + b, h[b]);
        total += h[b];
    }
    printf("total %d in %d blocks\n", total, blocks);
    printf("freed %d\n", *freed);
    cudaFree(pieces);
    cudaFree(sums);
    cudaFree(freed);
    return 0;
}
