/* The bitonic family on the CPU rows and the simulator: every kernel variant
 * against the CPU's sort for n = 2 .. 2^16 (every pattern, both key types,
 * small and default blocks, odd n padded); the lecture's eight numbers; the
 * checks catching wrong answers; the refusals of bad n and block; and what
 * the traces record. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernels/bitonic/bitonic.h"
#include "kernels/family.h"

/* Through the registry's own list (as the REPL finds it). */
static const lab_algo *bitonic(void)
{
    for (int i = 0; i < lab_algo_count(); i++)
        if (strcmp(lab_algo_at(i)->name, "bitonic") == 0) return lab_algo_at(i);
    fail_msg("bitonic is not in the registry");
    return NULL;
}

static const char *const kernels[] = {"o", "ov", "n", "nl", "fast"};
#define NKERNELS 5

static void config(lab_config *cfg, long long n, const char *pattern, lab_dtype dt)
{
    lab_config_defaults(cfg);
    cfg->backend = LAB_BACKEND_SIM;
    cfg->repeats = 1;
    cfg->n = n;
    cfg->dtype = dt;
    snprintf(cfg->pattern, sizeof cfg->pattern, "%s", pattern);
}

static lab_result run_one(const lab_config *cfg, const char *variant)
{
    lab_input in;
    lab_result r;
    char msg[LAB_ERR_MAX];
    memset(&r, 0, sizeof r);
    if (lab_input_prepare(&in, bitonic(), cfg, msg, sizeof msg) != 0) fail_msg("prepare: %s", msg);
    const lab_variant *v = lab_variant_find(bitonic(), variant);
    assert_non_null(v);
    lab_run(&in, v, &r, NULL);
    lab_input_free(&in);
    return r;
}

static void expect_sorted(const lab_config *cfg, const char *variant)
{
    lab_result r = run_one(cfg, variant);
    if (!r.ran || r.correct != 1)
        fail_msg("%s n=%lld block=%d %s %s pad=%d: ran=%d correct=%d result=%s note=%s", variant,
                 cfg->n, cfg->block, lab_dtype_name(cfg->dtype), cfg->pattern, cfg->pad, r.ran,
                 r.correct, r.result, r.note);
    const lab_variant *v = lab_variant_find(bitonic(), variant);
    if (v->kind == LAB_ROW_KERNEL) assert_int_equal(r.backend, LAB_BACKEND_SIM);
}

/* ------------------------------------------------------------ sorting */

static void the_lectures_eight_numbers(void **state)
{
    (void)state;
    const lab_algo *a = bitonic();
    for (int i = 0; i < a->nvariants; i++) {
        const lab_variant *v = &a->variants[i];
        if (v->kind == LAB_ROW_LIB) continue;
        for (int dt = 0; dt < 2; dt++) {
            lab_config cfg;
            config(&cfg, 8, "lecture", dt ? LAB_FLOAT : LAB_INT);
            lab_result r = run_one(&cfg, v->name);
            assert_int_equal(r.ran, 1);
            assert_int_equal(r.correct, 1);
            assert_string_equal(r.result, "2 3 5 7 11 13 17 19");
        }
    }
    /* the defaults are the lecture's example */
    assert_int_equal(a->n_default, 8);
    assert_string_equal(a->patterns[0], "lecture");
}

/* Every pattern at every power of two up to 2^16 would take minutes on one
 * simulated core; the sizes below cover each code path (one block, several
 * blocks, middle launches, global passes of fast) and every pattern and key
 * type meets every variant. */
static void every_variant_against_the_cpu(void **state)
{
    (void)state;
    static const long long sizes[] = {2, 4, 16, 32, 128, 512, 2048, 1LL << 16};
    static const char *const pats[] = {"random", "sorted", "reversed", "few", "lecture"};
    for (int vi = 0; vi < NKERNELS; vi++)
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            int combos = sizes[si] > 2048 ? 1 : 4;
            for (int c = 0; c < combos; c++) {
                lab_config cfg;
                int p = (int)((si + (size_t)c * 2 + (size_t)vi) % 5);
                config(&cfg, sizes[si], pats[p], (si + (size_t)c) % 2 ? LAB_FLOAT : LAB_INT);
                if (sizes[si] > 2048) snprintf(cfg.pattern, sizeof cfg.pattern, "random");
                expect_sorted(&cfg, kernels[vi]);
            }
        }
}

