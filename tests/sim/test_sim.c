/* test_sim.c - the simulator through its test kernels (simtest_kernels.cu):
 * indices, shared memory, barriers, atomics, cooperative groups, warp
 * collectives against CUDA's documented results, traces, determinism, and
 * every diagnostic it gives for a broken kernel.
 *
 *   test_sim core|diag|warp|trace     one group; no argument: all */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/family.h"
#include "kernels/sim/sim.h"
#include "tests/sim/simtest.h"

/* ---------------------------------------------------------------- helpers */

static lab_config cfg;
static lab_job job;
static char err[LAB_ERR_MAX];

/* Run one entry point on the simulator the way the harness would. */
static int run(lab_fn fn, simtest_params *p, void *out, size_t out_bytes, int race, lab_trace *tr)
{
    lab_config_defaults(&cfg);
    cfg.race_check = race;
    memset(&job, 0, sizeof job);
    job.cfg = &cfg;
    job.backend = LAB_BACKEND_SIM;
    job.priv = p;
    job.out = out;
    job.out_bytes = out_bytes;
    job.trace = tr;
    int rc = fn(&job);
    snprintf(err, sizeof err, "%s", job.err);
    lab_job_free_allocs(&job);
    return rc;
}

static int run_diag(int which, int arg, int race)
{
    static simtest_params p;
    static int out[1024];
    memset(&p, 0, sizeof p);
    p.which = which;
    p.arg = arg;
    return run(simtest_diag_sim, &p, out, sizeof out, race, NULL);
}

/* The line of the "@name" marker in the kernels' source. */
static int marker(const char *name)
{
    FILE *f = fopen(SIMTEST_SRC, "r");
    if (!f) fail_msg("cannot read %s", SIMTEST_SRC);
    char line[512], tag[64];
    snprintf(tag, sizeof tag, "@%s", name);
    int n = 0, found = 0;
    while (fgets(line, sizeof line, f)) {
        n++;
        char *s = strstr(line, tag);
        if (s) {
            char c = s[strlen(tag)];
            if (c == '\n' || c == ' ' || c == 0 || c == '\r') {
                found = n;
                break;
            }
        }
    }
    fclose(f);
    if (!found) fail_msg("no marker %s in %s", tag, SIMTEST_SRC);
    return found;
}

#define EXPECT_IN(hay, ...)                                                              \
    do {                                                                                 \
        char needle_[512];                                                               \
        snprintf(needle_, sizeof needle_, __VA_ARGS__);                                  \
        if (!strstr((hay), needle_)) fail_msg("expected\n  %s\nin\n  %s", needle_, (hay)); \
    } while (0)

#define EXPECT_NOT_IN(hay, needle)                                                       \
    do {                                                                                 \
        if (strstr((hay), (needle))) fail_msg("did not expect\n  %s\nin\n  %s", (needle), (hay)); \
    } while (0)

/* ------------------------------------------------------------------ core */

static void check_index(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz)
{
    simtest_params p;
    memset(&p, 0, sizeof p);
    p.grid[0] = gx; p.grid[1] = gy; p.grid[2] = gz;
    p.block[0] = bx; p.block[1] = by; p.block[2] = bz;
    size_t nthr = (size_t)bx * by * bz, total = (size_t)gx * gy * gz * nthr;
    int *out = calloc(total * 13, sizeof(int));
    assert_non_null(out);
    assert_int_equal(run(simtest_index_sim, &p, out, total * 13 * sizeof(int), 0, NULL), 0);
    for (unsigned z = 0; z < gz; z++)
        for (unsigned y = 0; y < gy; y++)
            for (unsigned x = 0; x < gx; x++)
                for (unsigned tz = 0; tz < bz; tz++)
                    for (unsigned ty = 0; ty < by; ty++)
                        for (unsigned tx = 0; tx < bx; tx++) {
                            size_t b = x + gx * (y + (size_t)gy * z), t = tx + bx * (ty + (size_t)by * tz);
                            const int *o = out + (b * nthr + t) * 13;
                            int want[13] = {(int)tx, (int)ty, (int)tz, (int)x,  (int)y,  (int)z, (int)bx,
                                            (int)by, (int)bz, (int)gx, (int)gy, (int)gz, 32};
                            for (int k = 0; k < 13; k++)
                                if (o[k] != want[k])
                                    fail_msg("block (%u,%u,%u) thread (%u,%u,%u): field %d is %d, not %d", x, y, z,
                                             tx, ty, tz, k, o[k], want[k]);
                        }
    free(out);
}

static void test_index_1d(void **state)
{
    (void)state;
    check_index(5, 1, 1, 96, 1, 1);
    check_index(1, 1, 1, 1024, 1, 1);
    check_index(3, 1, 1, 33, 1, 1); /* a partial last warp */
}

static void test_index_2d(void **state)
{
    (void)state;
    check_index(3, 2, 1, 16, 8, 1);
    check_index(2, 3, 1, 5, 7, 1);
}

static void test_index_3d(void **state)
{
    (void)state;
    check_index(2, 2, 2, 4, 4, 4);
    check_index(3, 1, 2, 8, 2, 3);
}

/* Unwritten shared memory reads as the poison, in every block: shared memory
 * lives as long as its block. */
static void test_shared_poison(void **state)
{
    (void)state;
    unsigned out[15];
    assert_int_equal(run(simtest_poison_sim, NULL, out, sizeof out, 0, NULL), 0);
    for (unsigned b = 0; b < 3; b++) {
        assert_int_equal(out[b * 5 + 0], 0xCDCDCDCDu);
        assert_int_equal(out[b * 5 + 1], 0xCDCDCDCDu);
        assert_int_equal(out[b * 5 + 2], 0xCDCDCDCDu);
        assert_int_equal(out[b * 5 + 3], b * 1000 + 63);
        assert_int_equal(out[b * 5 + 4], b + 1);
    }
    assert_int_equal(SIM_POISON_SHARED, 0xCD);
}

