/* The reduction family on the CPU rows and on the simulator: every kernel
 * variant against the exact sum, at several sizes (odd ones included), for
 * every dtype; the lecture's data and its printed sum; limits and refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "kernels/family.h"

static const lab_algo *reduce(void) { return lab_algo_find("reduce"); }

static lab_result run_one(const lab_config *cfg, const char *variant)
{
    lab_input in;
    lab_result r;
    char msg[LAB_ERR_MAX];
    memset(&r, 0, sizeof r);
    assert_int_equal(lab_input_prepare(&in, reduce(), cfg, msg, sizeof msg), 0);
    const lab_variant *v = lab_variant_find(reduce(), variant);
    assert_non_null(v);
    lab_run(&in, v, &r, NULL);
    lab_input_free(&in);
    return r;
}

static void lecture_sum_on_cpu(void **state)
{
    (void)state;
    lab_config cfg;
    lab_config_defaults(&cfg);
    cfg.n = 1LL << 26;
    cfg.repeats = 1;
    snprintf(cfg.pattern, sizeof cfg.pattern, "lecture");
    lab_result r = run_one(&cfg, "cpu-omp");
    assert_int_equal(r.ran, 1);
    assert_string_equal(r.result, "3321858913"); /* the lecture's printed sum */
    assert_int_equal(r.correct, 1);
}

/* One median for every timing: the middle one, or the mean of the middle
 * two for an even number of repeats (the reference OpenMP time took the
 * upper one and a row's the mean, so that the table's own OpenMP row was
 * not 1.00x for an even `repeats`). */
static void one_median(void **state)
{
    (void)state;
    double odd[] = {3, 1, 2}, even[] = {4, 1, 3, 2}, one[] = {7};
    assert_true(lab_median(odd, 3) == 2);
    assert_true(lab_median(even, 4) == 2.5);
    assert_true(even[0] == 1 && even[3] == 4); /* sorted: the ends are min and max */
    assert_true(lab_median(one, 1) == 7);
    lab_config cfg;
    lab_config_defaults(&cfg);
    cfg.n = 1 << 16;
    cfg.repeats = 2;
    lab_result r = run_one(&cfg, "cpu-seq");
    assert_int_equal(r.ran, 1);
    assert_int_equal(r.repeats, 2);
    assert_true(r.ms == 0.5 * (r.ms_min + r.ms_max));
}

static void every_kernel_on_the_simulator(void **state)
{
    (void)state;
    static const long long sizes[] = {1, 2, 31, 257, 1000, 4097, 65539};
    static const lab_dtype types[] = {LAB_INT, LAB_FLOAT, LAB_DOUBLE};
    static const char *const pats[] = {"lecture", "random", "const"};
    const lab_algo *a = reduce();
    for (int vi = 0; vi < a->nvariants; vi++) {
        const lab_variant *v = &a->variants[vi];
        if (v->kind == LAB_ROW_LIB) continue;
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
            for (size_t ti = 0; ti < 3; ti++) {
                lab_config cfg;
                lab_config_defaults(&cfg);
                cfg.backend = LAB_BACKEND_SIM;
                cfg.repeats = 1;
                cfg.n = sizes[si];
                cfg.dtype = types[ti];
                snprintf(cfg.pattern, sizeof cfg.pattern, "%s", pats[(si + ti) % 3]);
                cfg.value = 3; /* const: a whole number, so ints can take it too */
                lab_result r = run_one(&cfg, v->name);
                if (!r.ran || r.correct != 1)
                    fail_msg("%s n=%lld %s %s: ran=%d correct=%d result=%s note=%s", v->name,
                             cfg.n, lab_dtype_name(cfg.dtype), cfg.pattern, r.ran, r.correct,
                             r.result, r.note);
                if (v->kind == LAB_ROW_KERNEL) assert_int_equal(r.backend, LAB_BACKEND_SIM);
            }
    }
}

static void block_sizes_are_honoured(void **state)
{
    (void)state;
    /* the tree kernels are compiled once per block size: every one of them */
    static const int blocks[] = {32, 64, 128, 256, 512, 1024};
    static const char *const trees[] = {"interleaved", "sequential", "block-atomic"};
    for (size_t i = 0; i < 6; i++)
        for (size_t k = 0; k < 3; k++) {
            lab_config cfg;
            lab_config_defaults(&cfg);
            cfg.backend = LAB_BACKEND_SIM;
            cfg.repeats = 1;
            cfg.n = 5001;
            cfg.block = blocks[i];
            lab_result r = run_one(&cfg, trees[k]);
            const int per_block = (k == 1 ? 2 : 1) * blocks[i]; /* sequential loads two */
            assert_int_equal(r.ran, 1);
            assert_int_equal(r.correct, 1);
            assert_int_equal(r.block, blocks[i]);
            assert_int_equal(r.grid, (5001 + per_block - 1) / per_block);
        }
}

