/* test_render.c - what the pictures say: the reduction tree's counters (busy
 * and idle threads, divergent warps, bank conflicts, barriers), its frames,
 * the timing table, number formatting, the player's keys and screens. The
 * traces are built by hand (fake_reduce.c) so that these tests pin the
 * renderer's reading of the trace contract, independent of the kernels. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/viz/fake_reduce.h"
#include "viz/player.h"
#include "viz/render.h"
#include "viz/term.h"

/* --------------------------------------------------------------- helpers */

static const viz_renderer *reduce(void)
{
    const viz_renderer *r = viz_renderer_find("reduce", "interleaved");
    assert_non_null(r);
    return r;
}

/* Draw frame f at w x h; info and the plain text of the canvas. */
static char *draw(const lab_trace *t, int f, int w, int h, viz_frame_info *info)
{
    canvas *c = canvas_new(w, h);
    viz_info_clear(info);
    reduce()->draw(t, f, c, canvas_bounds(c), info);
    viz_text_opts o = {VIZ_TEXT_PLAIN, 0, 0};
    char *s = viz_text_render(c, &o, NULL);
    canvas_free(c);
    return s;
}

static long long counter(const viz_frame_info *info, const char *name)
{
    for (int i = 0; i < info->ncounters; i++)
        if (strcmp(info->counters[i].name, name) == 0) return info->counters[i].value;
    fail_msg("no counter %s", name);
    return -2;
}

/* The frame whose title is `title`, -1 if none. */
static int find_frame(const lab_trace *t, const char *title)
{
    int n = reduce()->frames(t);
    for (int f = 0; f < n; f++) {
        viz_frame_info info;
        free(draw(t, f, 120, 40, &info));
        if (strcmp(info.title, title) == 0) return f;
    }
    return -1;
}

static void event(lab_trace *t, uint32_t thread, uint32_t epoch, uint32_t seq, int kind, int space,
                  int a, int b, double v, double v2)
{
    lab_event *e = &t->ev[t->count++];
    memset(e, 0, sizeof *e);
    e->thread = thread;
    e->epoch = epoch;
    e->seq = seq;
    e->kind = (uint16_t)kind;
    e->space = (uint16_t)space;
    e->a = a;
    e->b = b;
    e->v = v;
    e->v2 = v2;
}

/* One warp, one tree step where lane i adds s[src(i)] into s[dst(i)]. */
static void one_step_trace(lab_trace *t, int elem_bytes, int (*dst)(int), int (*src)(int))
{
    static lab_event ev[32 * 4];
    memset(t, 0, sizeof *t);
    t->ev = ev;
    t->cap = 32 * 4;
    t->nlaunches = 1;
    t->launches[0].grid[0] = t->launches[0].grid[1] = t->launches[0].grid[2] = 1;
    t->launches[0].block[0] = 32;
    t->launches[0].block[1] = t->launches[0].block[2] = 1;
    t->smem_elem_bytes = elem_bytes;
    t->dtype = LAB_INT;
    snprintf(t->algo, sizeof t->algo, "reduce");
    for (int i = 0; i < 32; i++) {
        event(t, (uint32_t)i, 0, 0, LAB_EV_WRITE, LAB_SP_SHARED, i, 0, 1, 0);
        event(t, (uint32_t)i, 0, 1, LAB_EV_BARRIER, LAB_SP_SHARED, 10, 0, 0, 0);
        if (dst(i) >= 0) event(t, (uint32_t)i, 1, 2, LAB_EV_ADD, LAB_SP_SHARED, dst(i), src(i), 2, 1);
    }
}

static int lane(int i) { return i; }
static int lane_x2(int i) { return 2 * i; }
static int lane_x32(int i) { return 32 * i; }
static int lane_plus32(int i) { return i + 32; }
static int zero(int i) { (void)i; return 0; }
static int half(int i) { return i < 16 ? i : -1; }
static int half_src(int i) { return i + 16; }

/* ------------------------------------------------------- reduction tree */

