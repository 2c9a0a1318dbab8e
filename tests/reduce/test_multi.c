/* The reduction across modelled GPUs on the simulator: the split rule, and
 * every kernel variant over N = 1, 2, 3 and 8 GPUs with every combine
 * against the CPU's exact sum (each GPU's partial against its slice's sum
 * too); the combines are marked as not timed there; refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernels/family.h"

static const lab_algo *reduce(void) { return lab_algo_find("reduce"); }

static void split_rule(void **state)
{
    (void)state;
    static const long long ns[] = {1, 2, 7, 8, 1000, 1000003};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        for (int g = 1; g <= LAB_MAX_GPUS; g++) {
            if (g > ns[i]) continue;
            long long next = 0, mn = ns[i], mx = 0;
            for (int d = 0; d < g; d++) {
                long long lo, len;
                lab_multi_split(ns[i], g, d, &lo, &len);
                assert_int_equal(lo, next); /* contiguous, in GPU order */
                next = lo + len;
                if (len < mn) mn = len;
                if (len > mx) mx = len;
            }
            assert_int_equal(next, ns[i]); /* all of n, once */
            assert_true(mx - mn <= 1);     /* sizes differ by one element at most */
        }
    long long lo, len;
    lab_multi_split(10, 3, 0, &lo, &len);
    assert_int_equal(len, 4); /* the first n % N slices hold the extra ones */
    lab_multi_split(10, 3, 2, &lo, &len);
    assert_int_equal(lo, 7);
    assert_int_equal(len, 3);
}

static int run_multi(const lab_config *cfg, const char *variant, lab_multi *m, char *msg, size_t len)
{
    lab_input in;
    assert_int_equal(lab_input_prepare(&in, reduce(), cfg, msg, len), 0);
    const lab_variant *v = lab_variant_find(reduce(), variant);
    assert_non_null(v);
    int rc = lab_multi_run(&in, v, m, NULL, msg, len);
    lab_input_free(&in);
    return rc;
}

static void every_variant_across_modelled_gpus(void **state)
{
    (void)state;
    static const int gpus[] = {1, 2, 3, 8};
    static const long long sizes[] = {9, 1000, 4099};
    static const lab_dtype types[] = {LAB_INT, LAB_FLOAT, LAB_DOUBLE};
    const lab_algo *a = reduce();
    lab_multi m;
    char msg[LAB_ERR_MAX];
    for (int vi = 0; vi < a->nvariants; vi++) {
        const lab_variant *v = &a->variants[vi];
        if (v->kind != LAB_ROW_KERNEL) continue;
        for (size_t gi = 0; gi < 4; gi++)
            for (size_t si = 0; si < 3; si++) {
                lab_config cfg;
                lab_config_defaults(&cfg);
                cfg.backend = LAB_BACKEND_SIM;
                cfg.repeats = 1;
                cfg.gpus = gpus[gi];
                cfg.n = sizes[si];
                cfg.dtype = types[(gi + si) % 3];
                snprintf(cfg.pattern, sizeof cfg.pattern, "%s", si % 2 ? "random" : "lecture");
                if (run_multi(&cfg, v->name, &m, msg, sizeof msg) != 0)
                    fail_msg("%s gpus=%d n=%lld: %s", v->name, cfg.gpus, cfg.n, msg);
                assert_int_equal(m.gpus, gpus[gi]);
                assert_int_equal(m.backend, LAB_BACKEND_SIM);
                long long covered = 0;
                for (int d = 0; d < m.gpus; d++) {
                    if (!m.part[d].ran || m.part[d].correct != 1)
                        fail_msg("%s gpus=%d n=%lld GPU %d: partial %s %s", v->name, cfg.gpus, cfg.n, d,
                                 m.part[d].result, m.part[d].note);
                    assert_int_equal(m.part[d].n, m.len[d]);
                    covered += m.len[d];
                }
                assert_int_equal(covered, cfg.n);
                assert_int_equal(m.one.ran, 0); /* no one-GPU time on the simulator */
                for (int k = 0; k < LAB_NCOMBINES; k++) {
                    const lab_multi_combine *c = &m.comb[k];
                    if (!c->ran || c->correct != 1)
                        fail_msg("%s gpus=%d n=%lld %s: %s %s", v->name, cfg.gpus, cfg.n,
                                 lab_combine_name(c->way), c->result, c->note);
                    assert_int_equal(c->timed, 0);
                    assert_true(c->ms < 0 && c->total_ms < 0 && c->busbw < 0);
                    assert_non_null(strstr(c->note, "modelled"));
                }
            }
    }
}

static void the_lecture_sum_across_three(void **state)
{
    (void)state;
    lab_config cfg;
    lab_config_defaults(&cfg);
    cfg.backend = LAB_BACKEND_SIM;
    cfg.repeats = 1;
    cfg.gpus = 3;
    cfg.n = 1 << 20;
    lab_multi m;
    char msg[LAB_ERR_MAX];
    assert_int_equal(run_multi(&cfg, "vector", &m, msg, sizeof msg), 0);
    long long sum = 0;
    for (int d = 0; d < 3; d++) sum += strtoll(m.part[d].result, NULL, 10);
    for (int k = 0; k < LAB_NCOMBINES; k++) {
        assert_int_equal(strtoll(m.comb[k].result, NULL, 10), sum);
        assert_int_equal(m.comb[k].correct, 1);
    }
    assert_true(m.bytes == 8); /* one 64-bit partial is what the all-reduce moves */
}

static void refusals(void **state)
{
    (void)state;
    lab_config cfg;
    lab_config_defaults(&cfg);
    cfg.backend = LAB_BACKEND_SIM;
    cfg.repeats = 1;
    cfg.n = 5;
    cfg.gpus = 8;
    lab_multi m;
    char msg[LAB_ERR_MAX];
    assert_int_equal(run_multi(&cfg, "vector", &m, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "cannot be split over 8 GPUs"));
    cfg.n = 100;
    cfg.gpus = 9;
    assert_int_equal(run_multi(&cfg, "vector", &m, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "1 to 8"));
    cfg.gpus = 2;
    assert_int_equal(run_multi(&cfg, "cpu-omp", &m, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "CPU row"));
    assert_int_equal(run_multi(&cfg, "cub", &m, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "needs a GPU"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(split_rule),
        cmocka_unit_test(every_variant_across_modelled_gpus),
        cmocka_unit_test(the_lecture_sum_across_three),
        cmocka_unit_test(refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