/* Small blocks put the middle and finish kernels (n, nl) and the global
 * passes of fast to work at small n, with several blocks per launch. */
static void small_blocks_exercise_every_kernel(void **state)
{
    (void)state;
    static const int blocks[] = {1, 2, 8, 32, 64};
    static const long long sizes[] = {64, 1024, 4096};
    for (int vi = 0; vi < NKERNELS; vi++)
        for (size_t bi = 0; bi < 5; bi++)
            for (size_t si = 0; si < 3; si++) {
                if (blocks[bi] < lab_variant_find(bitonic(), kernels[vi])->block_min) continue;
                if (blocks[bi] < 8 && sizes[si] > 1024) continue; /* keep it quick */
                lab_config cfg;
                config(&cfg, sizes[si], bi % 2 ? "reversed" : "random", si % 2 ? LAB_FLOAT : LAB_INT);
                cfg.block = blocks[bi];
                expect_sorted(&cfg, kernels[vi]);
            }
    /* the largest block: slices of 2048 keys (n, nl), tiles of 8192 (fast) */
    for (int vi = 0; vi < NKERNELS; vi++) {
        lab_config cfg;
        config(&cfg, 1LL << 14, "random", vi % 2 ? LAB_FLOAT : LAB_INT);
        cfg.block = 1024;
        expect_sorted(&cfg, kernels[vi]);
    }
    /* o and ov take any block, a power of two or not */
    lab_config cfg;
    config(&cfg, 1024, "random", LAB_INT);
    cfg.block = 96;
    expect_sorted(&cfg, "o");
    expect_sorted(&cfg, "ov");
}

static void odd_sizes_are_padded(void **state)
{
    (void)state;
    static const long long sizes[] = {3, 5, 7, 100, 1000, 5000};
    const lab_algo *a = bitonic();
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (int i = 0; i < a->nvariants; i++) {
            const lab_variant *v = &a->variants[i];
            if (v->kind == LAB_ROW_LIB) continue;
            lab_config cfg;
            config(&cfg, sizes[si], si % 2 ? "few" : "random", si % 3 ? LAB_INT : LAB_FLOAT);
            cfg.pad = 1;
            lab_result r = run_one(&cfg, v->name);
            if (!r.ran || r.correct != 1)
                fail_msg("%s n=%lld padded: ran=%d correct=%d %s", v->name, cfg.n, r.ran, r.correct, r.note);
            long long p = 1;
            while (p < sizes[si]) p *= 2;
            assert_int_equal(r.n, p);
            assert_non_null(strstr(r.note, "padded to"));
        }
    /* the rows that sort any n do so without padding */
    lab_config cfg;
    config(&cfg, 1001, "random", LAB_INT);
    expect_sorted(&cfg, "cpu-omp");
    expect_sorted(&cfg, "cpu-qsort");
    lab_result r = run_one(&cfg, "cpu-seq");
    assert_int_equal(r.ran, 0);
    assert_non_null(strstr(r.note, "power of two"));
}

static void one_key_is_sorted(void **state)
{
    (void)state;
    for (int vi = 0; vi < NKERNELS; vi++) {
        lab_config cfg;
        config(&cfg, 1, "random", LAB_INT);
        expect_sorted(&cfg, kernels[vi]);
    }
}

static void lecture_pattern_repeats(void **state)
{
    (void)state;
    lab_config cfg;
    config(&cfg, 32, "lecture", LAB_INT);
    lab_result r = run_one(&cfg, "nl");
    assert_int_equal(r.correct, 1);
    assert_string_equal(r.result, "sorted");
    assert_non_null(strstr(r.note, "repeated"));
    config(&cfg, 4, "lecture", LAB_INT);
    r = run_one(&cfg, "ov");
    assert_string_equal(r.result, "2 5 7 13");
    assert_non_null(strstr(r.note, "first 4"));
}