static void frames_of_each_variant(void **state)
{
    (void)state;
    /* input, load, the steps, the block results, the answer */
    struct { fake_variant v; long long n; int bd; int frames; } cases[] = {
        {FAKE_INTERLEAVED, 32, 32, 1 + 1 + 5 + 1 + 1},
        {FAKE_SEQUENTIAL, 64, 32, 1 + 1 + 5 + 1 + 1},
        {FAKE_ATOMIC_FLOAT, 128, 64, 1 + 1 + 1 + 5 + 1 + 1},
        /* two launches: each with load, tree to 32, five shuffles, a write */
        {FAKE_WARP_SHUFFLE, 128, 64, 1 + 2 * (1 + 1 + 5 + 1) + 1},
        /* load, 5 shuffles, store warp sums, read them, 5 shuffles, atomic */
        {FAKE_VECTOR, 256, 64, 1 + 1 + 5 + 1 + 1 + 5 + 1 + 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lab_trace t;
        assert_int_equal(fake_reduce_trace(&t, cases[i].v, cases[i].n, cases[i].bd, 0, LAB_INT), 0);
        assert_int_equal(reduce()->frames(&t), cases[i].frames);
        /* every frame has a title, a caption ending in a full stop, counters */
        for (int f = 0; f < cases[i].frames; f++) {
            viz_frame_info info;
            free(draw(&t, f, 120, 40, &info));
            assert_true(strlen(info.title) > 0);
            size_t cl = strlen(info.caption);
            assert_true(cl > 20);
            assert_int_equal(info.caption[cl - 1], '.');
            assert_int_equal(info.ncounters, 5);
        }
        fake_trace_free(&t);
    }
}

static void interleaved_counters(void **state)
{
    (void)state;
    lab_trace t;
    fake_reduce_trace(&t, FAKE_INTERLEAVED, 64, 64, 0, LAB_INT);
    viz_frame_info info;
    int f = find_frame(&t, "stride 1");
    assert_true(f > 0);
    char *s = draw(&t, f, 120, 40, &info);
    assert_int_equal(counter(&info, "active threads"), 32);
    assert_int_equal(counter(&info, "idle in active warps"), 32);
    assert_int_equal(counter(&info, "divergent warps"), 2); /* every warp, half busy */
    assert_int_equal(counter(&info, "bank conflicts"), 1);
    assert_int_equal(counter(&info, "barriers passed"), 2);
    assert_non_null(strstr(info.caption, "divergence"));
    assert_non_null(strstr(s, "\xe2\x97\x84")); /* ◄: the pairs are drawn as arrows */
    free(s);
    f = find_frame(&t, "stride 32");
    s = draw(&t, f, 120, 40, &info);
    assert_int_equal(counter(&info, "active threads"), 1);
    assert_int_equal(counter(&info, "idle in active warps"), 31);
    assert_int_equal(counter(&info, "divergent warps"), 1);
    assert_int_equal(counter(&info, "barriers passed"), 7);
    /* stride 32 in a block of 64: warp 1 has no working thread and skips */
    assert_non_null(strstr(info.caption, "the other warp skips the addition as a whole"));
    free(s);
    /* the load frame, and frames where the counters do not apply */
    s = draw(&t, 1, 120, 40, &info);
    assert_string_equal(info.title, "load");
    assert_int_equal(counter(&info, "active threads"), 64);
    assert_int_equal(counter(&info, "divergent warps"), 0);
    assert_int_equal(counter(&info, "barriers passed"), 1);
    free(s);
    s = draw(&t, 0, 120, 40, &info);
    assert_int_equal(counter(&info, "active threads"), VIZ_COUNTER_NONE);
    free(s);
    int last = reduce()->frames(&t) - 1;
    s = draw(&t, last, 120, 40, &info);
    assert_string_equal(info.title, "result");
    assert_non_null(strstr(info.caption, "the same as the CPU"));
    assert_non_null(strstr(s, "\xe2\x9c\x93 equal"));
    free(s);
    fake_trace_free(&t);
}

static void sequential_counters(void **state)
{
    (void)state;
    lab_trace t;
    fake_reduce_trace(&t, FAKE_SEQUENTIAL, 256, 128, 0, LAB_INT);
    viz_frame_info info;
    int f = find_frame(&t, "stride 64");
    char *s = draw(&t, f, 200, 60, &info);
    assert_int_equal(counter(&info, "active threads"), 64);
    assert_int_equal(counter(&info, "idle in active warps"), 0);
    assert_int_equal(counter(&info, "divergent warps"), 0); /* the idle warps skip the step whole */
    assert_non_null(strstr(info.caption, "no warp diverges"));
    assert_non_null(strstr(info.caption, "2 warps skip the addition as a whole"));
    assert_non_null(strstr(info.caption, "still run the loop and reach __syncthreads()"));
    assert_null(strstr(info.caption, "retire"));
    assert_non_null(strstr(s, "+64")); /* a source two rows down: its offset */
    free(s);
    f = find_frame(&t, "stride 32");
    s = draw(&t, f, 200, 60, &info);
    assert_non_null(strstr(s, "\xe2\x96\xb2")); /* ▲: the source right below */
    free(s);
    f = find_frame(&t, "stride 8");
    s = draw(&t, f, 200, 60, &info);
    assert_int_equal(counter(&info, "active threads"), 8);
    assert_int_equal(counter(&info, "idle in active warps"), 24);
    assert_int_equal(counter(&info, "divergent warps"), 1);
    assert_non_null(strstr(info.caption, "(divergence)")); /* below 32 the last warp diverges */
    assert_non_null(strstr(info.caption, "3 warps skip"));
    assert_non_null(strstr(s, "+8"));
    free(s);
    f = find_frame(&t, "stride 1");
    s = draw(&t, f, 200, 60, &info);
    assert_non_null(strstr(info.caption, "thread 0 alone"));
    free(s);
    fake_trace_free(&t);
}

static void bank_conflicts(void **state)
{
    (void)state;
    lab_trace t;
    viz_frame_info info;
    struct { int bytes; int (*dst)(int); int (*src)(int); long long ways; } cases[] = {
        {4, lane, lane_plus32, 1},     /* consecutive words: every bank once */
        {4, lane_x2, lane_x2, 2},      /* stride 2: two words in each even bank */
        {4, lane_x32, lane_x32, 32},   /* stride 32: all lanes in bank 0 */
        {4, zero, zero, 1},            /* one word for all: a broadcast */
        {8, lane, lane_plus32, -2},    /* 8-byte values: two passes per warp, no conflict (a word) */
        {8, lane_x2, lane_x2, 4},      /* 8-byte values, stride 2: four passes */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        one_step_trace(&t, cases[i].bytes, cases[i].dst, cases[i].src);
        int f = 2; /* input, load, the step */
        free(draw(&t, f, 200, 60, &info));
        assert_int_equal(counter(&info, "bank conflicts"), cases[i].ways);
        assert_int_equal(counter(&info, "active threads"), 32);
        if (cases[i].bytes == 8) { /* said as what it is, not as "2-way" */
            char text[512];
            viz_info_counters_text(&info, text, sizeof text);
            assert_non_null(strstr(text, cases[i].ways < 0 ? "bank conflicts none (8-byte sums: 2 passes"
                                                          : "bank conflicts 4 passes (8-byte sums: 2 at the least)"));
        }
    }
    one_step_trace(&t, 4, lane_x32, lane_x32);
    free(draw(&t, 2, 200, 60, &info));
    assert_non_null(strstr(info.caption, "32-way bank conflicts"));
    one_step_trace(&t, 4, half, half_src);
    free(draw(&t, 2, 200, 60, &info));
    assert_int_equal(counter(&info, "active threads"), 16);
    assert_int_equal(counter(&info, "divergent warps"), 1);
    assert_int_equal(counter(&info, "bank conflicts"), 1);
}

static void shuffles_and_launches(void **state)
{
    (void)state;
    lab_trace t;
    viz_frame_info info;
    fake_reduce_trace(&t, FAKE_WARP_SHUFFLE, 256, 128, 0, LAB_INT);
    int f = find_frame(&t, "shuffle offset 16");
    assert_true(f > 0);
    char *s = draw(&t, f, 200, 60, &info);
    assert_int_equal(counter(&info, "active threads"), 32 * 2); /* warp 0 of both blocks */
    assert_int_equal(counter(&info, "bank conflicts"), VIZ_COUNTER_NONE); /* registers, no banks */
    assert_non_null(strstr(info.caption, "no __syncthreads()"));
    assert_non_null(strstr(s, "w0 shows registers"));
    free(s);
    f = find_frame(&t, "block sums");
    assert_true(f > 0);
    s = draw(&t, f, 200, 60, &info);
    assert_non_null(strstr(info.caption, "second launch"));
    assert_non_null(strstr(s, "next launch adds them"));
    free(s);
    f = find_frame(&t, "launch 2: load");
    assert_true(f > 0);
    free(draw(&t, f, 200, 60, &info));
    assert_non_null(strstr(info.caption, "2 partial sums"));
    fake_trace_free(&t);

    /* the vector variant: shuffles, warp sums through shared memory */
    fake_reduce_trace(&t, FAKE_VECTOR, 256, 64, 0, LAB_INT);
    assert_true(find_frame(&t, "store warp sums") > 0);
    assert_true(find_frame(&t, "read warp sums") > find_frame(&t, "store warp sums"));
    free(draw(&t, 1, 120, 40, &info));
    assert_non_null(strstr(info.caption, "registers"));
    fake_trace_free(&t);

    /* floats: the answer differs from the CPU's in the last bits */
    fake_reduce_trace(&t, FAKE_ATOMIC_FLOAT, 1000, 128, 0, LAB_FLOAT);
    int last = reduce()->frames(&t) - 1;
    free(draw(&t, last, 120, 40, &info));
    assert_non_null(strstr(info.caption, "Done"));
    fake_trace_free(&t);
}

static void frames_are_pure(void **state)
{
    (void)state;
    lab_trace t;
    fake_reduce_trace(&t, FAKE_INTERLEAVED, 256, 64, 0, LAB_INT);
    viz_frame_info a, b;
    char *s1 = draw(&t, 5, 120, 40, &a);
    free(draw(&t, 2, 120, 40, &b));
    free(draw(&t, 8, 80, 24, &b));
    char *s2 = draw(&t, 5, 120, 40, &b);
    assert_string_equal(s1, s2);
    assert_string_equal(a.caption, b.caption);
    free(s2);
    /* the same events in key order draw the same */
    lab_trace sorted = t;
    sorted.ev = malloc(t.count * sizeof *t.ev);
    memcpy(sorted.ev, t.ev, t.count * sizeof *t.ev);
    for (size_t i = 1; i < sorted.count; i++) /* insertion sort by the trace key */
        for (size_t j = i; j > 0; j--) {
            lab_event *x = &sorted.ev[j - 1], *y = &sorted.ev[j];
            int gt = x->launch != y->launch ? x->launch > y->launch
                   : x->block != y->block   ? x->block > y->block
                   : x->thread != y->thread ? x->thread > y->thread
                                            : x->seq > y->seq;
            if (!gt) break;
            lab_event tmp = *x;
            *x = *y;
            *y = tmp;
        }
    s2 = draw(&sorted, 5, 120, 40, &b);
    assert_string_equal(s1, s2);
    free(s2);
    free(sorted.ev);
    /* drawing stays inside its area */
    canvas *c = canvas_new(100, 30);
    canvas_fill(c, canvas_bounds(c), '@', VIZ_ROLE_TEXT, 0);
    canvas_fill(c, viz_rect_make(10, 5, 60, 20), ' ', VIZ_ROLE_TEXT, 0);
    reduce()->draw(&t, 4, c, viz_rect_make(10, 5, 60, 20), &a);
    for (int y = 0; y < 30; y++)
        for (int x = 0; x < 100; x++)
            if (x < 10 || x >= 70 || y < 5 || y >= 25) assert_int_equal(canvas_at(c, x, y)->cp, '@');
    assert_int_equal(c->clip.w, 100); /* the clip is given back */
    canvas_free(c);
    free(s1);
    fake_trace_free(&t);
}

static void tree_view_for_small_blocks(void **state)
{
    (void)state;
    lab_trace t;
    fake_reduce_trace(&t, FAKE_INTERLEAVED, 32, 32, 0, LAB_INT);
    viz_frame_info info;
    int f = find_frame(&t, "stride 4");
    char *s = draw(&t, f, 200, 60, &info);
    /* every step so far, one under the other */
    assert_non_null(strstr(s, "load"));
    assert_non_null(strstr(s, "+1"));
    assert_non_null(strstr(s, "+2"));
    assert_non_null(strstr(s, "+4"));
    assert_null(strstr(s, "+8"));
    free(s);
    fake_trace_free(&t);
}

static void empty_and_tiny(void **state)
{
    (void)state;
    lab_trace t;
    memset(&t, 0, sizeof t);
    assert_int_equal(reduce()->frames(&t), 2); /* input and result: nothing else to show */
    viz_frame_info info;
    free(draw(&t, 0, 80, 24, &info));
    free(draw(&t, 99, 80, 24, &info)); /* out of range: clamped */
    fake_reduce_trace(&t, FAKE_INTERLEAVED, 256, 256, 0, LAB_INT);
    for (int f = 0; f < reduce()->frames(&t); f++) {
        free(draw(&t, f, 10, 3, &info)); /* far too small: must not crash */
        free(draw(&t, f, 1, 1, &info));
    }
    fake_trace_free(&t);
}

/* --------------------------------------------------------------- numbers */

static void format_values(void **state)
{
    (void)state;
    char b[32];
    assert_string_equal(viz_fmt_value(12345, LAB_INT, 5, b, sizeof b), "12345");
    assert_string_equal(viz_fmt_value(12345, LAB_INT, 3, b, sizeof b), "12k");
    assert_string_equal(viz_fmt_value(1234567, LAB_INT, 5, b, sizeof b), "1235k");
    assert_string_equal(viz_fmt_value(1234567, LAB_INT, 4, b, sizeof b), "1.2M");
    assert_string_equal(viz_fmt_value(123456789, LAB_INT, 4, b, sizeof b), "123M");
    assert_string_equal(viz_fmt_value(1.23, LAB_FLOAT, 6, b, sizeof b), "1.23");
    assert_string_equal(viz_fmt_value(2.75, LAB_DOUBLE, 2, b, sizeof b), "3");
    assert_string_equal(viz_fmt_value(-5, LAB_INT, 2, b, sizeof b), "-5");
    assert_string_equal(viz_fmt_value(0, LAB_FLOAT, 3, b, sizeof b), "0");
    assert_string_equal(viz_fmt_value(3e30, LAB_DOUBLE, 4, b, sizeof b), "3e30");
}

/* ----------------------------------------------------------------- table */

static lab_result row(const char *variant, int ran, int correct, double ms)
{
    lab_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.algo, sizeof r.algo, "reduce");
    snprintf(r.variant, sizeof r.variant, "%s", variant);
    r.backend = LAB_BACKEND_SIM;
    r.n = 1 << 20;
    r.block = 256;
    r.grid = 4096;
    r.ran = ran;
    r.ms = ms;
    r.ms_min = ms * 0.9;
    r.ms_max = ms * 1.2;
    r.repeats = 5;
    r.gbps = r.pct_peak = r.speedup = -1;
    r.correct = correct;
    snprintf(r.result, sizeof r.result, "%s", ran ? "3321858913" : "");
    if (!ran) snprintf(r.note, sizeof r.note, "needs a GPU");
    return r;
}