static void bad_blocks_are_refused(void **state)
{
    (void)state;
    char msg[LAB_ERR_MAX];
    lab_config cfg;
    lab_config_defaults(&cfg);
    const lab_variant *seq = lab_variant_find(reduce(), "sequential");
    cfg.block = 100;
    assert_int_equal(lab_validate(reduce(), seq, &cfg, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "power of two"));
    cfg.block = 2048;
    assert_int_equal(lab_validate(reduce(), seq, &cfg, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "32..1024"));
    cfg.block = 256;
    cfg.grid = 7;
    assert_int_equal(lab_validate(reduce(), seq, &cfg, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "grid"));
    cfg.grid = 7; /* warp-shuffle takes any grid */
    assert_int_equal(lab_validate(reduce(), lab_variant_find(reduce(), "warp-shuffle"), &cfg, msg,
                                  sizeof msg), 0);
    cfg.dtype = LAB_U8;
    assert_int_equal(lab_validate(reduce(), seq, &cfg, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "int, float, double"));
}

/* block-atomic is the kernel behind the article's 123633392: equal block
 * sums of 128 floats of 1.23 (157.44) added one by one into a float. At 1e6
 * (7812 full blocks and one of 64) the simulator's fixed order gives the
 * same chain of additions as a host loop does. */
static void block_atomic_chain(void **state)
{
    (void)state;
    lab_config cfg;
    lab_config_defaults(&cfg);
    cfg.backend = LAB_BACKEND_SIM;
    cfg.repeats = 1;
    cfg.n = 1000000;
    cfg.block = 128;
    cfg.dtype = LAB_FLOAT;
    cfg.value = 1.23;
    snprintf(cfg.pattern, sizeof cfg.pattern, "const");
    lab_result r = run_one(&cfg, "block-atomic");
    assert_int_equal(r.ran, 1);
    float blk[128], last[128];
    for (int i = 0; i < 128; i++) {
        blk[i] = 1.23f;
        last[i] = i < 1000000 % 128 ? 1.23f : 0.0f;
    }
    for (int o = 64; o > 0; o >>= 1)
        for (int t = 0; t < o; t++) {
            blk[t] += blk[t + o];
            last[t] += last[t + o];
        }
    volatile float total = 0;
    for (int b = 0; b < 1000000 / 128; b++) total += blk[0];
    total += last[0];
    assert_true(r.value == (double)total);
    assert_true(r.value != 1230000.0); /* the chain of roundings shows */
}

/* The speedup column of a table is against that table's own OpenMP row. */
static void speedups_against_the_tables_omp_row(void **state)
{
    (void)state;
    lab_result rows[3];
    memset(rows, 0, sizeof rows);
    const char *names[] = {"sequential", "cpu-omp", "interleaved"};
    const lab_backend be[] = {LAB_BACKEND_GPU, LAB_BACKEND_CPU, LAB_BACKEND_SIM};
    const double ms[] = {0.5, 4.0, 8.0};
    for (int i = 0; i < 3; i++) {
        snprintf(rows[i].variant, sizeof rows[i].variant, "%s", names[i]);
        rows[i].backend = be[i];
        rows[i].ran = 1;
        rows[i].ms = ms[i];
        rows[i].speedup = i == 2 ? -1 : 0.84; /* as against a separate reference run */
    }
    lab_rebase_speedups(reduce(), rows, 3);
    assert_true(rows[0].speedup == 8.0);
    assert_true(rows[1].speedup == 1.0);
    assert_true(rows[2].speedup == -1); /* simulator time: no speedup */
    rows[1].ran = 0; /* no OpenMP row in the table: nothing changes */
    rows[0].speedup = 3;
    lab_rebase_speedups(reduce(), rows, 3);
    assert_true(rows[0].speedup == 3);
}

static void simulator_limit_is_stated(void **state)
{
    (void)state;
    lab_config cfg;
    lab_config_defaults(&cfg);
    cfg.backend = LAB_BACKEND_SIM;
    cfg.n = 1000;
    cfg.sim_limit = 999;
    lab_result r = run_one(&cfg, "interleaved");
    assert_int_equal(r.ran, 0);
    assert_non_null(strstr(r.note, "simulator's limit of 999"));
}

