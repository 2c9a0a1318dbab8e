/* access_model.h - the generic animation's model, shared by its files
 * (render_access.c draws the arrays, render_sync.c the warp collectives and
 * barriers): which step a frame shows, and the cells' state at that step.
 * Internal to viz/. */
#ifndef GPULAB_VIZ_ACCESS_MODEL_H
#define GPULAB_VIZ_ACCESS_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "viz/canvas.h"
#include "viz/render_access.h"

enum { MAX_STRIPS = 32, MAX_CELLS = 4096, MAX_WARP_LINES = 64 };

/* The step a frame shows. */
typedef struct step {
    int launch;
    unsigned epoch;  /* the step's barrier epoch (zoomed in: its item's) */
    unsigned seq;    /* zoom 1: the item's place in the launch (acc_req.seq, acc_wop.seq) */
    size_t req;      /* zoom 1: the request, or NO_ITEM */
    size_t wop;      /* zoom 1: the warp operation, or NO_ITEM */
    int base;        /* the frame number of the launch's first step */
} step;
#define NO_ITEM ((size_t)-1)

typedef struct strip {
    unsigned array;
    long long block;        /* shared arrays: the block; -1 for global memory */
    long long lo, n;        /* the cells shown: [lo, lo + n) */
    long long min, max;     /* indices the launch touches */
    size_t cell0;           /* its cells in the cell table */
} strip;

typedef struct cellst {
    unsigned long long value;
    unsigned thread, block;
    unsigned char known;    /* a value was seen up to this step */
    unsigned char rd, wr, at, multi, race;
} cellst;

typedef struct model {
    step st;
    const acc_launch *l;
    strip s[MAX_STRIPS];
    int ns, more;           /* more: strips left out */
    cellst *cells;
    size_t ncells;
    unsigned char *is_float; /* per array of the trace: its values read as floats (vam_value_text) */
} model;

/* A value of array `array` as text, by the array's element type: the
 * recording keeps an element's width, not its type, so an array of 4- or
 * 8-byte elements is taken as floating-point when every value recorded for
 * it that is no small integer reads as a float of ordinary size (1e-12 to
 * 1e12 in magnitude) and there is one such value; else as integers. */
void vam_value_text(const model *m, const acc_trace *t, unsigned array, unsigned long long v, char *buf, size_t len);

/* steps: a launch's count; the step of a frame (0, or -1 without launches) */
int vam_launch_steps(const acc_trace *t, int l, int zoom);
int vam_frame_step(const viz_access *a, int frame, step *st);
/* request i: in the step, at or before it, the frame of its step */
int vam_in_step(const viz_access *a, const step *st, size_t i);
int vam_up_to_step(const viz_access *a, const step *st, size_t i);
int vam_frame_of(const viz_access *a, const step *st, size_t i);
/* warp operation i: in the step */
int vam_wop_in_step(const viz_access *a, const step *st, size_t i);
/* the launch's barriers that close the step (zoomed in: only at the epoch's last item) */
int vam_bar_ends_step(const viz_access *a, const step *st, size_t i);

int vam_strip_of(const model *m, const acc_trace *t, unsigned array, unsigned block);
int vam_model_build(const viz_access *a, int frame, model *m);
void vam_model_free(model *m);

int vam_block_role(unsigned b);
int vam_site_line(const acc_trace *t, unsigned site);
/* the lanes of warp `warp` that exist in the launch's blocks */
uint32_t vam_warp_lanes(const acc_launch *l, unsigned warp);

/* render_sync.c: the step's warp collectives and the barriers that end it */
int viz_sync_rows(const viz_access *a, const model *m, int width);
int viz_sync_draw(canvas *c, viz_rect area, const viz_access *a, const model *m);
/* zoomed in on a warp operation: the title and the caption */
void viz_sync_words(const viz_access *a, const model *m, const char *where, viz_frame_info *info);
/* appended to the caption: the step's collectives, the barrier that ends it */
void viz_sync_caption(const viz_access *a, const model *m, viz_frame_info *info);

#endif
