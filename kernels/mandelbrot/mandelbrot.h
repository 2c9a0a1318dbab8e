/* mandelbrot.h - what the Mandelbrot family's files share, including the
 * iteration itself: like the lecture's Iterations(), one function serves the
 * CPU rows, the GPU kernel and the simulator. */
#ifndef GPULAB_MANDELBROT_H
#define GPULAB_MANDELBROT_H

#include "kernels/lab.h"

#define MANDEL_MAX_ITER 1000

/* Default block (x by y) of the GPU variants: square blocks, so the heat map
 * of work per block shows tiles of the picture. */
#define MANDEL_BX 16
#define MANDEL_BY 16

/* The image: job->priv of every row. */
typedef struct mandel_info {
    int w, h;
} mandel_info;

#if defined(__CUDACC__)
#  define MANDEL_HD __host__ __device__ __forceinline__
#else /* C, and the simulator's g++: an ordinary function */
#  define MANDEL_HD inline
#endif

/* The point of pixel (x, y) on a w x h image: c = (-2.2 + 3x/w, -1 + 2y/h),
 * in float, evaluated in the lecture's order. */
static MANDEL_HD float mandel_cr(int x, int w) { return -2.2f + 3.0f * (float)x / (float)w; }
static MANDEL_HD float mandel_ci(int y, int h) { return -1.0f + 2.0f * (float)y / (float)h; }

/* Iterations of z = z^2 + c from z = 0 while |z|^2 <= 4, at most
 * MANDEL_MAX_ITER: the lecture's loop, float for float (its while (k < max
 * && test) { ...; k++; } written as a for loop with a break). The CPU files
 * are compiled with -ffp-contract=off so that each * and + rounds on its own,
 * as in the lecture's CPU run; nvcc fuses a*b + c into one fused multiply-add
 * (one rounding instead of two), which is why the GPU's counts differ at a
 * few thousand pixels on the edge of the set. On the GPU the loop is
 * unrolled four times (1000 is a multiple of 4): the escape test stays in
 * every iteration, the count test only in every fourth. */
#if defined(__CUDA_ARCH__) /* nvcc's device pass; its host pass would warn */
#  define MANDEL_UNROLL _Pragma("unroll 4")
#else
#  define MANDEL_UNROLL
#endif

static MANDEL_HD int mandel_iterations(float cr, float ci)
{
    float zr = 0.0f, zi = 0.0f;
    int k = 0;
    MANDEL_UNROLL
    for (; k < MANDEL_MAX_ITER; k++) {
        if (!(zr * zr + zi * zi <= 4.0f)) break;
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
    }
    return k;
}

#endif
