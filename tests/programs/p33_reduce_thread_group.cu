// A mistake: cg::reduce on the thread_group of tiled_partition(block, 16).
// reduce takes a thread_block_tile<N> or a coalesced_group, whose threads
// it knows at compile time; a thread_group may be any group, so the CUDA
// headers refuse it when compiling, and so does the simulator.
// FAILS
// EXPECT: does not exclusively represent a tile
// EXPECT-SIM: p33_reduce_thread_group.cu:17
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void sum16(int *out)
{
    cg::thread_group g = cg::tiled_partition(cg::this_thread_block(), 16);
    int v = threadIdx.x;
    int s = cg::reduce(g, v, cg::plus<int>());
    if (g.thread_rank() == 0) out[threadIdx.x / 16] = s;
}

int main()
{
    int *d;
    cudaMalloc(&d, 4 * sizeof(int));
    sum16<<<1, 64>>>(d);
    cudaDeviceSynchronize();
    printf("not reached\n");
    return 0;
}