/* ------------------------------------------------------------ checks */

/* The check must fail on wrong answers: a descent, a changed key, and an
 * answer that differs from the reference row's. */
static void checks_catch_wrong_answers(void **state)
{
    (void)state;
    const lab_algo *a = bitonic();
    lab_config cfg;
    config(&cfg, 64, "random", LAB_INT);
    lab_input in;
    char msg[LAB_ERR_MAX];
    assert_int_equal(lab_input_prepare(&in, a, &cfg, msg, sizeof msg), 0);
    lab_result r;
    /* the reference row keeps its output in in.ref */
    assert_int_equal(lab_run(&in, lab_variant_find(a, "cpu-omp"), &r, NULL), 0);
    assert_int_equal(r.correct, 1);
    assert_int_equal(in.have_ref, 1);
    int *good = (int *)in.ref.out;
    int out[64];
    lab_job job = in.job;
    job.out = out;
    job.variant = lab_variant_find(a, "o");

    memcpy(out, good, sizeof out);
    memset(&r, 0, sizeof r);
    a->check(&job, &in.ref, &r);
    assert_int_equal(r.correct, 1);

    int t = out[10]; /* two keys swapped: a descent */
    out[10] = out[11];
    out[11] = t;
    memset(&r, 0, sizeof r);
    a->check(&job, &in.ref, &r);
    assert_int_equal(r.correct, 0);
    assert_string_equal(r.result, "NOT sorted");
    assert_true(r.value >= 1);

    memcpy(out, good, sizeof out); /* a key duplicated: still sorted */
    out[20] = out[21];
    memset(&r, 0, sizeof r);
    a->check(&job, &in.ref, &r);
    assert_int_equal(r.correct, 0);
    assert_string_equal(r.result, "keys lost");

    memcpy(out, good, sizeof out); /* the reference itself checked alone */
    memset(&r, 0, sizeof r);
    a->check(&job, &job, &r);
    assert_int_equal(r.correct, 1);

    /* a sorted permutation that differs from the reference: only possible
     * with a wrong reference, so make one */
    int bad[64];
    memcpy(bad, good, sizeof bad);
    bad[0] = bad[0] - 1;
    lab_job refjob = in.ref;
    refjob.out = bad;
    memset(&r, 0, sizeof r);
    a->check(&job, &refjob, &r);
    assert_int_equal(r.correct, 0);
    assert_string_equal(r.result, "differs");
    lab_input_free(&in);
}

/* ------------------------------------------------------------ refusals */

static void bad_n_is_refused_with_the_nearest_powers(void **state)
{
    (void)state;
    char msg[LAB_ERR_MAX];
    lab_config cfg;
    config(&cfg, 1000, "random", LAB_INT);
    for (int vi = 0; vi < NKERNELS; vi++) {
        const lab_variant *v = lab_variant_find(bitonic(), kernels[vi]);
        assert_int_equal(lab_validate(bitonic(), v, &cfg, msg, sizeof msg), -1);
        assert_non_null(strstr(msg, "power of two"));
        assert_non_null(strstr(msg, "512 and 1024"));
        assert_non_null(strstr(msg, "set pad on"));
        lab_result r = run_one(&cfg, kernels[vi]);
        assert_int_equal(r.ran, 0);
        assert_non_null(strstr(r.note, "512 and 1024"));
    }
    cfg.pad = 1;
    assert_int_equal(lab_validate(bitonic(), lab_variant_find(bitonic(), "n"), &cfg, msg, sizeof msg), 0);
    /* at most 2^30 keys */
    config(&cfg, (1LL << 30) + 1, "sorted", LAB_INT);
    cfg.pad = 1;
    lab_input in;
    assert_int_equal(lab_input_prepare(&in, bitonic(), &cfg, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "2^30"));
}