static void library_rows_need_a_gpu(void **state)
{
    (void)state;
    if (lab_gpu_available()) skip();
    lab_config cfg;
    lab_config_defaults(&cfg);
    cfg.n = 1000;
    lab_result r = run_one(&cfg, "cub");
    assert_int_equal(r.ran, 0);
    assert_non_null(strstr(r.note, "needs a GPU"));
}

static void float_precision_is_reported(void **state)
{
    (void)state;
    lab_config cfg;
    lab_config_defaults(&cfg);
    cfg.backend = LAB_BACKEND_SIM;
    cfg.repeats = 1;
    cfg.n = 1 << 20;
    cfg.dtype = LAB_FLOAT;
    snprintf(cfg.pattern, sizeof cfg.pattern, "const");
    cfg.value = 1.23;
    lab_result seq = run_one(&cfg, "cpu-seq");
    lab_result two = run_one(&cfg, "warp-shuffle");
    /* a single float accumulator drifts; the tree's partial sums do not */
    assert_true(seq.rel_error > two.rel_error);
    assert_true(two.rel_error < 1e-5);
    assert_non_null(strstr(two.note, "relative error"));
}

static void simulator_is_deterministic(void **state)
{
    (void)state;
    lab_config cfg;
    lab_config_defaults(&cfg);
    cfg.backend = LAB_BACKEND_SIM;
    cfg.repeats = 1;
    cfg.n = 100000;
    cfg.dtype = LAB_FLOAT;
    snprintf(cfg.pattern, sizeof cfg.pattern, "random");
    lab_result a = run_one(&cfg, "atomic-float");
    lab_result b = run_one(&cfg, "atomic-float");
    assert_string_equal(a.result, b.result);
}

static void traces_record_the_tree(void **state)
{
    (void)state;
    lab_config cfg;
    lab_config_defaults(&cfg);
    cfg.backend = LAB_BACKEND_SIM;
    cfg.n = 64;
    cfg.block = 32;
    lab_input in;
    char msg[LAB_ERR_MAX];
    assert_int_equal(lab_input_prepare(&in, reduce(), &cfg, msg, sizeof msg), 0);
    lab_trace t;
    lab_result r;
    assert_int_equal(lab_run(&in, lab_variant_find(reduce(), "interleaved"), &r, &t), 0);
    /* 64 elements, 2 blocks of 32: 31 adds per block, 6 barriers per thread */
    int adds = 0, barriers = 0, atomics = 0;
    for (size_t i = 0; i < t.count; i++) {
        adds += t.ev[i].kind == LAB_EV_ADD;
        barriers += t.ev[i].kind == LAB_EV_BARRIER;
        atomics += t.ev[i].kind == LAB_EV_ATOMIC;
    }
    assert_int_equal(adds, 2 * 31);
    assert_int_equal(barriers, 64 * 6);
    assert_int_equal(atomics, 2);
    assert_int_equal(t.smem_elem_bytes, 8);
    assert_int_equal(t.nlaunches, 1);
    for (size_t i = 1; i < t.count; i++) assert_true(lab_event_cmp(&t.ev[i - 1], &t.ev[i]) <= 0);
    cfg.n = 100000;
    lab_input big;
    assert_int_equal(lab_input_prepare(&big, reduce(), &cfg, msg, sizeof msg), 0);
    lab_trace t2;
    assert_int_equal(lab_run(&big, lab_variant_find(reduce(), "interleaved"), &r, &t2), -1);
    assert_non_null(strstr(r.note, "up to n = 4096"));
    lab_trace_free(&t);
    lab_input_free(&in);
    lab_input_free(&big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lecture_sum_on_cpu),
        cmocka_unit_test(one_median),
        cmocka_unit_test(every_kernel_on_the_simulator),
        cmocka_unit_test(block_sizes_are_honoured),
        cmocka_unit_test(bad_blocks_are_refused),
        cmocka_unit_test(block_atomic_chain),
        cmocka_unit_test(speedups_against_the_tables_omp_row),
        cmocka_unit_test(simulator_limit_is_stated),
        cmocka_unit_test(library_rows_need_a_gpu),
        cmocka_unit_test(float_precision_is_reported),
        cmocka_unit_test(simulator_is_deterministic),
        cmocka_unit_test(traces_record_the_tree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
