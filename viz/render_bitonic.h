/* render_bitonic.h - the butterfly renderer's model, shared by its two files:
 * render_bitonic_model.c turns a trace into the network's steps (which pair
 * each wire was in, who did it, the keys after every step), pure and
 * testable without a canvas; render_bitonic.c lays it out and draws it. */
#ifndef GPULAB_VIZ_RENDER_BITONIC_H
#define GPULAB_VIZ_RENDER_BITONIC_H

#include "kernels/lab.h"

#define DRAW_MAX_N (1LL << 14) /* larger traces are not drawn (the replay keeps every step) */

/* Per (step, wire) flags */
#define W_TOP 0x01      /* this wire is i1 of its pair */
#define W_SWAP 0x02
#define W_ASC 0x04
#define W_PAIR 0x08     /* a compare-exchange touched this wire */
#define W_IDLE 0x10     /* o: this wire's own thread waited */

typedef struct bstep {
    long long k, j;
    int role;                  /* BITONIC_ROLE_*, -1 before any marker */
    int space;                 /* memory its keys were in, -1 none seen */
    int launch_lo, launch_hi;  /* launches that did it */
    long long blk_lo, blk_hi;  /* blocks that did it */
    int ncs, nswap, nidle, nthreads;
    int round_c, round_space;  /* fast: steps per register round and where they came from */
} bstep;

typedef struct bmodel {
    const lab_trace *t;
    long long n;
    int S;
    int ok;                    /* the trace fits the network */
    bstep *st;
    double *val;               /* (S + 1) x n: keys after s steps */
    int *partner;              /* S x n: the other wire of the pair, -1 */
    unsigned char *flag;       /* S x n */
    int *blk, *thr;            /* S x n: who did the pair (o: the idle wire's own thread) */
    double *sorted;            /* the input, sorted on the CPU */
    long long stray;           /* events that fit no step */
    int is_o;                  /* idle markers seen: one thread per key */
} bmodel;

/* Build the model of trace t (m->ok says whether it is a bitonic network);
 * -1 when out of memory. Free with bmodel_free. */
int bmodel_build(bmodel *m, const lab_trace *t);
void bmodel_free(bmodel *m);

/* Words and letters for a kernel role (BITONIC_ROLE_*) and a memory space. */
const char *bmodel_role_word(int role);
char bmodel_role_letter(int role);
const char *bmodel_space_word(int sp);
char bmodel_space_letter(int sp);

#endif