static void bad_blocks_are_refused(void **state)
{
    (void)state;
    char msg[LAB_ERR_MAX];
    lab_config cfg;
    config(&cfg, 1024, "random", LAB_INT);
    /* n, nl and fast sort whole slices in a block: a power of two */
    static const char *const pow2_block[] = {"n", "nl", "fast"};
    for (int i = 0; i < 3; i++) {
        cfg.block = 96;
        lab_result r = run_one(&cfg, pow2_block[i]);
        assert_int_equal(r.ran, 0);
        assert_non_null(strstr(r.note, "power of two (96 is not; try 64 or 128)"));
    }
    /* out of range for every kernel variant */
    for (int vi = 0; vi < NKERNELS; vi++) {
        const lab_variant *v = lab_variant_find(bitonic(), kernels[vi]);
        cfg.block = 2048;
        assert_int_equal(lab_validate(bitonic(), v, &cfg, msg, sizeof msg), -1);
        assert_non_null(strstr(msg, "..1024"));
        if (v->block_min > 1) { /* o, ov: a warp at least */
            cfg.block = v->block_min / 2;
            assert_int_equal(lab_validate(bitonic(), v, &cfg, msg, sizeof msg), -1);
            assert_non_null(strstr(msg, "out of range"));
        }
        cfg.block = 256;
        cfg.grid = 7;
        assert_int_equal(lab_validate(bitonic(), v, &cfg, msg, sizeof msg), -1);
        assert_non_null(strstr(msg, "grid"));
        cfg.grid = 0;
    }
    cfg.dtype = LAB_DOUBLE;
    assert_int_equal(lab_validate(bitonic(), lab_variant_find(bitonic(), "o"), &cfg, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "int, float"));
}

static void a_block_larger_than_the_work_is_cut(void **state)
{
    (void)state;
    lab_config cfg;
    config(&cfg, 16, "random", LAB_INT);
    cfg.block = 1024;
    lab_result r = run_one(&cfg, "o");
    assert_int_equal(r.correct, 1);
    assert_int_equal(r.block, 32); /* a warp at least: 16 threads do nothing */
    assert_int_equal(r.grid, 1);
    assert_non_null(strstr(r.note, "block 1024 cut to 32, the smallest block"));
    r = run_one(&cfg, "nl");
    assert_int_equal(r.block, 8); /* one thread per pair */
    assert_non_null(strstr(r.note, "block 1024 cut to 8: n = 16 has no work for more"));
    r = run_one(&cfg, "fast");
    assert_int_equal(r.block, 1); /* up to 32 keys per thread: one thread sorts all 16 */
    /* each kernel variant's block for pictures is one it accepts */
    for (int vi = 0; vi < NKERNELS; vi++) {
        const lab_variant *v = lab_variant_find(bitonic(), kernels[vi]);
        char msg[LAB_ERR_MAX];
        config(&cfg, 8, "lecture", LAB_INT);
        cfg.block = v->trace_block;
        assert_true(v->trace_block > 0);
        if (lab_validate(bitonic(), v, &cfg, msg, sizeof msg) != 0) fail_msg("%s: %s", v->name, msg);
        r = run_one(&cfg, v->name);
        assert_int_equal(r.correct, 1);
    }
    /* the block a run reports is one it accepts again (animate times the
     * traced block): every variant at every small n */
    for (int vi = 0; vi < NKERNELS; vi++)
        for (long long n = 1; n <= 64; n *= 2) {
            config(&cfg, n, "random", LAB_INT);
            r = run_one(&cfg, kernels[vi]);
            assert_int_equal(r.correct, 1);
            cfg.block = r.block;
            char msg[LAB_ERR_MAX];
            if (lab_validate(bitonic(), lab_variant_find(bitonic(), kernels[vi]), &cfg, msg, sizeof msg) != 0)
                fail_msg("%s n=%lld reported block %d: %s", kernels[vi], n, r.block, msg);
            r = run_one(&cfg, kernels[vi]);
            assert_int_equal(r.correct, 1);
        }
    config(&cfg, 1LL << 16, "random", LAB_INT);
    r = run_one(&cfg, "ov");
    assert_int_equal(r.block, 256);
    assert_int_equal(r.grid, (1 << 15) / 256);
    r = run_one(&cfg, "n");
    assert_int_equal(r.grid, (1 << 16) / 1024);
}

