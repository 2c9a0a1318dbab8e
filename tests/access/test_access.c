/* The automatic access trace and the generic animation on a trace written
 * by hand in the writer's format (kernels/sim/acctrace.h), for the kernels
 * of tests/access/shift.cu:
 *   - the parser: launches, arrays (element size from the narrowest access
 *     where the file does not say), sites, requests, lanes, the bounds;
 *   - the renderer: steps (barrier epochs, and warp instructions zoomed
 *     in), a race marked, divergent warps, sectors and bank conflicts,
 *     the cell cursor, the thread it picks, the lines for the code pane,
 *     purity (the same frame draws the same cells);
 *   - golden player screens with the code pane at 80x24 and 120x40 in
 *     colour, monochrome and plain text (GPULAB_UPDATE_GOLDEN=1 rewrites
 *     them, to be read by eye). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernels/sim/acctrace.h"
#include "tests/common/golden.h"
#include "viz/access_model.h"
#include "viz/player.h"
#include "viz/render_access.h"
#include "viz/term.h"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *b = malloc(1 << 16);
    *len = fread(b, 1, (1 << 16) - 1, f);
    b[*len] = 0;
    fclose(f);
    return b;
}

/* shift<<<1, 8>>>: s[i] = a[i]; barrier; out[i / 2] = s[(i + 1) % 8]
 * half<<<2, 40>>>: lanes 0-15 of each warp: y[i] = x[i] * 2 */
static char *make_trace(size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    fprintf(f, "# gpulab access trace 1, blocks 4, lanes 1048576\n");
    fprintf(f, "L 0 1,1,1 8,1,1 0 30 shift\n");
    fprintf(f, "S 0 401000\nO 1 g 32 0 0 a\nR 0 0 0 0 l g 4 1 0");
    for (int i = 0; i < 8; i++) fprintf(f, " %d:1:%x:%x", i, 4 * i, 10 + i);
    fprintf(f, "\nS 1 401010\nO 2 s 32 4 0 s\nR 0 0 0 1 s s 4 0 1");
    for (int i = 0; i < 8; i++) fprintf(f, " %d:2:%x:%x", i, 4 * i, 10 + i);
    fprintf(f, "\nS 2 401020\nR 0 0 1 2 l s 4 0 1");
    for (int i = 0; i < 8; i++) fprintf(f, " %d:2:%x:%x", i, 4 * ((i + 1) % 8), 10 + (i + 1) % 8);
    fprintf(f, "\nS 3 401030\nO 3 g 16 0 0 out\nR 0 0 1 3 s g 4 1 0");
    for (int i = 0; i < 8; i++) fprintf(f, " %d:3:%x:%x", i, 4 * (i / 2), 10 + (i + 1) % 8);
    fprintf(f, "\nE 0 0 1 0 0\n");
    fprintf(f, "L 1 5,1,1 40,1,1 0 31 half\nS 4 402000\nS 5 402010\nO 4 g 320 0 0 x\nO 5 g 320 0 0 y\n");
    for (int b = 0; b < 2; b++) {
        for (int w = 0; w < 2; w++) {
            int lanes = w == 0 ? 16 : 8;
            fprintf(f, "R %d %d 0 4 l g 4 %d 0", b, w, w == 0 ? 2 : 1);
            for (int l = 0; l < lanes; l++) {
                int i = b * 40 + w * 32 + l;
                fprintf(f, " %d:4:%x:%x", l, 4 * i, i);
            }
            fprintf(f, "\nR %d %d 0 5 s g 4 %d 0", b, w, w == 0 ? 2 : 1);
            for (int l = 0; l < lanes; l++) {
                int i = b * 40 + w * 32 + l;
                fprintf(f, " %d:5:%x:%x", l, 4 * i, 2 * i);
            }
            fprintf(f, "\n");
        }
    }
    fprintf(f, "E 1 0 2 3 0\n");
    fclose(f);
    return buf;
}

static acc_trace T;
static char *make_wsum(size_t *len);
/* Read a trace made by make (make_trace, make_wsum) into t, at most bound
 * lanes (0: no bound). Returns acc_trace_read's result. */
static int read_made(char *(*make)(size_t *), acc_trace *t, unsigned long long bound)
{
    size_t len;
    char *text = make(&len);
    FILE *f = fmemopen(text, len, "r");
    char err[128];
    int rc = acc_trace_read(f, t, bound, err, sizeof err);
    fclose(f);
    free(text);
    return rc;
}

static char *SRC;
static size_t SRC_LEN;

static int setup(void **state)
{
    (void)state;
    if (read_made(make_trace, &T, 0) != 0) return -1;
    static const int lines[] = {7, 7, 9, 9, 15, 15};
    for (int i = 0; i < T.nsites && i < 6; i++) {
        snprintf(T.sites[i].file, sizeof T.sites[i].file, "shift.cu");
        T.sites[i].line = lines[i];
    }
    SRC = slurp(SOURCE_DIR "/tests/access/shift.cu", &SRC_LEN);
    return SRC ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    acc_trace_free(&T);
    free(SRC);
    return 0;
}

