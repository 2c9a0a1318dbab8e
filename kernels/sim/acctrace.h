/* acctrace.h - the automatic access trace: every global and shared memory
 * access of a launch, lane by lane, as a file and as a model.
 *
 * The writer is a reader of the recording (record.h): attached in the
 * process that runs the kernels (a student's program, gpulab itself for a
 * built-in variant), it writes one line per warp request to a FILE. The
 * parser reads that file back into an acc_trace, which the generic
 * animation, `trace` and `check` read. The same text crosses the process
 * boundary of a student's program, so one format serves both.
 *
 * Bounded twice: only the first max_blocks blocks of every launch are
 * recorded (the others run unrecorded, counted), and after max_lanes lane
 * accesses in all nothing more is written (counted too). The parser keeps
 * to the same bound, so neither side runs out of memory on a large launch.
 *
 * The format (docs/animation.md has it with examples), one record a line,
 * fields separated by single spaces, names last:
 *   L launch gx,gy,gz bx,by,bz smem line kernel     a launch begins
 *   O id g|s bytes elem base name                  an array, the first time it is touched
 *                                                   (base: its offset in shared memory)
 *   S id pc                                         an access site (an instruction address)
 *   R block warp epoch site l|s|a g|s width sectors wavefronts lane:obj:offset:value ...
 *   P id line name file                             a source position (collectives, barriers)
 *   C block warp epoch op pos arg width lane:src:value:result ...
 *                                                   a warp collective or a tile barrier (op: record.h's
 *                                                   SIM_REC_SHFL_IDX ...), in order with the R lines
 *   B block epoch b|g pos threads                   a block (or grid) barrier: every thread of the
 *                                                   block waited; it closes the epoch
 *   E launch rc blocks recorded skipped dropped     the launch ended
 * offsets are in bytes from the array's start, values hexadecimal. */
#ifndef GPULAB_SIM_ACCTRACE_H
#define GPULAB_SIM_ACCTRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ACC_DEFAULT_BLOCKS 4
#define ACC_DEFAULT_LANES (1ull << 20)

enum { ACC_READ = 0, ACC_WRITE = 1, ACC_ATOMIC = 2 };
enum { ACC_GLOBAL = 0, ACC_SHARED = 1 };
/* warp operations: the values of record.h's SIM_REC_SHFL_IDX ... */
enum {
    ACC_SHFL_IDX = 0, ACC_SHFL_UP, ACC_SHFL_DOWN, ACC_SHFL_XOR, ACC_BALLOT, ACC_ANY, ACC_ALL,
    ACC_MATCH_ANY, ACC_MATCH_ALL, ACC_SYNCWARP, ACC_REDUCE, ACC_TILE_SYNC, ACC_NOPS
};

typedef struct acc_array {
    char name[48];
    int space;                  /* ACC_GLOBAL or ACC_SHARED */
    unsigned long long bytes;   /* its size (shared: as declared) */
    unsigned elem;              /* bytes per element: declared (shared), else the narrowest access */
    unsigned long long cells;   /* bytes / elem */
    unsigned long long base;    /* shared: bytes from the start of the block's shared memory */
} acc_array;

typedef struct acc_site {
    unsigned long long pc;      /* 0: a source position the simulator named (collectives, barriers) */
    char file[64];              /* basename; "" when the debug information does not say */
    int line;
    char name[40];              /* positions: the call ("__shfl_down_sync", "__syncthreads") */
} acc_site;

typedef struct acc_launch {
    char kernel[64];
    int line;                   /* where it was launched */
    unsigned grid[3], block[3];
    unsigned long long smem;
    unsigned long long blocks_recorded, blocks_skipped, dropped;
    int rc;                     /* 0 ran to its end, -1 failed, 1 no end record */
    unsigned epochs;            /* barrier epochs seen (largest epoch + 1) */
    size_t req0, nreq;          /* its requests in acc_trace.reqs */
    size_t wop0, nwop;          /* its warp operations in acc_trace.wops */
    size_t bar0, nbar;          /* its barriers in acc_trace.bars */
} acc_launch;

