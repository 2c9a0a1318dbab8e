/* scale, vecdiff and distance on the CPU rows and on the simulator: every
 * variant against the exact answer at several sizes (odd ones included) and
 * dtypes; the article's and the lecture's runs with their exact numbers; the
 * lecture's wrong vecdiff steps with their exact reports; limits and
 * refusals; the traces the coverage map reads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "kernels/family.h"

static lab_config base(void)
{
    lab_config cfg;
    lab_config_defaults(&cfg);
    cfg.backend = LAB_BACKEND_SIM;
    cfg.repeats = 1;
    return cfg;
}

/* The settings `use ALGO` gives: the session's, with the algorithm's dtype
 * unless the test chose one. */
static lab_config base_for(const char *algo)
{
    lab_config cfg = base();
    cfg.dtype = lab_algo_find(algo)->dtype_default;
    return cfg;
}

static lab_result run_traced(const char *algo, const lab_config *cfg, const char *variant, lab_trace *t)
{
    const lab_algo *a = lab_algo_find(algo);
    assert_non_null(a);
    const lab_variant *v = lab_variant_find(a, variant);
    if (!v) fail_msg("%s has no variant %s", algo, variant);
    lab_input in;
    lab_result r;
    char msg[LAB_ERR_MAX];
    memset(&r, 0, sizeof r);
    if (t) memset(t, 0, sizeof *t);
    if (lab_input_prepare(&in, a, cfg, msg, sizeof msg) != 0) fail_msg("prepare %s: %s", algo, msg);
    lab_run(&in, v, &r, t);
    lab_input_free(&in);
    return r;
}

static lab_result run(const char *algo, const lab_config *cfg, const char *variant)
{
    return run_traced(algo, cfg, variant, NULL);
}

static void expect_note(const lab_result *r, const char *text)
{
    if (!strstr(r->note, text))
        fail_msg("%s/%s n=%lld: note \"%s\" lacks \"%s\"", r->algo, r->variant, r->n, r->note, text);
}

/* ------------------------------------------------------------ registry */

/* The basics come first in `list`, in the lessons' order. */
static void the_registry_lists_the_basics_first(void **state)
{
    (void)state;
    assert_true(lab_algo_count() >= 3);
    assert_string_equal(lab_algo_at(0)->name, "scale");
    assert_string_equal(lab_algo_at(1)->name, "vecdiff");
    assert_string_equal(lab_algo_at(2)->name, "distance");
    for (int i = 0; i < 3; i++) {
        const lab_algo *a = lab_algo_at(i);
        const lab_variant *b = lab_algo_baseline(a);
        assert_non_null(b);
        assert_string_equal(b->name, "cpu-omp");
        for (int k = 0; k < a->nvariants; k++) {
            const lab_variant *v = &a->variants[k];
            assert_non_null(v->idea);
            if (v->kind == LAB_ROW_KERNEL)
#ifdef GPULAB_NO_CUDA /* built without the CUDA toolkit: the simulator's entry only */
                assert_true(!v->gpu && !v->gpu_traced && v->sim && v->trace_max_n > 0);
#else
                assert_true(v->gpu && v->gpu_traced && v->sim && v->trace_max_n > 0);
#endif
        }
    }
}

/* ------------------------------------------------------------ scale */

static void scale_reproduces_the_article(void **state)
{
    (void)state;
    lab_config cfg = base();
    cfg.n = 6; /* a = [0 1 2 3 4 5], mult_by_two[1, 6] */
    cfg.block = 6;
    lab_result r = run("scale", &cfg, "index");
    assert_int_equal(r.ran, 1);
    assert_int_equal(r.correct, 1);
    assert_string_equal(r.result, "[0 2 4 6 8 10]");
    assert_int_equal(r.grid, 1);
    cfg.block = 3; /* mult_by_two[2, 3] */
    r = run("scale", &cfg, "index");
    assert_string_equal(r.result, "[0 2 4 6 8 10]");
    assert_int_equal(r.grid, 2);
    cfg.grid = 1; /* one block of three threads, each taking two elements */
    r = run("scale", &cfg, "grid-stride");
    assert_string_equal(r.result, "[0 2 4 6 8 10]");
    assert_int_equal(r.grid, 1);
    /* 10000 elements, 32 threads per block: 313 blocks, the last one's
     * threads 16..31 past the end */
    cfg = base();
    cfg.n = 10000;
    cfg.block = 32;
    r = run("scale", &cfg, "index");
    assert_int_equal(r.correct, 1);
    assert_int_equal(r.grid, 313);
    assert_int_equal((long long)r.value, 10000);
    /* the defaults are the article's: n = 10000, 32 threads per block */
    cfg = base();
    r = run("scale", &cfg, "index");
    assert_int_equal(r.n, 10000);
    assert_int_equal(r.block, 32);
    assert_int_equal(r.grid, 313);
}

