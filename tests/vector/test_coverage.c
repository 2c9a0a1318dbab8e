/* The coverage map: traces of scale, vecdiff and distance recorded on the
 * simulator, drawn frame by frame as plain text and compared with the golden
 * files in tests/vector/golden/ (GPULAB_UPDATE_GOLDEN=1 rewrites them); and
 * the counters of the final frames, which are the numbers the lecture's
 * bugs are about. Usage: test_coverage GOLDEN_DIR */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/common/golden.h"

#include "kernels/family.h"
#include "viz/render.h"
#include "viz/term.h"

static const char *golden_dir;

static void trace_of(const char *algo, const char *variant, long long n, long long grid, int block,
                     lab_trace *t)
{
    const lab_algo *a = lab_algo_find(algo);
    assert_non_null(a);
    lab_config cfg;
    lab_config_defaults(&cfg);
    cfg.backend = LAB_BACKEND_SIM;
    cfg.dtype = a->dtype_default; /* as `use` sets it */
    cfg.repeats = 1;
    cfg.n = n;
    cfg.grid = grid;
    cfg.block = block;
    lab_input in;
    char msg[LAB_ERR_MAX];
    if (lab_input_prepare(&in, a, &cfg, msg, sizeof msg) != 0) fail_msg("%s", msg);
    lab_result r;
    memset(t, 0, sizeof *t);
    if (lab_run(&in, lab_variant_find(a, variant), &r, t) != 0) fail_msg("%s/%s: %s", algo, variant, r.note);
    lab_input_free(&in);
}

/* Frame f of t at width w as text, with its title, caption and counters. */
static void render_frame(const viz_renderer *rd, const lab_trace *t, int f, int w, FILE *out)
{
    int h = rd->height(t, w);
    canvas *c = canvas_new(w, h);
    assert_non_null(c);
    viz_frame_info info;
    viz_info_clear(&info);
    rd->draw(t, f, c, viz_rect_make(0, 0, w, h), &info);
    char counters[512];
    viz_info_counters_text(&info, counters, sizeof counters);
    fprintf(out, "--- frame %d of %d at %d columns: %s\n%s\n%s\n", f, rd->frames(t), w, info.title,
            info.caption, counters);
    viz_text_opts o = {VIZ_TEXT_PLAIN, 0, 1};
    char *text = viz_text_render(c, &o, NULL);
    assert_non_null(text);
    fputs(text, out);
    free(text);
    canvas_free(c);
}

/* Compare (or, with GPULAB_UPDATE_GOLDEN=1, write) golden/NAME.txt. */
static void golden(const char *name, const char *got, size_t len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.txt", golden_dir, name);
    golden_check(path, got, len);
}

typedef struct gcase {
    const char *name, *algo, *variant;
    long long n, grid;
    int block, width;
    int frames[4]; /* -1 the whole map, -2 the thread view, -9 end */
} gcase;

static const gcase cases[] = {
    /* the lecture's step 1: 28 threads past the end of a 100-element c */
    {"vecdiff-v1-n100", "vecdiff", "v1", 100, 1, 128, 80, {0, 4, -1, -2}},
    /* step 2 with two blocks: both do c[0..127], nobody c[128..199] */
    {"vecdiff-v2-n200-grid2", "vecdiff", "v2", 200, 2, 128, 80, {-1, -9}},
    /* step 3 with one block of 128 for 200 elements */
    {"vecdiff-v3-n200-grid1", "vecdiff", "v3", 200, 1, 128, 80, {-1, -9}},
    /* step 4: the same grid covers everything with a stride */
    {"vecdiff-v4-n200-grid1", "vecdiff", "v4", 200, 1, 128, 80, {-1, -2, -9}},
    /* the article: blocks = ceil(10000 / 32) = 313, the last half idle */
    {"scale-index-n10000", "scale", "index", 10000, 0, 32, 72, {-1, -9}},
    /* grid-stride with 3 blocks of 64 over 1000 elements, at two widths */
    {"scale-grid-stride-n1000-grid3", "scale", "grid-stride", 1000, 3, 64, 80, {1, -1, -2, -9}},
    {"scale-grid-stride-n1000-grid3-narrow", "scale", "grid-stride", 1000, 3, 64, 44, {-1, -9}},
    /* a reduction reads its data: distance/ls, three blocks of 1024 */
    {"distance-ls-n3000", "distance", "ls", 3000, 0, 1024, 80, {-1, -9}},
};

