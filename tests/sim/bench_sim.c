/* bench_sim.c - how fast the simulator plays a grid.
 *
 *   bench_sim [n] [block]
 *
 * Runs the lecture's first reduction (one element per thread, an interleaved
 * tree in shared memory with a __syncthreads per step, one atomicAdd per
 * block) over n ints (default 2^20, block 256), checks the sum, and prints
 * the time, the blocks run as lane loops (the kernel's form from the build's
 * source pass; GPULAB_SIM_LANES=0 turns it off), the fiber switches and
 * switches per second. Exit status 1 when the sum is wrong. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernels/family.h"
#include "kernels/sim/sim.h"
#include "tests/sim/simtest.h"

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* seconds: wall time of the launch; cpu: CPU time of the process meanwhile
 * (the fairer number on a busy machine) */
static int reduce(long long n, int block, double *seconds, double *cpu, sim_stats *st)
{
    int *in = malloc((size_t)n * sizeof(int));
    if (!in) return -1;
    long long want = 0, got = 0;
    for (long long i = 0; i < n; i++) {
        in[i] = (int)(i % 201) - 100;
        want += in[i];
    }
    lab_config cfg;
    lab_config_defaults(&cfg);
    cfg.repeats = 1;
    if (n > cfg.sim_limit) cfg.sim_limit = n; /* a benchmark past the default limit (2^24: 16 Mi threads) */
    lab_job *job = calloc(1, sizeof *job);
    job->cfg = &cfg;
    job->backend = LAB_BACKEND_SIM;
    job->n = n;
    job->block = block;
    job->in = in;
    job->out = &got;
    sim_stats a;
    sim_stats_get(&a);
    double c0 = cpu_now();
    int rc = simtest_reduce_sim(job);
    *cpu = cpu_now() - c0;
    sim_stats_get(st);
    st->launches -= a.launches;
    st->blocks -= a.blocks;
    st->threads -= a.threads;
    st->switches -= a.switches;
    st->barriers -= a.barriers;
    st->collectives -= a.collectives;
    st->lane_blocks -= a.lane_blocks;
    st->seconds -= a.seconds;
    *seconds = job->nsamples ? job->samples[0] / 1e3 : st->seconds;
    if (rc != 0) fprintf(stderr, "bench_sim: %s\n", job->err);
    lab_job_free_allocs(job);
    free(job);
    free(in);
    if (rc == 0 && got != want) {
        fprintf(stderr, "bench_sim: sum %lld, expected %lld\n", got, want);
        return -1;
    }
    return rc;
}

int main(int argc, char **argv)
{
    long long n = argc > 1 ? atoll(argv[1]) : 1ll << 20;
    int block = argc > 2 ? atoi(argv[2]) : 256;
    if (n < 1 || block < 1 || block > 1024 || (block & (block - 1))) {
        fprintf(stderr, "usage: bench_sim [n] [block: a power of two up to 1024]\n");
        return 2;
    }
    double s, cpu;
    sim_stats st;
    /* a small warm-up maps the fiber stacks */
    if (reduce(4096, block, &s, &cpu, &st) != 0) return 1;
    if (reduce(n, block, &s, &cpu, &st) != 0) return 1;
    printf("reduce n=%lld block=%d: %.3f s wall, %.3f s CPU; %llu threads, %llu blocks (%llu as lane loops), "
           "%llu barriers, %llu fiber switches: %.2f M switches per CPU second, %.2f M threads per CPU second\n",
           n, block, s, cpu, st.threads, st.blocks, st.lane_blocks, st.barriers, st.switches,
           st.switches / cpu / 1e6, st.threads / cpu / 1e6);
    fflush(stdout);
    return 0;
}
