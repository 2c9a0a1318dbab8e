/* gpu_potential.cu - the CUDA runtime's own block-size suggestion, for
 * gpu_occupancy.c to compare gpulab's search with. The runtime gives it as a
 * C++ template only, hence this small C++ file. */
#include <cuda_runtime.h>

extern "C" int ref_potential_block(const void *func, size_t dynamic_smem, int block_limit, int *min_grid)
{
    int grid = 0, block = 0;
    if (cudaOccupancyMaxPotentialBlockSize(&grid, &block, func, dynamic_smem, block_limit) != cudaSuccess) {
        cudaGetLastError();
        return -1;
    }
    *min_grid = grid;
    return block;
}