extern const viz_renderer viz_render_coverage;

static void golden_renders(void **state)
{
    (void)state;
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        const gcase *g = &cases[ci];
        lab_trace t;
        trace_of(g->algo, g->variant, g->n, g->grid, g->block, &t);
        /* distance/ls has its own picture (the block's shared array and its
         * barrier); the coverage map still reads its trace */
        const viz_renderer *rd = &viz_render_coverage;
        if (strcmp(g->variant, "ls") != 0) {
            assert_ptr_equal(viz_renderer_find(g->algo, g->variant), rd);
        } else {
            const viz_renderer *own = viz_renderer_find(g->algo, g->variant);
            assert_non_null(own);
            assert_string_equal(own->name, "sum per block in shared memory");
        }
        char *buf = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&buf, &len);
        assert_non_null(out);
        int nf = rd->frames(&t);
        for (int k = 0; k < 4 && g->frames[k] != -9; k++) {
            int f = g->frames[k] == -1 ? nf - 2 : g->frames[k] == -2 ? nf - 1 : g->frames[k];
            render_frame(rd, &t, f, g->width, out);
        }
        fclose(out);
        golden(g->name, buf, len);
        free(buf);
        lab_trace_free(&t);
    }
}

/* The counters of a frame, by name. */
static long long counter(const viz_frame_info *info, const char *name)
{
    for (int i = 0; i < info->ncounters; i++)
        if (strcmp(info->counters[i].name, name) == 0) return info->counters[i].value;
    fail_msg("no counter %s", name);
    return 0;
}

static void final_info(const char *algo, const char *variant, long long n, long long grid, int block,
                       viz_frame_info *info, int *frames)
{
    lab_trace t;
    trace_of(algo, variant, n, grid, block, &t);
    const viz_renderer *rd = viz_renderer_find(algo, variant);
    assert_non_null(rd);
    *frames = rd->frames(&t);
    canvas *c = canvas_new(80, 30);
    viz_info_clear(info);
    rd->draw(&t, *frames - 2, c, viz_rect_make(0, 0, 80, 30), info);
    canvas_free(c);
    lab_trace_free(&t);
}

static void the_final_frame_counts_the_bugs(void **state)
{
    (void)state;
    viz_frame_info info;
    int nf;
    final_info("vecdiff", "v1", 100, 1, 128, &info, &nf);
    assert_int_equal(nf, 4 + 3); /* four warps, empty, whole map, thread view */
    assert_int_equal(counter(&info, "past the end"), 28);
    assert_int_equal(counter(&info, "never"), 0);
    assert_non_null(strstr(info.caption, "grid 1 \u00d7 block 128"));
    assert_non_null(strstr(info.caption, "28 threads wrote past the end"));

    final_info("vecdiff", "v1", 100, 3, 128, &info, &nf);
    assert_int_equal(counter(&info, "past the end"), 84);
    assert_int_equal(counter(&info, "twice"), 100);

    final_info("vecdiff", "v2", 200, 2, 128, &info, &nf);
    assert_int_equal(counter(&info, "twice"), 128);
    assert_int_equal(counter(&info, "never"), 72);
    assert_int_equal(counter(&info, "past the end"), 0);

    final_info("vecdiff", "v3", 300, 2, 100, &info, &nf);
    assert_int_equal(counter(&info, "never"), 100);
    assert_int_equal(counter(&info, "written"), 200);

    final_info("vecdiff", "v4", 300, 2, 100, &info, &nf);
    assert_int_equal(counter(&info, "never"), 0);
    assert_int_equal(counter(&info, "twice"), 0);
    assert_int_equal(counter(&info, "idle threads"), 0);
    assert_non_null(strstr(info.caption, "exactly once"));

    final_info("scale", "index", 10000, 0, 32, &info, &nf);
    assert_int_equal(counter(&info, "idle threads"), 16);
    assert_int_equal(counter(&info, "written"), 10000);

    final_info("distance", "tree", 5000, 3, 256, &info, &nf);
    assert_int_equal(counter(&info, "read"), 5000);
    assert_int_equal(counter(&info, "twice"), 0);
}

