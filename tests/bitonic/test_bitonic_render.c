/* The butterfly renderer against golden files: every frame of the lecture's
 * eight numbers for each kernel variant, recorded on the simulator, as plain
 * text. GPULAB_UPDATE_GOLDEN=1 rewrites the files instead of comparing.
 * Also: the overview of a large trace, a narrow terminal, and a trace whose
 * recorded swaps do not sort (the picture must say so). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/common/golden.h"

#include "kernels/bitonic/bitonic.h"
#include "kernels/family.h"
#include "viz/render.h"
#include "viz/term.h"

static const char *golden_dir = "golden";

static void record(const char *variant, long long n, int block, lab_trace *t)
{
    const lab_algo *a = NULL;
    for (int i = 0; i < lab_algo_count(); i++) /* the registry's own list */
        if (strcmp(lab_algo_at(i)->name, "bitonic") == 0) a = lab_algo_at(i);
    assert_non_null(a);
    lab_config cfg;
    lab_config_defaults(&cfg);
    cfg.backend = LAB_BACKEND_SIM;
    cfg.repeats = 1;
    cfg.n = n;
    cfg.block = block;
    snprintf(cfg.pattern, sizeof cfg.pattern, "%s", n == 8 ? "lecture" : "random");
    lab_input in;
    lab_result r;
    char msg[LAB_ERR_MAX];
    if (lab_input_prepare(&in, a, &cfg, msg, sizeof msg) != 0) fail_msg("%s", msg);
    if (lab_run(&in, lab_variant_find(a, variant), &r, t) != 0) fail_msg("%s: %s", variant, r.note);
    lab_input_free(&in);
}

/* Every frame as text: a heading with the frame's title, caption and
 * counters, then the picture. */
static char *render_all(const lab_trace *t, int w, int h)
{
    const viz_renderer *r = viz_renderer_find("bitonic", t->variant);
    assert_non_null(r);
    int frames = r->frames(t);
    canvas *c = canvas_new(w, h);
    assert_non_null(c);
    size_t cap = 1 << 16, len = 0;
    char *out = malloc(cap);
    out[0] = 0;
    viz_text_opts o = {VIZ_TEXT_PLAIN, 0, 1};
    for (int f = 0; f < frames; f++) {
        canvas_clear(c);
        viz_frame_info info;
        viz_info_clear(&info);
        r->draw(t, f, c, viz_rect_make(0, 0, w, h), &info);
        char counters[512];
        viz_info_counters_text(&info, counters, sizeof counters);
        size_t tl;
        char *text = viz_text_render(c, &o, &tl);
        assert_non_null(text);
        size_t need = len + tl + strlen(info.title) + strlen(info.caption) + strlen(counters) + 128;
        while (need > cap) cap *= 2;
        out = realloc(out, cap);
        len += (size_t)snprintf(out + len, cap - len, "--- frame %d of %d: %s\n%s\n%s\n%s", f + 1, frames,
                                info.title, info.caption, counters, text);
        free(text);
    }
    canvas_free(c);
    return out;
}

static void compare_golden(const char *name, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", golden_dir, name);
    golden_check(path, text, strlen(text));
}

/* The lecture's example, every stage, for each variant. n and nl run with
 * blocks of 2 threads (slices of 4 keys), so the 8 keys need all three
 * kernels: start for k = 2, 4, a middle launch for k = 8, j = 4 and the
 * finish for j = 2, 1. */
