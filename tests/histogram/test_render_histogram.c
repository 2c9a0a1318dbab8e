/* The bins renderer against golden files, from simulator traces of a 64x36
 * image: the first frames and the end of global, shared and fast on the
 * lecture's photo and on the flat image, at 80x24 and 120x40, as plain text.
 * GPULAB_UPDATE_GOLDEN=1 rewrites the files instead of comparing. Besides the
 * pictures: the frame structure, the captions that carry the lesson, and the
 * exact counts of the last frame. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/common/golden.h"

#include "kernels/histogram/histogram.h"
#include "kernels/family.h"
#include "viz/render.h"
#include "viz/term.h"

static const char *golden_dir = "golden";

static const lab_algo *hist(void)
{
    for (int i = 0; i < lab_algo_count(); i++)
        if (strcmp(lab_algo_at(i)->name, "histogram") == 0) return lab_algo_at(i);
    return NULL;
}

/* A simulator trace of variant on a w x h image of pattern. */
static void record(const char *variant, const char *pattern, int w, int h, lab_trace *t, lab_result *r)
{
    lab_config cfg;
    lab_config_defaults(&cfg);
    cfg.dtype = LAB_U8;
    cfg.backend = LAB_BACKEND_SIM;
    cfg.repeats = 1;
    cfg.width = w;
    cfg.height = h;
    snprintf(cfg.pattern, sizeof cfg.pattern, "%s", pattern);
    lab_input in;
    char msg[LAB_ERR_MAX];
    memset(t, 0, sizeof *t);
    assert_int_equal(lab_input_prepare(&in, hist(), &cfg, msg, sizeof msg), 0);
    if (lab_run(&in, lab_variant_find(hist(), variant), r, t) != 0)
        fail_msg("%s: %s", variant, r->note);
    lab_input_free(&in);
    assert_int_equal(r->correct, 1);
}

/* One frame as plain text: a title line, the picture, the caption and the
 * counters, the way a pipe shows it. */
static char *frame_text(const viz_renderer *rd, const lab_trace *t, int frame, int w, int h,
                        viz_frame_info *info)
{
    canvas *c = canvas_new(w, h);
    assert_non_null(c);
    viz_info_clear(info);
    rd->draw(t, frame, c, viz_rect_make(0, 0, w, h), info);
    viz_text_opts o = {VIZ_TEXT_PLAIN, 0, 0};
    size_t len = 0;
    char *pic = viz_text_render(c, &o, &len);
    assert_non_null(pic);
    canvas_free(c);
    char counters[512];
    viz_info_counters_text(info, counters, sizeof counters);
    size_t cap = len + 2048;
    char *out = malloc(cap);
    assert_non_null(out);
    snprintf(out, cap, "[%s] %d/%d\n%s%s\n%s\n", info->title, frame + 1, rd->frames(t), pic,
             info->caption, counters);
    free(pic);
    return out;
}

static void compare_golden(const char *name, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", golden_dir, name);
    golden_check(path, text, strlen(text));
}

static const viz_renderer *renderer(void)
{
    const viz_renderer *rd = viz_renderer_find("histogram", "shared");
    assert_non_null(rd);
    assert_string_equal(rd->algos, "histogram");
    return rd;
}

/* Frames a variant shows for these goldens: the image, the first two
 * steps, the first block's end, and the counts. */