/* Lesson 3's picture of distance/ls: frame by frame, the block's shared
 * array fills warp by warp, its threads wait at the barrier until the last
 * one has written, thread 0 adds the slots, the host adds the partial sums. */
static void the_block_sum_fills_shared_memory_then_waits(void **state)
{
    (void)state;
    lab_trace t;
    trace_of("distance", "ls", 256, 0, 64, &t);
    const viz_renderer *rd = viz_renderer_find("distance", "ls");
    assert_non_null(rd);
    assert_string_equal(rd->name, "sum per block in shared memory");
    int nf = rd->frames(&t);
    assert_int_equal(nf, 1 + 4 * (2 + 2) + 1); /* 4 blocks of 2 warps, barrier, sum; host */
    canvas *c = canvas_new(80, 20);
    /* expected per frame: title, slots written, at the barrier, partial sums */
    static const struct {
        int f;
        const char *title;
        long long slots, waiting, partials;
    } want[] = {
        {0, "before the launch", 0, VIZ_COUNTER_NONE, 0},
        {1, "block 0, warp 0", 32, 32, 0},
        {2, "block 0, warp 1", 64, 64, 0},
        {3, "block 0, the barrier", 64, 64, 0},
        {4, "block 0, thread 0 adds", 64, VIZ_COUNTER_NONE, 1},
        {5, "block 1, warp 0", 32, 32, 1},
        {16, "block 3, thread 0 adds", 64, VIZ_COUNTER_NONE, 4},
        {17, "the host adds", VIZ_COUNTER_NONE, VIZ_COUNTER_NONE, 4},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        viz_frame_info info;
        viz_info_clear(&info);
        canvas_clear(c);
        rd->draw(&t, want[i].f, c, viz_rect_make(0, 0, 80, 20), &info);
        assert_string_equal(info.title, want[i].title);
        assert_int_equal(counter(&info, "slots written"), want[i].slots);
        assert_int_equal(counter(&info, "at the barrier"), want[i].waiting);
        assert_int_equal(counter(&info, "partial sums"), want[i].partials);
        if (want[i].f == 1) /* the waiting threads: warp 0's 32, not warp 1's */
            assert_non_null(strstr(info.caption, "32 of the block's 64 threads have arrived"));
        if (want[i].f == 17) assert_non_null(strstr(info.caption, "4 partial sums"));
    }
    /* the screen: warp 0's slots and threads drawn, warp 1's not yet */
    viz_frame_info info;
    viz_info_clear(&info);
    canvas_clear(c);
    rd->draw(&t, 1, c, viz_rect_make(0, 0, 80, 20), &info);
    viz_text_opts o = {VIZ_TEXT_PLAIN, 0, 1};
    char *text = viz_text_render(c, &o, NULL);
    assert_non_null(text);
    assert_non_null(strstr(text, "__shared__ part[64] of block 0"));
    assert_non_null(strstr(text, "  0\u2502\u2016\u2016\u2016"));
    const char *threads = strstr(text, "at __syncthreads()");
    assert_non_null(threads);
    int waiting = 0, notyet = 0;
    const char *row = strchr(threads, '\n') + 1;
    for (const char *p = row; *p && *p != '\n'; p++) {
        waiting += strncmp(p, "\u2016", 3) == 0;
        notyet += strncmp(p, "\u00b7", 2) == 0;
    }
    assert_int_equal(waiting, 32);
    assert_int_equal(notyet, 32);
    free(text);
    lab_trace_free(&t);

    /* threads past n read nothing and write 0, and the caption says so:
     * n = 100, block 64: block 1's warp 1 holds threads 32..35 that read
     * elements 96..99 and threads 36..63 past n; n = 20: warp 1 is all past */
    trace_of("distance", "ls", 100, 0, 64, &t);
    viz_info_clear(&info);
    rd->draw(&t, 6, c, viz_rect_make(0, 0, 80, 20), &info);
    assert_string_equal(info.title, "block 1, warp 1");
    assert_non_null(strstr(info.caption, "Threads 32..35 read elements 96..99 of a and b and write their squares "
                                         "into part[32..35]. Threads 36..63 are past n = 100: they read nothing "
                                         "and write 0 into part[36..63]. Then threads 32..63 wait"));
    viz_info_clear(&info);
    rd->draw(&t, 2, c, viz_rect_make(0, 0, 80, 20), &info);
    assert_non_null(strstr(info.caption, "Threads 32..63 read elements 32..63 of a and b and write their squares "
                                         "into part[32..63]. Then threads 32..63 wait"));
    assert_null(strstr(info.caption, "past n"));
    lab_trace_free(&t);
    trace_of("distance", "ls", 20, 0, 64, &t);
    viz_info_clear(&info);
    rd->draw(&t, 2, c, viz_rect_make(0, 0, 80, 20), &info);
    assert_string_equal(info.title, "block 0, warp 1");
    assert_non_null(strstr(info.caption, "Threads 32..63 are past n = 20: they read nothing and write 0 into "
                                         "part[32..63]. Then threads 32..63 wait"));
    assert_null(strstr(info.caption, "squares"));
    lab_trace_free(&t);
    canvas_free(c);

    /* more blocks than it shows one by one: the rest in one frame */
    trace_of("distance", "ls", 256, 0, 32, &t);
    assert_int_equal(rd->frames(&t), 1 + 4 * (1 + 2) + 1 + 1);
    lab_trace_free(&t);
}

