/* histogram_model.h - the histogram renderer's model, shared by its two
 * files: histogram_model.c (a trace -> frames, and the state of the bins,
 * the private counts and the contention after each frame: testable without
 * a canvas) and render_histogram.c (the drawing and the captions). The
 * frames are listed at the top of render_histogram.c. */
#ifndef GPULAB_VIZ_HISTOGRAM_MODEL_H
#define GPULAB_VIZ_HISTOGRAM_MODEL_H

#include "kernels/histogram/histogram_trace.h"
#include "kernels/lab.h"

#define NB HIST_BINS
#define WARP 32

enum fkind { F_IMAGE, F_STEP, F_DONE, F_COUNTS };

typedef struct hframe {
    int kind;
    int block, step;
} hframe;

/* What an event is to this picture. */
enum ecls { E_NONE = 0, E_PIXEL, E_MATCH, E_PRIV, E_GLOBAL_PIXEL, E_MERGE };

typedef struct hmodel {
    const lab_trace *t;
    int priv;              /* the variant counts into shared memory first */
    int spread;            /* lanes share a bin but not a counter (fast) */
    int per_step;          /* pixels a thread takes per step: 16 for fast */
    int w, h;              /* image shape */
    long long n;
    int bd, nblocks;
    /* per event */
    unsigned char *cls;
    int *frame;            /* frame each event belongs to, -1 none */
    int *bin;              /* bin it adds to (pixel, private, global, merge) */
    /* frames */
    hframe *fr;
    int nfr;
    int *block_first;      /* first step frame of each block (-1: no events) */
    unsigned final[NB];    /* the global histogram at the end */
    unsigned exact[NB];    /* a count of the traced input */
    int have_exact;
    unsigned maxcol;       /* scale: the largest column of the final histogram */
    int group;             /* bins per column */
} hmodel;

typedef struct hstate {
    unsigned global[NB];  /* the global histogram after this frame */
    unsigned priv[NB];    /* the current block's private counts (not merged yet) */
    unsigned now[NB];     /* pixels added to each bin in this frame */
    int heat[NB];         /* most lanes of one warp on one counter of this bin, this frame */
    int same[NB];         /* most lanes of one warp whose pixel is in this bin */
    int maxheat, maxsame, hotbin, samebin;
    long long counted;    /* pixels counted so far (global and private) */
    long long gatomics;   /* atomics on the global histogram so far */
    long long merged_bins;/* done frame: bins this block merged */
    long long pixels_now; /* pixels taken in this frame */
    int warps_now;        /* warps with a pixel in this frame */
    int worst_warp;       /* the warp with maxheat */
} hstate;

/* Build the frames of trace t into m: 0 ok, -1 out of memory (m is then
 * empty). hist_model_free() releases it. */
int hist_model_build(hmodel *m, const lab_trace *t);
void hist_model_free(hmodel *m);

/* The state after frame fi. lit and seen (n bytes each, or NULL): the
 * pixels taken in this frame, and those taken before it. */
void hist_state_at(const hmodel *m, int fi, hstate *s, unsigned char *lit, unsigned char *seen);

#endif