static void lecture_goldens(void **state)
{
    (void)state;
    static const struct {
        const char *variant;
        int block;
        const char *file;
    } cases[] = {
        {"o", 0, "lecture-o.txt"},   {"ov", 0, "lecture-ov.txt"},     {"n", 2, "lecture-n.txt"},
        {"nl", 2, "lecture-nl.txt"}, {"fast", 0, "lecture-fast.txt"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lab_trace t;
        record(cases[i].variant, 8, cases[i].block, &t);
        const viz_renderer *r = viz_renderer_find("bitonic", cases[i].variant);
        assert_non_null(r);
        assert_int_equal(r->frames(&t), 8); /* input, 6 steps, the answer */
        char *text = render_all(&t, 100, r->height(&t, 100));
        compare_golden(cases[i].file, text);
        assert_non_null(strstr(text, "2 ─"));
        assert_non_null(strstr(text, "Sorted"));
        free(text);
        lab_trace_free(&t);
    }
    /* o side by side with ov gets half a terminal: the same frames, narrower */
    lab_trace t;
    record("o", 8, 0, &t);
    char *text = render_all(&t, 56, 20);
    compare_golden("lecture-o-narrow.txt", text);
    free(text);
    lab_trace_free(&t);
}

/* n = 256 does not fit one wire per row: the overview, every frame drawn. */
static void overview_of_a_large_trace(void **state)
{
    (void)state;
    lab_trace t;
    record("nl", 256, 32, &t);
    const viz_renderer *r = viz_renderer_find("bitonic", "nl");
    int frames = r->frames(&t);
    assert_int_equal(frames, 36 + 2);
    canvas *c = canvas_new(90, 40);
    int sorted_seen = 0;
    for (int f = 0; f < frames; f++) {
        canvas_clear(c);
        viz_frame_info info;
        viz_info_clear(&info);
        r->draw(&t, f, c, viz_rect_make(0, 0, 90, 40), &info);
        assert_true(info.caption[0] != 0);
        if (strstr(info.caption, "Sorted")) sorted_seen = 1;
    }
    assert_int_equal(sorted_seen, 1);
    /* the last frame: 32 bands of 8 keys, each ascending */
    char row[512];
    canvas_row_text(c, 2, row, sizeof row);
    assert_non_null(strstr(row, "0\u20137"));
    assert_non_null(strstr(row, "\u2191"));
    canvas_free(c);
    lab_trace_free(&t);
}

/* A picture shows what the threads did: flip one recorded swap and the last
 * frame says the keys are not sorted. */
static void a_wrong_trace_is_shown_wrong(void **state)
{
    (void)state;
    lab_trace t;
    record("ov", 8, 0, &t);
    for (size_t i = t.count; i-- > 0;)
        if (t.ev[i].kind == LAB_EV_CSWAP) {
            t.ev[i].v = t.ev[i].v != 0 ? 0 : 1;
            break;
        }
    const viz_renderer *r = viz_renderer_find("bitonic", "ov");
    canvas *c = canvas_new(100, 20);
    viz_frame_info info;
    viz_info_clear(&info);
    r->draw(&t, r->frames(&t) - 1, c, viz_rect_make(0, 0, 100, 20), &info);
    assert_string_equal(info.title, "not sorted");
    canvas_free(c);
    lab_trace_free(&t);
}

/* Tiny areas and odd traces draw without crashing. */
static void small_areas_and_odd_traces(void **state)
{
    (void)state;
    lab_trace t;
    record("n", 64, 4, &t);
    const viz_renderer *r = viz_renderer_find("bitonic", "n");
    static const int sizes[][2] = {{10, 5}, {40, 12}, {80, 24}, {200, 80}, {1, 1}};
    for (size_t i = 0; i < 5; i++) {
        canvas *c = canvas_new(sizes[i][0], sizes[i][1]);
        for (int f = 0; f < r->frames(&t); f++) {
            viz_frame_info info;
            viz_info_clear(&info);
            r->draw(&t, f, c, viz_rect_make(0, 0, sizes[i][0], sizes[i][1]), &info);
        }
        canvas_free(c);
    }
    lab_trace_free(&t);
    /* a trace that is not a network */
    lab_trace odd;
    memset(&odd, 0, sizeof odd);
    snprintf(odd.algo, sizeof odd.algo, "bitonic");
    snprintf(odd.variant, sizeof odd.variant, "o");
    odd.n = 6;
    assert_int_equal(r->frames(&odd), 1);
    canvas *c = canvas_new(60, 10);
    viz_frame_info info;
    viz_info_clear(&info);
    r->draw(&odd, 0, c, viz_rect_make(0, 0, 60, 10), &info);
    assert_non_null(strstr(info.caption, "power-of-two"));
    canvas_free(c);
}

int main(int argc, char **argv)
{
    if (argc > 1) golden_dir = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lecture_goldens),
        cmocka_unit_test(overview_of_a_large_trace),
        cmocka_unit_test(a_wrong_trace_is_shown_wrong),
        cmocka_unit_test(small_areas_and_odd_traces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