static void timing_table(void **state)
{
    (void)state;
    lab_result rows[3] = {row("interleaved", 1, 1, 12.5), row("broken", 1, 0, 0.25), row("thrust", 0, -1, 0)};
    canvas *c = canvas_new(120, 6);
    int used = viz_table_draw(c, canvas_bounds(c), rows, 3, 0);
    assert_int_equal(used, 5);
    char line[512];
    canvas_row_text(c, 0, line, sizeof line);
    assert_non_null(strstr(line, "variant"));
    assert_non_null(strstr(line, "ms"));
    assert_non_null(strstr(line, "note"));
    canvas_row_text(c, 2, line, sizeof line);
    assert_non_null(strstr(line, "12.50"));
    assert_non_null(strstr(line, "1Mi"));
    assert_int_equal(canvas_at(c, 0, 2)->role, VIZ_ROLE_HIGHLIGHT);
    canvas_row_text(c, 3, line, sizeof line);
    assert_non_null(strstr(line, "\xe2\x9c\x97 wrong"));
    canvas_row_text(c, 4, line, sizeof line);
    assert_non_null(strstr(line, "not run"));
    assert_non_null(strstr(line, "needs a GPU"));
    assert_int_equal(canvas_at(c, 0, 4)->role, VIZ_ROLE_DIM);
    /* narrow: the essentials stay */
    canvas_free(c);
    c = canvas_new(40, 6);
    viz_table_draw(c, canvas_bounds(c), rows, 3, -1);
    canvas_row_text(c, 0, line, sizeof line);
    assert_non_null(strstr(line, "variant"));
    assert_non_null(strstr(line, "ms"));
    assert_non_null(strstr(line, "check"));
    assert_null(strstr(line, "grid"));
    for (int y = 0; y < 6; y++) {
        canvas_row_text(c, y, line, sizeof line);
        assert_true(viz_text_width(line) <= 40);
    }
    canvas_free(c);
    assert_true(viz_table_width(rows, 3) > 60);
    assert_int_equal(viz_table_height(3), 5);
}

