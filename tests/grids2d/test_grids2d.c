/* transpose, mandelbrot and matmul on the CPU rows and the simulator: every
 * kernel variant against the CPU at several sizes (odd ones included), the
 * article's and the lecture's examples and numbers, grids that miss elements,
 * refused shapes, and what the traces record. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernels/family.h"

/* A session's settings after `use ALGO`: its default dtype and pattern. */
static lab_config base(const char *algo)
{
    const lab_algo *a = lab_algo_find(algo);
    assert_non_null(a);
    lab_config cfg;
    lab_config_defaults(&cfg);
    cfg.backend = LAB_BACKEND_SIM;
    cfg.repeats = 1;
    cfg.dtype = a->dtype_default;
    snprintf(cfg.pattern, sizeof cfg.pattern, "%s", a->patterns[0]);
    return cfg;
}

static lab_result run_traced(const char *algo, const lab_config *cfg, const char *variant,
                             lab_trace *trace)
{
    const lab_algo *a = lab_algo_find(algo);
    assert_non_null(a);
    lab_input in;
    lab_result r;
    char msg[LAB_ERR_MAX];
    memset(&r, 0, sizeof r);
    if (lab_input_prepare(&in, a, cfg, msg, sizeof msg) != 0) fail_msg("prepare %s: %s", algo, msg);
    const lab_variant *v = lab_variant_find(a, variant);
    if (!v) fail_msg("%s has no variant %s", algo, variant);
    lab_run(&in, v, &r, trace);
    lab_input_free(&in);
    return r;
}

static lab_result run_one(const char *algo, const lab_config *cfg, const char *variant)
{
    return run_traced(algo, cfg, variant, NULL);
}

#define EXPECT_OK(r, what, ...)                                                                 \
    do {                                                                                        \
        if (!(r).ran || (r).correct != 1)                                                       \
            fail_msg(what ": ran=%d correct=%d result=%s note=%s", __VA_ARGS__, (r).ran,        \
                     (r).correct, (r).result, (r).note);                                        \
    } while (0)

/* The three families are in the registry, in the order of the lessons. */
static void registered(void **state)
{
    (void)state;
    int t = -1, m = -1, x = -1;
    for (int i = 0; i < lab_algo_count(); i++) {
        const char *name = lab_algo_at(i)->name;
        if (strcmp(name, "transpose") == 0) t = i;
        if (strcmp(name, "mandelbrot") == 0) m = i;
        if (strcmp(name, "matmul") == 0) x = i;
    }
    assert_true(t >= 0 && m > t && x > m);
    assert_non_null(lab_algo_baseline(lab_algo_at(t)));
    assert_non_null(lab_algo_baseline(lab_algo_at(m)));
    assert_non_null(lab_algo_baseline(lab_algo_at(x)));
}

/* ------------------------------------------------------------ transpose */

static void transpose_every_variant(void **state)
{
    (void)state;
    static const long long sizes[] = {1, 2, 31, 33, 100, 130};
    static const lab_dtype types[] = {LAB_INT, LAB_FLOAT, LAB_DOUBLE};
    const lab_algo *a = lab_algo_find("transpose");
    for (int vi = 0; vi < a->nvariants; vi++) {
        const lab_variant *v = &a->variants[vi];
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            lab_config cfg = base("transpose");
            cfg.n = sizes[si];
            cfg.dtype = types[si % 3];
            snprintf(cfg.pattern, sizeof cfg.pattern, "%s", si % 2 ? "random" : "lecture");
            lab_result r = run_one("transpose", &cfg, v->name);
            EXPECT_OK(r, "transpose/%s n=%lld %s", v->name, cfg.n, lab_dtype_name(cfg.dtype));
            /* copy, the ceiling row, leaves the matrix as it was */
            assert_string_equal(r.result, strcmp(v->name, "copy") == 0 ? "copied" : "transposed");
            if (v->kind == LAB_ROW_KERNEL) assert_int_equal(r.backend, LAB_BACKEND_SIM);
        }
    }
}

