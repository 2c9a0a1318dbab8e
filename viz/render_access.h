/* render_access.h - the generic animation: any kernel, drawn from its
 * automatic access trace (kernels/sim/acctrace.h).
 *
 * A step is one barrier epoch of one launch (all recorded blocks together),
 * or, zoomed in, one warp instruction (one request, in the simulator's
 * order: block after block, warp after warp between two barriers). Each
 * array the launch touches is a strip of cells (a shared array one strip per
 * block); a cell touched in the step is drawn in its block's colour, written
 * cells reversed, read cells underlined, and a cell that two threads touched
 * in the step, one of them writing, is marked as a race. Below, the warps of
 * the step with their active and idle lanes. Counters: threads, requests,
 * sectors against the ideal, bank conflicts, divergent warps, races.
 *
 * Like every renderer, a frame is a pure function of (trace, view, frame,
 * area). */
#ifndef GPULAB_VIZ_RENDER_ACCESS_H
#define GPULAB_VIZ_RENDER_ACCESS_H

#include "kernels/sim/acctrace.h"
#include "viz/canvas.h"
#include "viz/render.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the user picked: a cell (strip and index) and a thread. */
typedef struct viz_access_sel {
    int on;                  /* the cell cursor is shown */
    int strip;               /* which strip (array, or shared array of a block) */
    long long cell;          /* index into the strip's shown cells */
    int thread_on;           /* a thread is selected: its path is shown */
    unsigned block, thread;  /* linear block, linear thread in the block */
} viz_access_sel;

typedef struct viz_access {
    const acc_trace *t;
    int zoom;                /* 0: a step is a barrier epoch; 1: one warp instruction */
    /* the kernel source for the code pane (may be NULL) */
    const char *source;
    size_t source_len;
    const char *source_name; /* the file's basename, as the trace's sites name it */
} viz_access;

int viz_access_frames(const viz_access *a);
void viz_access_draw(const viz_access *a, const viz_access_sel *sel, int frame, canvas *c, viz_rect area,
                     viz_frame_info *info);
/* The line the frame's step runs (its first access, or the selected cell's
 * access in it), and up to max lines that touched the selected cell in the
 * frame's launch (or the step's other lines). Returns the number of marks. */
int viz_access_lines(const viz_access *a, const viz_access_sel *sel, int frame, int *highlight, int *marks,
                     int max);
/* Keep sel inside the frame's strips and cells. */
void viz_access_clamp(const viz_access *a, int frame, viz_access_sel *sel);
/* The cell at (x, y) of a frame drawn in area: 0 with sel set, -1 none. */
int viz_access_hit(const viz_access *a, int frame, viz_rect area, int x, int y, viz_access_sel *sel);
/* Select the thread that touched the selected cell in the frame's step
 * (the last one); 0 ok, -1 when none did. */
int viz_access_pick_thread(const viz_access *a, int frame, viz_access_sel *sel);
/* The frame of `to` (the other zoom) where frame of `from` begins. */
int viz_access_frame_map(const viz_access *from, int frame, const viz_access *to);
/* A warp collective in words: "__shfl_down_sync by 16", "__ballot_sync". */
void viz_wop_text(const acc_trace *t, const acc_wop *w, char *buf, size_t len);
/* Rows a frame needs at this width (text output). */
int viz_access_height(const viz_access *a, int width);

#ifdef __cplusplus
}
#endif
#endif
