/* bad_tile_shfl.cpp - must NOT compile: a tile wider than a warp has no
 * shuffles (the CUDA headers refuse them too), and the shim says which
 * functions such a tile has (test sim_wide_tile_shfl_refused). */
#define GPULAB_SIM 1
#include "kernels/kern.h"

static __global__ void bad_k(int *out)
{
    cooperative_groups::thread_block_tile<64> tile =
        cooperative_groups::tiled_partition<64>(cooperative_groups::this_thread_block());
    out[threadIdx.x] = tile.shfl_down((int)threadIdx.x, 1);
}