/* A hand-made 2D trace (the shape part of the contract): a 6 x 6 matrix of
 * which only the part below the diagonal is written. */
static void a_matrix_shows_rows_and_columns(void **state)
{
    (void)state;
    lab_trace t;
    memset(&t, 0, sizeof t);
    snprintf(t.algo, sizeof t.algo, "transpose");
    t.n = 6;
    t.width = t.height = 6;
    t.nlaunches = 1;
    unsigned g[3] = {2, 2, 1}, b[3] = {3, 3, 1};
    memcpy(t.launches[0].grid, g, sizeof g);
    memcpy(t.launches[0].block, b, sizeof b);
    lab_event ev[36];
    int k = 0;
    for (int y = 0; y < 6; y++)
        for (int x = 0; x < 6; x++) {
            if (x >= y) continue;
            lab_event *e = &ev[k++];
            memset(e, 0, sizeof *e);
            e->block = (uint32_t)((y / 3) * 2 + x / 3);
            e->thread = (uint32_t)((y % 3) * 3 + x % 3);
            e->kind = LAB_EV_WRITE;
            e->space = LAB_SP_GLOBAL;
            e->a = y * 6 + x;
        }
    t.ev = ev;
    t.count = (size_t)k;
    const viz_renderer *rd = viz_renderer_find("transpose", "naive2d");
    assert_non_null(rd);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    render_frame(rd, &t, rd->frames(&t) - 2, 40, out);
    fclose(out);
    golden("matrix-6x6-below-diagonal", buf, len);
    free(buf);
}

int main(int argc, char **argv)
{
    golden_dir = argc > 1 ? argv[1] : "golden";
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(golden_renders),
        cmocka_unit_test(the_final_frame_counts_the_bugs),
        cmocka_unit_test(the_block_sum_fills_shared_memory_then_waits),
        cmocka_unit_test(a_matrix_shows_rows_and_columns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
