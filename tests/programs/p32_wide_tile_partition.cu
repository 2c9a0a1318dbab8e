// Tiles of more than a warp and the run-time form of tiled_partition.
// cg::reduce works on a thread_block_tile<128> too (four warps: each warp
// reduces, then the warps' results are combined). tiled_partition(block, n)
// makes a thread_group of n threads, n a power of two up to 32 only (the
// CUDA Programming Guide: native hardware sizes); a block of 200 threads
// ends with a tile of 8 (200 = 6 x 32 + 8). n = 64 is not allowed in that
// form: the GPU stops the kernel (__trap), an unspecified launch failure;
// a 64-thread tile is tiled_partition<64>(block).
// EXPECT: tile128 sums 8128 24512, max 127 255
// EXPECT: group of 32: thread 199 has rank 7 of 8
// EXPECT: group of 16 in the last tile: size 8, synced 8
// EXPECT: tiled_partition(block, 64): cudaErrorLaunchFailure
// EXPECT-SIM: the run-time form makes tiles of 1, 2, 4, 8, 16 or 32 threads
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void wide(int *out)
{
    cg::thread_block_tile<128> t = cg::tiled_partition<128>(cg::this_thread_block());
    int s = cg::reduce(t, (int)threadIdx.x, cg::plus<int>());
    int m = cg::reduce(t, (int)threadIdx.x, cg::greater<int>());
    if (t.thread_rank() == 100) { out[t.meta_group_rank()] = s; out[2 + t.meta_group_rank()] = m; }
}

__global__ void runtime_tiles(int *out, int *count)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_group g32 = cg::tiled_partition(block, 32);
    if (threadIdx.x == 199) { out[0] = g32.thread_rank(); out[1] = g32.size(); }
    cg::thread_group g16 = cg::tiled_partition(g32, 16);
    if (threadIdx.x >= 192) atomicAdd(count, 1);
    g16.sync();
    if (threadIdx.x == 192) { out[2] = g16.size(); out[3] = *count; }
}

__global__ void too_wide(int *out)
{
    cg::thread_group g = cg::tiled_partition(cg::this_thread_block(), 64);
    g.sync();
    out[threadIdx.x] = g.thread_rank();
}

int main()
{
    int *d, h[4];
    cudaMalloc(&d, 256 * sizeof(int));
    wide<<<1, 256>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("tile128 sums %d %d, max %d %d\n", h[0], h[1], h[2], h[3]);

    int *count;
    cudaMalloc(&count, sizeof(int));
    cudaMemset(count, 0, sizeof(int));
    runtime_tiles<<<1, 200>>>(d, count);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("group of 32: thread 199 has rank %d of %d\n", h[0], h[1]);
    printf("group of 16 in the last tile: size %d, synced %d\n", h[2], h[3]);

    too_wide<<<1, 128>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    printf("tiled_partition(block, 64): %s\n", cudaGetErrorName(e));
    return 0;
}
