/* profile.h - memory counters of a run on the simulator, under Nsight
 * Compute's names, and the estimated GPU time they imply.
 *
 * The counters are a reader of the access recording (sim/record.h): start a
 * session, run the variant on the simulator, stop it; every launch of the
 * run is counted. Launches of the same kernel with the same shape are added
 * up in one group (bitonic's 300 launches of one kernel are one row).
 *
 * Definitions (docs/profile.md says more):
 *   request     one warp's execution of one access site (an instruction)
 *   sector      a 32-byte aligned piece of memory; a global request costs
 *               the distinct sectors its active lanes touch
 *   ideal       the fewest sectors (wavefronts) the same number of lanes
 *               could need at that access width: ceil(lanes * width / 32)
 *               (shared: / 128)
 *   wavefront   one pass of the shared-memory pipeline: 32 banks of 4 bytes;
 *               lanes reading the same word share it, lanes hitting other
 *               words of one bank need more passes (bank conflicts). Wider
 *               accesses go in phases of 128 bytes (8-byte: half warps,
 *               16-byte: quarter warps)
 *   conflicts   wavefronts beyond the ideal
 *   bytes       distinct sectors read and written by a launch, x 32: the
 *               traffic to DRAM when nothing stays in the caches between
 *               launches */
#ifndef GPULAB_PROFILE_H
#define GPULAB_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/lab.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { PROF_LD = 0, PROF_ST = 1, PROF_ATOM = 2, PROF_NKINDS = 3 };
enum { PROF_GLOBAL = 0, PROF_SHARED = 1, PROF_NSPACES = 2 };

/* The counts of one kind of access in one space. For global memory "units"
 * are sectors, for shared memory wavefronts. */
typedef struct prof_mem {
    unsigned long long requests;
    unsigned long long units;
    unsigned long long ideal;    /* the fewest units the same lanes could need */
    unsigned long long lanes;    /* active lanes summed over the requests */
    unsigned width;              /* the widest access, bytes per lane */
} prof_mem;

typedef struct prof_counts {
    char kernel[LAB_NAME_MAX];
    unsigned grid[3], block[3];
    size_t dynamic_smem;
    int launches;
    prof_mem mem[PROF_NSPACES][PROF_NKINDS];
    unsigned long long atom_same_max;  /* most lanes of one atomic request on one address */
    unsigned long long atom_addr_max;  /* most atomics on one address in one launch */
    double atom_ns;                    /* each launch's busiest 128-byte line's atomic time, summed */
    unsigned long long barriers;       /* warp-level barrier instructions: barriers x warps */
    unsigned long long warp_req_max;   /* most memory requests (any space, any kind) of one warp in one launch */
    unsigned long long warp_gld_max;   /* most global load requests of one warp in one launch */
    unsigned long long block_conflict_max; /* most shared wavefronts beyond the ideal (bank conflicts)
                                              of one block in one launch */
    unsigned long long read_bytes, write_bytes; /* distinct sectors x 32, summed over launches */
    double seconds;                    /* simulator wall time of these launches */
} prof_counts;

/* One access site of one group, for the sentences. */
typedef struct prof_site {
    int group;                   /* index into groups */
    uintptr_t site;
    int kind, space;
    unsigned width;
    prof_mem m;
    unsigned long long same_max; /* atomics: most lanes on one address in one request */
} prof_site;

typedef struct prof_session {
    prof_counts *groups;
    int ngroups;
    prof_counts total;           /* every launch; kernel "total" */
    prof_site *sites;
    int nsites;
    int failed;                  /* a launch failed, or memory ran out: counts are partial */
    void *impl;
} prof_session;

/* 1 when the simulator can record (the build has the instrumentation). */
int prof_available(void);
/* Start counting the simulator's launches. 0, or -1 with msg. */
int prof_begin(prof_session *s, char *msg, size_t msglen);
/* Stop counting; the counts stay in s until prof_free. */
void prof_end(prof_session *s);
void prof_free(prof_session *s);

/* Where site is in the source: "reduce.cu:41", or "" when unknown. */
void prof_site_where(const prof_site *site, char *buf, size_t len);

/* ------------------------------------------------------------ estimate */

/* What the variant says about its arithmetic, for compute-bound rows and the
 * arithmetic intensity; 0 / NULL when it does not count it. */
typedef struct prof_work {
    double ops;                  /* operations of one run */
    const char *unit;            /* "flop" or "iteration" */
    lab_dtype dtype;             /* the element type, to find the kernels' registers;
                                    LAB_NDTYPES when unknown */
} prof_work;