static void test_barrier_counting(void **state)
{
    (void)state;
    const int n = 192;
    int out[5 * 192];
    sim_stats s0, s1;
    sim_stats_get(&s0);
    assert_int_equal(run(simtest_barrier_sim, NULL, out, sizeof out, 0, NULL), 0);
    sim_stats_get(&s1);
    int threes = 0;
    for (int t = 0; t < n; t++) threes += t % 3 == 0;
    for (int t = 0; t < n; t++) {
        assert_int_equal(out[t], 2 * ((t + 1) % n));
        assert_int_equal(out[n + t], threes);
        assert_int_equal(out[2 * n + t], 1);
        assert_int_equal(out[3 * n + t], 1);
        assert_int_equal(out[4 * n + t], 0);
    }
    assert_int_equal(s1.barriers - s0.barriers, 5);
    assert_int_equal(s1.launches - s0.launches, 1);
    assert_int_equal(s1.threads - s0.threads, n);
}

static void check_atomics(int race)
{
    simtest_atomics_out o;
    memset(&o, 0, sizeof o);
    assert_int_equal(run(simtest_atomics_sim, NULL, &o, sizeof o, race, NULL), 0);
    if (race) assert_string_equal(err, "");
    assert_int_equal(o.i_add, 32640);
    assert_int_equal(o.i_sub, -256);
    assert_int_equal(o.i_min, 745);
    assert_int_equal(o.i_max, 155);
    assert_int_equal(o.exch_old_sum + o.i_exch, 32640);
    assert_int_equal(o.i_cas, 32640);
    assert_int_equal((unsigned)o.i_and, 0x80000000u);
    assert_int_equal(o.i_or, 0x7fffffff);
    assert_int_equal(o.i_xor, 0);
    assert_int_equal(o.u_add, 32640u);
    assert_int_equal(o.u_sub, 0u - 512u);
    assert_int_equal(o.u_min, 4745u);
    assert_int_equal(o.u_max, 765u);
    assert_int_equal(o.u_exch, 42u);
    assert_int_equal(o.u_inc, 56u);
    assert_int_equal(o.u_dec, 44u);
    assert_int_equal(o.u_cas, 512u);
    assert_int_equal(o.u_and, 0u);
    assert_int_equal(o.u_or, 0xffffffffu);
    assert_int_equal(o.u_xor, 0u);
    assert_true(o.ull_add == 256ull * (1ull << 33) + 32640ull);
    assert_true(o.ull_min == 1000000000000ull - 255ull);
    assert_true(o.ull_max == 255ull << 40);
    assert_true(o.ull_exch == 0x123456789ull);
    assert_true(o.ull_cas == 256ull << 32);
    assert_true(o.ull_and == 0ull);
    assert_true(o.ull_or == ~0ull);
    assert_true(o.ull_xor == 0ull);
    assert_true(o.ll_min == -255000000000ll);
    assert_true(o.ll_max == 255000000000ll);
    assert_true(o.f_add == 128.0f);
    assert_true(o.f_exch == 2.5f);
    assert_true(o.d_add == 64.0);
    assert_int_equal(o.us_cas, 256);
    assert_int_equal(o.sh_add, 512);
    assert_int_equal(o.sh_sub, 144);
    assert_int_equal(o.sh_max, 255u);
    assert_int_equal(o.sh_min, 0u);
    assert_int_equal(o.sh_or, 0xffffffffu);
    assert_true(o.sh_fadd == 256.0f);
    assert_true(o.sh_dadd == 128.0);
}

static void test_atomics(void **state)
{
    (void)state;
    check_atomics(0);
    check_atomics(1); /* atomics never race with each other */
}

static void test_cooperative_groups(void **state)
{
    (void)state;
    int in[64], out[64 * 8];
    for (int i = 0; i < 64; i++) in[i] = (i * 37) % 101;
    assert_int_equal(run(simtest_cg_sim, NULL, out, sizeof out, 1, NULL), 0);
    for (int t = 0; t < 64; t++) {
        const int *o = out + t * 8;
        int w0 = t & ~31, e0 = t & ~7, s0 = t & ~15, sum32 = 0, sum8 = 0, sum16 = 0;
        unsigned bits = 0;
        for (int k = 0; k < 32; k++) sum32 += in[w0 + k];
        for (int k = 0; k < 8; k++) {
            sum8 += in[e0 + k];
            if (in[e0 + k] % 2) bits |= 1u << k;
        }
        for (int k = 0; k < 16; k++) sum16 += in[s0 + k];
        if (t % 32 == 0) assert_int_equal(o[0], sum32);
        if (t % 8 == 0) assert_int_equal(o[1], sum8);
        assert_int_equal(o[2], sum16);
        assert_int_equal(o[3], t % 32);
        assert_int_equal(o[4], t / 8);
        assert_int_equal((unsigned)o[5], bits);
        assert_int_equal(o[6], in[w0 + 3]);
        assert_int_equal(o[7], (t >= 32 ? 1 : 0) + 2 + 4 * 64);
    }
}

