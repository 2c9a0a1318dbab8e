// Cooperative groups: a warp tile reduced with shfl_down, cg::reduce over
// tiles of 16 (plus and greater), a tile shuffle of a 16-byte struct, a
// runtime-sized tiled_partition and coalesced_threads.
// EXPECT: tile32 sum 496
// EXPECT: tile16 sums 120 376 max 15 31
// EXPECT: struct from lane 3: 3 30 300 3000
// EXPECT: group of 8: size 8 rank of thread 11 is 3
// EXPECT: coalesced: 16 active, rank 5 is thread 10
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

struct Quad { int a, b, c, d; };

__global__ void groups(int *out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int v = threadIdx.x;
    for (int i = warp.size() / 2; i > 0; i /= 2) v += warp.shfl_down(v, i);
    if (warp.thread_rank() == 0) out[0] = v;

    cg::thread_block_tile<16> half = cg::tiled_partition<16>(block);
    int s = cg::reduce(half, (int)threadIdx.x, cg::plus<int>());
    int m = cg::reduce(half, (int)threadIdx.x, cg::greater<int>());
    if (half.thread_rank() == 0) {
        out[1 + half.meta_group_rank()] = s;
        out[3 + half.meta_group_rank()] = m;
    }

    Quad q = {(int)threadIdx.x, (int)threadIdx.x * 10, (int)threadIdx.x * 100, (int)threadIdx.x * 1000};
    Quad r = warp.shfl(q, 3);
    if (threadIdx.x == 0) { out[5] = r.a; out[6] = r.b; out[7] = r.c; out[8] = r.d; }

    cg::thread_group g8 = cg::tiled_partition(block, 8);
    if (threadIdx.x == 11) { out[9] = g8.size(); out[10] = g8.thread_rank(); }
    g8.sync();

    if (threadIdx.x % 2 == 0) {
        cg::coalesced_group active = cg::coalesced_threads();
        int who = active.shfl((int)threadIdx.x, 5);
        if (active.thread_rank() == 0) { out[11] = active.size(); out[12] = who; }
    }
}

int main()
{
    int *d, h[13];
    cudaMalloc(&d, sizeof h);
    groups<<<1, 32>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("tile32 sum %d\n", h[0]);
    printf("tile16 sums %d %d max %d %d\n", h[1], h[2], h[3], h[4]);
    printf("struct from lane 3: %d %d %d %d\n", h[5], h[6], h[7], h[8]);
    printf("group of 8: size %d rank of thread 11 is %d\n", h[9], h[10]);
    printf("coalesced: %d active, rank 5 is thread %d\n", h[11], h[12]);
    return 0;
}
