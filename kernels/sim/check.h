/* check.h - the one hook every simulated device access goes through, the
 * checkers that read it (memcheck: bounds, alignment, use after free,
 * initialisation; the race check), and the grouped error reporter they
 * share.
 *
 * Every load, store and atomic that kernel code makes to global memory or
 * to the block's shared memory reaches sim_access_hook (record.cpp) before
 * it happens, from the fiber that makes it, in execution order: through the
 * compiler's instrumentation (record.h: g++ -fsanitize=thread at compile
 * time, whose __tsan_* entry points record.cpp defines), which also sees
 * the loads and stores inside the shared-array proxies of shim.h and
 * progrt.h, and through the shim's atomics (sim_access_atomic). TRACE_*
 * lines of built-in kernels are trace events, not accesses. The hook
 * resolves the address to the allocation or shared array it falls in, runs
 * memcheck when it is on, hands the access to every attached checker, and
 * then to the access recording (profile, traces).
 *
 * Not instrumented: the sanitizer build (AddressSanitizer checks there);
 * sim_rec_available() says which. Single-threaded, like the simulator. */
#ifndef GPULAB_SIM_CHECK_H
#define GPULAB_SIM_CHECK_H

#include "kernels/lab.h"
#include "kernels/sim/record.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ accesses */

typedef struct sim_access {
    uintptr_t addr;            /* first byte */
    unsigned size;             /* 1, 2, 4, 8 or 16 (wider copies come as 16-byte pieces) */
    int kind;                  /* SIM_REC_LOAD, SIM_REC_STORE, SIM_REC_ATOMIC */
    int space;                 /* SIM_REC_GLOBAL or SIM_REC_SHARED */
    uintptr_t site;            /* the kernel's instruction (a return address); its line: sim_check_where */
    unsigned long long block;  /* linear block index */
    unsigned thread, warp, lane; /* linear thread in the block, its warp and lane */
    /* the allocation or shared array holding the first byte, or NULL when
     * it falls in none (a red zone, freed memory, past every array) */
    const sim_rec_object *obj;
    int vol;                   /* a volatile load or store (a relaxed one in PTX's memory model) */
} sim_access;

/* Synchronisation, delivered when it completes (happens-before edges). */
enum {
    SIM_SYNC_BARRIER = 0, /* __syncthreads and its forms, this_thread_block().sync(): the whole block */
    SIM_SYNC_TILE,        /* a tile barrier of threads [first, end) */
    SIM_SYNC_WARP,        /* a warp collective or __syncwarp: the lanes of mask in warp */
    SIM_SYNC_GRID         /* this_grid().sync(): the running block's part of it */
};
typedef struct sim_sync_event {
    int kind;
    unsigned long long block;
    unsigned first, end;       /* threads [first, end) that took part (BARRIER, TILE, GRID) */
    unsigned warp;             /* WARP */
    uint32_t mask;             /* WARP: the lanes */
    int line;
    const char *file;
    const void *site;          /* BARRIER: the call site's identity (NULL: known by line only) */
} sim_sync_event;

/* A checker: callbacks (any may be NULL) and its context. */
typedef struct sim_checker {
    void *ctx;
    void (*launch_begin)(void *ctx, const sim_rec_launch *l);
    void (*block_begin)(void *ctx, unsigned long long block); /* also when a parked block resumes */
    void (*access)(void *ctx, const sim_access *a);
    void (*sync)(void *ctx, const sim_sync_event *e);
    void (*block_end)(void *ctx, unsigned long long block);
    void (*launch_end)(void *ctx, const sim_rec_launch *l, int rc);
    /* A plain (not volatile) load or store (kind SIM_REC_LOAD or
     * SIM_REC_STORE) of size bytes at addr, found inside object o of space
     * (SIM_REC_GLOBAL, SIM_REC_SHARED) with no memory error, by the running
     * thread from site, when this is the one checker attached: 1 when it
     * took it so, 0 (having changed nothing) to be given it through access.
     * For the accesses of a kernel's inner loop, without building a
     * sim_access. */
    int (*plain)(void *ctx, uintptr_t addr, unsigned size, int kind, int space, const sim_rec_object *o,
                 uintptr_t site);
} sim_checker;