/* The article: 100 x 100 of 0 .. 9999, blocks and grid of 10 x 10; after
 * the transpose a[0,2] a[3,0] a[2,1] a[3,10] a[7,5] are the values printed
 * before at a[2,0] a[0,3] a[1,2] a[10,3] a[5,7]. */
static void transpose_article_example(void **state)
{
    (void)state;
    lab_config cfg = base("transpose");
    cfg.dtype = LAB_DOUBLE;
    cfg.block = 10;
    cfg.block_y = 10;
    lab_result r = run_one("transpose", &cfg, "naive2d");
    EXPECT_OK(r, "naive2d %s", "article");
    assert_int_equal(r.n, 100);
    assert_int_equal(r.grid, 10);
    assert_int_equal(r.grid_y, 10);
    assert_non_null(strstr(r.note, "= 200 3 102 1003 507"));
}

static void transpose_blocks(void **state)
{
    (void)state;
    static const struct { const char *v; int bx, by; } shapes[] = {
        {"naive2d", 7, 5}, {"naive2d", 64, 1}, {"naive", 10, 10}, {"naive", 256, 0},
        {"tiled", 32, 1}, {"tiled", 32, 4}, {"tiled", 32, 32}, {"tiled-nopad", 32, 16},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        lab_config cfg = base("transpose");
        cfg.n = 77;
        cfg.dtype = LAB_FLOAT;
        cfg.block = shapes[i].bx;
        cfg.block_y = shapes[i].by;
        lab_result r = run_one("transpose", &cfg, shapes[i].v);
        EXPECT_OK(r, "%s block %dx%d", shapes[i].v, shapes[i].bx, shapes[i].by);
        assert_int_equal(r.block, shapes[i].bx);
        /* one number is block x 1, as dim3(b) */
        assert_int_equal(r.block_y, shapes[i].by ? shapes[i].by : 1);
    }
    /* auto: 16 x 16 for naive2d, 32 x 8 for the others */
    lab_config cfg = base("transpose");
    cfg.n = 40;
    lab_result r = run_one("transpose", &cfg, "naive2d");
    assert_int_equal(r.block, 16);
    assert_int_equal(r.block_y, 16);
    assert_int_equal(r.grid, 3);
    r = run_one("transpose", &cfg, "tiled");
    assert_int_equal(r.block, 32);
    assert_int_equal(r.block_y, 8);
    assert_int_equal(r.grid, 2);   /* 32 columns a block */
    assert_int_equal(r.grid_y, 1); /* two tiles, 64 rows, a block */
}

static void transpose_tiled_refuses_other_widths(void **state)
{
    (void)state;
    lab_config cfg = base("transpose");
    cfg.n = 64;
    cfg.block = 16;
    cfg.block_y = 16;
    lab_result r = run_one("transpose", &cfg, "tiled");
    assert_int_equal(r.ran, 0);
    assert_non_null(strstr(r.note, "32 wide"));
    cfg.block = 32;
    cfg.block_y = 3;
    r = run_one("transpose", &cfg, "tiled-nopad");
    assert_int_equal(r.ran, 0);
    assert_non_null(strstr(r.note, "not 32x3"));
}

/* A grid the user sets is taken as it is: what it misses is counted. */
static void transpose_short_grid(void **state)
{
    (void)state;
    lab_config cfg = base("transpose");
    cfg.n = 100;
    cfg.dtype = LAB_FLOAT;
    cfg.block = 16;
    cfg.block_y = 16;
    cfg.grid = 3;   /* 48 columns of the input */
    cfg.grid_y = 7; /* all 100 rows */
    lab_result r = run_one("transpose", &cfg, "naive");
    assert_int_equal(r.ran, 1);
    assert_int_equal(r.correct, 0);
    assert_string_equal(r.result, "5200 wrong"); /* output rows 48..99 */
    assert_non_null(strstr(r.note, "5200 never written"));
    /* in place: (x, y) pairs with x < 48 and y < x swap, the rest stay */
    r = run_one("transpose", &cfg, "naive2d");
    assert_int_equal(r.correct, 0);
    long long left = 100 * 100 - 100 - 2 * (48 * 47 / 2);
    char want[64];
    snprintf(want, sizeof want, "%lld wrong", left);
    assert_string_equal(r.result, want);
    snprintf(want, sizeof want, "%lld left as they were", left);
    assert_non_null(strstr(r.note, want));
}