static void goldens(void **state)
{
    (void)state;
    static const char *const variants[] = {"global", "shared", "fast"};
    static const char *const pats[] = {"photo", "flat"};
    static const int sizes[][2] = {{80, 24}, {120, 40}};
    const viz_renderer *rd = renderer();
    for (int v = 0; v < 3; v++)
        for (int p = 0; p < 2; p++) {
            lab_trace t;
            lab_result r;
            record(variants[v], pats[p], 64, 36, &t, &r);
            int nf = rd->frames(&t);
            int first_done = 1;
            while (first_done < nf) {
                viz_frame_info info;
                char *s = frame_text(rd, &t, first_done, 40, 14, &info);
                free(s);
                if (strstr(info.title, "done")) break;
                first_done++;
            }
            const int frames[] = {0, 1, 2, first_done, nf - 1};
            for (int si = 0; si < 2; si++) {
                size_t cap = 1 << 16, off = 0;
                char *all = malloc(cap);
                assert_non_null(all);
                all[0] = 0;
                for (int k = 0; k < 5; k++) {
                    if (k > 0 && frames[k] == frames[k - 1]) continue;
                    viz_frame_info info;
                    char *s = frame_text(rd, &t, frames[k], sizes[si][0], sizes[si][1], &info);
                    size_t l = strlen(s);
                    while (off + l + 2 > cap) {
                        cap *= 2;
                        all = realloc(all, cap);
                        assert_non_null(all);
                    }
                    memcpy(all + off, s, l + 1);
                    off += l;
                    free(s);
                }
                char name[128];
                snprintf(name, sizeof name, "%s-%s-%dx%d.txt", variants[v], pats[p], sizes[si][0],
                         sizes[si][1]);
                compare_golden(name, all);
                free(all);
            }
            lab_trace_free(&t);
        }
}

/* The structure: image, per block its steps and its end, counts; the lesson
 * in the captions; exact counts in the last frame. */
static void frames_and_captions(void **state)
{
    (void)state;
    const viz_renderer *rd = renderer();
    lab_trace t;
    lab_result r;
    viz_frame_info info;

    /* global on flat: 9 blocks of 256 pixels, one step each */
    record("global", "flat", 64, 36, &t, &r);
    assert_int_equal(r.grid, 9);
    assert_int_equal(rd->frames(&t), 1 + 9 * 2 + 1);
    char *s = frame_text(rd, &t, 1, 100, 30, &info);
    assert_non_null(strstr(info.caption, "All 32 lanes of warp 0 hit bin 128"));
    assert_non_null(strstr(info.caption, "every warp of every block queues on that same counter"));
    assert_non_null(strstr(s, "thread 0: (0,0)=128 \u2192 bin 128"));
    free(s);
    s = frame_text(rd, &t, rd->frames(&t) - 1, 100, 30, &info);
    assert_non_null(strstr(s, "128:2304"));
    assert_non_null(strstr(info.caption, "every bin equals a count of the input"));
    free(s);
    lab_trace_free(&t);

    /* shared on flat: the block's private counts merge in one atomic */
    record("shared", "flat", 64, 36, &t, &r);
    assert_int_equal(rd->frames(&t), 1 + 9 * 2 + 1);
    s = frame_text(rd, &t, 2, 100, 30, &info);
    assert_string_equal(info.title, "block 0 done");
    assert_non_null(strstr(info.caption, "(1 of 256)"));
    free(s);
    lab_trace_free(&t);

    /* fast on flat: one block of 1024 threads, 16 pixels per step; lanes
     * share the bin but not the counter */
    record("fast", "flat", 64, 36, &t, &r);
    assert_int_equal(r.grid, 1);
    assert_int_equal(rd->frames(&t), 1 + 1 + 1 + 1);
    s = frame_text(rd, &t, 1, 100, 30, &info);
    assert_non_null(strstr(info.caption, "own column"));
    assert_non_null(strstr(s, "lanes per bin"));
    free(s);
    lab_trace_free(&t);

    /* a tiny area still draws something, and says so when it cannot */
    record("shared", "photo", 20, 9, &t, &r);
    for (int f = 0; f < rd->frames(&t); f++) {
        s = frame_text(rd, &t, f, rd->min_w, rd->min_h, &info);
        assert_true(strlen(info.caption) > 0);
        free(s);
    }
    lab_trace_free(&t);
}

int main(int argc, char **argv)
{
    if (argc > 1) golden_dir = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(goldens),
        cmocka_unit_test(frames_and_captions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