/* The estimated GPU time, and its parts, in milliseconds. The model (each
 * term and the source of each constant: docs/profile.md), per launch:
 *   launch    PROF_LAUNCH_US per launch, PROF_RUN_US per timed run
 *   dram      the distinct sectors at PROF_DRAM_EFFICIENCY of the model's
 *             bandwidth, plus the sectors requested beyond the ideal at
 *             PROF_EXCESS_FACTOR of it
 *   latency   the waves of resident blocks (occupancy calculator, the
 *             compiler's registers) times the busiest warp's chain: each of
 *             its global loads waits PROF_DRAM_LATENCY_NS, each other memory
 *             request PROF_DEP_CYCLES, each barrier PROF_BARRIER_CYCLES; and
 *             the busiest block's bank-conflict replays (wavefronts beyond
 *             the ideal), one per clock through its SM's shared pipe, which
 *             its warps wait for at the next barrier
 *   shared    wavefronts at one per SM and clock, on the busiest SM
 *   issue     warp instructions counted (memory requests, barriers) at
 *             PROF_ISSUE_PER_CLOCK per SM and clock, on the busiest SM
 *   blocks    PROF_BLOCK_NS per block an SM starts
 *   atomics   the L2 does the global atomics on one 128-byte line one
 *             request after another: a request's part in a line costs
 *             PROF_ATOMIC_NS per lane on its busiest address (same-address
 *             lanes go one after another), and a part on several addresses
 *             at least PROF_ATOMIC_TX_NS; each launch's busiest line
 *   compute   arithmetic at the FP32 lanes' rate, where the variant counts
 *             it (an iteration costs PROF_ITER_INSTR instructions, a flop half
 *             an FMA)
 * The launch's body is the largest of dram, latency, shared, issue and
 * blocks (they overlap); launch overhead and atomics add; compute overlaps
 * the body of the whole run. */
typedef struct prof_estimate {
    double ms;
    double launch_ms, dram_ms, excess_ms, latency_ms, shared_ms, issue_ms, block_ms, atomic_ms, compute_ms;
    const char *bound;           /* "launch", "dram", "excess sectors", "latency", "shared", "issue",
                                    "blocks", "atomics", "compute" */
} prof_estimate;

/* The host's part of a timed region that copies values back and adds them
 * there (a family's check() leaves it in lab_result.est_ms): PROF_HOST_VALUE_NS
 * each, calibrated on distance/g on the H200 (docs/profile.md). */
double prof_host_ms(double values);

#define PROF_LAUNCH_US 4.0
#define PROF_RUN_US 1.8
#define PROF_DRAM_EFFICIENCY 0.86
#define PROF_EXCESS_FACTOR 0.45
#define PROF_ATOMIC_NS 0.73
#define PROF_ATOMIC_TX_NS 7.0
#define PROF_ITER_INSTR 8.0
#define PROF_CLOCK_GHZ 1.98 /* the H200 SXM's maximum SM clock (nvidia-smi clocks.max.sm: 1980 MHz) */
#define PROF_DRAM_LATENCY_NS 343.0
#define PROF_DEP_CYCLES 4.5
#define PROF_BARRIER_CYCLES 77.0
#define PROF_ISSUE_PER_CLOCK 4.0
#define PROF_BLOCK_NS 79.0
#define PROF_HOST_VALUE_NS 3.5

void prof_estimate_counts(const prof_counts *c, const occ_model *m, const prof_work *w, prof_estimate *out);
/* The whole session: the sum over its groups (w counts for the whole run). */
void prof_estimate_session(const prof_session *s, const occ_model *m, const prof_work *w, prof_estimate *out);

/* ------------------------------------------------------------- metrics */

/* A counter as Nsight Compute names it, and how to read it from prof_counts. */
typedef struct prof_metric {
    const char *ncu;             /* "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"; a name
                                    without "__" is the simulator's own (no ncu metric) */
    const char *label;           /* plain words for the screen */
    int space, kind;             /* which prof_mem; -1 for the others */
    int field;                   /* PROF_F_* */
} prof_metric;

enum {
    PROF_F_REQUESTS = 0, PROF_F_UNITS, PROF_F_CONFLICTS, PROF_F_ATOM_SAME, PROF_F_BARRIERS,
    PROF_F_READ_BYTES, PROF_F_WRITE_BYTES
};

int prof_metric_count(void);
const prof_metric *prof_metric_at(int i);
double prof_metric_value(const prof_counts *c, const prof_metric *m);

#ifdef __cplusplus
}
#endif
#endif
