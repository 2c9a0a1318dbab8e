/* sim.h - the C side of gpulab's CPU simulator.
 *
 * Kernel sources never include this directly: kern.h pulls in sim/shim.h,
 * which includes it. C code (the harness, the REPL, benchmarks) may use it to
 * ask what the simulator did and to tune it. See docs/simulator.md.
 *
 * The simulator runs on one OS thread and is not reentrant: one launch at a
 * time, from one thread. */
#ifndef GPULAB_SIM_H
#define GPULAB_SIM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Fresh device memory (cudaMalloc, cudaMallocManaged) is filled with this
 * byte, so outputs a kernel never wrote stand out: 0xCCCCCCCC is the int
 * -858993460 and the float -1.07e8. */
#define SIM_POISON_GLOBAL 0xCC
/* Shared memory is filled with this byte at the start of every block, so a
 * read before any write shows: 0xCDCDCDCD is the int -842150451 and the float
 * -4.31e8; a double reads as -6.2e66. */
#define SIM_POISON_SHARED 0xCD

/* Transparent huge pages over the whole 2 MiB pages of [p, p + n) when n is
 * 4 MiB or more, where the kernel gives them on request: a 256 MiB buffer
 * is then written by 128 page faults rather than 65536. For the simulated
 * device's memory and the inputs of lecture sizes. */
void sim_huge_pages(void *p, size_t n);

/* Events kept per thread and launch when tracing: lab_trace_cap() of the
 * launch's threads, the same cap as the GPU recorder in kern.h, so both
 * record the same events. Later ones are counted (seq goes on) but dropped
 * and the trace is marked truncated. */

/* Default fiber stack: 64 KiB (256 KiB in sanitizer builds, whose frames are
 * larger), below a 64 KiB guard area that catches overflows. */
#define SIM_STACK_DEFAULT (64u * 1024u)
#define SIM_STACK_MIN (16u * 1024u)
#define SIM_STACK_MAX (64u * 1024u * 1024u)

/* 1 while the launch in progress records a trace (job->trace was set);
 * 0 outside launches. */
int sim_tracing(void);

/* Record one event of the running thread (kern.h's TRACE_* macros call it).
 * Does nothing when not tracing. */
void sim_trace_emit(int kind, int space, int a, int b, double v, double v2, int line);

/* The last teaching diagnostic (a failed launch, a bad copy...), or "" when
 * there was none. */
const char *sim_last_diagnostic(void);

/* What the simulator did since the last reset. */
typedef struct sim_stats {
    unsigned long long launches;    /* launches that ran (valid configurations) */
    unsigned long long blocks;      /* blocks started */
    unsigned long long threads;     /* GPU threads started */
    unsigned long long switches;    /* fiber switches */
    unsigned long long barriers;    /* block barriers completed */
    unsigned long long collectives; /* warp collectives completed */
    unsigned long long lane_blocks; /* blocks run as loops over their threads (lanes.cpp) */
    double seconds;                 /* wall time spent inside launches */
} sim_stats;
void sim_stats_get(sim_stats *out);
void sim_stats_reset(void);

/* Fiber stack size in bytes (rounded up to pages; 0: the default, or the
 * environment's GPULAB_SIM_STACK_KB). Takes effect at the next launch; 0 ok,
 * -1 when out of [SIM_STACK_MIN, SIM_STACK_MAX] or called during a launch. */
int sim_set_stack_size(size_t bytes);
size_t sim_stack_size(void);

/* Worker threads a launch's blocks may run on (0: one per core, at most
 * 32); every output is the one-worker run's. -1 when out of range or
 * called during a launch. sim_threads: the number in use. */
int sim_set_threads(int n);
int sim_threads(void);

/* Memory from the simulator's cudaMalloc: is p inside a live allocation;
 * free one (0 ok, -1 when p is not the start of a live allocation). */
int sim_owns(const void *p);
/* The allocation holding p: the call that made it ("cudaMalloc", "cudaMallocManaged", ...) and its start in
 * *base; NULL when p is in none */
const char *sim_owner(const void *p, void **base);
int sim_free(void *p);

/* Unmap the fiber stacks (they are kept between launches). */
void sim_release(void);

#ifdef __cplusplus
}
#endif
#endif