static int written_once(const lab_trace *t, long long n, int skip_diagonal)
{
    int *seen = calloc((size_t)(n * n), sizeof *seen);
    assert_non_null(seen);
    for (size_t i = 0; i < t->count; i++) {
        const lab_event *e = &t->ev[i];
        if (e->kind == LAB_EV_WRITE && e->space == LAB_SP_GLOBAL) {
            assert_true(e->a >= 0 && e->a < n * n);
            seen[e->a]++;
            /* the value written is the input's mirror element */
            long long row = e->a / n, col = e->a % n;
            assert_true(e->v == t->input[col * n + row]);
        }
    }
    int ok = 1;
    for (long long i = 0; i < n * n; i++) {
        int diag = i / n == i % n;
        if (seen[i] != (skip_diagonal && diag ? 0 : 1)) ok = 0;
    }
    free(seen);
    return ok;
}

static void transpose_traces(void **state)
{
    (void)state;
    static const char *const vs[] = {"naive2d", "naive", "tiled", "tiled-nopad"};
    for (int i = 0; i < 4; i++) {
        lab_config cfg = base("transpose");
        cfg.n = 37;
        cfg.dtype = LAB_INT;
        lab_trace t;
        memset(&t, 0, sizeof t);
        lab_result r = run_traced("transpose", &cfg, vs[i], &t);
        EXPECT_OK(r, "traced %s", vs[i]);
        assert_int_equal(t.width, 37);
        assert_int_equal(t.height, 37);
        assert_int_equal(t.truncated, 0);
        assert_true(written_once(&t, 37, i == 0));
        lab_trace_free(&t);
    }
    /* past the limit it says so */
    lab_config cfg = base("transpose");
    cfg.n = 200;
    lab_trace t;
    memset(&t, 0, sizeof t);
    lab_result r = run_traced("transpose", &cfg, "naive", &t);
    assert_int_equal(r.ran, 0);
    assert_non_null(strstr(r.note, "up to n = 128"));
    lab_trace_free(&t);
}

/* The copy row: every element written once, with its own value, by the
 * thread that owns its 16-byte vector; the tail of an odd count too; and a
 * short grid is counted as unwritten. */
static void transpose_copy_row(void **state)
{
    (void)state;
    static const lab_dtype types[] = {LAB_INT, LAB_FLOAT, LAB_DOUBLE};
    for (int ti = 0; ti < 3; ti++) {
        lab_config cfg = base("transpose");
        cfg.n = 37; /* 1369 elements: 342 float4s and one left over, 684 double2s and one */
        cfg.dtype = types[ti];
        snprintf(cfg.pattern, sizeof cfg.pattern, "random");
        lab_trace t;
        memset(&t, 0, sizeof t);
        lab_result r = run_traced("transpose", &cfg, "copy", &t);
        EXPECT_OK(r, "traced copy %s", lab_dtype_name(cfg.dtype));
        int *seen = calloc(37 * 37, sizeof *seen);
        assert_non_null(seen);
        const long long per = cfg.dtype == LAB_DOUBLE ? 2 : 4;
        for (size_t i = 0; i < t.count; i++) {
            const lab_event *e = &t.ev[i];
            if (e->kind != LAB_EV_WRITE) continue;
            assert_true(e->a >= 0 && e->a < 37 * 37);
            assert_true(e->v == t.input[e->a]);
            /* one vector a thread, 256 threads a block; the tail: thread 0 */
            if (e->a < 37 * 37 / per * per) {
                assert_int_equal(e->block, (unsigned)(e->a / per / 256));
                assert_int_equal(e->thread, (unsigned)(e->a / per % 256));
            } else {
                assert_int_equal(e->block, 0);
                assert_int_equal(e->thread, 0);
            }
            seen[e->a]++;
        }
        for (int i = 0; i < 37 * 37; i++) assert_int_equal(seen[i], 1);
        free(seen);
        lab_trace_free(&t);
    }
    lab_config cfg = base("transpose");
    cfg.n = 100;
    cfg.dtype = LAB_FLOAT;
    cfg.block = 32;
    cfg.grid = 2; /* 2 x 32 threads x 4 floats = 256 of 10000 */
    lab_result r = run_one("transpose", &cfg, "copy");
    assert_int_equal(r.ran, 1);
    assert_int_equal(r.correct, 0);
    assert_string_equal(r.result, "9744 wrong");
    assert_non_null(strstr(r.note, "9744 never written"));
    cfg.grid = 0;
    r = run_one("transpose", &cfg, "copy");
    EXPECT_OK(r, "copy block %d", 32);
    assert_int_equal(r.grid, 79); /* 2500 vectors, 32 a block */
}