static void unknown_patterns_are_refused(void **state)
{
    (void)state;
    lab_config cfg;
    config(&cfg, 8, "ones", LAB_INT);
    lab_input in;
    char msg[LAB_ERR_MAX];
    assert_int_equal(lab_input_prepare(&in, bitonic(), &cfg, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "lecture, random, sorted, reversed, few"));
}

static void library_rows_need_a_gpu(void **state)
{
    (void)state;
    if (lab_gpu_available()) skip();
    lab_config cfg;
    config(&cfg, 1000, "random", LAB_INT);
    static const char *const libs[] = {"thrust", "cub"};
    for (int i = 0; i < 2; i++) {
        lab_result r = run_one(&cfg, libs[i]);
        assert_int_equal(r.ran, 0);
        assert_non_null(strstr(r.note, "needs a GPU"));
    }
}

/* ------------------------------------------------------------ traces */

static int record(const char *variant, long long n, int block, lab_trace *t, lab_result *r)
{
    lab_config cfg;
    config(&cfg, n, n == 8 ? "lecture" : "random", LAB_INT);
    cfg.block = block;
    lab_input in;
    char msg[LAB_ERR_MAX];
    if (lab_input_prepare(&in, bitonic(), &cfg, msg, sizeof msg) != 0) fail_msg("%s", msg);
    int rc = lab_run(&in, lab_variant_find(bitonic(), variant), r, t);
    lab_input_free(&in);
    return rc;
}

typedef struct tally {
    int cswap[3], idle, steps, reads, writes, rounds;
    int max_per_thread; /* events of one thread in one launch */
} tally;

static tally count(const lab_trace *t)
{
    tally c;
    memset(&c, 0, sizeof c);
    int run = 0;
    for (size_t i = 0; i < t->count; i++) {
        const lab_event *e = &t->ev[i];
        if (i && (e->launch != t->ev[i - 1].launch || e->block != t->ev[i - 1].block ||
                  e->thread != t->ev[i - 1].thread))
            run = 0;
        if (++run > c.max_per_thread) c.max_per_thread = run;
        if (e->kind == LAB_EV_CSWAP) c.cswap[e->space]++;
        if (e->kind == LAB_EV_READ) c.reads++;
        if (e->kind == LAB_EV_WRITE) c.writes++;
        if (e->kind == LAB_EV_MARK && e->a == BITONIC_MK_IDLE) c.idle++;
        if (e->kind == LAB_EV_MARK && e->a == BITONIC_MK_STEP) c.steps++;
        if (e->kind == LAB_EV_MARK && e->a == BITONIC_MK_ROUND) c.rounds++;
    }
    return c;
}

/* Replay a trace's compare-exchanges on its input, step by step: the
 * answer the animation shows must be the sorted input. */
static void replay_sorts(const lab_trace *t)
{
    long long n = t->n;
    int S = bitonic_nsteps(n);
    double *v = malloc(sizeof(double) * (size_t)n);
    memcpy(v, t->input, sizeof(double) * (size_t)n);
    for (int s = 0; s < S; s++) {
        long long k, j;
        bitonic_step_kj(s, &k, &j);
        int done = 0;
        /* the k of an event: its thread's latest step marker */
        uint32_t cl = ~0u, cb = ~0u, ct = ~0u;
        long long kk = 0;
        for (size_t i = 0; i < t->count; i++) {
            const lab_event *e = &t->ev[i];
            if (e->launch != cl || e->block != cb || e->thread != ct) cl = e->launch, cb = e->block, ct = e->thread, kk = 0;
            if (e->kind == LAB_EV_MARK && e->a == BITONIC_MK_STEP) kk = (long long)e->v;
            if (e->kind != LAB_EV_CSWAP || kk != k || (e->a ^ e->b) != j) continue;
            assert_true(e->a < e->b);
            /* shared memory: indices into the block's slice of 2 * blockDim keys */
            long long base = e->space == LAB_SP_SHARED ? (long long)e->block * 2 * t->launches[e->launch].block[0] : 0;
            long long a = base + e->a, b = base + e->b;
            assert_true(b < n);
            assert_int_equal(e->v2 != 0, ((a & k) == 0));
            int sw = e->v2 != 0 ? v[a] > v[b] : v[a] < v[b];
            assert_int_equal(sw, e->v != 0); /* the recorded swap is the network's */
            if (sw) {
                double x = v[a];
                v[a] = v[b];
                v[b] = x;
            }
            done++;
        }
        assert_int_equal(done, n / 2); /* every pair of the step, once */
    }
    for (long long i = 1; i < n; i++) assert_true(v[i - 1] <= v[i]);
    free(v);
}

