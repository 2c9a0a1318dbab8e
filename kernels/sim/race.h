/* race.h - the race check (`set race-check on`): a checker (check.h) that
 * reads every access of a launch to global and shared memory and the syncs
 * between them, and reports each pair of accesses that CUDA's
 * happens-before does not order, grouped by their two source lines.
 *
 * What orders two accesses of different threads (race.cpp has the rules):
 * in one block, a block barrier both passed, a warp collective or
 * __syncwarp whose mask holds both lanes, a tile barrier of a tile holding
 * both; in one launch, this_grid().sync(), and a __threadfence() by the
 * writer before a store (a flag) that the reader's thread (or its block,
 * after a barrier) read; across launches, the stream order, events waited
 * for (cudaStreamWaitEvent) and the host's synchronisation. Atomics do not
 * race with atomics. A launch's blocks may run on several workers
 * (par.cpp): the reports are the one-worker run's (race.cpp). */
#ifndef GPULAB_SIM_RACE_H
#define GPULAB_SIM_RACE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The race check for the launches that follow (attached as a checker);
 * 0, or -1 when the build cannot record accesses. */
int sim_race_enable(int on);
int sim_race_enabled(void);
/* The last launch failed only because of races (its report is the
 * diagnostic): on a GPU it would have run, so the context is not broken. */
int sim_race_only(void);

/* Streams and events as the race check orders launches. A stream is named
 * by its handle (0: the default stream); blocking: it synchronises with
 * the legacy default stream. */
void sim_race_next_stream(const void *stream, int blocking);
void sim_race_event_record(const void *event, const void *stream);
void sim_race_stream_wait(const void *stream, const void *event);
void sim_race_event_sync(const void *event);
void sim_race_stream_sync(const void *stream);
void sim_race_device_sync(void);   /* also a synchronous copy on the default stream */

/* An atomic on p (any memory, __device__ variables too): after a fence
 * it releases what the fence covers; it acquires what earlier releases on
 * p covered. */
void sim_race_atomic_sync(const void *p);

/* An asynchronous barrier's phases (cuda::barrier, a pipeline's stages):
 * the running thread arrives at bar (a release of what it did before; last:
 * it completes the phase, and acquires the phase's arrivals), a
 * phase of bar completes, the running thread's wait for a phase of bar
 * returned (an acquire of the arrivals of the phases completed so far). */
void sim_race_arrive(const void *bar, int last);
void sim_race_phase(const void *bar);
void sim_race_phase_wait(const void *bar);

/* Schedules (schedule.cpp): the order threads and blocks run in. The
 * seed draws the random order; the same seed gives the same run. */
enum { SIM_SCHED_FIXED = 0, SIM_SCHED_RANDOM, SIM_SCHED_REVERSE, SIM_SCHED_ADVERSARIAL };
void sim_schedule_set(int kind, unsigned long long seed);
int sim_schedule_kind(void);
unsigned long long sim_schedule_seed(void);
int sim_schedule_parse(const char *name);   /* -1: unknown */
const char *sim_schedule_name(int kind);

/* __threadfence_block (0), __threadfence (1), __threadfence_system (2) */
void sim_threadfence(int scope);

/* A student's __device__ variable (the source pass registers each one at
 * start-up): memcheck and the race check watch its bytes like an
 * allocation's and name it. Returns 0. */
int sim_devvar_register(const void *p, size_t bytes, const char *name, int line);

#ifdef __cplusplus
}
#endif

#ifdef __cplusplus
namespace gpulab_sim {
/* check.cpp: the race groups of the launch go into the grouped report
 * before it closes */
void sim_race_flush(int stopped);
/* par.cpp and record.cpp: a launch's blocks on several workers. A block
 * that runs beside earlier ones writes what the race check is given into
 * its log (race.cpp), replayed into the check in block order. parallel:
 * the checker c is the race check, which can do that now; take: the
 * finished block's log (NULL: it checked as it went); deliver: the running
 * block became the oldest, its log so far is replayed and it checks from
 * here on; replay: a committed block's log; bytes: what a log holds. */
struct sim_race_log;
int sim_race_parallel(const void *c);
sim_race_log *sim_race_log_take(void);
void sim_race_log_deliver(void);
void sim_race_log_replay(sim_race_log *L);
void sim_race_log_free(sim_race_log *L);
size_t sim_race_log_bytes(const sim_race_log *L);
/* the running block writes its log (race.cpp) */
int sim_race_logging(void);
/* the race check's plain (check.h) for a shared element, called directly
 * by record.cpp where it is the one checker (sim_acc_plain) */
int sim_race_shared_plain(uintptr_t addr, unsigned size, int kind, uintptr_t pc);
/* par.cpp: the running block, beside earlier ones, waits until every one
 * of them has ended (not yet committed): then it may write global memory
 * and goes on writing its log (1); 0: it became the oldest instead
 * (sim_race_log_deliver: no log now), or it runs alone */
int sim_par_first(void);
/* par.cpp: a launch on several workers begins (1) or ends (0) */
void sim_race_par_launch(int on);
/* par.cpp: blocks [first, last] (those of them not yet committed, the
 * writing one excepted) may have read what block first - 1 now writes:
 * each runs again as the oldest, its results so far dropped */
void sim_par_doom(unsigned long long first, unsigned long long last);
/* schedule.cpp */
struct sim_fiber;
extern int sim_sched_kind;
sim_fiber *sim_sched_next(unsigned from);
sim_fiber *sim_sched_first(unsigned lo, unsigned hi, uint32_t mask);
/* the k-th block to run: its index in a grid of g[3] blocks, and its linear index */
void sim_sched_block(const unsigned g[3], unsigned long long k, unsigned idx[3], unsigned long long *linear);
void sim_sched_access(void);
/* the __device__ variable holding a, or NULL; the addresses they span */
struct sim_gobj;
const sim_gobj *sim_devvar_lookup(uintptr_t a);
void sim_devvar_span(uintptr_t *lo, uintptr_t *hi);
}
#endif

#endif