static void parsed(void **state)
{
    (void)state;
    assert_int_equal(T.nlaunches, 2);
    assert_string_equal(T.launches[0].kernel, "shift");
    assert_int_equal(T.launches[0].line, 30);
    assert_int_equal(T.launches[0].epochs, 2);
    assert_int_equal(T.launches[0].nreq, 4);
    assert_int_equal(T.launches[1].grid[0], 5);
    assert_int_equal(T.launches[1].block[0], 40);
    assert_int_equal(T.launches[1].blocks_skipped, 3);
    assert_int_equal(T.blocks_skipped, 3);
    assert_int_equal(T.max_blocks, 4);
    assert_int_equal(T.narrays, 5);
    assert_string_equal(T.arrays[0].name, "a");
    assert_int_equal(T.arrays[0].elem, 4); /* from its 4-byte loads */
    assert_int_equal(T.arrays[0].cells, 8);
    assert_int_equal(T.arrays[1].space, ACC_SHARED);
    assert_int_equal(T.arrays[2].cells, 4);
    /* out[i / 2]: lane 5 wrote out[2] the value s[6] = 16 */
    const acc_req *w = &T.reqs[3];
    assert_int_equal(w->kind, ACC_WRITE);
    assert_int_equal(w->nlanes, 8);
    assert_int_equal(w->mask, 0xff);
    const acc_lane *l5 = &T.lanes[w->lane0 + 5];
    assert_int_equal(l5->lane, 5);
    assert_int_equal(l5->index, 2);
    assert_int_equal(l5->value, 16);
    assert_int_equal(T.reqs[4].mask, 0xffff);
    assert_int_equal(T.reqs[4].sectors, 2);
}

/* The lane bound keeps whole requests and counts the rest. */
static void bounded(void **state)
{
    (void)state;
    acc_trace t;
    assert_int_equal(read_made(make_trace, &t, 20), 0);
    assert_int_equal(t.nlanes, 16); /* two requests of 8 lanes; the third would pass 20 */
    assert_true(t.dropped > 0);
    assert_int_equal(t.dropped, 16 + 2 * 2 * (16 + 8));
    acc_trace_free(&t);
}

static void values(void **state)
{
    (void)state;
    char b[40];
    acc_value_text(42, 4, b, sizeof b);
    assert_string_equal(b, "42");
    acc_value_text(0xffffffffu, 4, b, sizeof b);
    assert_string_equal(b, "-1");
    acc_value_text(0x3fc00000u, 4, b, sizeof b); /* 1.5f */
    assert_string_equal(b, "1.5");
    acc_value_text(0x4024000000000000ull, 8, b, sizeof b); /* 10.0 */
    assert_string_equal(b, "10");
}

/* One launch writing an int array of large values, a float array and an int
 * array of small values: each printed by its own type, as the array's
 * values show it (the recording keeps widths, not types). */
static char *make_types(size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    fprintf(f, "# gpulab access trace 1, blocks 4, lanes 1048576\n");
    fprintf(f, "L 0 1,1,1 4,1,1 0 30 types\nS 0 401000\n");
    static const unsigned ints[4] = {0xa0a0a0a0u, 0x12345678u, 0xfffffff0u, 7};
    static const unsigned floats[4] = {0x3fc00000u, 0x3dcccccdu, 0xc2280000u, 0}; /* 1.5 0.1 -42 0 */
    fprintf(f, "O 1 g 16 4 0 big\nR 0 0 0 0 s g 4 1 0");
    for (int i = 0; i < 4; i++) fprintf(f, " %d:1:%x:%x", i, 4 * i, ints[i]);
    fprintf(f, "\nO 2 g 16 4 0 fl\nR 0 0 0 0 s g 4 1 0");
    for (int i = 0; i < 4; i++) fprintf(f, " %d:2:%x:%x", i, 4 * i, floats[i]);
    fprintf(f, "\nO 3 g 16 4 0 small\nR 0 0 0 0 s g 4 1 0");
    for (int i = 0; i < 4; i++) fprintf(f, " %d:3:%x:%x", i, 4 * i, i + 1);
    fprintf(f, "\nE 0 0 1 0 0\n");
    fclose(f);
    return buf;
}