/* ------------------------------------------------------------ every variant */

/* What the lecture's steps must report for n, grid, block: elements no
 * thread reached and threads that wrote past the end. */
static void vecdiff_model(const char *v, long long n, long long grid, long long block, long long *unreached,
                          long long *stray_threads)
{
    *unreached = *stray_threads = 0;
    if (strcmp(v, "v1") == 0) {
        *unreached = n > block ? n - block : 0;
        *stray_threads = block > n ? (block - n) * grid : 0;
    } else if (strcmp(v, "v2") == 0) {
        *unreached = n > block ? n - block : 0;
    } else if (strcmp(v, "v3") == 0) {
        *unreached = n > grid * block ? n - grid * block : 0;
    }
}

static void check_row(const lab_result *r, const lab_config *cfg, const lab_variant *v)
{
    if (!r->ran) fail_msg("%s/%s n=%lld %s did not run: %s", r->algo, v->name, cfg->n,
                          lab_dtype_name(cfg->dtype), r->note);
    if (v->kind == LAB_ROW_KERNEL) assert_int_equal(r->backend, LAB_BACKEND_SIM);
    if (strcmp(r->algo, "vecdiff") == 0 && (v->flags & LAB_WRONG_ON_PURPOSE)) {
        long long un, st;
        vecdiff_model(v->name, cfg->n, r->grid, r->block, &un, &st);
        int want = un == 0 && st == 0;
        if (r->correct != want || (long long)r->value != cfg->n - un)
            fail_msg("vecdiff/%s n=%lld grid %lld block %d %s: correct=%d value=%g, expected %d with "
                     "%lld unreached: %s",
                     v->name, cfg->n, r->grid, r->block, lab_dtype_name(cfg->dtype), r->correct, r->value,
                     want, un, r->note);
        char text[128];
        if (st) {
            snprintf(text, sizeof text, "%lld threads", st);
            expect_note(r, text);
            expect_note(r, "wrote past the end of c");
        }
        if (un) {
            snprintf(text, sizeof text, "%lld elements no thread reached", un);
            expect_note(r, text);
        }
        if (!want) expect_note(r, "wrong on purpose");
        return;
    }
    if (r->correct != 1)
        fail_msg("%s/%s n=%lld %s block %d grid %lld: correct=%d result=%s note=%s", r->algo, v->name,
                 cfg->n, lab_dtype_name(cfg->dtype), r->block, r->grid, r->correct, r->result, r->note);
}

/* Every variant over one prepared input per size and dtype, as `compare`
 * runs them (the reference row runs once per input). */
static void every_variant_against_the_exact_answer(const char *algo, const long long *sizes, int nsizes)
{
    static const lab_dtype types[] = {LAB_INT, LAB_FLOAT, LAB_DOUBLE};
    const lab_algo *a = lab_algo_find(algo);
    assert_non_null(a);
    for (int si = 0; si < nsizes; si++)
        for (int ti = 0; ti < 3; ti++) {
            if (!(a->dtypes & LAB_DT(types[ti]))) continue;
            lab_config cfg = base();
            cfg.n = sizes[si];
            cfg.dtype = types[ti];
            snprintf(cfg.pattern, sizeof cfg.pattern, "%s", (si + ti) % 2 ? "random" : "const");
            cfg.value = 3;
            cfg.seed = (unsigned)(si * 7 + ti);
            lab_input in;
            char msg[LAB_ERR_MAX];
            if (lab_input_prepare(&in, a, &cfg, msg, sizeof msg) != 0) fail_msg("prepare %s: %s", algo, msg);
            for (int vi = 0; vi < a->nvariants; vi++) {
                const lab_variant *v = &a->variants[vi];
                if (v->kind == LAB_ROW_LIB) continue;
                lab_result r;
                lab_run(&in, v, &r, NULL);
                check_row(&r, &cfg, v);
            }
            lab_input_free(&in);
        }
}

