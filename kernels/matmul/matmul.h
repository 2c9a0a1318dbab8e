/* matmul.h - what the matrix multiply family's files share. */
#ifndef GPULAB_MATMUL_H
#define GPULAB_MATMUL_H

#include "kernels/lab.h"

/* The shared-memory tiles of gpu-tiled: 32 x 32 floats of A and of B, one
 * block of 32 x 32 threads per tile of C (the article's SIZE = 32). */
#define MATMUL_TILE 32

/* Threads per block of the register-blocked kernels (their block is fixed). */
#define MATMUL_1D_THREADS 512   /* gpu-1d: 64 x 64 of C, 8 elements a thread */
#define MATMUL_2D_THREADS 256   /* gpu-2d, gpu-vec: 128 x 128 of C, 8 x 8 a thread */
#define MATMUL_WARP_THREADS 128 /* gpu-warp: 128 x 128 of C, 8 x 16 a thread */

/* Every row's answer (job->out) is C as n * n doubles, row-major: the float
 * rows widen their float results, the reference row keeps its double sums. */

/* The simulator plays every multiply-add of every thread: it takes up to
 * MATMUL_SIM_FACTOR x sim-limit of them (n = 256 at the default limit). */
#define MATMUL_SIM_FACTOR 4

/* cpu-naive is the article's triple loop on one core; past this n a single
 * run takes minutes. */
#define MATMUL_CPU_NAIVE_MAX 2048

#endif