/* ------------------------------------------------------------ mandelbrot */

static void mandel_size(const lab_config *cfg, long long want_n)
{
    lab_input in;
    char msg[LAB_ERR_MAX];
    assert_int_equal(lab_input_prepare(&in, lab_algo_find("mandelbrot"), cfg, msg, sizeof msg), 0);
    assert_int_equal(in.job.n, want_n);
    lab_input_free(&in);
}

static void mandelbrot_sizes(void **state)
{
    (void)state;
    lab_config cfg = base("mandelbrot");
    mandel_size(&cfg, 160 * 90); /* the simulator's default */
    cfg.backend = LAB_BACKEND_GPU;
    if (lab_gpu_available()) mandel_size(&cfg, 1280 * 720);
    cfg.n = 3840;
    mandel_size(&cfg, 3840LL * 2160);
    cfg.width = 1280;
    mandel_size(&cfg, 1280 * 720);
    cfg.width = 0;
    cfg.height = 2160;
    mandel_size(&cfg, 3840LL * 2160);
    cfg.width = 100;
    cfg.height = 7;
    mandel_size(&cfg, 700);
    cfg.width = cfg.height = 0;
    cfg.n = 100000;
    lab_input in;
    char msg[LAB_ERR_MAX];
    assert_int_equal(lab_input_prepare(&in, lab_algo_find("mandelbrot"), &cfg, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "at most 65536"));
}

/* The simulator does not fuse multiply-adds, so both GPU kernels give the
 * CPU's counts exactly, pixel for pixel. */
static void mandelbrot_every_variant(void **state)
{
    (void)state;
    static const struct { int w, h, bx, by; } cases[] = {
        {0, 0, 0, 0}, {37, 23, 0, 0}, {1, 1, 0, 0}, {64, 1, 0, 0},
        {45, 31, 8, 4}, {50, 20, 32, 0}, {33, 17, 5, 7},
    };
    const lab_algo *a = lab_algo_find("mandelbrot");
    for (int vi = 0; vi < a->nvariants; vi++)
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            lab_config cfg = base("mandelbrot");
            cfg.width = cases[i].w;
            cfg.height = cases[i].h;
            cfg.block = cases[i].bx;
            cfg.block_y = cases[i].by;
            lab_result r = run_one("mandelbrot", &cfg, a->variants[vi].name);
            if (a->variants[vi].flags & LAB_OMP_BASELINE) {
                /* the reference: not a lecture size, so nothing to judge it by */
                assert_int_equal(r.ran, 1);
                assert_int_equal(r.correct, -1);
                continue;
            }
            EXPECT_OK(r, "mandelbrot/%s %dx%d", a->variants[vi].name, cases[i].w, cases[i].h);
            assert_true(r.rel_error == 0);
        }
    /* 160 x 90 at the default: the total is pinned, so a change shows */
    lab_config cfg = base("mandelbrot");
    lab_result r = run_one("mandelbrot", &cfg, "gpu");
    assert_string_equal(r.result, "3742929");
    assert_int_equal(r.block, 16);
    assert_int_equal(r.block_y, 16);
    assert_int_equal(r.grid, 10);
    assert_int_equal(r.grid_y, 6);
}

/* The reference row run again after it has served as the reference (as in
 * compare, where the kernel rows come first) is judged as the reference, not
 * against its own earlier output. */