static void scale_every_variant(void **state)
{
    (void)state;
    static const long long sizes[] = {1, 7, 100, 129, 1000, 4099, 65537};
    every_variant_against_the_exact_answer("scale", sizes, 7);
}

static void vecdiff_every_variant(void **state)
{
    (void)state;
    static const long long sizes[] = {1, 7, 100, 128, 129, 1000, 4099, 65537};
    every_variant_against_the_exact_answer("vecdiff", sizes, 8);
}

static void distance_every_variant(void **state)
{
    (void)state;
    static const long long sizes[] = {1, 7, 100, 129, 1000, 4099, 65537};
    every_variant_against_the_exact_answer("distance", sizes, 7);
}

/* Other blocks and grids, the odd ones too. */
static void blocks_and_grids(void **state)
{
    (void)state;
    static const int blocks[] = {1, 3, 32, 100, 1024};
    static const long long grids[] = {0, 1, 2, 7};
    static const char *const rows[][2] = {{"scale", "grid-stride"}, {"vecdiff", "v4"},
                                          {"vecdiff", "unified"},   {"distance", "g"},
                                          {"distance", "ls"},       {"vecdiff", "v1"},
                                          {"vecdiff", "v2"},        {"vecdiff", "v3"}};
    for (size_t ri = 0; ri < sizeof rows / sizeof rows[0]; ri++)
        for (size_t bi = 0; bi < 5; bi++)
            for (size_t gi = 0; gi < 4; gi++) {
                lab_config cfg = base();
                cfg.n = 3001;
                cfg.dtype = LAB_FLOAT;
                cfg.block = blocks[bi];
                cfg.grid = grids[gi];
                const lab_variant *v = lab_variant_find(lab_algo_find(rows[ri][0]), rows[ri][1]);
                lab_result r = run(rows[ri][0], &cfg, rows[ri][1]);
                if (cfg.grid) assert_int_equal(r.grid, cfg.grid);
                assert_int_equal(r.block, cfg.block);
                check_row(&r, &cfg, v);
            }
    static const int pow2[] = {32, 64, 128, 1024};
    for (size_t bi = 0; bi < 4; bi++)
        for (size_t gi = 0; gi < 4; gi++) {
            lab_config cfg = base();
            cfg.n = 5003;
            cfg.dtype = LAB_DOUBLE;
            cfg.block = pow2[bi];
            cfg.grid = grids[gi];
            lab_result r = run("distance", &cfg, "tree");
            check_row(&r, &cfg, lab_variant_find(lab_algo_find("distance"), "tree"));
        }
}

/* ------------------------------------------------------------ the lecture */

static lab_result vecdiff_run(const char *v, long long n, long long grid, int block)
{
    lab_config cfg = base_for("vecdiff");
    cfg.n = n;
    cfg.grid = grid;
    cfg.block = block;
    return run("vecdiff", &cfg, v);
}

/* The lecture's runs, in its order (block 128 throughout). */
static void vecdiff_lecture_steps(void **state)
{
    (void)state;
    lab_result r = vecdiff_run("v1", 128, 1, 128);
    assert_int_equal(r.correct, 1);
    assert_string_equal(r.note, "");

    r = vecdiff_run("v1", 100, 1, 128);
    assert_int_equal(r.correct, 0);
    expect_note(&r, "wrong on purpose (no bounds check");
    expect_note(&r, "28 threads wrote past the end of c: c[100..127], in the guard zone");
    assert_int_equal((long long)r.value, 100); /* every element itself is right */

    r = vecdiff_run("v2", 100, 1, 128);
    assert_int_equal(r.correct, 1);

    r = vecdiff_run("v2", 200, 1, 128);
    assert_int_equal(r.correct, 0);
    expect_note(&r, "72 elements no thread reached: c[128..199]");
    assert_int_equal((long long)r.value, 128);

    r = vecdiff_run("v2", 200, 2, 128); /* a second block does not help */
    assert_int_equal(r.correct, 0);
    expect_note(&r, "72 elements no thread reached: c[128..199]");
    expect_note(&r, "all 2 blocks computed the same c[0..127]");

    r = vecdiff_run("v3", 200, 2, 128);
    assert_int_equal(r.correct, 1);

    r = vecdiff_run("v3", 200, 1, 128); /* the grid is too small */
    assert_int_equal(r.correct, 0);
    expect_note(&r, "72 elements no thread reached: c[128..199]");
    expect_note(&r, "grid 1 reaches 128 of 200 elements");

    r = vecdiff_run("v4", 200, 1, 128); /* the grid-stride loop covers it */
    assert_int_equal(r.correct, 1);
    assert_int_equal(r.grid, 1);

    r = vecdiff_run("v4", 200, 0, 128); /* -b 0: blocks from n */
    assert_int_equal(r.correct, 1);
    assert_int_equal(r.grid, 2);

    r = vecdiff_run("unified", 200, 0, 128);
    assert_int_equal(r.correct, 1);
    assert_int_equal(r.grid, 2);
}