static void check_reduce(long long n, int block)
{
    int *in = malloc((size_t)n * sizeof(int));
    assert_non_null(in);
    long long want = 0;
    for (long long i = 0; i < n; i++) {
        in[i] = (int)(i % 7) - 3 + (int)(i % 1000) * 1000;
        want += in[i];
    }
    long long got = 0;
    lab_config_defaults(&cfg);
    memset(&job, 0, sizeof job);
    job.cfg = &cfg;
    job.backend = LAB_BACKEND_SIM;
    job.n = n;
    job.block = block;
    job.in = in;
    job.out = &got;
    int rc = simtest_reduce_sim(&job);
    lab_job_free_allocs(&job);
    if (rc != 0) fail_msg("%s", job.err);
    if (got != want) fail_msg("n %lld block %d: sum %lld, not %lld", n, block, got, want);
    free(in);
}

static void test_reduce_sizes(void **state)
{
    (void)state;
    check_reduce(1, 256);
    check_reduce(255, 256);
    check_reduce(1000, 128);
    check_reduce(65539, 256);
    check_reduce(5000, 1024);
    check_reduce(777, 32);
}

/* A failed launch leaves the simulator ready for the next one. */
static void test_recovers_after_failure(void **state)
{
    (void)state;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(run_diag(SIMTEST_OOB, 0, 0), -1);
        assert_int_equal(run_diag(SIMTEST_WARP_SPLIT, 0, 0), -1);
        assert_int_equal(run_diag(SIMTEST_EARLY_EXIT, 100, 0), -1);
        assert_int_equal(run_diag(SIMTEST_RACE, 0, 1), -1);
        unsigned out[15];
        assert_int_equal(run(simtest_poison_sim, NULL, out, sizeof out, 0, NULL), 0);
        assert_int_equal(out[3], 63u);
        check_reduce(3000, 256);
    }
}

/* ------------------------------------------------------------ diagnostics */

static void test_diag_two_barriers(void **state)
{
    (void)state;
    assert_int_equal(run_diag(SIMTEST_TWO_BARRIERS, 0, 0), -1);
    EXPECT_IN(err,
              "two_barriers_k: block 0: threads 0-127 wait at __syncthreads (line %d) while threads 128-255 wait "
              "at line %d: every thread of a block must reach the same barrier",
              marker("bar_a"), marker("bar_b"));
    assert_string_equal(sim_last_diagnostic(), err);
}

static void test_diag_early_exit(void **state)
{
    (void)state;
    assert_int_equal(run_diag(SIMTEST_EARLY_EXIT, 100, 0), -1);
    EXPECT_IN(err,
              "early_exit_k: block 0: threads 0-99 wait at __syncthreads (line %d) but threads 100-255 have "
              "already exited: every thread of a block must reach each barrier",
              marker("bar_exit"));
    /* everyone reaches it: fine */
    assert_int_equal(run_diag(SIMTEST_EARLY_EXIT, 256, 0), 0);
}

static void test_diag_warp_exit(void **state)
{
    (void)state;
    assert_int_equal(run_diag(SIMTEST_WARP_EXIT, 0, 0), -1);
    EXPECT_IN(err,
              "warp_exit_k: block 0, warp 0: lanes 0-15 (threads 0-15) wait at __shfl_down_sync (line %d, mask "
              "0xffffffff) but lanes 16-31 have already exited: every lane named in the mask must reach the same "
              "__shfl_down_sync",
              marker("shfl_exit"));
}

static void test_diag_warp_split(void **state)
{
    (void)state;
    assert_int_equal(run_diag(SIMTEST_WARP_SPLIT, 0, 0), -1);
    EXPECT_IN(err,
              "warp_split_k: block 0, warp 0: lanes 0-15 (threads 0-15) wait at __shfl_xor_sync (line %d, mask "
              "0xffffffff) but lanes 16-31 wait at __shfl_xor_sync (line %d)",
              marker("shfl_a"), marker("shfl_b"));
}

static void test_diag_warp_barrier(void **state)
{
    (void)state;
    assert_int_equal(run_diag(SIMTEST_WARP_BARRIER, 0, 0), -1);
    EXPECT_IN(err,
              "warp_barrier_k: block 0, warp 0: lanes 0-15 (threads 0-15) wait at __shfl_sync (line %d, mask "
              "0xffffffff) but lanes 16-31 wait at __syncthreads (line %d)",
              marker("shfl_c"), marker("bar_c"));
}

static void test_diag_mask_self(void **state)
{
    (void)state;
    assert_int_equal(run_diag(SIMTEST_MASK_SELF, 0, 0), -1);
    EXPECT_IN(err,
              "mask_self_k: block 0, thread 3 (warp 0, lane 3) calls __shfl_sync (line %d) with mask 0x0000fff0, "
              "which leaves out its own lane",
              marker("mask_self"));
}

static void test_diag_width(void **state)
{
    (void)state;
    assert_int_equal(run_diag(SIMTEST_WIDTH, 0, 0), -1);
    EXPECT_IN(err,
              "width_k: block 0, thread 0 calls __shfl_down_sync (line %d) with width 12: the width must be a power "
              "of two from 1 to 32",
              marker("width"));
}

static void test_diag_oob(void **state)
{
    (void)state;
    assert_int_equal(run_diag(SIMTEST_OOB, 0, 0), -1);
    EXPECT_IN(err,
              "oob_k: block 0, thread 255: index 256 is outside shared array buf[256] (declared at line %d); valid "
              "indices are 0 to 255",
              marker("decl_oob"));
    assert_int_equal(run_diag(SIMTEST_OOB2, 0, 0), -1);
    EXPECT_IN(err,
              "oob2_k: block 0, thread 23 (x 7, y 2, z 0): index [2][8] is outside shared array tile[8][8] "
              "(declared at line %d); valid columns are 0 to 7",
              marker("decl_oob2"));
    assert_int_equal(run_diag(SIMTEST_OOB_DYN, 0, 0), -1);
    EXPECT_IN(err,
              "oob_dyn_k: block 0, thread 60: index 60 is outside the dynamic shared array dyn (declared at line "
              "%d), which holds 60 elements: the launch gave 240 bytes of dynamic shared memory",
              marker("decl_dyn"));
}

