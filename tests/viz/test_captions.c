/* test_captions.c - the numbers the captions teach, held against the
 * hardware rules they state.
 *
 * Banks (viz/render_banks.c) on real simulator traces of transpose's tiled
 * kernels: a warp's access goes in phases of 128 bytes (32 lanes of 4-byte
 * floats, 16 lanes of 8-byte doubles, each double in two neighbouring
 * banks), so reading a column of a 32-wide tile is a 32-way conflict for
 * floats and a 16-way one for doubles (32 passes where 2 would do), and the
 * padded tile reads a column in 1 pass (floats) or 2 (doubles, one a phase).
 *
 * The ring all-reduce (viz/render_multi.c) on hand-built buffers: cut at
 * element boundaries into N chunks of whole elements, added element by
 * element; with fewer elements than GPUs some chunks are empty and nothing
 * is split; the bytes each GPU sends are counted per chunk. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/viz/record.h"
#include "viz/render.h"
#include "viz/render_multi.h"

static long long counter(const viz_frame_info *info, const char *name)
{
    for (int i = 0; i < info->ncounters; i++)
        if (strcmp(info->counters[i].name, name) == 0) return info->counters[i].value;
    return -100;
}

/* Draw frame f of t with r into a 120 x 40 canvas; the canvas is returned
 * (the caller frees it) so that its rows can be read. */
static canvas *draw(const viz_renderer *r, const lab_trace *t, int f, viz_frame_info *info)
{
    canvas *c = canvas_new(120, 40);
    viz_info_clear(info);
    r->draw(t, f, c, canvas_bounds(c), info);
    return c;
}

/* The first frame of t whose title is title; its info in *info. -1: none. */
static int find(const viz_renderer *r, const lab_trace *t, const char *title, viz_frame_info *info)
{
    int n = r->frames(t);
    for (int f = 0; f < n; f++) {
        canvas_free(draw(r, t, f, info));
        if (strcmp(info->title, title) == 0) return f;
    }
    return -1;
}

/* ---------------------------------------------------------------- banks */

typedef struct bank_case {
    const char *variant;
    lab_dtype dt;
    long long row_passes, row_banks;   /* warp 0 writes row 0 of the tile */
    long long col_passes, col_banks;   /* warp 0 reads column 0 */
    const char *col_says;              /* in the column read's caption */
} bank_case;

static void one_bank_case(const bank_case *k)
{
    lab_trace t;
    char err[LAB_ERR_MAX];
    if (viz_test_record("transpose", k->variant, 32, 0, k->dt, NULL, LAB_BACKEND_SIM, &t, NULL, err, sizeof err) != 0)
        fail_msg("%s", err);
    const viz_renderer *r = viz_renderer_find("transpose", k->variant);
    assert_non_null(r);
    viz_frame_info info;
    assert_true(find(r, &t, "warp 0 stores", &info) >= 0);
    assert_non_null(strstr(info.caption, "row 0 of the tile"));
    assert_int_equal(counter(&info, "passes"), k->row_passes);
    assert_int_equal(counter(&info, "banks used"), k->row_banks);
    assert_non_null(strstr(info.caption, "no bank conflict"));
    assert_true(find(r, &t, "warp 0 loads", &info) >= 0);
    assert_non_null(strstr(info.caption, "column 0 of the tile"));
    assert_int_equal(counter(&info, "passes"), k->col_passes);
    assert_int_equal(counter(&info, "banks used"), k->col_banks);
    if (!strstr(info.caption, k->col_says)) fail_msg("%s %s: \"%s\" is not in: %s", k->variant, lab_dtype_name(k->dt), k->col_says, info.caption);
    if (k->dt == LAB_DOUBLE) assert_int_equal(counter(&info, "phases"), 2);
    else assert_int_equal(counter(&info, "phases"), -100); /* one phase: no counter */
    lab_trace_free(&t);
}