#define SIM_CHECK_MAX 4
/* 0 ok; -1: the build has no instrumentation, SIM_CHECK_MAX are attached,
 * or a launch is running. */
int sim_check_attach(const sim_checker *c);
void sim_check_detach(const sim_checker *c);

/* Where an access site is: the kernel's file (basename) and line; 0, or -1
 * when unknown. A student's program resolves its own sites (progrt.cpp sets
 * the resolver); gpulab reads its debug information (record_where.cpp). */
int sim_check_where(uintptr_t site, char *file, size_t filelen, int *line);
void sim_check_set_where(int (*fn)(uintptr_t site, char *file, size_t filelen, int *line));

/* ------------------------------------------------------------- memcheck */

/* What memcheck checks (`set check`): bounds, alignment and use after free
 * of every access (MEMCHECK); reads of global memory nothing wrote
 * (INITCHECK); allocations never freed at the program's end (LEAKS). */
enum { SIM_CHECK_MEMCHECK = 1, SIM_CHECK_INITCHECK = 2, SIM_CHECK_LEAKS = 4 };
#define SIM_CHECK_DEFAULT (SIM_CHECK_MEMCHECK | SIM_CHECK_LEAKS)
#define SIM_CHECK_LIMIT_DEFAULT 20
void sim_check_set_mode(int mode);
int sim_check_mode(void);
/* "off", "memcheck", "initcheck", "leaks" or "all" -> the mode; -1 unknown */
int sim_check_parse(const char *name);
const char *sim_check_name(int mode);

/* Live allocations never freed: one line each into buf ("d_a: 4000 bytes
 * from cudaMalloc at line 20"); returns how many. */
unsigned sim_check_leaks(char *buf, size_t len);

/* ------------------------------------------------- the grouped reporter */

/* One line per distinct error: (what, site1, site2, obj). site2 is 0 for
 * errors of one access; races give both accesses' sites. */
typedef struct sim_report_key {
    int what;
    uintptr_t site1, site2;
    uintptr_t obj;
} sim_report_key;

/* In a message: where ", at line N" (the line of the key's site1) goes. The
 * report looks the line up when the launch ends, outside the fibers, whose
 * stacks are too small for reading debug information. */
#define SIM_REPORT_AT "\x01"
/* In a message: SIM_REPORT_ORIGIN ID SIM_REPORT_ORIGIN becomes " at line N",
 * the line of allocation ID that a library made (thrust's device_vector),
 * looked up when the report is written, outside the fibers. */
#define SIM_REPORT_ORIGIN "\x02"

/* Block `block`, thread `thread` hit the error `k`. On the first hit of a
 * key, fmt(buf, len, arg) writes the whole message of that first case
 * (kernel, block, thread, lines, memory, what a GPU does). code is the
 * error the launch fails with. Returns 1 for a new group, 0 for a further
 * hit; -1 when the launch should stop now (the stop limit is reached). */
int sim_report_hit(const sim_report_key *k, int code, unsigned long long block, unsigned thread,
                   void (*fmt)(char *buf, size_t len, const void *arg), const void *arg);
/* The whole grouped report of the last launch that failed with memory
 * errors (its diagnostic is cut at LAB_ERR_MAX bytes), once; "" when none.
 * Valid until the next call. */
const char *sim_check_report_take(void);
/* distinct errors shown per launch (the rest are counted); 0: the default (20) */
void sim_report_set_limit(unsigned groups);
unsigned sim_report_limit(void);
/* errors pending in the running launch */
unsigned sim_report_pending(void);

#ifdef __cplusplus
}
#endif
#endif