static void traces_record_the_network(void **state)
{
    (void)state;
    lab_trace t;
    lab_result r;
    /* o: 6 launches for 8 keys, 8 threads each, half of them idle */
    assert_int_equal(record("o", 8, 0, &t, &r), 0);
    tally c = count(&t);
    assert_int_equal(t.nlaunches, 6);
    assert_int_equal(c.cswap[LAB_SP_GLOBAL], 24);
    assert_int_equal(c.idle, 24);
    assert_int_equal(c.steps, 48);
    replay_sorts(&t);
    lab_trace_free(&t);
    /* ov: the same pairs, no idle thread */
    assert_int_equal(record("ov", 8, 0, &t, &r), 0);
    c = count(&t);
    assert_int_equal(t.nlaunches, 6);
    assert_int_equal(c.cswap[LAB_SP_GLOBAL], 24);
    assert_int_equal(c.idle, 0);
    replay_sorts(&t);
    lab_trace_free(&t);
    /* n with blocks of 2 threads (slices of 4): start does k = 2, 4; then
     * k = 8 needs a middle launch for j = 4 and a finish for j = 2, 1 */
    assert_int_equal(record("n", 8, 2, &t, &r), 0);
    c = count(&t);
    assert_int_equal(t.nlaunches, 3);
    assert_string_equal(t.launches[0].kernel, "bitonic_n_start<T>");
    assert_string_equal(t.launches[1].kernel, "bitonic_middle<T>");
    assert_string_equal(t.launches[2].kernel, "bitonic_n_finish<T>");
    assert_int_equal(c.cswap[LAB_SP_GLOBAL], 24);
    replay_sorts(&t);
    lab_trace_free(&t);
    /* nl: start and finish in shared memory, each key loaded and stored once
     * per kernel; the middle step stays global */
    assert_int_equal(record("nl", 8, 2, &t, &r), 0);
    c = count(&t);
    assert_int_equal(t.nlaunches, 3);
    assert_int_equal(c.cswap[LAB_SP_SHARED], 20);
    assert_int_equal(c.cswap[LAB_SP_GLOBAL], 4);
    assert_int_equal(c.reads, 2 * 2 * 8);  /* global->shared and shared->global, two kernels */
    assert_int_equal(c.writes, 2 * 2 * 8);
    replay_sorts(&t);
    lab_trace_free(&t);
    /* fast: every compare-exchange in registers */
    assert_int_equal(record("fast", 8, 0, &t, &r), 0);
    c = count(&t);
    assert_int_equal(t.nlaunches, 1);
    assert_int_equal(c.cswap[LAB_SP_REG], 24);
    replay_sorts(&t);
    lab_trace_free(&t);
    /* fast with sets of 32 keys (one thread) at n = 512: after the start
     * pass, the 6 + 7 + 8 + 9 steps of k = 64 .. 512 in passes whose step
     * bits and the 2 lowest bits fit in 5: k = 64 bits 5..3; k = 64 bits
     * 2..0 with k = 128 bits 6..5; k = 128 bits 4..0; k = 256 bits 7..5;
     * 4..0; k = 512 bits 8..6; 5..3; 2..0 */
    assert_int_equal(record("fast", 512, 1, &t, &r), 0);
    assert_int_equal(t.nlaunches, 1 + 8);
    for (int i = 0; i < t.nlaunches; i++) {
        assert_string_equal(t.launches[i].kernel, "bitonic_fast_pass<T>");
        assert_int_equal(t.launches[i].grid[0], 16);
        assert_int_equal(t.launches[i].block[0], 1);
    }
    c = count(&t);
    assert_int_equal(c.cswap[LAB_SP_REG], 45 * 256); /* every step of the network, in registers */
    assert_int_equal(c.reads, 9 * 512);              /* each pass reads every key once */
    assert_int_equal(c.writes, 9 * 512);
    /* the third launch finishes k = 64 and starts k = 128 */
    int k64 = 0, k128 = 0;
    for (size_t i = 0; i < t.count; i++) {
        const lab_event *e = &t.ev[i];
        if (e->launch != 2 || e->kind != LAB_EV_MARK || e->a != BITONIC_MK_STEP) continue;
        k64 += e->v == 64 && e->b == BITONIC_ROLE_FINISH;
        k128 += e->v == 128 && e->b == BITONIC_ROLE_MIDDLE;
    }
    assert_int_equal(k64, 16);  /* every thread of the 16 blocks */
    assert_int_equal(k128, 16);
    replay_sorts(&t);
    lab_trace_free(&t);
}