static void values_by_array_type(void **state)
{
    (void)state;
    acc_trace t;
    assert_int_equal(read_made(make_types, &t, 0), 0);
    viz_access a = {.t = &t};
    model m;
    assert_int_equal(vam_model_build(&a, 0, &m), 0);
    unsigned big = 0, fl = 0, small = 0;
    for (int i = 0; i < t.narrays; i++) {
        if (strcmp(t.arrays[i].name, "big") == 0) big = (unsigned)i;
        if (strcmp(t.arrays[i].name, "fl") == 0) fl = (unsigned)i;
        if (strcmp(t.arrays[i].name, "small") == 0) small = (unsigned)i;
    }
    char b[40];
    /* an int array: -1600085856, never the float -2.72e-19 its bits also spell */
    vam_value_text(&m, &t, big, 0xa0a0a0a0u, b, sizeof b);
    assert_string_equal(b, "-1600085856");
    vam_value_text(&m, &t, big, 0x12345678u, b, sizeof b);
    assert_string_equal(b, "305419896");
    vam_value_text(&m, &t, big, 7, b, sizeof b);
    assert_string_equal(b, "7");
    /* the correct twin: a float array stays floats, 0.0 included */
    vam_value_text(&m, &t, fl, 0x3fc00000u, b, sizeof b);
    assert_string_equal(b, "1.5");
    vam_value_text(&m, &t, fl, 0xc2280000u, b, sizeof b);
    assert_string_equal(b, "-42");
    vam_value_text(&m, &t, fl, 0, b, sizeof b);
    assert_string_equal(b, "0");
    vam_value_text(&m, &t, small, 3, b, sizeof b);
    assert_string_equal(b, "3");
    vam_model_free(&m);
    /* the cell cursor's line says the whole value */
    viz_access_sel sel = {0};
    sel.on = 1;
    canvas *c = canvas_new(80, 24);
    viz_frame_info info;
    int seen = 0;
    for (sel.strip = 0; sel.strip < 3; sel.strip++) {
        viz_info_clear(&info);
        canvas_clear(c);
        viz_access_draw(&a, &sel, 0, c, canvas_bounds(c), &info);
        viz_text_opts o = {VIZ_TEXT_PLAIN, 0, 1};
        char *text = viz_text_render(c, &o, NULL);
        if (strstr(text, "big[0] =")) assert_non_null(strstr(text, "big[0] = -1600085856")), seen |= 1;
        if (strstr(text, "fl[0] =")) assert_non_null(strstr(text, "fl[0] = 1.5")), seen |= 2;
        free(text);
    }
    assert_int_equal(seen, 3);
    canvas_free(c);
    acc_trace_free(&t);
}

/* A block sum's shared array declared larger than a block uses:
 * part[1024] (4 KiB) of which each block of 64 writes 64 slots, after
 * reading a[] of 256 floats, of which the two blocks read 128. */
static char *make_part(size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    fprintf(f, "# gpulab access trace 1, blocks 4, lanes 1048576\n");
    fprintf(f, "L 0 2,1,1 64,1,1 0 30 blocksum\nS 0 401000\nS 1 401010\n");
    fprintf(f, "O 1 g 1024 4 0 a\nO 2 s 4096 4 0 part\n");
    for (int b = 0; b < 2; b++)
        for (int w = 0; w < 2; w++) {
            fprintf(f, "R %d %d 0 0 l g 4 4 0", b, w);
            for (int l = 0; l < 32; l++) fprintf(f, " %d:1:%x:%x", l, 4 * (b * 64 + w * 32 + l), 0x3f800000u);
            fprintf(f, "\nR %d %d 0 1 s s 4 0 1", b, w);
            for (int l = 0; l < 32; l++) fprintf(f, " %d:2:%x:%x", l, 4 * (w * 32 + l), 0x3f800000u);
            fprintf(f, "\n");
        }
    fprintf(f, "E 0 0 1 0 0\n");
    fclose(f);
    return buf;
}

/* A shared strip shows the cells the launch touches in that block (part[]:
 * 0..63 of 1024, one line), a global array stays whole (a[]: its 128 cells
 * nobody read are what a wrong grid leaves); at 80x24 both blocks' part[]
 * fit under a[]. */
static void shared_strip_trimmed(void **state)
{
    (void)state;
    acc_trace t;
    assert_int_equal(read_made(make_part, &t, 0), 0);
    viz_access a = {.t = &t};
    model m;
    assert_int_equal(vam_model_build(&a, 0, &m), 0);
    assert_int_equal(m.ns, 3);
    int seen = 0;
    for (int i = 0; i < m.ns; i++) {
        const acc_array *ar = &t.arrays[m.s[i].array];
        if (strcmp(ar->name, "a") == 0) {
            assert_int_equal(m.s[i].lo, 0);
            assert_int_equal(m.s[i].n, 256);
            seen |= 1;
        } else {
            assert_string_equal(ar->name, "part");
            assert_int_equal(ar->cells, 1024);
            assert_int_equal(m.s[i].lo, 0);
            assert_int_equal(m.s[i].n, 64);
            seen |= m.s[i].block == 0 ? 2 : 4;
        }
    }
    assert_int_equal(seen, 7);
    vam_model_free(&m);
    canvas *c = canvas_new(80, 24);
    viz_frame_info info;
    viz_info_clear(&info);
    viz_access_draw(&a, NULL, 0, c, canvas_bounds(c), &info);
    viz_text_opts o = {VIZ_TEXT_PLAIN, 0, 1};
    char *text = viz_text_render(c, &o, NULL);
    assert_non_null(strstr(text, "a  global, 4-byte cells, 256 of them"));
    assert_non_null(strstr(text, "part  shared, block 0, 4-byte cells 0\u201363 of 1024"));
    assert_non_null(strstr(text, "part  shared, block 1, 4-byte cells 0\u201363 of 1024"));
    assert_null(strstr(text, "more arrays do not fit"));
    free(text);
    canvas_free(c);
    acc_trace_free(&t);
}