static void vecdiff_defaults_show_the_first_bug(void **state)
{
    (void)state;
    lab_config cfg = base_for("vecdiff");
    lab_result r = run("vecdiff", &cfg, "v1");
    assert_int_equal(r.n, 100);
    assert_int_equal(r.block, 128);
    assert_int_equal(r.grid, 1);
    assert_int_equal(r.dtype, LAB_FLOAT);
    expect_note(&r, "28 threads wrote past the end of c");
    r = run("vecdiff", &cfg, "v4");
    assert_int_equal(r.grid, 1);
    assert_int_equal(r.correct, 1);
}

static void vecdiff_reports_are_exact_and_deterministic(void **state)
{
    (void)state;
    /* several blocks of v1: every block writes the same stray elements */
    lab_result r = vecdiff_run("v1", 100, 2, 128);
    expect_note(&r, "56 threads (28 in each of 2 blocks) wrote past the end of c: c[100..127]");
    expect_note(&r, "all 2 blocks computed the same c[0..99]");
    /* a block smaller than a warp, one element */
    r = vecdiff_run("v1", 1, 1, 5);
    expect_note(&r, "4 threads wrote past the end of c: c[1..4]");
    /* both bugs at once: v1 with block 1000 and n 1500 reaches 1000 */
    r = vecdiff_run("v1", 1500, 3, 1000);
    expect_note(&r, "500 elements no thread reached: c[1000..1499]");
    /* a tail named by its range, v3 with a short grid */
    r = vecdiff_run("v3", 1000, 3, 64);
    expect_note(&r, "808 elements no thread reached: c[192..999]");
    assert_int_equal((long long)r.value, 192);
    assert_string_equal(r.result + strlen(r.result) - 4, "\u2026]");
    /* the same run twice gives the same row, every dtype */
    static const lab_dtype types[] = {LAB_INT, LAB_FLOAT, LAB_DOUBLE};
    for (int ti = 0; ti < 3; ti++)
        for (int k = 0; k < 3; k++) {
            lab_config cfg = base();
            cfg.n = 777;
            cfg.block = 512;
            cfg.grid = 1;
            cfg.dtype = types[ti];
            static const char *const vs[] = {"v1", "v2", "v3"};
            lab_result a = run("vecdiff", &cfg, vs[k]), b = run("vecdiff", &cfg, vs[k]);
            assert_int_equal(a.correct, 0);
            assert_string_equal(a.note, b.note);
            assert_string_equal(a.result, b.result);
            expect_note(&a, "265 elements no thread reached: c[512..776]");
        }
    /* the reference rows are checked too, and are right */
    lab_config cfg = base();
    cfg.n = 4099;
    r = run("vecdiff", &cfg, "cpu-omp");
    assert_int_equal(r.correct, 1);
    r = run("vecdiff", &cfg, "cpu-seq");
    assert_int_equal(r.correct, 1);
}

/* ------------------------------------------------------------ distance */

static void distance_of_constant_vectors_is_exact(void **state)
{
    (void)state;
    static const char *const vs[] = {"g", "ls", "tree", "cpu-omp", "cpu-seq"};
    for (int dt = 0; dt < 2; dt++)
        for (int i = 0; i < 5; i++) {
            lab_config cfg = base();
            cfg.n = 10000;
            cfg.dtype = dt ? LAB_DOUBLE : LAB_FLOAT;
            snprintf(cfg.pattern, sizeof cfg.pattern, "const");
            cfg.value = 3; /* sqrt(10000 * 9) = 300 */
            lab_result r = run("distance", &cfg, vs[i]);
            assert_int_equal(r.correct, 1);
            assert_string_equal(r.result, "300");
            assert_true(r.rel_error == 0);
        }
}