static void test_diag_race(void **state)
{
    (void)state;
    assert_int_equal(run_diag(SIMTEST_RACE, 0, 1), -1);
    EXPECT_IN(err,
              "race_k: block 0: data race on shared array cells (declared at line %d), element 1: thread 0 reads it "
              "and thread 1 writes it, between the barrier at line %d and the barrier at line %d with no barrier "
              "in between",
              marker("decl_race"), marker("race_open"), marker("race_close"));
    /* without race-check mode the same kernel runs (with its wrong answer) */
    assert_int_equal(run_diag(SIMTEST_RACE, 0, 0), 0);
    assert_string_equal(err, "");
}

static void test_diag_warp_race(void **state)
{
    (void)state;
    assert_int_equal(run_diag(SIMTEST_WARP_RACE, 0, 1), -1);
    EXPECT_IN(err,
              "warp_race_k: block 0: data race on shared array w (declared at line %d), element 1: thread 0 reads "
              "it and thread 1 writes it, between the start of the kernel and the end of the kernel",
              marker("decl_warp_race"));
    EXPECT_IN(err, "both in warp 0");
}

static void test_diag_atomic_race(void **state)
{
    (void)state;
    assert_int_equal(run_diag(SIMTEST_SHARED_ATOMIC, 1, 1), -1);
    EXPECT_IN(err,
              "shared_atomic_k: block 0: data race on shared array bins (declared at line %d), element 0: thread 0 "
              "reads it and thread 8 atomically updates it",
              marker("decl_bins"));
}

/* Race-free kernels give no report in race-check mode. */
static void test_race_free(void **state)
{
    (void)state;
    static simtest_params p;
    static int out[1024];
    memset(&p, 0, sizeof p);
    p.which = SIMTEST_RACE;
    p.arg = 1;
    assert_int_equal(run(simtest_diag_sim, &p, out, sizeof out, 1, NULL), 0);
    for (int t = 0; t < 64; t++) assert_int_equal(out[t], (t + 1) % 64);
    p.which = SIMTEST_WARP_RACE;
    assert_int_equal(run(simtest_diag_sim, &p, out, sizeof out, 1, NULL), 0);
    for (int t = 0; t < 32; t++) assert_int_equal(out[t], t ^ 1);
    p.which = SIMTEST_WARP_TREE;
    assert_int_equal(run(simtest_diag_sim, &p, out, sizeof out, 1, NULL), 0);
    assert_int_equal(out[0], 496);
    p.which = SIMTEST_SHARED_ATOMIC;
    p.arg = 0;
    assert_int_equal(run(simtest_diag_sim, &p, out, sizeof out, 1, NULL), 0);
    for (int t = 0; t < 8; t++) assert_int_equal(out[t], 8);
    assert_string_equal(err, "");
    /* the barrier kernel and the float sum are race-free too */
    int bout[5 * 192];
    assert_int_equal(run(simtest_barrier_sim, NULL, bout, sizeof bout, 1, NULL), 0);
}

static void test_diag_trap(void **state)
{
    (void)state;
    assert_int_equal(run_diag(SIMTEST_TRAP, 0, 0), -1);
    EXPECT_IN(err, "trap_k: block 0, thread 5 called __trap() at line %d", marker("trap"));
}

static void test_diag_stack_overflow(void **state)
{
    (void)state;
    assert_int_equal(run_diag(SIMTEST_OVERFLOW, 2000, 0), -1);
    EXPECT_IN(err, "overflow_k: block 0, thread 0 ran out of stack");
    /* a shallow call works, and the fiber is usable again */
    assert_int_equal(run_diag(SIMTEST_OVERFLOW, 3, 0), 0);
    assert_int_equal(run_diag(SIMTEST_OVERFLOW, 2000, 0), -1);
    assert_int_equal(run_diag(SIMTEST_OVERFLOW, 3, 0), 0);
}

static void test_diag_shared_too_big(void **state)
{
    (void)state;
    assert_int_equal(run_diag(SIMTEST_SMEM_TOO_BIG, 0, 0), -1);
    EXPECT_IN(err,
              "smem_big_k: block 0: shared array second (declared at line %d) needs 32768 bytes, and with the "
              "block's other shared memory (32768 bytes, 0 of them dynamic) that is more than the 49152 bytes",
              marker("decl_second"));
}

static void test_diag_cg_split(void **state)
{
    (void)state;
    assert_int_equal(run_diag(SIMTEST_CG_SPLIT, 0, 0), -1);
    EXPECT_IN(err,
              "cg_split_k: block 0: threads 0-31 wait at this_thread_block().sync() (line %d) while threads 32-63 "
              "wait at __syncthreads (line %d)",
              marker("cg_sync"), marker("cg_bar"));
}

static int launch_cfg(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                      unsigned smem)
{
    simtest_params p;
    memset(&p, 0, sizeof p);
    p.grid[0] = gx; p.grid[1] = gy; p.grid[2] = gz;
    p.block[0] = bx; p.block[1] = by; p.block[2] = bz;
    p.smem = smem;
    int out = 0;
    int rc = run(simtest_launch_sim, &p, &out, sizeof out, 0, NULL);
    if (rc == 0) assert_int_equal(out, 7);
    return rc;
}

/* LAUNCH refuses shapes no GPU runs (the harness checks them against the GPU
 * model first; sim_launch checks again, see test_sim_shim). */