static canvas *draw(const viz_access *a, const viz_access_sel *sel, int frame, int w, int h, viz_frame_info *info)
{
    canvas *c = canvas_new(w, h);
    viz_info_clear(info);
    viz_access_draw(a, sel, frame, c, canvas_bounds(c), info);
    return c;
}

static long long counter(const viz_frame_info *info, const char *name)
{
    for (int i = 0; i < info->ncounters; i++)
        if (strcmp(info->counters[i].name, name) == 0) return info->counters[i].value;
    fail_msg("no counter %s", name);
    return -1;
}

static void steps(void **state)
{
    (void)state;
    viz_access a = {.t = &T};
    assert_int_equal(viz_access_frames(&a), 3); /* shift's two epochs, half's one */
    viz_access z = {.t = &T, .zoom = 1};
    assert_int_equal(viz_access_frames(&z), 4 + 8);
    /* zooming keeps the place: half's epoch 0 starts at its first request */
    assert_int_equal(viz_access_frame_map(&a, 2, &z), 4);
    assert_int_equal(viz_access_frame_map(&a, 1, &z), 2);
    assert_int_equal(viz_access_frame_map(&z, 3, &a), 1);
    viz_frame_info info;
    canvas *c = draw(&z, NULL, 3, 80, 20, &info);
    assert_non_null(strstr(info.title, "line 9"));
    assert_int_equal(counter(&info, "requests"), 1);
    canvas_free(c);
}

static void race_and_counters(void **state)
{
    (void)state;
    viz_access a = {.t = &T};
    viz_frame_info info;
    canvas *c = draw(&a, NULL, 0, 80, 20, &info);
    assert_int_equal(counter(&info, "threads"), 8);
    assert_int_equal(counter(&info, "races"), 0);
    assert_int_equal(counter(&info, "sectors"), 1);
    assert_int_equal(counter(&info, "ideal sectors"), 1);
    assert_int_equal(counter(&info, "bank conflicts"), 0);
    assert_int_equal(counter(&info, "divergent warps"), 0);
    canvas_free(c);
    /* epoch 1: two threads write each out[k] */
    c = draw(&a, NULL, 1, 80, 20, &info);
    assert_int_equal(counter(&info, "races"), 4);
    assert_non_null(strstr(info.caption, "race"));
    /* the race cells carry the conflict role and !-free values; plain
     * text keeps the thread with + (more than one) */
    viz_text_opts o = {.mode = VIZ_TEXT_PLAIN};
    char *text = viz_text_render(c, &o, NULL);
    assert_non_null(strstr(text, "out  global"));
    assert_non_null(strstr(text, "7+"));
    free(text);
    int conflict = 0;
    for (int y = 0; y < c->h; y++)
        for (int x = 0; x < c->w; x++) conflict += canvas_at(c, x, y)->role == VIZ_ROLE_CONFLICT;
    assert_true(conflict >= 4);
    canvas_free(c);
    /* half: warp 0 of each block runs 16 of 32 lanes, warp 1 all of its 8 */
    c = draw(&a, NULL, 2, 80, 30, &info);
    assert_int_equal(counter(&info, "divergent warps"), 2);
    assert_int_equal(counter(&info, "threads"), 48);
    assert_int_equal(counter(&info, "sectors"), 2 * (2 + 2 + 1 + 1));
    assert_non_null(strstr(info.caption, "first 2 of 5 blocks"));
    text = viz_text_render(c, &o, NULL);
    assert_non_null(strstr(text, "b0 w0 \xe2\x96\x88")); /* b0 w0 █ */
    assert_non_null(strstr(text, "16/32 divergent"));
    assert_non_null(strstr(text, "8/8"));
    free(text);
    canvas_free(c);
}

