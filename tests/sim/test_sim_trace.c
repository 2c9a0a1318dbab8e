/* test_sim_trace.c - traces (events, epochs, barrier events) and
 * determinism: two runs give the same numbers and the same trace. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/family.h"
#include "kernels/sim/sim.h"
#include "tests/sim/simtest.h"
#include "tests/sim/simtest_run.h"

/* ---------------------------------------------------------------- traces */

static void test_trace_events(void **state)
{
    (void)state;
    lab_trace tr;
    memset(&tr, 0, sizeof tr);
    int out[128];
    assert_int_equal(sim_tracing(), 0);
    assert_int_equal(run(simtest_trace_sim, NULL, out, sizeof out, 0, &tr), 0);
    assert_int_equal(sim_tracing(), 0);
    assert_int_equal(tr.nlaunches, 2);
    assert_string_equal(tr.launches[1].kernel, "trace_k");
    assert_int_equal(tr.launches[0].grid[0], 2);
    assert_int_equal(tr.launches[0].block[0], 64);
    assert_int_equal(tr.launches[0].block[1], 1);
    assert_int_equal(tr.count, 2 * 2 * 64 * 5);
    assert_int_equal(tr.truncated, 0);
    lab_trace_sort(&tr);
    int bar1 = marker("trace_bar1"), bar2 = marker("trace_bar2");
    static const int kinds[5] = {LAB_EV_WRITE, LAB_EV_BARRIER, LAB_EV_READ, LAB_EV_BARRIER, LAB_EV_WRITE};
    static const int epochs[5] = {0, 0, 1, 1, 2};
    size_t k = 0;
    for (unsigned l = 0; l < 2; l++)
        for (unsigned b = 0; b < 2; b++)
            for (unsigned t = 0; t < 64; t++)
                for (unsigned s = 0; s < 5; s++, k++) {
                    const lab_event *e = &tr.ev[k];
                    assert_int_equal(e->launch, l);
                    assert_int_equal(e->block, b);
                    assert_int_equal(e->thread, t);
                    assert_int_equal(e->seq, s);
                    assert_int_equal(e->kind, kinds[s]);
                    assert_int_equal(e->epoch, epochs[s]);
                    if (s == 1) assert_int_equal(e->a, bar1);
                    if (s == 3) assert_int_equal(e->a, bar2);
                    if (s == 2) {
                        assert_int_equal(e->a, (t + 1) % 64);
                        assert_true(e->v == (double)((t + 1) % 64));
                    }
                    if (s == 4) assert_int_equal(e->a, b * 64 + t);
                }
    lab_trace_free(&tr);
}

static void fsum_once(const float *in, int n, float *out, lab_trace *tr)
{
    lab_config_defaults(&cfg);
    memset(&job, 0, sizeof job);
    job.cfg = &cfg;
    job.backend = LAB_BACKEND_SIM;
    job.n = n;
    job.in = (void *)in;
    job.out = out;
    job.trace = tr;
    int rc = simtest_fsum_sim(&job);
    lab_job_free_allocs(&job);
    if (rc != 0) fail_msg("%s", job.err);
}

/* Two runs: the same float results, bit for bit, and the same trace, event
 * for event, in the same order. */
static void test_determinism(void **state)
{
    (void)state;
    const int n = 20000, blocks = (n + 255) / 256;
    float *in = malloc(n * sizeof(float));
    float *a = calloc(blocks + 1, sizeof(float)), *b = calloc(blocks + 1, sizeof(float));
    assert_true(in && a && b);
    unsigned x = 12345;
    double exact = 0;
    for (int i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        in[i] = (float)((x >> 8) % 100000) / 997.0f - 50.0f;
        exact += in[i];
    }
    lab_trace t1, t2;
    memset(&t1, 0, sizeof t1);
    memset(&t2, 0, sizeof t2);
    fsum_once(in, n, a, &t1);
    fsum_once(in, n, b, &t2);
    assert_memory_equal(a, b, (blocks + 1) * sizeof(float));
    assert_true(fabs(a[0] - exact) < 1e-3 * fabs(exact) + 1);
    assert_int_equal(t1.count, t2.count);
    assert_true(t1.count > (size_t)n);
    assert_memory_equal(t1.ev, t2.ev, t1.count * sizeof(lab_event));
    /* and without tracing, the same numbers again */
    fsum_once(in, n, b, NULL);
    assert_memory_equal(a, b, (blocks + 1) * sizeof(float));
    lab_trace_free(&t1);
    lab_trace_free(&t2);
    free(in);
    free(a);
    free(b);
}


const struct CMUnitTest simtest_trace_tests[] = {
    cmocka_unit_test(test_trace_events),
    cmocka_unit_test(test_determinism),
};
const size_t simtest_ntrace = sizeof simtest_trace_tests / sizeof simtest_trace_tests[0];