static void reference_row_run_again(void **state)
{
    (void)state;
    lab_config cfg = base("mandelbrot");
    cfg.width = 37;
    cfg.height = 23;
    const lab_algo *a = lab_algo_find("mandelbrot");
    lab_input in;
    lab_result r;
    char msg[LAB_ERR_MAX];
    assert_int_equal(lab_input_prepare(&in, a, &cfg, msg, sizeof msg), 0);
    lab_run(&in, lab_variant_find(a, "cpu-seq"), &r, NULL);
    EXPECT_OK(r, "cpu-seq %s", "37x23");
    lab_run(&in, lab_variant_find(a, "cpu-omp"), &r, NULL);
    lab_input_free(&in);
    assert_int_equal(r.ran, 1);
    assert_int_equal(r.correct, -1); /* no lecture total at this size */

    cfg = base("matmul");
    cfg.n = 48;
    a = lab_algo_find("matmul");
    assert_int_equal(lab_input_prepare(&in, a, &cfg, msg, sizeof msg), 0);
    lab_run(&in, lab_variant_find(a, "gpu-tiled"), &r, NULL);
    EXPECT_OK(r, "gpu-tiled %s", "48");
    lab_run(&in, lab_variant_find(a, "cpu-omp"), &r, NULL);
    lab_input_free(&in);
    EXPECT_OK(r, "cpu-omp %s", "again");
    assert_non_null(strstr(r.note, "Freivalds"));
}

/* The lecture's CPU total at 1280 x 720, by both CPU rows. */
static void mandelbrot_lecture_total_720p(void **state)
{
    (void)state;
    lab_config cfg = base("mandelbrot");
    cfg.width = 1280;
    cfg.height = 720;
    const lab_algo *a = lab_algo_find("mandelbrot");
    lab_input in;
    lab_result r;
    char msg[LAB_ERR_MAX];
    assert_int_equal(lab_input_prepare(&in, a, &cfg, msg, sizeof msg), 0);
    lab_run(&in, lab_variant_find(a, "cpu-omp"), &r, NULL);
    EXPECT_OK(r, "cpu-omp %s", "1280x720");
    assert_string_equal(r.result, "237691869");
    assert_non_null(strstr(r.note, "the lecture's CPU total is 237691869"));
    lab_run(&in, lab_variant_find(a, "cpu-seq"), &r, NULL); /* against cpu-omp, pixel by pixel */
    lab_input_free(&in);
    EXPECT_OK(r, "cpu-seq %s", "1280x720");
    assert_string_equal(r.result, "237691869");
}

/* The lecture's GPU printed 237690702: these are the counts of the same
 * loop with its three multiply-adds fused (one rounding each), which is what
 * a GPU compiler does by default. fmaf rounds once, as the GPU's FMA does. */
static int fused_iterations(float cr, float ci)
{
    float zr = 0.0f, zi = 0.0f;
    int k = 0;
    while (k < 1000 && fmaf(zr, zr, zi * zi) <= 4.0f) {
        float t = fmaf(zr, zr, -(zi * zi)) + cr;
        zi = fmaf(2.0f * zr, zi, ci);
        zr = t;
        k++;
    }
    return k;
}

static void mandelbrot_lecture_gpu_total_is_fused(void **state)
{
    (void)state;
    const int w = 1280, h = 720;
    long long total = 0;
#pragma omp parallel for reduction(+ : total) schedule(dynamic, 4)
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            total += fused_iterations(-2.2f + 3.0f * (float)x / (float)w,
                                      -1.0f + 2.0f * (float)y / (float)h);
    assert_int_equal(total, 237690702LL);
}

static void mandelbrot_short_grid(void **state)
{
    (void)state;
    lab_config cfg = base("mandelbrot");
    cfg.width = 40;
    cfg.height = 30;
    cfg.block = 16;
    cfg.block_y = 16;
    cfg.grid = 2;
    cfg.grid_y = 2;
    lab_result r = run_one("mandelbrot", &cfg, "gpu");
    assert_int_equal(r.ran, 1);
    assert_int_equal(r.correct, 0);
    /* the grid covers x < 32: 8 columns of 30 pixels are left */
    assert_non_null(strstr(r.note, "240 pixels no thread reached"));
}