static void distance_lecture_defaults(void **state)
{
    (void)state;
    lab_config cfg = base_for("distance");
    lab_result g = run("distance", &cfg, "g");
    lab_result ls = run("distance", &cfg, "ls");
    /* on the simulator the lecture's 2^28 becomes 2^20; block 1024, and
     * blocks = ceil(n / 1024) as the lecture computes them */
    assert_int_equal(g.n, 1LL << 20);
    assert_int_equal(g.block, 1024);
    assert_int_equal(g.grid, 1024);
    assert_int_equal(ls.grid, 1024);
    assert_int_equal(g.dtype, LAB_FLOAT);
    /* squares summed in double on the host beat float block sums */
    assert_true(g.rel_error < 1e-6);
    assert_true(ls.rel_error < 1e-4);
    expect_note(&g, "relative error");
    /* uniform values in [0, 1): E (a - b)^2 = 1/6 */
    double expect = 418.0; /* sqrt(2^20 / 6) = 418.04 */
    assert_true(g.value > expect - 2 && g.value < expect + 2);
    lab_result tree = run("distance", &cfg, "tree");
    assert_int_equal(tree.correct, 1);
    assert_int_equal(tree.grid, 32); /* 4 simulated SMs x 2048 / 256 */
}

/* ------------------------------------------------------------ limits */

static void limits_allow_the_lecture_and_refuse_the_impossible(void **state)
{
    (void)state;
    char msg[LAB_ERR_MAX];
    const lab_algo *vd = lab_algo_find("vecdiff");
    const lab_variant *v1 = lab_variant_find(vd, "v1"), *v3 = lab_variant_find(vd, "v3");
    assert_true(v1->flags & LAB_WRONG_ON_PURPOSE);
    lab_config cfg;
    lab_config_defaults(&cfg);
    cfg.n = 200;
    cfg.block = 1;
    cfg.grid = 1000000;
    assert_int_equal(lab_validate(vd, v1, &cfg, msg, sizeof msg), 0);
    cfg.block = 1024;
    cfg.grid = 1; /* the lecture's short grid: allowed, labelled */
    assert_int_equal(lab_validate(vd, v3, &cfg, msg, sizeof msg), 0);
    cfg.block = 1025;
    assert_int_equal(lab_validate(vd, v1, &cfg, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "1..1024"));
    cfg.block = 128;
    cfg.grid = 2147483648LL;
    assert_int_equal(lab_validate(vd, v1, &cfg, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "grid"));
    cfg.grid = -3;
    assert_int_equal(lab_validate(vd, v1, &cfg, msg, sizeof msg), -1);

    const lab_algo *sc = lab_algo_find("scale");
    lab_config_defaults(&cfg);
    cfg.n = 10000;
    cfg.block = 32;
    cfg.grid = 100; /* index has no grid-stride loop: 100 blocks reach 3200 */
    assert_int_equal(lab_validate(sc, lab_variant_find(sc, "index"), &cfg, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "313"));
    assert_int_equal(lab_validate(sc, lab_variant_find(sc, "grid-stride"), &cfg, msg, sizeof msg), 0);

    const lab_algo *di = lab_algo_find("distance");
    lab_config_defaults(&cfg);
    cfg.dtype = LAB_FLOAT;
    cfg.block = 100;
    assert_int_equal(lab_validate(di, lab_variant_find(di, "tree"), &cfg, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "power of two"));
    assert_int_equal(lab_validate(di, lab_variant_find(di, "ls"), &cfg, msg, sizeof msg), 0);
    cfg.block = 0;
    cfg.dtype = LAB_INT;
    assert_int_equal(lab_validate(di, lab_variant_find(di, "g"), &cfg, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "float, double"));
}

static void the_simulator_refuses_huge_grids(void **state)
{
    (void)state;
    lab_result r = vecdiff_run("v2", 200, 100000000, 128);
    assert_int_equal(r.ran, 0);
    expect_note(&r, "past the simulator's limit");
    lab_config cfg = base();
    cfg.n = 1000;
    cfg.grid = 5000000;
    r = run("scale", &cfg, "grid-stride");
    assert_int_equal(r.ran, 0);
    expect_note(&r, "past the simulator's limit");
}