/* ---------------------------------------------------------------- player */

static void player_keys(void **state)
{
    (void)state;
    viz_play_state st;
    viz_play_init(&st, 10);
    assert_int_equal(st.frame, 0);
    assert_false(st.playing);
    assert_true(viz_player_key(&st, VIZ_KEY_RIGHT));
    assert_true(viz_player_key(&st, 'n'));
    assert_int_equal(st.frame, 2);
    viz_player_key(&st, VIZ_KEY_LEFT);
    viz_player_key(&st, 'p');
    viz_player_key(&st, 'p');
    assert_int_equal(st.frame, 0); /* stays at the start */
    viz_player_key(&st, VIZ_KEY_END);
    assert_int_equal(st.frame, 9);
    viz_player_key(&st, VIZ_KEY_RIGHT);
    assert_int_equal(st.frame, 9); /* stays at the end */
    viz_player_key(&st, ' ');      /* play at the end: from the start again */
    assert_true(st.playing);
    assert_int_equal(st.frame, 0);
    viz_player_tick(&st);
    assert_int_equal(st.frame, 1);
    viz_player_key(&st, VIZ_KEY_RIGHT); /* stepping pauses */
    assert_false(st.playing);
    assert_int_equal(st.frame, 2);
    viz_player_key(&st, 'r');
    assert_int_equal(st.frame, 0);
    viz_player_key(&st, VIZ_KEY_HOME);
    assert_int_equal(st.frame, 0);
    /* playing stops on the last frame */
    viz_player_key(&st, ' ');
    for (int i = 0; i < 20; i++) viz_player_tick(&st);
    assert_int_equal(st.frame, 9);
    assert_false(st.playing);
    /* speed */
    int d = viz_play_delay_ms(&st);
    viz_player_key(&st, '+');
    assert_true(viz_play_delay_ms(&st) < d);
    for (int i = 0; i < 20; i++) viz_player_key(&st, '+');
    assert_int_equal(st.speed, VIZ_NSPEEDS - 1);
    for (int i = 0; i < 20; i++) viz_player_key(&st, '-');
    assert_int_equal(st.speed, 0);
    /* help: any key closes it and does nothing else */
    viz_player_key(&st, '?');
    assert_true(st.help);
    int f = st.frame;
    viz_player_key(&st, VIZ_KEY_LEFT);
    assert_false(st.help);
    assert_int_equal(st.frame, f);
    assert_true(viz_player_key(&st, VIZ_KEY_RESIZE));
    assert_false(viz_player_key(&st, VIZ_KEY_NONE));
    assert_false(viz_player_key(&st, 'z'));
    assert_false(st.quit);
    viz_player_key(&st, 'q');
    assert_true(st.quit);
    viz_play_init(&st, 3);
    viz_player_key(&st, VIZ_KEY_ESC);
    assert_true(st.quit);
    viz_play_init(&st, 3);
    viz_player_key(&st, VIZ_KEY_INTERRUPT);
    assert_true(st.quit);
}