static void mandelbrot_trace(void **state)
{
    (void)state;
    lab_config cfg = base("mandelbrot");
    cfg.width = 40;
    cfg.height = 22;
    lab_trace t;
    memset(&t, 0, sizeof t);
    lab_result r = run_traced("mandelbrot", &cfg, "gpu", &t);
    EXPECT_OK(r, "traced %s", "gpu");
    assert_int_equal(t.width, 40);
    assert_int_equal(t.height, 22);
    long long writes = 0;
    double total = 0;
    for (size_t i = 0; i < t.count; i++)
        if (t.ev[i].kind == LAB_EV_WRITE) {
            writes++;
            total += t.ev[i].v;
            /* block (bx, by) of a 3 x 2 grid of 16 x 16 holds the pixel */
            int x = t.ev[i].a % 40, y = t.ev[i].a / 40;
            assert_int_equal(t.ev[i].block, (unsigned)(y / 16 * 3 + x / 16));
        }
    assert_int_equal(writes, 40 * 22);
    assert_true(total == r.value);
    assert_true(t.result == r.value);
    lab_trace_free(&t);
}

/* ------------------------------------------------------------ matmul */

static void matmul_every_variant(void **state)
{
    (void)state;
    static const long long sizes[] = {1, 2, 31, 33, 64, 70};
    /* the article's kernel runs only at multiples of 32 (matmul_article) */
    static const long long article_sizes[] = {32, 64, 96, 128, 160, 192};
    const lab_algo *a = lab_algo_find("matmul");
    for (int vi = 0; vi < a->nvariants; vi++) {
        const lab_variant *v = &a->variants[vi];
        if (v->kind == LAB_ROW_LIB) continue;
        const int article = strcmp(v->name, "gpu-article") == 0;
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            lab_config cfg = base("matmul");
            cfg.n = article ? article_sizes[si] : sizes[si];
            snprintf(cfg.pattern, sizeof cfg.pattern, "%s", si % 2 ? "random" : "lecture");
            lab_result r = run_one("matmul", &cfg, v->name);
            EXPECT_OK(r, "matmul/%s n=%lld %s", v->name, cfg.n, cfg.pattern);
            assert_true(r.rel_error >= 0 && r.rel_error < 1e-5);
            if (v->kind == LAB_ROW_KERNEL) assert_true(r.gflops == 0); /* not for simulator time */
            else assert_true(r.gflops > 0);
        }
    }
}

/* The register-blocked kernels on the simulator at the sizes a lesson
 * animates (64 to 256), at sizes that leave ragged edges in every tile
 * (odd, not a multiple of 4: the scalar-load versions), and at ones that take
 * the 16-byte paths; fresh random inputs each time. */
static void matmul_register_blocked(void **state)
{
    (void)state;
    static const char *const vs[] = {"gpu-1d", "gpu-2d", "gpu-vec", "gpu-warp"};
    static const long long sizes[] = {64, 129, 200, 256}; /* 129: odd; 200: a multiple of 4, not of a tile */
    static const int threads[] = {512, 256, 256, 128};
    static const int tile[] = {64, 128, 128, 128};
    for (size_t vi = 0; vi < 4; vi++)
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            lab_config cfg = base("matmul");
            cfg.n = sizes[si];
            cfg.seed = (unsigned)(7 + 11 * vi + si);
            snprintf(cfg.pattern, sizeof cfg.pattern, "%s", si % 2 ? "random" : "lecture");
            lab_result r = run_one("matmul", &cfg, vs[vi]);
            EXPECT_OK(r, "matmul/%s n=%lld", vs[vi], cfg.n);
            assert_true(r.rel_error < 1e-5);
            assert_int_equal(r.block, threads[vi]);
            assert_int_equal(r.grid, (sizes[si] + tile[vi] - 1) / tile[vi]);
            assert_int_equal(r.grid_y, (sizes[si] + tile[vi] - 1) / tile[vi]);
        }
    /* the block is the variant's */
    char msg[LAB_ERR_MAX];
    const lab_algo *a = lab_algo_find("matmul");
    lab_config cfg = base("matmul");
    cfg.block = 128;
    assert_int_equal(lab_validate(a, lab_variant_find(a, "gpu-2d"), &cfg, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "chooses its own block size (256)"));
}

