/* test_sim_core.c - indices, shared memory and its poison, barrier counting,
 * atomics, cooperative groups, reductions of many sizes, and a launch after a
 * failed one. */
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
        /* the race check rides on the access recording, which the
         * sanitizer build leaves out */
        if (sim_rec_available()) assert_int_equal(run_diag(SIMTEST_RACE, 0, 1), -1);
        unsigned out[15];
        assert_int_equal(run(simtest_poison_sim, NULL, out, sizeof out, 0, NULL), 0);
        assert_int_equal(out[3], 63u);
        check_reduce(3000, 256);
    }
}


const struct CMUnitTest simtest_core[] = {
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
const size_t simtest_ncore = sizeof simtest_core / sizeof simtest_core[0];