static char *compose(const viz_side *sides, int n, const viz_play_state *st, const viz_player_opts *o,
                     int w, int h)
{
    canvas *c = canvas_new(w, h);
    viz_player_compose(c, sides, n, st, o);
    viz_text_opts to = {VIZ_TEXT_PLAIN, 0, 0};
    char *s = viz_text_render(c, &to, NULL);
    canvas_free(c);
    return s;
}

static void player_screens(void **state)
{
    (void)state;
    lab_trace a, b;
    fake_reduce_trace(&a, FAKE_INTERLEAVED, 64, 64, 0, LAB_INT);
    fake_reduce_trace(&b, FAKE_SEQUENTIAL, 64, 64, 0, LAB_INT);
    viz_side sides[2] = {{reduce(), &a, "reduce/interleaved", NULL}, {reduce(), &b, "sequential", NULL}};
    lab_result rows[2] = {row("interleaved", 1, 1, 1.5), row("sequential", 1, 1, 0.8)};
    viz_player_opts o = {0, rows, 2, "reduce  n = 64 int  on the simulator", NULL};
    viz_play_state st;
    viz_play_init(&st, reduce()->frames(&a));
    st.frame = 2;
    char *s = compose(sides, 1, &st, &o, 80, 24);
    assert_non_null(strstr(s, "step 3/"));
    assert_non_null(strstr(s, "stride 1"));
    assert_non_null(strstr(s, "variant"));      /* the table */
    assert_non_null(strstr(s, "active threads")); /* the counters */
    assert_non_null(strstr(s, "q back"));
    free(s);
    /* side by side, in step; the shorter one waits on its last frame */
    st.nframes = reduce()->frames(&a) > reduce()->frames(&b) ? reduce()->frames(&a) : reduce()->frames(&b);
    s = compose(sides, 2, &st, &o, 160, 50);
    assert_non_null(strstr(s, "reduce/interleaved"));
    assert_non_null(strstr(s, "sequential  step 3/"));
    free(s);
    /* too small: what size it needs */
    s = compose(sides, 1, &st, &o, 50, 15);
    int mw, mh;
    viz_player_min_size(sides, 1, &o, &mw, &mh);
    char need[64];
    snprintf(need, sizeof need, "%d\xc3\x97%d", mw, mh);
    assert_non_null(strstr(s, "The terminal is 50\xc3\x97" "15"));
    assert_non_null(strstr(s, need));
    assert_non_null(strstr(s, "press q"));
    assert_true(mw <= 80 && mh <= 24);
    free(s);
    /* the help overlay */
    st.help = 1;
    s = compose(sides, 1, &st, &o, 80, 24);
    assert_non_null(strstr(s, "back to the prompt"));
    free(s);
    fake_trace_free(&a);
    fake_trace_free(&b);
}