/* The article's matmul3 as written: right at multiples of 32 with its own
 * grid, refused elsewhere with the reason (an early return before the
 * barriers and unchecked loads past the edge). */
static void matmul_article_kernel(void **state)
{
    (void)state;
    lab_config cfg = base("matmul");
    cfg.n = 96;
    lab_result r = run_one("matmul", &cfg, "gpu-article");
    EXPECT_OK(r, "gpu-article n=%d", 96);
    assert_int_equal(r.grid, 3);
    assert_int_equal(r.block_y, 32);
    cfg.n = 100;
    r = run_one("matmul", &cfg, "gpu-article");
    assert_int_equal(r.ran, 0);
    assert_non_null(strstr(r.note, "multiple of 32"));
    assert_non_null(strstr(r.note, "try 96 or 128"));
    cfg.n = 64;
    cfg.grid = 3;
    cfg.grid_y = 3;
    r = run_one("matmul", &cfg, "gpu-article");
    assert_int_equal(r.ran, 0);
    assert_non_null(strstr(r.note, "n / 32 = 2"));
}

static void matmul_blocks(void **state)
{
    (void)state;
    lab_config cfg = base("matmul");
    cfg.n = 45;
    cfg.block = 16;
    cfg.block_y = 8;
    lab_result r = run_one("matmul", &cfg, "gpu-naive");
    EXPECT_OK(r, "gpu-naive %s", "16x8");
    assert_int_equal(r.grid, 3);
    assert_int_equal(r.grid_y, 6);
    cfg.block = 64;
    cfg.block_y = 0;
    r = run_one("matmul", &cfg, "gpu-coalesced");
    EXPECT_OK(r, "gpu-coalesced %s", "64");
    assert_int_equal(r.block_y, 1);
    /* gpu-tiled's block is its tile */
    char msg[LAB_ERR_MAX];
    const lab_algo *a = lab_algo_find("matmul");
    cfg.block = 16;
    cfg.block_y = 16;
    assert_int_equal(lab_validate(a, lab_variant_find(a, "gpu-tiled"), &cfg, msg, sizeof msg), -1);
    cfg.block = 32;
    cfg.block_y = 8;
    r = run_one("matmul", &cfg, "gpu-tiled");
    assert_int_equal(r.ran, 0);
    assert_non_null(strstr(r.note, "32x32"));
}

/* The article's data: C[1,2], C[7,3] and C[4,9] of the 512 x 512 product,
 * from the double-precision reference, and every row within float accuracy. */
static void matmul_article(void **state)
{
    (void)state;
    lab_config cfg = base("matmul");
    cfg.n = 512;
    lab_result r = run_one("matmul", &cfg, "cpu-omp");
    EXPECT_OK(r, "cpu-omp %s", "512");
    assert_int_equal(r.n, 512);
    assert_non_null(strstr(r.note, "Freivalds"));
    assert_non_null(strstr(r.note, "C[1,2] = "));
    /* sum over k of (k/512 + 0.01)(1 - k/512 + 0.06), worked out in double */
    double want = 0;
    for (int k = 0; k < 512; k++)
        want += (double)(float)(k / 512.0 + 0.01) * (double)(float)((1.0 - k / 512.0) + 0.06);
    assert_true(fabs(r.value - want) <= 1e-9 * want);
    cfg.n = 128;
    r = run_one("matmul", &cfg, "cpu-naive");
    EXPECT_OK(r, "cpu-naive %s", "128");
}

