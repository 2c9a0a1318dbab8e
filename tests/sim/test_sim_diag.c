/* test_sim_diag.c - every diagnostic the simulator gives for a broken
 * kernel (barriers, warp collectives, shared indices, races, __trap, stack
 * overflow, shared memory too big), and the launch checks. */
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
#include "kernels/sim/record.h"
#include "kernels/sim/sim.h"
#include "tests/sim/simtest.h"
#include "tests/sim/simtest_run.h"

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
    if (!sim_rec_available()) skip(); /* the race check needs the recording */
    assert_int_equal(run_diag(SIMTEST_RACE, 0, 1), -1);
    EXPECT_IN(err,
              "race_k: block 0: data race on shared array cells (declared at line %d), element 1: thread 0 reads it "
              "at line %d and thread 1 writes it at line %d, and nothing orders the two (64 conflicting pairs, 63 "
              "threads in 1 block): one thread writes what another reads (a producer and a consumer): put "
              "__syncthreads() between the write and the read",
              marker("decl_race"), marker("race_read"), marker("race_write"));
    /* without race-check mode the same kernel runs (with its wrong answer) */
    assert_int_equal(run_diag(SIMTEST_RACE, 0, 0), 0);
    assert_string_equal(err, "");
}

static void test_diag_warp_race(void **state)
{
    (void)state;
    if (!sim_rec_available()) skip(); /* the race check needs the recording */
    assert_int_equal(run_diag(SIMTEST_WARP_RACE, 0, 1), -1);
    EXPECT_IN(err,
              "warp_race_k: block 0: data race on shared array w (declared at line %d), element 1: thread 0 reads "
              "it at line %d and thread 1 writes it at line %d",
              marker("decl_warp_race"), marker("warp_race_read"), marker("warp_race_write"));
    EXPECT_IN(err, "both in warp 0, and the lanes of a warp do not run in lockstep");
    /* in the fixed order lane 0 reads w[1] before lane 1 writes it */
    EXPECT_IN(err,
              "warp_race_k: block 0, thread 0, at line %d, reads w[1] (shared array w, declared at line %d) before "
              "any thread of the block wrote it",
              marker("warp_race_read"), marker("decl_warp_race"));
}

static void test_diag_atomic_race(void **state)
{
    (void)state;
    if (!sim_rec_available()) skip(); /* the race check needs the recording */
    assert_int_equal(run_diag(SIMTEST_SHARED_ATOMIC, 1, 1), -1);
    EXPECT_IN(err,
              "shared_atomic_k: block 0: data race on shared array bins (declared at line %d), element 0: thread 0 "
              "reads it at line %d and thread 8 atomically updates it at line %d",
              marker("decl_bins"), marker("bins_read"), marker("bins_atomic"));
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


const struct CMUnitTest simtest_diag_tests[] = {
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
const size_t simtest_ndiag = sizeof simtest_diag_tests / sizeof simtest_diag_tests[0];