static void test_launch_validation(void **state)
{
    (void)state;
    assert_int_equal(launch_cfg(1, 1, 1, 1024, 1, 1, 0), 0);
    assert_int_equal(launch_cfg(2, 3, 4, 8, 8, 16, 49152), 0);
    static const unsigned bad[][7] = {
        {1, 1, 1, 1025, 1, 1, 0}, {1, 1, 1, 32, 32, 2, 0}, {1, 1, 1, 1, 1, 65, 0}, {0, 1, 1, 32, 1, 1, 0},
        {1, 1, 1, 0, 1, 1, 0},    {1, 65536, 1, 32, 1, 1, 0}, {1, 1, 1, 32, 1, 1, 49153},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const unsigned *c = bad[i];
        assert_int_equal(launch_cfg(c[0], c[1], c[2], c[3], c[4], c[5], c[6]), -1);
        EXPECT_IN(err, "empty_k");
    }
}

/* ------------------------------------------------------ warp collectives */

static unsigned wout[128];

static void warp_run(int op, unsigned block, unsigned mask, unsigned active, int arg, int width, const int *in)
{
    static simtest_params p;
    memset(&p, 0, sizeof p);
    p.op = op;
    p.block[0] = block;
    p.block[1] = p.block[2] = 1;
    p.mask = mask;
    p.active = active;
    p.lane_arg = arg;
    p.width = width;
    for (int i = 0; i < 64; i++) p.in[i] = in ? in[i] : i * 10;
    int rc = run(simtest_warp_op_sim, &p, wout, sizeof wout, 0, NULL);
    if (rc != 0) fail_msg("%s", err);
}

static void expect_lanes(const unsigned *want, int n, const char *what)
{
    for (int i = 0; i < n; i++)
        if (wout[i] != want[i]) fail_msg("%s: thread %d got %u (0x%x), CUDA gives %u", what, i, wout[i], wout[i], want[i]);
}

#define U SIMTEST_UNSET
#define FULL 0xffffffffu

static void test_shfl_table(void **state)
{
    (void)state;
    /* in[lane] = 10 * lane throughout */
    static const unsigned up1_w32[32] = {0,   0,   10,  20,  30,  40,  50,  60,  70,  80,  90,
                                         100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 200,
                                         210, 220, 230, 240, 250, 260, 270, 280, 290, 300};
    warp_run(SIMTEST_SHFL_UP, 32, FULL, FULL, 1, 32, NULL);
    expect_lanes(up1_w32, 32, "__shfl_up_sync(delta 1, width 32)");

    /* width 8: the first 3 lanes of each segment keep their own value */
    static const unsigned up3_w8[32] = {0,   10,  20,  0,   10,  20,  30,  40,  80,  90,  100,
                                        80,  90,  100, 110, 120, 160, 170, 180, 160, 170, 180,
                                        190, 200, 240, 250, 260, 240, 250, 260, 270, 280};
    warp_run(SIMTEST_SHFL_UP, 32, FULL, FULL, 3, 8, NULL);
    expect_lanes(up3_w8, 32, "__shfl_up_sync(delta 3, width 8)");

    /* width 16: the last 4 lanes of each segment keep their own value */
    static const unsigned down4_w16[32] = {40,  50,  60,  70,  80,  90,  100, 110, 120, 130, 140,
                                           150, 120, 130, 140, 150, 200, 210, 220, 230, 240, 250,
                                           260, 270, 280, 290, 300, 310, 280, 290, 300, 310};
    warp_run(SIMTEST_SHFL_DOWN, 32, FULL, FULL, 4, 16, NULL);
    expect_lanes(down4_w16, 32, "__shfl_down_sync(delta 4, width 16)");

    /* edge deltas: 31 reaches from lane 0 to lane 31 only; 0 and 32 move nothing */
    unsigned want[64];
    for (int l = 0; l < 32; l++) want[l] = l == 0 ? 310 : 10u * l;
    warp_run(SIMTEST_SHFL_DOWN, 32, FULL, FULL, 31, 32, NULL);
    expect_lanes(want, 32, "__shfl_down_sync(delta 31)");
    for (int l = 0; l < 32; l++) want[l] = 10u * l;
    warp_run(SIMTEST_SHFL_DOWN, 32, FULL, FULL, 32, 32, NULL);
    expect_lanes(want, 32, "__shfl_down_sync(delta 32)");
    warp_run(SIMTEST_SHFL_UP, 32, FULL, FULL, 0, 32, NULL);
    expect_lanes(want, 32, "__shfl_up_sync(delta 0)");
    warp_run(SIMTEST_SHFL_UP, 32, FULL, FULL, 32, 32, NULL);
    expect_lanes(want, 32, "__shfl_up_sync(delta 32)");

    /* xor: butterflies; with width 8, lanes may read earlier segments only */
    for (int l = 0; l < 32; l++) want[l] = 10u * (l ^ 1);
    warp_run(SIMTEST_SHFL_XOR, 32, FULL, FULL, 1, 32, NULL);
    expect_lanes(want, 32, "__shfl_xor_sync(1, width 32)");
    static const unsigned xor8_w8[32] = {0,   10,  20,  30,  40,  50,  60,  70,  0,   10,  20,
                                         30,  40,  50,  60,  70,  160, 170, 180, 190, 200, 210,
                                         220, 230, 160, 170, 180, 190, 200, 210, 220, 230};
    warp_run(SIMTEST_SHFL_XOR, 32, FULL, FULL, 8, 8, NULL);
    expect_lanes(xor8_w8, 32, "__shfl_xor_sync(8, width 8)");
    for (int l = 0; l < 32; l++) want[l] = l < 16 ? 10u * l : 10u * (l - 16);
    warp_run(SIMTEST_SHFL_XOR, 32, FULL, FULL, 16, 16, NULL);
    expect_lanes(want, 32, "__shfl_xor_sync(16, width 16)");
    for (int l = 0; l < 32; l++) want[l] = 10u * (l ^ 31);
    warp_run(SIMTEST_SHFL_XOR, 32, FULL, FULL, 31, 32, NULL);
    expect_lanes(want, 32, "__shfl_xor_sync(31)");

    /* direct: srcLane is taken modulo the width, within the caller's segment */
    for (int l = 0; l < 32; l++) want[l] = 50;
    warp_run(SIMTEST_SHFL, 32, FULL, FULL, 5, 32, NULL);
    expect_lanes(want, 32, "__shfl_sync(5)");
    for (int l = 0; l < 32; l++) want[l] = 10u * ((l & ~7) + 2);
    warp_run(SIMTEST_SHFL, 32, FULL, FULL, 10, 8, NULL);
    expect_lanes(want, 32, "__shfl_sync(10, width 8)");
    for (int l = 0; l < 32; l++) want[l] = 310;
    warp_run(SIMTEST_SHFL, 32, FULL, FULL, -1, 32, NULL);
    expect_lanes(want, 32, "__shfl_sync(-1)");
    for (int l = 0; l < 32; l++) want[l] = 10u * ((l & ~15) + 1);
    warp_run(SIMTEST_SHFL, 32, FULL, FULL, 33, 16, NULL);
    expect_lanes(want, 32, "__shfl_sync(33, width 16)");
    for (int l = 0; l < 32; l++) want[l] = 10u * l;
    warp_run(SIMTEST_SHFL, 32, FULL, FULL, 0, 1, NULL);
    expect_lanes(want, 32, "__shfl_sync(0, width 1)");

    /* other types travel whole */
    for (int l = 0; l < 32; l++) want[l] = l < 31 ? 10u * (l + 1) : 310;
    warp_run(SIMTEST_SHFL_FLOAT, 32, FULL, FULL, 1, 32, NULL);
    expect_lanes(want, 32, "__shfl_down_sync(float)");
    for (int l = 0; l < 32; l++) want[l] = 10u * (l ^ 3);
    warp_run(SIMTEST_SHFL_DOUBLE, 32, FULL, FULL, 3, 4, NULL);
    expect_lanes(want, 32, "__shfl_xor_sync(double, 3, width 4)");
}