/* One warp's execution of one access site. */
typedef struct acc_req {
    unsigned launch;
    unsigned block;             /* linear block index */
    unsigned warp, epoch, site;
    unsigned char kind, space, width;
    unsigned char nlanes;
    uint32_t mask;
    unsigned sectors;           /* global: distinct 32-byte sectors */
    unsigned wavefronts;        /* shared: passes of the bank model */
    size_t lane0;               /* its lanes: lanes[lane0 .. lane0 + nlanes) */
    unsigned seq;               /* its place among the launch's requests and warp operations */
} acc_req;

/* One warp's collective (shuffle, vote, match, reduce, __syncwarp) or its
 * part of a tile barrier. */
typedef struct acc_wop {
    unsigned launch, block, warp, epoch, site;  /* site: a position (pc 0) */
    unsigned char op, nlanes;
    unsigned arg;               /* shuffles: lane or delta; tile barriers: the tile size */
    int width;
    uint32_t mask;
    size_t lane0;               /* its lanes: wlanes[lane0 .. lane0 + nlanes) */
    unsigned seq;
} acc_wop;

typedef struct acc_wlane {
    unsigned char lane, src;    /* src: the lane whose value it got (shuffles) */
    unsigned long long value, result;
} acc_wlane;

/* A barrier all threads of a block waited at; it ends epoch `epoch`. */
typedef struct acc_bar {
    unsigned launch, block, epoch, site, threads;
    unsigned char grid;         /* this_grid().sync() */
} acc_bar;

typedef struct acc_lane {
    unsigned array;
    unsigned char lane;
    unsigned long long offset;  /* bytes from the array's start */
    unsigned long long index;   /* offset / the array's elem */
    unsigned long long value;   /* the bytes read or written (up to 8), little-endian */
} acc_lane;

typedef struct acc_trace {
    acc_launch *launches;
    int nlaunches;
    acc_array *arrays;
    int narrays;
    acc_site *sites;
    int nsites;
    acc_req *reqs;
    size_t nreqs;
    acc_lane *lanes;
    size_t nlanes;
    acc_wop *wops;
    size_t nwops;
    acc_wlane *wlanes;
    size_t nwlanes;
    acc_bar *bars;
    size_t nbars;
    unsigned long long dropped;         /* lane accesses beyond the bound, all launches */
    unsigned long long blocks_skipped;  /* blocks outside the window, all launches */
    unsigned max_blocks;                /* the window the writer was given */
} acc_trace;

/* ---- writer (the process that runs the kernels) ---- */

/* Attach a writer to the recording: every request of the first max_blocks
 * blocks of each launch goes to f, until max_lanes lane accesses are
 * written. 0 ok; -1 when the recording is not available (record.h). */
int acc_writer_attach(FILE *f, unsigned max_blocks, unsigned long long max_lanes);
/* Detach and flush. Safe when not attached. */
void acc_writer_detach(void);

/* ---- parser (the reader of the file) ---- */

/* Read a trace written by the writer, keeping at most max_lanes lane
 * accesses (0: ACC_DEFAULT_LANES). 0 ok, -1 (err says why: out of memory,
 * not such a file). */
int acc_trace_read(FILE *f, acc_trace *t, unsigned long long max_lanes, char *err, size_t errlen);
/* Name each site's source line: from exe's debug information (a student's
 * program, built without PIE), or from this process's when exe is NULL. */
void acc_trace_resolve(acc_trace *t, const char *exe);
void acc_trace_free(acc_trace *t);

/* A value as text for a cell of w bytes: whole numbers as integers, other
 * 4- and 8-byte patterns as floats when they look like floats (the trace
 * does not know the element's type). */
void acc_value_text(unsigned long long v, unsigned w, char *buf, size_t len);
/* A warp operation's value: 4 bytes when its high half is 0, else 8. */
void acc_wop_value_text(unsigned long long v, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