static void selection(void **state)
{
    (void)state;
    viz_access a = {.t = &T, .source = SRC, .source_len = SRC_LEN};
    viz_access_sel sel = {.on = 1, .strip = 9, .cell = 99};
    viz_access_clamp(&a, 1, &sel); /* strips: a, out, then s of block 0 */
    assert_int_equal(sel.strip, 2);
    assert_int_equal(sel.cell, 7);
    sel.strip = 1; /* out */
    sel.cell = 2;
    assert_int_equal(viz_access_pick_thread(&a, 1, &sel), 0);
    assert_int_equal(sel.thread, 5); /* the last of threads 4 and 5 */
    assert_int_equal(sel.block, 0);
    int marks[8], hl;
    int n = viz_access_lines(&a, &sel, 1, &hl, marks, 8);
    assert_int_equal(hl, 9);
    assert_int_equal(n, 1);
    assert_int_equal(marks[0], 9);
    /* a cell of a read in epoch 0 (a[3]): marked at line 7 */
    viz_access_sel sa = {.on = 1, .strip = 0, .cell = 3};
    n = viz_access_lines(&a, &sa, 1, &hl, marks, 8);
    assert_int_equal(n, 1);
    assert_int_equal(marks[0], 7);
    viz_frame_info info;
    canvas *c = draw(&a, &sel, 1, 100, 24, &info);
    viz_text_opts o = {.mode = VIZ_TEXT_PLAIN};
    char *text = viz_text_render(c, &o, NULL);
    assert_non_null(strstr(text, "out[2] = 16"));
    assert_non_null(strstr(text, "thread 4 of block 0 (warp 0) wrote it at line 9"));
    assert_non_null(strstr(text, "thread 5 of block 0:"));
    free(text);
    /* the cell under the cursor is the highlight */
    int hi = 0;
    for (int y = 0; y < c->h; y++)
        for (int x = 0; x < c->w; x++) hi += canvas_at(c, x, y)->role == VIZ_ROLE_HIGHLIGHT;
    assert_true(hi > 0);
    canvas_free(c);
    /* a click on a cell selects it */
    viz_access_sel k = {0};
    canvas *c2 = draw(&a, NULL, 1, 100, 24, &info);
    int found = 0;
    for (int y = 0; y < c2->h && !found; y++) {
        char row[256];
        canvas_row_text(c2, y, row, sizeof row);
        if (strncmp(row, "out", 3) == 0) {
            assert_int_equal(viz_access_hit(&a, 1, canvas_bounds(c2), 1, y + 1, &k), 0);
            found = 1;
        }
    }
    assert_true(found);
    assert_int_equal(k.strip, 1);
    assert_int_equal(k.cell, 0);
    canvas_free(c2);
}

static void pure(void **state)
{
    (void)state;
    viz_access a = {.t = &T};
    viz_frame_info i1, i2;
    canvas *c1 = draw(&a, NULL, 1, 90, 20, &i1);
    canvas *tmp = draw(&a, NULL, 2, 90, 20, &i2);
    canvas *c2 = draw(&a, NULL, 1, 90, 20, &i2);
    for (int k = 0; k < c1->w * c1->h; k++) { /* field by field: the struct has padding */
        assert_int_equal(c1->cells[k].cp, c2->cells[k].cp);
        assert_int_equal(c1->cells[k].role, c2->cells[k].role);
        assert_int_equal(c1->cells[k].attr, c2->cells[k].attr);
        assert_int_equal(c1->cells[k].bg, c2->cells[k].bg);
    }
    assert_string_equal(i1.caption, i2.caption);
    canvas_free(c1);
    canvas_free(c2);
    canvas_free(tmp);
    /* nothing outside the area */
    canvas *c = canvas_new(60, 20);
    viz_frame_info info;
    viz_info_clear(&info);
    viz_access_draw(&a, NULL, 1, c, viz_rect_make(5, 3, 30, 8), &info);
    for (int y = 0; y < c->h; y++)
        for (int x = 0; x < c->w; x++)
            if (x < 5 || x >= 35 || y < 3 || y >= 11) assert_int_equal(canvas_at(c, x, y)->cp, ' ');
    canvas_free(c);
}

/* A player screen of one frame, against tests/access/golden/NAME. */
static void golden_player(viz_access *a, const viz_play_state *st, int w, int h, viz_text_mode mode, const char *name)
{
    viz_side side = {.label = a->source_name ? a->source_name : "shfl.cu", .acc = a};
    char heading[160];
    snprintf(heading, sizeof heading, "%s on the simulator: every access of the first 4 blocks of each launch",
             side.label);
    viz_player_opts o = {.heading = heading};
    canvas *c = canvas_new(w, h);
    viz_player_compose(c, &side, 1, st, &o);
    viz_text_opts to = {.mode = mode};
    size_t n;
    char *text = viz_text_render(c, &to, &n);
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/access/golden/%s", SOURCE_DIR, name);
    golden_check(path, text, n);
    free(text);
    canvas_free(c);
}

