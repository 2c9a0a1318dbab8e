/* transpose.h - what the transpose family's files share. */
#ifndef GPULAB_TRANSPOSE_H
#define GPULAB_TRANSPOSE_H

#include "kernels/lab.h"

/* The tiled kernels move 32 x 32 tiles: a block is 32 threads wide and
 * TRANSPOSE_TILE / block_y rows of each tile fall to each thread. */
#define TRANSPOSE_TILE 32

/* Default block shapes (x by y) when `set block` is auto. */
#define TRANSPOSE_NAIVE2D_BX 16 /* square blocks: the diagonal cuts them visibly */
#define TRANSPOSE_NAIVE2D_BY 16
#define TRANSPOSE_NAIVE_BX 32   /* a warp spans one row of 32 elements */
#define TRANSPOSE_NAIVE_BY 8
#define TRANSPOSE_COPY_BLOCK 256 /* copy: a 1D block over 16-byte vectors */
#define TRANSPOSE_TILED_BY 8    /* 32 x 8: four tile rows per thread */

/* Tiles a block of the tiled kernels moves, one above the other. */
#define TRANSPOSE_TILES 2

#endif