static void matmul_limits(void **state)
{
    (void)state;
    lab_config cfg = base("matmul");
    cfg.n = 400; /* 6.4e7 multiply-adds: past 4 x 8Mi, refused before it runs */
    lab_result r = run_one("matmul", &cfg, "gpu-tiled");
    assert_int_equal(r.ran, 0);
    assert_non_null(strstr(r.note, "multiply-adds"));
    /* a raised limit lets it run: at a small limit, so that the run stays
     * short (10^6 multiply-adds: past 4 x 128Ki, within 4 x 256Ki) */
    cfg.n = 100;
    cfg.sim_limit = 1LL << 17;
    r = run_one("matmul", &cfg, "gpu-tiled");
    assert_int_equal(r.ran, 0);
    cfg.sim_limit = 1LL << 18;
    r = run_one("matmul", &cfg, "gpu-tiled");
    EXPECT_OK(r, "gpu-tiled n=%d with a raised limit", 100);
    /* cpu-naive refuses sizes that take minutes, before touching anything
     * (called directly: through lab_run the reference would run first) */
    cfg.n = 4096;
    const lab_algo *a = lab_algo_find("matmul");
    lab_input in;
    char msg[LAB_ERR_MAX];
    assert_int_equal(lab_input_prepare(&in, a, &cfg, msg, sizeof msg), 0);
    lab_job j = in.job;
    j.variant = lab_variant_find(a, "cpu-naive");
    j.out = NULL;
    assert_int_equal(j.variant->cpu(&j), -1);
    assert_non_null(strstr(j.err, "up to n = 2048"));
    lab_input_free(&in);
}

/* A grid that misses elements is taken as it is, and the check says so. */
static void matmul_short_grid(void **state)
{
    (void)state;
    lab_config cfg = base("matmul");
    cfg.n = 64;
    cfg.grid = 1;
    cfg.grid_y = 1;
    lab_result r = run_one("matmul", &cfg, "gpu-coalesced");
    assert_int_equal(r.ran, 1);
    assert_int_equal(r.correct, 0);
    assert_non_null(strstr(r.note, "3072 of 4096 elements past the tolerance"));
}

static void matmul_trace(void **state)
{
    (void)state;
    lab_config cfg = base("matmul");
    cfg.n = 40;
    lab_trace t;
    memset(&t, 0, sizeof t);
    lab_result r = run_traced("matmul", &cfg, "gpu-tiled", &t);
    EXPECT_OK(r, "traced %s", "gpu-tiled");
    long long c_writes = 0, s_writes = 0, barriers = 0;
    for (size_t i = 0; i < t.count; i++) {
        const lab_event *e = &t.ev[i];
        if (e->kind == LAB_EV_WRITE && e->space == LAB_SP_GLOBAL) c_writes++;
        if (e->kind == LAB_EV_WRITE && e->space == LAB_SP_SHARED) s_writes++;
        if (e->kind == LAB_EV_BARRIER) barriers++;
    }
    assert_int_equal(c_writes, 40 * 40);
    /* 2 x 2 blocks of 1024 threads, 2 tiles each, 2 loads a tile */
    assert_int_equal(s_writes, 4 * 1024 * 2 * 2);
    assert_int_equal(barriers, 4 * 1024 * 2 * 2);
    assert_int_equal(t.width, 40);
    lab_trace_free(&t);
}

int main(int argc, char **argv)
{
    if (argc > 1) cmocka_set_test_filter(argv[1]); /* one test by name (or a * pattern) */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(registered),
        cmocka_unit_test(transpose_every_variant),
        cmocka_unit_test(transpose_article_example),
        cmocka_unit_test(transpose_blocks),
        cmocka_unit_test(transpose_tiled_refuses_other_widths),
        cmocka_unit_test(transpose_short_grid),
        cmocka_unit_test(transpose_traces),
        cmocka_unit_test(transpose_copy_row),
        cmocka_unit_test(mandelbrot_sizes),
        cmocka_unit_test(mandelbrot_every_variant),
        cmocka_unit_test(reference_row_run_again),
        cmocka_unit_test(mandelbrot_lecture_total_720p),
        cmocka_unit_test(mandelbrot_lecture_gpu_total_is_fused),
        cmocka_unit_test(mandelbrot_short_grid),
        cmocka_unit_test(mandelbrot_trace),
        cmocka_unit_test(matmul_every_variant),
        cmocka_unit_test(matmul_register_blocked),
        cmocka_unit_test(matmul_article_kernel),
        cmocka_unit_test(matmul_blocks),
        cmocka_unit_test(matmul_article),
        cmocka_unit_test(matmul_limits),
        cmocka_unit_test(matmul_short_grid),
        cmocka_unit_test(matmul_trace),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