static void test_shfl_masks(void **state)
{
    (void)state;
    unsigned want[64];
    /* half the warp takes part and reads only its own half */
    warp_run(SIMTEST_SHFL_XOR, 32, 0x0000ffffu, 0x0000ffffu, 0, 32, NULL);
    for (int l = 0; l < 32; l++) want[l] = l < 16 ? 10u * l : U;
    expect_lanes(want, 32, "__shfl_xor_sync(mask 0xffff, 0)");
    /* a source lane of the warp that the mask leaves out: undefined in CUDA,
     * so the launch stops and says which lanes */
    static simtest_params p;
    memset(&p, 0, sizeof p);
    p.op = SIMTEST_SHFL_DOWN;
    p.block[0] = 32;
    p.block[1] = p.block[2] = 1;
    p.mask = p.active = 0x0000ffffu;
    p.lane_arg = 8;
    p.width = 32;
    for (int i = 0; i < 64; i++) p.in[i] = i * 10;
    assert_int_equal(run(simtest_warp_op_sim, &p, wout, sizeof wout, 0, NULL), -1);
    EXPECT_IN(err, "lane 8 reads lane 16 with __shfl_down_sync");
    EXPECT_IN(err, "but the mask 0x0000ffff leaves lane 16 out");
    /* a partial last warp: lanes past the block's end are not waited for */
    for (int t = 0; t < 48; t++) {
        int l = t % 32, w = t / 32;
        if (w == 0) want[t] = l < 24 ? 10u * (t + 8) : 10u * t;
        else want[t] = l < 8 ? 10u * (t + 8) : 10u * t;
    }
    warp_run(SIMTEST_SHFL_DOWN, 48, FULL, FULL, 8, 32, NULL);
    expect_lanes(want, 48, "__shfl_down_sync in a block of 48");
    /* two warps, each on its own */
    for (int t = 0; t < 64; t++) want[t] = 10u * (t ^ 2);
    warp_run(SIMTEST_SHFL_XOR, 64, FULL, FULL, 2, 32, NULL);
    expect_lanes(want, 64, "__shfl_xor_sync over two warps");
}

