/* test_reduce_model.c - the reduction renderer's model without a canvas:
 * which frames a trace becomes, and what the warps of each step did. These
 * are the facts the captions state (which warps work, which diverge, which
 * skip a step whole), so they are pinned here apart from the words. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/viz/fake_reduce.h"
#include "viz/reduce_model.h"

/* The step frame whose pairs are `stride` apart, or -1. */
static int step_frame(const rmodel *m, int stride)
{
    for (int f = 0; f < m->nfr; f++) {
        if (m->fr[f].kind != F_STEP) continue;
        fstats s;
        rmodel_frame_stats(m, f, &s, NULL, 0);
        if (s.nadd > 0 && s.uniform && abs(s.offset) == stride) return f;
    }
    return -1;
}

static void frames_of_a_tree(void **state)
{
    (void)state;
    lab_trace t;
    rmodel m;
    assert_int_equal(fake_reduce_trace(&t, FAKE_SEQUENTIAL, 256, 128, 0, LAB_INT), 0);
    assert_int_equal(rmodel_build(&m, &t), 0);
    /* input, load, 7 strides (64 .. 1), the atomics, the result */
    assert_int_equal(m.nfr, 1 + 1 + 7 + 1 + 1);
    assert_int_equal(m.fr[0].kind, F_INPUT);
    assert_int_equal(m.fr[1].kind, F_LOAD);
    for (int f = 2; f < 9; f++) assert_int_equal(m.fr[f].kind, F_STEP);
    assert_int_equal(m.fr[9].kind, F_RESULT);
    assert_int_equal(m.fr[10].kind, F_FINAL);
    assert_int_equal(m.L[0].bd, 128);
    assert_int_equal(m.L[0].nblocks, 1);
    assert_int_equal(m.L[0].max_reads, 2); /* two loads per thread */
    rmodel_free(&m);
    fake_trace_free(&t);
}

/* Sequential addressing, 4 warps: at stride 64 two whole warps work and two
 * do nothing at all; at stride 8 one warp works with 8 lanes. */
static void sequential_warps(void **state)
{
    (void)state;
    lab_trace t;
    rmodel m;
    fstats s;
    assert_int_equal(fake_reduce_trace(&t, FAKE_SEQUENTIAL, 256, 128, 0, LAB_INT), 0);
    assert_int_equal(rmodel_build(&m, &t), 0);
    int f = step_frame(&m, 64);
    assert_true(f > 0);
    rmodel_frame_stats(&m, f, &s, NULL, 0);
    assert_int_equal(s.warps_active, 2);
    assert_int_equal(s.divergent, 0);
    assert_int_equal(s.active, 64);
    assert_int_equal(s.pattern, 2);
    f = step_frame(&m, 8);
    rmodel_frame_stats(&m, f, &s, NULL, 0);
    assert_int_equal(s.warps_active, 1);
    assert_int_equal(s.divergent, 1);
    assert_int_equal(s.idle_in_active, 24);
    rmodel_free(&m);
    fake_trace_free(&t);
}

/* Interleaved addressing, 4 warps: below stride 32 every warp works and
 * diverges; at stride 32 only warps 0 and 2 hold a working thread. */
static void interleaved_warps(void **state)
{
    (void)state;
    lab_trace t;
    rmodel m;
    fstats s;
    wstat ws[4];
    assert_int_equal(fake_reduce_trace(&t, FAKE_INTERLEAVED, 128, 128, 0, LAB_INT), 0);
    assert_int_equal(rmodel_build(&m, &t), 0);
    int f = step_frame(&m, 4);
    assert_true(f > 0);
    memset(ws, 0, sizeof ws);
    rmodel_frame_stats(&m, f, &s, ws, 1);
    assert_int_equal(s.warps_active, 4);
    assert_int_equal(s.divergent, 4);
    for (int w = 0; w < 4; w++) assert_int_equal(ws[w].active, 4); /* lanes 0, 8, 16, 24 */
    assert_int_equal(s.pattern, 1);
    f = step_frame(&m, 32);
    memset(ws, 0, sizeof ws);
    rmodel_frame_stats(&m, f, &s, ws, 1);
    assert_int_equal(s.warps_active, 2);
    assert_int_equal(ws[0].active, 1);
    assert_int_equal(ws[1].active, 0); /* skips the step as a whole */
    assert_int_equal(ws[2].active, 1);
    assert_int_equal(ws[3].active, 0);
    rmodel_free(&m);
    fake_trace_free(&t);
}

/* The captions follow the model: a warp with no work is said to skip, never
 * to finish or retire; divergence is said only where lanes are masked. */
static void words_follow_the_model(void **state)
{
    (void)state;
    lab_trace t;
    rmodel m;
    fstats s;
    viz_frame_info info;
    assert_int_equal(fake_reduce_trace(&t, FAKE_INTERLEAVED, 128, 128, 0, LAB_INT), 0);
    assert_int_equal(rmodel_build(&m, &t), 0);
    for (int f = 0; f < m.nfr; f++) {
        rmodel_frame_stats(&m, f, &s, NULL, 0);
        viz_info_clear(&info);
        reduce_describe(&m, f, &s, &info);
        assert_null(strstr(info.caption, "retire"));
        assert_null(strstr(info.caption, "finish early"));
        if (m.fr[f].kind == F_STEP && s.divergent == 0) assert_null(strstr(info.caption, "(divergence)"));
    }
    int f = step_frame(&m, 32);
    rmodel_frame_stats(&m, f, &s, NULL, 0);
    viz_info_clear(&info);
    reduce_describe(&m, f, &s, &info);
    assert_non_null(strstr(info.caption, "the other 2 warps skip the addition as a whole"));
    rmodel_free(&m);
    fake_trace_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(frames_of_a_tree),
        cmocka_unit_test(sequential_warps),
        cmocka_unit_test(interleaved_warps),
        cmocka_unit_test(words_follow_the_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