static void patterns_and_library_rows(void **state)
{
    (void)state;
    lab_config cfg = base();
    cfg.n = 100;
    snprintf(cfg.pattern, sizeof cfg.pattern, "lecture");
    const lab_algo *vd = lab_algo_find("vecdiff");
    lab_input in;
    char msg[LAB_ERR_MAX];
    assert_int_equal(lab_input_prepare(&in, vd, &cfg, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "random, const"));
    snprintf(cfg.pattern, sizeof cfg.pattern, "const");
    cfg.value = 2.5;
    cfg.dtype = LAB_INT;
    assert_int_equal(lab_input_prepare(&in, vd, &cfg, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "whole number"));
    if (!lab_gpu_available()) {
        cfg = base_for("distance");
        cfg.n = 100;
        lab_result r = run("distance", &cfg, "thrust");
        assert_int_equal(r.ran, 0);
        expect_note(&r, "needs a GPU");
    }
}

/* ------------------------------------------------------------ traces */

static void count_events(const lab_trace *t, int kind, int space, long long n, long long *in, long long *past)
{
    *in = *past = 0;
    for (size_t i = 0; i < t->count; i++)
        if (t->ev[i].kind == kind && t->ev[i].space == space) {
            if (t->ev[i].a >= n) (*past)++;
            else (*in)++;
        }
}

static void traces_follow_the_coverage_contract(void **state)
{
    (void)state;
    lab_config cfg = base_for("vecdiff");
    cfg.n = 100;
    lab_trace t;
    lab_result r = run_traced("vecdiff", &cfg, "v1", &t);
    assert_int_equal(r.ran, 1);
    long long in, past;
    count_events(&t, LAB_EV_WRITE, LAB_SP_GLOBAL, 100, &in, &past);
    assert_int_equal(in, 100);
    assert_int_equal(past, 28);
    assert_int_equal(t.nlaunches, 1);
    assert_int_equal(t.launches[0].grid[0], 1);
    assert_int_equal(t.launches[0].block[0], 128);
    lab_trace_free(&t);

    cfg.n = 200;
    cfg.grid = 2;
    r = run_traced("vecdiff", &cfg, "v2", &t);
    count_events(&t, LAB_EV_WRITE, LAB_SP_GLOBAL, 200, &in, &past);
    assert_int_equal(in, 256); /* both blocks write c[0..127] */
    assert_int_equal(past, 0);
    lab_trace_free(&t);

    cfg = base_for("distance");
    cfg.n = 3000;
    r = run_traced("distance", &cfg, "ls", &t);
    assert_int_equal(r.correct, 1);
    count_events(&t, LAB_EV_WRITE, LAB_SP_GLOBAL, 3000, &in, &past);
    assert_int_equal(in + past, 0); /* partial sums are marks, not coverage */
    count_events(&t, LAB_EV_READ, LAB_SP_GLOBAL, 3000, &in, &past);
    assert_int_equal(in, 6000);
    long long marks = 0;
    for (size_t i = 0; i < t.count; i++) marks += t.ev[i].kind == LAB_EV_MARK;
    assert_int_equal(marks, 3);
    assert_int_equal(t.smem_elem_bytes, 4);
    lab_trace_free(&t);

    cfg = base();
    cfg.n = 20000; /* past the trace limit */
    r = run_traced("scale", &cfg, "index", &t);
    assert_int_equal(r.ran, 0);
    expect_note(&r, "up to n = 16384");
    lab_trace_free(&t);
}

/* An argument runs only the tests matching that pattern. */
int main(int argc, char **argv)
{
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_registry_lists_the_basics_first),
        cmocka_unit_test(scale_reproduces_the_article),
        cmocka_unit_test(scale_every_variant),
        cmocka_unit_test(vecdiff_every_variant),
        cmocka_unit_test(distance_every_variant),
        cmocka_unit_test(blocks_and_grids),
        cmocka_unit_test(vecdiff_lecture_steps),
        cmocka_unit_test(vecdiff_defaults_show_the_first_bug),
        cmocka_unit_test(vecdiff_reports_are_exact_and_deterministic),
        cmocka_unit_test(distance_of_constant_vectors_is_exact),
        cmocka_unit_test(distance_lecture_defaults),
        cmocka_unit_test(limits_allow_the_lecture_and_refuse_the_impossible),
        cmocka_unit_test(the_simulator_refuses_huge_grids),
        cmocka_unit_test(patterns_and_library_rows),
        cmocka_unit_test(traces_follow_the_coverage_contract),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