static void test_votes(void **state)
{
    (void)state;
    int in[64];
    unsigned want[64];
    for (int i = 0; i < 64; i++) in[i] = i % 3 == 0;
    for (int l = 0; l < 32; l++) want[l] = 0x49249249u;
    warp_run(SIMTEST_BALLOT, 32, FULL, FULL, 0, 32, in);
    expect_lanes(want, 32, "__ballot_sync");
    for (int l = 0; l < 32; l++) want[l] = (0xff00ff00u >> l & 1) ? 0x49249249u & 0xff00ff00u : U;
    warp_run(SIMTEST_BALLOT, 32, 0xff00ff00u, 0xff00ff00u, 0, 32, in);
    expect_lanes(want, 32, "__ballot_sync(mask 0xff00ff00)");

    for (int i = 0; i < 64; i++) in[i] = i == 17;
    for (int l = 0; l < 32; l++) want[l] = 1;
    warp_run(SIMTEST_ANY, 32, FULL, FULL, 0, 32, in);
    expect_lanes(want, 32, "__any_sync");
    for (int l = 0; l < 32; l++) want[l] = l < 16 ? 0 : U;
    warp_run(SIMTEST_ANY, 32, 0xffffu, 0xffffu, 0, 32, in);
    expect_lanes(want, 32, "__any_sync(mask 0xffff)");

    for (int i = 0; i < 64; i++) in[i] = i != 4;
    for (int l = 0; l < 32; l++) want[l] = 0;
    warp_run(SIMTEST_ALL, 32, FULL, FULL, 0, 32, in);
    expect_lanes(want, 32, "__all_sync");
    for (int l = 0; l < 32; l++) want[l] = l == 4 ? U : 1;
    warp_run(SIMTEST_ALL, 32, ~0x10u, ~0x10u, 0, 32, in);
    expect_lanes(want, 32, "__all_sync(mask without lane 4)");

    for (int i = 0; i < 64; i++) in[i] = i % 4;
    for (int l = 0; l < 32; l++) want[l] = 0x11111111u << (l % 4);
    warp_run(SIMTEST_MATCH_ANY, 32, FULL, FULL, 0, 32, in);
    expect_lanes(want, 32, "__match_any_sync");
    for (int l = 0; l < 32; l++) want[l] = 0;
    warp_run(SIMTEST_MATCH_ALL, 32, FULL, FULL, 0, 32, in);
    expect_lanes(want, 32, "__match_all_sync (values differ)");
    for (int l = 0; l < 32; l++) assert_int_equal(wout[64 + l], 0);
    for (int i = 0; i < 64; i++) in[i] = 7;
    for (int l = 0; l < 32; l++) want[l] = FULL;
    warp_run(SIMTEST_MATCH_ALL, 32, FULL, FULL, 0, 32, in);
    expect_lanes(want, 32, "__match_all_sync (all equal)");
    for (int l = 0; l < 32; l++) assert_int_equal(wout[64 + l], 1);

    for (int i = 0; i < 64; i++) in[i] = i - 10;
    for (int l = 0; l < 32; l++) want[l] = (unsigned)(31 * 32 / 2 - 320);
    warp_run(SIMTEST_REDUCE_ADD, 32, FULL, FULL, 0, 32, in);
    expect_lanes(want, 32, "__reduce_add_sync");
    for (int l = 0; l < 32; l++) want[l] = (unsigned)-10;
    warp_run(SIMTEST_REDUCE_MIN, 32, FULL, FULL, 0, 32, in);
    expect_lanes(want, 32, "__reduce_min_sync(int)");
    for (int l = 0; l < 32; l++) want[l] = 21;
    warp_run(SIMTEST_REDUCE_MAX, 32, FULL, FULL, 0, 32, in);
    expect_lanes(want, 32, "__reduce_max_sync(int)");

    for (int l = 0; l < 20; l++) want[l] = 0xfffffu; /* the lanes that exist */
    warp_run(SIMTEST_ACTIVEMASK, 20, FULL, FULL, 0, 32, NULL);
    expect_lanes(want, 20, "__activemask in a block of 20");
}

/* Lanes that diverge see each other's branch only: __activemask gives the
 * lanes that reached the call together, and a shuffle over that mask works. */
static void test_activemask_divergence(void **state)
{
    (void)state;
    static simtest_params p;
    static int out[1024];
    memset(&p, 0, sizeof p);
    p.which = SIMTEST_ACTIVEMASK_SPLIT;
    if (run(simtest_diag_sim, &p, out, sizeof out, 1, NULL) != 0) fail_msg("%s", err);
    /* block of 60: warp 1 has lanes 0-27 */
    for (int t = 0; t < 60; t++) {
        int lane = t % 32, w = t / 32;
        unsigned live = w == 0 ? FULL : 0x0fffffffu;
        unsigned outer = 0x00000fffu | (0xfc000000u & live), inner = 0x03fff000u & live;
        int is_outer = lane < 12 || lane > 25;
        assert_int_equal((unsigned)out[t], is_outer ? outer : inner);
        int v = is_outer ? lane + (lane ^ 1) : lane;
        assert_int_equal(out[64 + t], v);
    }
}

#undef U
#undef FULL

/* ---------------------------------------------------------------- traces */

static void test_trace_events(void **state)
{
    (void)state;
    lab_trace tr;
    memset(&tr, 0, sizeof tr);
    int out[128];
    assert_int_equal(sim_tracing(), 0);
    assert_int_equal(run(simtest_trace_sim, NULL, out, sizeof out, 0, &tr), 0);
    assert_int_equal(sim_tracing(), 0);
    assert_int_equal(tr.nlaunches, 2);
    assert_string_equal(tr.launches[1].kernel, "trace_k");
    assert_int_equal(tr.launches[0].grid[0], 2);
    assert_int_equal(tr.launches[0].block[0], 64);
    assert_int_equal(tr.launches[0].block[1], 1);
    assert_int_equal(tr.count, 2 * 2 * 64 * 5);
    assert_int_equal(tr.truncated, 0);
    lab_trace_sort(&tr);
    int bar1 = marker("trace_bar1"), bar2 = marker("trace_bar2");
    static const int kinds[5] = {LAB_EV_WRITE, LAB_EV_BARRIER, LAB_EV_READ, LAB_EV_BARRIER, LAB_EV_WRITE};
    static const int epochs[5] = {0, 0, 1, 1, 2};
    size_t k = 0;
    for (unsigned l = 0; l < 2; l++)
        for (unsigned b = 0; b < 2; b++)
            for (unsigned t = 0; t < 64; t++)
                for (unsigned s = 0; s < 5; s++, k++) {
                    const lab_event *e = &tr.ev[k];
                    assert_int_equal(e->launch, l);
                    assert_int_equal(e->block, b);
                    assert_int_equal(e->thread, t);
                    assert_int_equal(e->seq, s);
                    assert_int_equal(e->kind, kinds[s]);
                    assert_int_equal(e->epoch, epochs[s]);
                    if (s == 1) assert_int_equal(e->a, bar1);
                    if (s == 3) assert_int_equal(e->a, bar2);
                    if (s == 2) {
                        assert_int_equal(e->a, (t + 1) % 64);
                        assert_true(e->v == (double)((t + 1) % 64));
                    }
                    if (s == 4) assert_int_equal(e->a, b * 64 + t);
                }
    lab_trace_free(&tr);
}