static void golden_screen(int w, int h, viz_text_mode mode, int code, const char *name)
{
    viz_access a = {.t = &T, .source = SRC, .source_len = SRC_LEN, .source_name = "shift.cu"};
    viz_play_state st;
    viz_play_init(&st, viz_access_frames(&a));
    st.frame = 1;
    st.code = code;
    st.sel.on = 1;
    st.sel.strip = 1;
    st.sel.cell = 2;
    golden_player(&a, &st, w, h, mode, name);
}

static void g80_colour(void **s) { (void)s; golden_screen(80, 24, VIZ_TEXT_COLOUR, 0, "access-80x24.ansi"); }
static void g80_mono(void **s) { (void)s; golden_screen(80, 24, VIZ_TEXT_MONO, 0, "access-80x24.mono"); }
static void g80_plain(void **s) { (void)s; golden_screen(80, 24, VIZ_TEXT_PLAIN, 0, "access-80x24.txt"); }
static void g80_code(void **s) { (void)s; golden_screen(80, 24, VIZ_TEXT_COLOUR, 1, "access-code-80x24.ansi"); }
static void g80_code_mono(void **s) { (void)s; golden_screen(80, 24, VIZ_TEXT_MONO, 1, "access-code-80x24.mono"); }
static void g120_colour(void **s) { (void)s; golden_screen(120, 40, VIZ_TEXT_COLOUR, 0, "access-120x40.ansi"); }
static void g120_mono(void **s) { (void)s; golden_screen(120, 40, VIZ_TEXT_MONO, 0, "access-120x40.mono"); }
static void g120_plain(void **s) { (void)s; golden_screen(120, 40, VIZ_TEXT_PLAIN, 0, "access-120x40.txt"); }

/* The keys of the generic animation: the cursor, the thread, the zoom, the
 * code pane; the same keys do nothing without an access side. */
static void keys(void **state)
{
    (void)state;
    viz_access a = {.t = &T, .source = SRC, .source_len = SRC_LEN, .source_name = "shift.cu"};
    viz_side side = {.label = "shift.cu", .acc = &a};
    viz_play_state st;
    viz_play_init(&st, viz_access_frames(&a));
    viz_player_key_sides(&st, VIZ_KEY_RIGHT, &side, 1);
    assert_int_equal(st.frame, 1);
    viz_player_key_sides(&st, 'c', &side, 1);
    assert_true(st.sel.on);
    viz_player_key_sides(&st, VIZ_KEY_DOWN, &side, 1); /* to out */
    viz_player_key_sides(&st, VIZ_KEY_RIGHT, &side, 1);
    viz_player_key_sides(&st, VIZ_KEY_RIGHT, &side, 1);
    assert_int_equal(st.frame, 1); /* the arrows move the cursor now */
    assert_int_equal(st.sel.strip, 1);
    assert_int_equal(st.sel.cell, 2);
    viz_player_key_sides(&st, '\r', &side, 1);
    assert_true(st.sel.thread_on);
    assert_int_equal(st.sel.thread, 5);
    viz_player_key_sides(&st, 'p', &side, 1); /* p still steps back */
    assert_int_equal(st.frame, 0);
    viz_player_key_sides(&st, 'z', &side, 1);
    assert_int_equal(st.zoom, 1);
    assert_int_equal(st.nframes, 12);
    assert_int_equal(st.frame, 0);
    viz_player_key_sides(&st, VIZ_KEY_ESC, &side, 1); /* Esc puts the cursor away first */
    assert_false(st.sel.on);
    assert_false(st.quit);
    viz_player_key_sides(&st, VIZ_KEY_ESC, &side, 1);
    assert_true(st.quit);
    /* without a generic animation c and z are nobody's keys */
    viz_play_state p;
    viz_play_init(&p, 5);
    assert_int_equal(viz_player_key(&p, 'c'), 0);
    assert_false(p.sel.on);
    assert_int_equal(viz_player_key(&p, 'z'), 0);
    /* the help overlay lists them only with an access side */
    canvas *c = canvas_new(100, 30);
    st.quit = 0;
    st.help = 1;
    viz_player_compose(c, &side, 1, &st, NULL);
    viz_text_opts o = {.mode = VIZ_TEXT_PLAIN};
    char *text = viz_text_render(c, &o, NULL);
    assert_non_null(strstr(text, "follow the cell's thread"));
    free(text);
    canvas_free(c);
}

