/* reduce_model.h - the reduction renderer's model, shared by its three
 * files: reduce_model.c (a trace -> frames, each frame's statistics, and
 * the values and marks a frame leaves in the blocks: testable without a
 * canvas), reduce_words.c (the captions) and
 * render_reduce.c (the drawing).
 *
 * Frames of one trace:
 *   input           the values in global memory, coloured by the block that reads them
 *   per launch:
 *     load          threads read global memory and store partials (shared or registers)
 *     one per step  a tree step s[dst] += s[src], a shuffle round, a shared read/write
 *     block results thread 0 of each block: atomicAdd, or a write for the next launch
 *   final           the answer against the CPU's
 *
 * A "step" is what the threads of a block do between two barriers, split
 * further by the position of the operation in each thread's sequence: the
 * k-th operation of a kind (shared memory, registers, block result) of
 * every thread in barrier epoch e belongs to one step. That groups
 * `s[tid] += s[tid + s]; __syncthreads();` rounds and the five rounds of a
 * warp shuffle without knowing any variant's source.
 *
 * Every frame is drawn from the trace alone: the model is rebuilt on each
 * call (a 256-element trace takes well under a millisecond), so there is no
 * cache to go stale. */
#ifndef GPULAB_VIZ_REDUCE_MODEL_H
#define GPULAB_VIZ_REDUCE_MODEL_H

#include <stdio.h>

#include "kernels/lab.h"
#include "viz/render.h"

#define WARP 32
#define NBANKS 32
#define MAX_SHOWN_BLOCKS 64 /* blocks a picture can show; counters cover all */

enum fkind { F_INPUT, F_LOAD, F_STEP, F_RESULT, F_FINAL };

/* What an event is to this renderer. */
enum ecls { C_NONE = 0, C_LOAD, C_STEP, C_RESULT };

typedef struct rframe {
    int kind, launch;
    uint32_t epoch, ord;  /* F_STEP: the step key */
    uint32_t min_epoch;   /* smallest epoch among its events */
    size_t first, count;  /* its events: m->fev[first .. first+count) */
} rframe;

typedef struct rlaunch {
    int bd, nblocks;     /* threads per block, blocks */
    int shared_n;        /* shared-memory extent touched (elements) */
    int slots;           /* cells per block in the picture: max(bd, shared_n) */
    int first, nframes;  /* its frames */
    int load, result;    /* frame index of its load and result frames, or -1 */
    uint32_t nbar_epochs;
    unsigned char *bar;  /* bar[e]: a barrier ended epoch e */
    int max_reads;       /* most global reads by one thread */
    int load_shared;     /* the load stores into shared memory */
} rlaunch;

typedef struct rmodel {
    const lab_trace *t;
    const lab_event **ev; /* every event, in key order */
    size_t nev;
    const lab_event **fev; /* events grouped by frame, key order within */
    rframe *fr;
    int nfr;
    rlaunch L[LAB_TRACE_MAX_LAUNCHES];
    int nl;
    int vw;              /* width of the widest value */
    int *reader;         /* input element -> block that reads it (launch 0), -1 */
    double ref;          /* the CPU's sum of the input */
    int have_ref;
} rmodel;

/* Build the model of a trace (0), or -1 out of memory (m is then empty). */
int rmodel_build(rmodel *m, const lab_trace *t);
void rmodel_free(rmodel *m);
/* Decimal digits of a non-negative value (at most 20). */
int rmodel_digits(double a);

/* Per (block, warp) of one frame. */
typedef struct wstat {
    int active, lanes, ways;
} wstat;

typedef struct fstats {
    long long active, idle_in_active, divergent, barriers;
    int ways;            /* worst n-way bank conflict; 0 when no shared access */
    int nadd, nshfl, nread_s, nwrite_s, natomic, nwrite_g, nread_g, nload_write;
    int offset;          /* the common src - dst of the pairs, or 0 */
    int uniform;         /* every pair has that offset */
    int xor_pattern;     /* shuffle pairs are lane ^ d */
    int downward;        /* some shuffle reads a lower lane */
    int pattern;         /* 1 interleaved (i % 2d == 0), 2 sequential (i < d), 3 thread 0 only */
    long long warps_active;
    int nblocks_active;  /* blocks with work in this frame */
    int only_block;      /* the block, when only one works */
} fstats;

/* Passes a full warp access needs however the indices lie: 8-byte values
 * fill 256 bytes, two rounds of the 32 banks. Conflicts mean more than this. */
int rmodel_min_passes(const lab_trace *t);
/* Walk one frame's events warp by warp. When ws is not NULL it receives the
 * statistics of warps (block b < nshow, warp w) at ws[b * wpb + w]. */
void rmodel_frame_stats(const rmodel *m, int fi, fstats *s, wstat *ws, int nshow);

/* The frame's title, caption and counters (reduce_words.c). */
void reduce_describe(const rmodel *m, int fi, const fstats *s, viz_frame_info *info);

static inline const char *rmodel_plural(long long n)
{
    return n == 1 ? "" : "s";
}

/* ---- values and marks of a frame, for the drawing (reduce_model.c) */

/* Values of the shown blocks after replaying frames of one launch. */
typedef struct rstate {
    int nshow, slots, bd;
    double *sh, *reg;              /* [nshow * slots], [nshow * bd] */
    unsigned char *sset, *used, *rset;
    unsigned char *regmode;        /* per (block, warp): last work was in registers */
} rstate;
/* Replay frames of one launch into st, in order. */
int rstate_init(rstate *st, const rlaunch *L, int nshow); /* -1: out of memory */
void rstate_free(rstate *st);
void rstate_apply(rstate *st, const rmodel *m, int fi);

/* Per-cell marks of the current frame for one block. */
typedef struct rmarks {
    int slots;
    unsigned char *dst, *src, *busy; /* [slots], busy: thread worked (by thread index) */
    int *from;                       /* dst slot -> src slot, -1 */
} rmarks;
int rmarks_init(rmarks *k, int slots); /* -1: out of memory */
void rmarks_free(rmarks *k);
/* The marks of frame fi for block blk. Shared-memory pairs use shared
 * indices; register pairs (shuffles) use thread indices: in the picture a
 * thread's register sits in the cell with its own index. */
void rmarks_fill(rmarks *k, const rmodel *m, int fi, int blk);

/* An answer in full: every digit a float or double carries, so a sum that
 * drifted in the last bits shows it. */
static inline void rmodel_fmt(const rmodel *m, double v, char *b, size_t len)
{
    if (m->t->dtype == LAB_FLOAT || m->t->dtype == LAB_DOUBLE) snprintf(b, len, "%.10g", v);
    else snprintf(b, len, "%.0f", v);
}

/* The answer the trace reports: its result, else the last block result. */
static inline double rmodel_answer(const rmodel *m)
{
    return m->t->result;
}

#endif
