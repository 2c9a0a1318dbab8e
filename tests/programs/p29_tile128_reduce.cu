// A tile wider than a warp: thread_block_tile<128> splits a block of 512
// threads into 4 tiles of 4 warps. Each tile reduces its own quarter of
// shared memory, with tile.sync() between the steps: a barrier of the
// tile's 128 threads only, so the tiles do not wait for each other. With
// race-check on, the simulator checks that tile.sync() orders each step.
// RUN: set race-check on
// EXPECT: tile sums 8128 24512 40896 57280
// EXPECT: thread 300: tile size 128, meta_group_rank 2 of 4, thread_rank 44
// REJECT: data race
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void tile_sum(const int *in, int *out, int *info)
{
    __shared__ int s[512];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<128> tile = cg::tiled_partition<128>(block);
    unsigned base = tile.meta_group_rank() * tile.size();
    s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
    tile.sync();
    for (unsigned k = tile.size() / 2; k > 0; k /= 2) {
        if (tile.thread_rank() < k) s[base + tile.thread_rank()] += s[base + tile.thread_rank() + k];
        tile.sync();  // the next step reads what this one wrote, in this tile only
    }
    if (tile.thread_rank() == 0) out[tile.meta_group_rank()] = s[base];
    if (threadIdx.x == 300) {
        info[0] = tile.size();
        info[1] = tile.meta_group_rank();
        info[2] = tile.meta_group_size();
        info[3] = tile.thread_rank();
    }
}

int main()
{
    int h[512], out[4], info[4];
    for (int i = 0; i < 512; i++) h[i] = i;
    int *din, *dout, *dinfo;
    cudaMalloc(&din, sizeof h);
    cudaMalloc(&dout, sizeof out);
    cudaMalloc(&dinfo, sizeof info);
    cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
    tile_sum<<<1, 512>>>(din, dout, dinfo);
    cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
    cudaMemcpy(info, dinfo, sizeof info, cudaMemcpyDeviceToHost);
    printf("tile sums %d %d %d %d\n", out[0], out[1], out[2], out[3]);
    printf("thread 300: tile size %d, meta_group_rank %d of %d, thread_rank %d\n", info[0], info[1], info[2],
           info[3]);
    return 0;
}