static void frames_as_text(void **state)
{
    (void)state;
    lab_trace t;
    fake_reduce_trace(&t, FAKE_INTERLEAVED, 32, 32, 0, LAB_INT);
    viz_side side = {reduce(), &t, "reduce/interleaved", NULL};
    lab_result r = row("interleaved", 1, 1, 1.0);
    viz_player_opts o = {1, &r, 1, "reduce/interleaved  n = 32 int  on the simulator", NULL};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(viz_player_print(f, &side, 1, &o, 100), 0);
    fclose(f);
    int n = reduce()->frames(&t);
    for (int i = 1; i <= n; i++) {
        char want[32];
        snprintf(want, sizeof want, "step %d/%d", i, n);
        assert_non_null(strstr(buf, want));
    }
    assert_null(strchr(buf, '\x1b')); /* a file gets no escapes */
    assert_non_null(strstr(buf, "variant")); /* and the table at the end */
    assert_non_null(strstr(buf, "n = 32 int"));
    free(buf);
    fake_trace_free(&t);
}

static void registry(void **state)
{
    (void)state;
    assert_non_null(viz_renderer_find("reduce", "warp-shuffle"));
    assert_non_null(viz_renderer_find("reduce", NULL));
    assert_null(viz_renderer_find("no-such-algorithm", NULL));
    assert_null(viz_renderer_find(NULL, NULL));
    int n = 0;
    for (int i = 0; viz_renderer_at(i); i++) {
        const viz_renderer *r = viz_renderer_at(i);
        assert_non_null(r->frames);
        assert_non_null(r->draw);
        assert_non_null(r->algos);
        n++;
    }
    assert_true(n >= 1);
    assert_null(viz_renderer_at(-1));
}

int main(void)
{
    setenv("TERM", "xterm", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(frames_of_each_variant),
        cmocka_unit_test(interleaved_counters),
        cmocka_unit_test(sequential_counters),
        cmocka_unit_test(bank_conflicts),
        cmocka_unit_test(shuffles_and_launches),
        cmocka_unit_test(frames_are_pure),
        cmocka_unit_test(tree_view_for_small_blocks),
        cmocka_unit_test(empty_and_tiny),
        cmocka_unit_test(format_values),
        cmocka_unit_test(timing_table),
        cmocka_unit_test(player_keys),
        cmocka_unit_test(player_screens),
        cmocka_unit_test(frames_as_text),
        cmocka_unit_test(registry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