static void fsum_once(const float *in, int n, float *out, lab_trace *tr)
{
    lab_config_defaults(&cfg);
    memset(&job, 0, sizeof job);
    job.cfg = &cfg;
    job.backend = LAB_BACKEND_SIM;
    job.n = n;
    job.in = (void *)in;
    job.out = out;
    job.trace = tr;
    int rc = simtest_fsum_sim(&job);
    lab_job_free_allocs(&job);
    if (rc != 0) fail_msg("%s", job.err);
}

/* Two runs: the same float results, bit for bit, and the same trace, event
 * for event, in the same order. */
static void test_determinism(void **state)
{
    (void)state;
    const int n = 20000, blocks = (n + 255) / 256;
    float *in = malloc(n * sizeof(float));
    float *a = calloc(blocks + 1, sizeof(float)), *b = calloc(blocks + 1, sizeof(float));
    assert_true(in && a && b);
    unsigned x = 12345;
    double exact = 0;
    for (int i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        in[i] = (float)((x >> 8) % 100000) / 997.0f - 50.0f;
        exact += in[i];
    }
    lab_trace t1, t2;
    memset(&t1, 0, sizeof t1);
    memset(&t2, 0, sizeof t2);
    fsum_once(in, n, a, &t1);
    fsum_once(in, n, b, &t2);
    assert_memory_equal(a, b, (blocks + 1) * sizeof(float));
    assert_true(fabs(a[0] - exact) < 1e-3 * fabs(exact) + 1);
    assert_int_equal(t1.count, t2.count);
    assert_true(t1.count > (size_t)n);
    assert_memory_equal(t1.ev, t2.ev, t1.count * sizeof(lab_event));
    /* and without tracing, the same numbers again */
    fsum_once(in, n, b, NULL);
    assert_memory_equal(a, b, (blocks + 1) * sizeof(float));
    lab_trace_free(&t1);
    lab_trace_free(&t2);
    free(in);
    free(a);
    free(b);
}

/* ------------------------------------------------------------------ main */

int main(int argc, char **argv)
{
    const struct CMUnitTest core[] = {
        cmocka_unit_test(test_index_1d),
        cmocka_unit_test(test_index_2d),
        cmocka_unit_test(test_index_3d),
        cmocka_unit_test(test_shared_poison),
        cmocka_unit_test(test_barrier_counting),
        cmocka_unit_test(test_atomics),
        cmocka_unit_test(test_cooperative_groups),
        cmocka_unit_test(test_reduce_sizes),
        cmocka_unit_test(test_recovers_after_failure),
    };
    const struct CMUnitTest diag[] = {
        cmocka_unit_test(test_diag_two_barriers),
        cmocka_unit_test(test_diag_early_exit),
        cmocka_unit_test(test_diag_warp_exit),
        cmocka_unit_test(test_diag_warp_split),
        cmocka_unit_test(test_diag_warp_barrier),
        cmocka_unit_test(test_diag_mask_self),
        cmocka_unit_test(test_diag_width),
        cmocka_unit_test(test_diag_oob),
        cmocka_unit_test(test_diag_race),
        cmocka_unit_test(test_diag_warp_race),
        cmocka_unit_test(test_diag_atomic_race),
        cmocka_unit_test(test_race_free),
        cmocka_unit_test(test_diag_trap),
        cmocka_unit_test(test_diag_stack_overflow),
        cmocka_unit_test(test_diag_shared_too_big),
        cmocka_unit_test(test_diag_cg_split),
        cmocka_unit_test(test_launch_validation),
    };
    const struct CMUnitTest warp[] = {
        cmocka_unit_test(test_shfl_table),
        cmocka_unit_test(test_shfl_masks),
        cmocka_unit_test(test_votes),
        cmocka_unit_test(test_activemask_divergence),
    };
    const struct CMUnitTest trace[] = {
        cmocka_unit_test(test_trace_events),
        cmocka_unit_test(test_determinism),
    };
    const char *g = argc > 1 ? argv[1] : "all";
    int all = strcmp(g, "all") == 0, failed = 0, ran = 0;
    if (all || !strcmp(g, "core")) { failed += cmocka_run_group_tests_name("sim core", core, NULL, NULL); ran = 1; }
    if (all || !strcmp(g, "diag")) { failed += cmocka_run_group_tests_name("sim diagnostics", diag, NULL, NULL); ran = 1; }
    if (all || !strcmp(g, "warp")) { failed += cmocka_run_group_tests_name("sim warp collectives", warp, NULL, NULL); ran = 1; }
    if (all || !strcmp(g, "trace")) { failed += cmocka_run_group_tests_name("sim traces", trace, NULL, NULL); ran = 1; }
    if (!ran) {
        fprintf(stderr, "usage: test_sim [core|diag|warp|trace]\n");
        return 2;
    }
    return failed ? 1 : 0;
}