/* A click on the player's screen selects the cell under it. */
static void click(void **state)
{
    (void)state;
    viz_access a = {.t = &T, .source = SRC, .source_len = SRC_LEN, .source_name = "shift.cu"};
    viz_side side = {.label = "shift.cu", .acc = &a};
    viz_play_state st;
    viz_play_init(&st, viz_access_frames(&a));
    st.frame = 1;
    canvas *c = canvas_new(100, 30);
    viz_player_compose(c, &side, 1, &st, NULL);
    int y = -1;
    for (int r = 0; r < c->h && y < 0; r++) {
        char row[512];
        canvas_row_text(c, r, row, sizeof row);
        if (strncmp(row, "out  global", 11) == 0) y = r;
    }
    assert_true(y > 0);
    assert_int_equal(viz_player_click(&st, &side, 1, NULL, c->w, c->h, 40, y), 0); /* the label is no cell */
    assert_false(st.sel.on);
    assert_int_equal(viz_player_click(&st, &side, 1, NULL, c->w, c->h, 4, y + 1), 1);
    assert_true(st.sel.on);
    assert_int_equal(st.sel.strip, 1);
    assert_int_equal(st.sel.cell, 1); /* cells of 3 columns: x 4 is the second */
    canvas_free(c);
}

/* ------------------------------------------------ warp collectives */

/* wsum<<<1, 32>>> (tests/access/shfl.cu's pattern, by hand): v = in[lane];
 * v = __shfl_down_sync(.., v, 16) (lines 11); __ballot_sync(.., lane >= 20)
 * (line 12); __syncthreads() (line 17); out[0] = 496 (line 18). */
static char *make_wsum(size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    fprintf(f, "# gpulab access trace 1, blocks 4, lanes 1048576\n");
    fprintf(f, "L 0 1,1,1 32,1,1 0 40 wsum\nS 0 501000\nO 1 g 128 0 0 in\nR 0 0 0 0 l g 4 4 0");
    for (int i = 0; i < 32; i++) fprintf(f, " %d:1:%x:%x", i, 4 * i, i);
    fprintf(f, "\nP 1 11 __shfl_down_sync shfl.cu\nC 0 0 0 2 1 16 32");
    for (int i = 0; i < 32; i++) fprintf(f, " %d:%d:%x:%x", i, i < 16 ? i + 16 : i, i, i < 16 ? i + 16 : i);
    fprintf(f, "\nP 2 12 __ballot_sync shfl.cu\nC 0 0 0 4 2 0 32");
    for (int i = 0; i < 32; i++) fprintf(f, " %d:%d:%x:fff00000", i, i, i >= 20);
    fprintf(f, "\nP 3 17 __syncthreads shfl.cu\nB 0 0 b 3 32\nS 4 501010\nO 2 g 4 0 0 out\n");
    fprintf(f, "R 0 0 1 4 s g 4 1 0 0:2:0:1f0\nE 0 0 1 0 0\n");
    fclose(f);
    return buf;
}

static acc_trace W;

static int wsum_setup(void)
{
    return read_made(make_wsum, &W, 0);
}

static char *plain(const canvas *c)
{
    viz_text_opts o = {.mode = VIZ_TEXT_PLAIN};
    return viz_text_render(c, &o, NULL);
}

static void collectives_parsed(void **state)
{
    (void)state;
    assert_int_equal(wsum_setup(), 0);
    assert_int_equal(W.nlaunches, 1);
    assert_int_equal(W.launches[0].epochs, 2);
    assert_int_equal(W.launches[0].nreq, 2);
    assert_int_equal(W.launches[0].nwop, 2);
    assert_int_equal(W.launches[0].nbar, 1);
    const acc_wop *s = &W.wops[0];
    assert_int_equal(s->op, ACC_SHFL_DOWN);
    assert_int_equal(s->arg, 16);
    assert_int_equal(s->width, 32);
    assert_int_equal(s->mask, 0xffffffffu);
    assert_string_equal(W.sites[s->site].name, "__shfl_down_sync");
    assert_string_equal(W.sites[s->site].file, "shfl.cu");
    assert_int_equal(W.sites[s->site].line, 11);
    const acc_wlane *l3 = &W.wlanes[s->lane0 + 3];
    assert_int_equal(l3->lane, 3);
    assert_int_equal(l3->src, 19);
    assert_int_equal(l3->result, 19);
    /* program order within the warp: load, shuffle, ballot, then the store */
    assert_int_equal(W.reqs[0].seq, 0);
    assert_int_equal(W.wops[0].seq, 1);
    assert_int_equal(W.wops[1].seq, 2);
    assert_int_equal(W.reqs[1].seq, 3);
    assert_int_equal(W.bars[0].threads, 32);
    assert_int_equal(W.bars[0].epoch, 0);
    assert_false(W.bars[0].grid);
    /* positions are named already: resolving leaves them */
    acc_trace_resolve(&W, NULL);
    assert_int_equal(W.sites[W.bars[0].site].line, 17);
    /* the lane bound counts a collective's lanes too */
    acc_trace b;
    assert_int_equal(read_made(make_wsum, &b, 40), 0);
    assert_int_equal(b.nwops, 0);  /* the load's 32 lanes fit, the collectives' 64 do not */
    assert_int_equal(b.nreqs, 2);
    assert_int_equal(b.dropped, 32 + 32);
    acc_trace_free(&b);
}

