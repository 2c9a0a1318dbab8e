/* histogram.h - what the histogram family's files share; what its animation
 * reads from a trace is public, in histogram_trace.h. */
#ifndef GPULAB_HISTOGRAM_H
#define GPULAB_HISTOGRAM_H

#include <stddef.h>

#include "kernels/lab.h"
#include "kernels/histogram/histogram_trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The lecture's image: 8K, the photo's noise and seed. */
#define HIST_LECTURE_W 7680
#define HIST_LECTURE_H 4320
#define HIST_PHOTO_SEED 8u
#define HIST_PHOTO_SIGMA 12.0f
#define HIST_FLAT_VALUE 128
/* The default image on the simulator: the lecture's 16:9, small enough for
 * one CPU thread playing every GPU thread to finish in about a second. */
#define HIST_SIM_W 256
#define HIST_SIM_H 144
/* Tracing records every pixel's steps: small images only (64x64 at most). */
#define HIST_TRACE_MAX_PIXELS 4096
/* Default grid: blocks per SM, as in the lecture (8 x SMs, 256 threads). */
#define HIST_BLOCKS_PER_SM 8
/* The SM count the simulator models when it picks a default grid. */
#define HIST_SIM_MODEL_SMS 132

/* Every row writes its histogram here (job->out). */
typedef struct hist_out {
    unsigned bins[HIST_BINS];
} hist_out;

/* The prepared input (job->priv). */
typedef struct hist_image {
    int width, height;
    char source[LAB_NAME_MAX];   /* "photo", "flat", "random" or the file's name */
    int maxval;                  /* files: the PGM maxval (255 for PNG) */
    unsigned exact[HIST_BINS];   /* counted once, sequentially, while preparing */
} hist_image;


/* Load a grayscale image: binary (P5) or ASCII (P2) PGM with maxval up to
 * 255, or PNG (any colour type, converted to 8-bit gray by libpng). On
 * success *pixels is malloc'd (w*h bytes) and 0 is returned; on failure -1
 * with a message in err that says what is wrong with the file. maxval gets
 * the PGM maxval (255 for PNG). The size the header claims is checked
 * before anything is decoded or allocated: at most HIST_IMAGE_MAX_SIDE
 * pixels a side and the smaller of max_pixels and HIST_IMAGE_MAX_PIXELS in
 * all; a binary PGM shorter than its header claims is refused before its
 * pixels are read. */
#define HIST_IMAGE_MAX_SIDE 32768
#define HIST_IMAGE_MAX_PIXELS (1LL << 28) /* 256 Mi pixels: 16384 x 16384, eight times the lecture's 8K */
int hist_load_image(const char *path, unsigned char **pixels, int *w, int *h, int *maxval,
                    long long max_pixels, char *err, size_t errlen);

/* Write an 8-bit grayscale PGM (P5). 0 ok, -1 with err. */
int hist_save_pgm(const char *path, const unsigned char *pixels, int w, int h, char *err,
                  size_t errlen);

/* The image size a run uses when no file is set: width and height from the
 * config (0 = auto: 7680x4320 where kernel rows run on a GPU, HIST_SIM_W x
 * HIST_SIM_H on the simulator); with both auto and n set, an image of n
 * pixels shaped as close to 16:9 as n's divisors allow (2304 -> 64x36).
 * 0 ok; -1 with err. */
int hist_image_size(const lab_config *cfg, int *w, int *h, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