/* At the largest n each variant can be traced, with its default block and
 * with the smallest, nothing is dropped (the recorders keep lab_trace_cap()
 * events per thread and launch: 256, more when few threads run) and there
 * are at most 64 launches. */
static void traces_fit_the_recorder(void **state)
{
    (void)state;
    for (int vi = 0; vi < NKERNELS; vi++) {
        const lab_variant *v = lab_variant_find(bitonic(), kernels[vi]);
        const int blocks[] = {0, v->block_min, 1024};
        for (int bi = 0; bi < 3; bi++) {
            lab_trace t;
            lab_result r;
            if (record(v->name, v->trace_max_n, blocks[bi], &t, &r) != 0)
                fail_msg("%s block %d at n = %lld: %s", v->name, blocks[bi], v->trace_max_n, r.note);
            tally c = count(&t);
            if (t.truncated || c.max_per_thread > (int)lab_trace_cap(1))
                fail_msg("%s block %d: %d events in one thread", v->name, blocks[bi], c.max_per_thread);
            assert_int_equal(r.correct, 1);
            replay_sorts(&t);
            lab_trace_free(&t);
        }
        /* one past the limit is refused with the limit */
        lab_trace t;
        lab_result r;
        assert_int_equal(record(v->name, 2 * v->trace_max_n, 0, &t, &r), -1);
        assert_non_null(strstr(r.note, "traced up to n"));
    }
}

static void step_numbering(void **state)
{
    (void)state;
    assert_int_equal(bitonic_nsteps(8), 6);
    assert_int_equal(bitonic_nsteps(1LL << 24), 300);
    assert_int_equal(bitonic_nsteps(1), 0);
    for (int s = 0; s < 300; s++) {
        long long k, j;
        bitonic_step_kj(s, &k, &j);
        assert_int_equal(bitonic_step_index(k, j), s);
    }
    assert_int_equal(bitonic_step_index(8, 8), -1);
    assert_int_equal(bitonic_step_index(6, 1), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(step_numbering),
        cmocka_unit_test(the_lectures_eight_numbers),
        cmocka_unit_test(every_variant_against_the_cpu),
        cmocka_unit_test(small_blocks_exercise_every_kernel),
        cmocka_unit_test(odd_sizes_are_padded),
        cmocka_unit_test(one_key_is_sorted),
        cmocka_unit_test(lecture_pattern_repeats),
        cmocka_unit_test(checks_catch_wrong_answers),
        cmocka_unit_test(bad_n_is_refused_with_the_nearest_powers),
        cmocka_unit_test(bad_blocks_are_refused),
        cmocka_unit_test(a_block_larger_than_the_work_is_cut),
        cmocka_unit_test(unknown_patterns_are_refused),
        cmocka_unit_test(library_rows_need_a_gpu),
        cmocka_unit_test(traces_record_the_network),
        cmocka_unit_test(traces_fit_the_recorder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