static void collectives_drawn(void **state)
{
    (void)state;
    viz_access a = {.t = &W}, z = {.t = &W, .zoom = 1};
    assert_int_equal(viz_access_frames(&a), 2);
    assert_int_equal(viz_access_frames(&z), 4); /* two requests and two collectives */
    assert_int_equal(viz_access_frame_map(&a, 1, &z), 3);
    assert_int_equal(viz_access_frame_map(&z, 2, &a), 0);
    viz_frame_info info;
    /* the barrier epoch: the collectives in words, the barrier that ends it */
    canvas *c = draw(&a, NULL, 0, 120, 30, &info);
    char *text = plain(c);
    assert_non_null(strstr(text, "line 11 __shfl_down_sync by 16, 1 warp: lane i gets lane i+16's value"));
    assert_non_null(strstr(text, "line 12 __ballot_sync, 1 warp: each lane gets 0xfff00000"));
    assert_non_null(strstr(text, "__syncthreads at line 17 ends the step: the 32 threads of 1 block waited there"));
    assert_non_null(strstr(info.caption, "2 warp collectives work on registers, not memory"));
    assert_non_null(strstr(info.caption, "waits at __syncthreads (line 17)"));
    assert_int_equal(counter(&info, "requests"), 1);
    assert_int_equal(counter(&info, "threads"), 32);
    free(text);
    canvas_free(c);
    /* zoomed in on the shuffle: the lanes, what each sent, from where, what it got */
    c = draw(&z, NULL, 1, 120, 30, &info);
    text = plain(c);
    assert_non_null(strstr(info.title, "line 11"));
    assert_non_null(strstr(info.caption, "Warp 0 of block 0 runs __shfl_down_sync by 16 at line 11"));
    assert_non_null(strstr(info.caption, "No memory is touched"));
    assert_int_equal(counter(&info, "requests"), 0);
    assert_non_null(strstr(text, "from 16 17 18"));
    assert_non_null(strstr(text, "got  16 17 18"));
    assert_null(strstr(text, "ends the step")); /* the ballot still follows */
    free(text);
    canvas_free(c);
    int hl, marks[8];
    viz_access_lines(&z, NULL, 1, &hl, marks, 8);
    assert_int_equal(hl, 11);
    /* the ballot is the epoch's last item: the barrier ends that step */
    c = draw(&z, NULL, 2, 120, 30, &info);
    text = plain(c);
    assert_non_null(strstr(text, "__syncthreads at line 17 ends the step"));
    free(text);
    canvas_free(c);
}

static void collectives_golden(int w, int h, viz_text_mode mode, const char *name)
{
    viz_access a = {.t = &W, .zoom = 1};
    viz_play_state st;
    viz_play_init(&st, viz_access_frames(&a));
    st.zoom = 1;
    st.frame = 1;
    golden_player(&a, &st, w, h, mode, name);
}

static void gs80_colour(void **s) { (void)s; collectives_golden(80, 24, VIZ_TEXT_COLOUR, "shfl-80x24.ansi"); }
static void gs80_mono(void **s) { (void)s; collectives_golden(80, 24, VIZ_TEXT_MONO, "shfl-80x24.mono"); }
static void gs120_plain(void **s) { (void)s; collectives_golden(120, 40, VIZ_TEXT_PLAIN, "shfl-120x40.txt"); }
static void gs120_colour(void **s) { (void)s; collectives_golden(120, 40, VIZ_TEXT_COLOUR, "shfl-120x40.ansi"); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parsed),      cmocka_unit_test(bounded),    cmocka_unit_test(values),
        cmocka_unit_test(values_by_array_type), cmocka_unit_test(shared_strip_trimmed),
        cmocka_unit_test(steps),       cmocka_unit_test(race_and_counters), cmocka_unit_test(selection),
        cmocka_unit_test(pure),        cmocka_unit_test(keys),       cmocka_unit_test(click),       cmocka_unit_test(g80_colour),
        cmocka_unit_test(g80_mono),    cmocka_unit_test(g80_plain),  cmocka_unit_test(g80_code),
        cmocka_unit_test(g80_code_mono), cmocka_unit_test(g120_colour), cmocka_unit_test(g120_mono),
        cmocka_unit_test(g120_plain),  cmocka_unit_test(collectives_parsed), cmocka_unit_test(collectives_drawn),
        cmocka_unit_test(gs80_colour), cmocka_unit_test(gs80_mono),  cmocka_unit_test(gs120_plain),
        cmocka_unit_test(gs120_colour),
    };
    int rc = cmocka_run_group_tests(tests, setup, teardown);
    acc_trace_free(&W);
    return rc;
}