static void banks_floats_and_doubles(void **state)
{
    (void)state;
    static const bank_case cases[] = {
        /* floats: one phase of 32 lanes, a bank serves one word a pass */
        {"tiled-nopad", LAB_FLOAT, 1, 32, 32, 1, "32-way bank conflict"},
        {"tiled", LAB_FLOAT, 1, 32, 1, 32, "no bank conflict"},
        /* doubles: two phases of 16 lanes, each element in banks 2c and 2c+1;
         * a row uses all 32 banks (each twice, once a phase), a column of the
         * unpadded tile sits in banks 0 and 1: 16 words each a phase */
        {"tiled-nopad", LAB_DOUBLE, 2, 32, 32, 2, "16-way bank conflict"},
        {"tiled", LAB_DOUBLE, 2, 32, 2, 32, "no bank conflict"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) one_bank_case(&cases[i]);
}

/* The unpadded double column read says where 2 passes would do. */
static void banks_double_conflict_names_the_ideal(void **state)
{
    (void)state;
    lab_trace t;
    char err[LAB_ERR_MAX];
    if (viz_test_record("transpose", "tiled-nopad", 32, 0, LAB_DOUBLE, NULL, LAB_BACKEND_SIM, &t, NULL, err, sizeof err) != 0)
        fail_msg("%s", err);
    const viz_renderer *r = viz_renderer_find("transpose", "tiled-nopad");
    viz_frame_info info;
    assert_true(find(r, &t, "warp 0 loads", &info) >= 0);
    assert_non_null(strstr(info.caption, "2 phases of 16 lanes"));
    assert_non_null(strstr(info.caption, "the access 32 where 2 would do"));
    assert_non_null(strstr(info.caption, "only 2 banks"));
    /* the summary counts whole accesses: the worst read 32 passes, the
     * worst write 2 (one a phase) */
    assert_true(find(r, &t, "summary", &info) >= 0);
    assert_int_equal(counter(&info, "worst read"), 32);
    assert_int_equal(counter(&info, "worst write"), 2);
    assert_non_null(strstr(info.caption, "8-byte elements, 64 words a row"));
    lab_trace_free(&t);
}

/* ----------------------------------------------------------------- ring */

typedef struct ring {
    lab_trace t;
    lab_trace parts[LAB_MAX_GPUS];
    lab_multi m;
} ring;

/* A reduction across gpus GPUs whose all-reduce buffer is elems elements of
 * es bytes (the partials' trees are empty traces: one frame each). */
static void ring_make(ring *g, int gpus, long long elems, int es)
{
    memset(g, 0, sizeof *g);
    g->m.gpus = gpus;
    g->m.backend = LAB_BACKEND_SIM;
    g->m.n = 1000;
    for (int d = 0; d < gpus; d++) {
        lab_multi_split(g->m.n, gpus, d, &g->m.lo[d], &g->m.len[d]);
        snprintf(g->m.part[d].result, sizeof g->m.part[d].result, "%d", d + 1);
    }
    g->m.elems = elems;
    g->m.elem_bytes = es;
    g->m.bytes = (double)(elems * es);
    g->m.comb[LAB_COMBINE_NCCL].ran = 1;
    g->m.comb[LAB_COMBINE_NCCL].correct = 1;
    snprintf(g->m.comb[LAB_COMBINE_NCCL].result, sizeof g->m.comb[LAB_COMBINE_NCCL].result, "6");
    g->t.multi = &g->m;
    g->t.parts = g->parts;
    g->t.gpus = gpus;
}

/* The rows of the ring's canvas as one text. */
static void rows_text(canvas *c, char *buf, size_t len)
{
    size_t off = 0;
    buf[0] = 0;
    for (int y = 0; y < 40 && off + 1 < len; y++) {
        char row[512];
        canvas_row_text(c, y, row, sizeof row);
        off += (size_t)snprintf(buf + off, len - off, "%s\n", row);
    }
}

static void ring_cuts_at_elements(void **state)
{
    (void)state;
    ring g;
    viz_frame_info info;
    char text[8192];
    /* 7 doubles on 3 GPUs: chunks of 2, 2 and 3 elements (c E / N) */
    ring_make(&g, 3, 7, 8);
    const viz_renderer *r = &viz_render_multi;
    int f = find(r, &g.t, "all-reduce: ring", &info);
    assert_true(f >= 0);
    assert_non_null(strstr(info.caption, "56 byte buffer of 7 elements of 8 bytes"));
    assert_non_null(strstr(info.caption, "cut at element boundaries into 3 chunks of 2 to 3 elements"));
    assert_null(strstr(info.caption, "2.67"));
    assert_int_equal(counter(&info, "elements"), 7);
    /* step 1: GPU g sends chunk g to GPU g+1, which adds it element by element */
    viz_frame_info step;
    canvas *c = draw(r, &g.t, f + 1, &step);
    assert_string_equal(step.title, "reduce-scatter 1/2");
    assert_non_null(strstr(step.caption, "up to 3 elements, 24 bytes"));
    assert_non_null(strstr(step.caption, "element by element"));
    rows_text(c, text, sizeof text);
    canvas_free(c);
    assert_non_null(strstr(text, "got chunk 0 (2 elements) from GPU 0"));
    assert_non_null(strstr(text, "got chunk 2 (3 elements) from GPU 2"));
    /* the end: every chunk summed over 3 GPUs; GPU 2 sends its 3-element
     * chunk twice and the others once each: 2x3 + 2 + 2 = 10 elements, 80
     * bytes, more than 2(N-1)/N x S = 74.7 */
    assert_true(find(r, &g.t, "all-reduce: done", &info) >= 0);
    assert_non_null(strstr(info.caption, "the busiest GPU sent 80 bytes of the S = 56 byte buffer"));
    assert_non_null(strstr(info.caption, "74.7 bytes"));
    c = draw(r, &g.t, find(r, &g.t, "all-reduce: done", &info), &info);
    rows_text(c, text, sizeof text);
    canvas_free(c);
    assert_non_null(strstr(text, "[3/3] [3/3] [3/3]"));

    /* 6 floats on 3 GPUs: equal chunks of 8 bytes, each GPU sends 4 of them:
     * 2(N-1)/N x S = 32 */
    ring_make(&g, 3, 6, 4);
    assert_true(find(r, &g.t, "all-reduce: ring", &info) >= 0);
    assert_non_null(strstr(info.caption, "3 chunks of 2 to 2 elements"));
    assert_true(find(r, &g.t, "all-reduce: done", &info) >= 0);
    assert_non_null(strstr(info.caption, "each sent 2(N-1)/N x S = 32 bytes of the S = 24 byte buffer"));
}

/* The reduction's buffer: one 8-byte partial. Nothing is cut: on 3 GPUs
 * two chunks are empty and the one value goes round whole; GPU 2 (which
 * holds chunk 2) forwards it twice, 16 bytes. */
static void ring_one_element_is_not_split(void **state)
{
    (void)state;
    ring g;
    viz_frame_info info;
    char text[8192];
    ring_make(&g, 3, 1, 8);
    const viz_renderer *r = &viz_render_multi;
    int f = find(r, &g.t, "all-reduce: ring", &info);
    assert_true(f >= 0);
    assert_non_null(strstr(info.caption, "the buffer is 1 element of 8 bytes"));
    assert_non_null(strstr(info.caption, "only 1 of the 3 chunks holds a value"));
    assert_null(strstr(info.caption, "2.67"));
    canvas *c = draw(r, &g.t, f + 1, &info);
    rows_text(c, text, sizeof text);
    canvas_free(c);
    assert_non_null(strstr(text, "[ - ]"));
    assert_non_null(strstr(text, "got chunk 2 (1 element) from GPU 2"));
    assert_non_null(strstr(text, "chunk 0 from GPU 0 is empty: nothing moves"));
    assert_true(find(r, &g.t, "all-reduce: done", &info) >= 0);
    assert_non_null(strstr(info.caption, "2 of them empty"));
    assert_non_null(strstr(info.caption, "the busiest GPU sent 16 bytes"));
    /* 2 GPUs, one element: each GPU sends it once, 8 bytes = 2(N-1)/N x S */
    ring_make(&g, 2, 1, 8);
    assert_true(find(r, &g.t, "all-reduce: done", &info) >= 0);
    assert_non_null(strstr(info.caption, "each sent 2(N-1)/N x S = 8 bytes of the S = 8 byte buffer"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(banks_floats_and_doubles),
        cmocka_unit_test(banks_double_conflict_names_the_ideal),
        cmocka_unit_test(ring_cuts_at_elements),
        cmocka_unit_test(ring_one_element_is_not_split),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
