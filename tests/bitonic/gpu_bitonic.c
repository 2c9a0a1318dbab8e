/* The bitonic family on the GPU (label gpu; exit 77 where there is none):
 * every GPU and library row against the CPU's sort at sizes up to 2^24, odd
 * ones padded, both key types and every pattern; the lecture's example; and
 * for every kernel variant, the GPU trace equals the simulator's after
 * sorting. */
#include <stdio.h>
#include <string.h>

#include "kernels/family.h"

#include "tests/common/expect.h"

static const lab_algo *A;

static void config(lab_config *cfg, long long n, const char *pattern, lab_dtype dt)
{
    lab_config_defaults(cfg);
    cfg->backend = LAB_BACKEND_GPU;
    cfg->repeats = 2;
    cfg->n = n;
    cfg->dtype = dt;
    snprintf(cfg->pattern, sizeof cfg->pattern, "%s", pattern);
}

static lab_result run_one(const lab_config *cfg, const char *variant)
{
    lab_input in;
    lab_result r;
    char msg[LAB_ERR_MAX];
    memset(&r, 0, sizeof r);
    if (lab_input_prepare(&in, A, cfg, msg, sizeof msg) != 0) {
        snprintf(r.note, sizeof r.note, "prepare: %s", msg);
        return r;
    }
    lab_run(&in, lab_variant_find(A, variant), &r, NULL);
    lab_input_free(&in);
    return r;
}

static void expect_sorted(const lab_config *cfg, const char *variant)
{
    lab_result r = run_one(cfg, variant);
    EXPECT(r.ran && r.correct == 1 && r.backend == LAB_BACKEND_GPU,
           "%s n=%lld block=%d %s %s pad=%d: ran=%d correct=%d result=%s note=%s", variant, cfg->n,
           cfg->block, lab_dtype_name(cfg->dtype), cfg->pattern, cfg->pad, r.ran, r.correct,
           r.result, r.note);
}

static void every_gpu_row(void)
{
    static const long long sizes[] = {2, 8, 1024, 1LL << 13, 1LL << 14, 1LL << 16, 1LL << 20, 1LL << 24};
    static const char *const pats[] = {"random", "sorted", "reversed", "few", "lecture"};
    for (int vi = 0; vi < A->nvariants; vi++) {
        const lab_variant *v = &A->variants[vi];
        if (v->kind == LAB_ROW_CPU) continue;
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
            for (int p = 0; p < 5; p++)
                for (int dt = 0; dt < 2; dt++) {
                    if (sizes[si] == (1LL << 24) && p > 0 && dt > 0) continue; /* keep it under minutes */
                    lab_config cfg;
                    config(&cfg, sizes[si], pats[p], dt ? LAB_FLOAT : LAB_INT);
                    expect_sorted(&cfg, v->name);
                }
    }
}

static void odd_sizes_and_blocks(void)
{
    static const long long odd[] = {3, 1000, 65539, 1000003, 10000000};
    for (int vi = 0; vi < A->nvariants; vi++) {
        const lab_variant *v = &A->variants[vi];
        if (v->kind == LAB_ROW_CPU) continue;
        for (size_t si = 0; si < sizeof odd / sizeof odd[0]; si++) {
            lab_config cfg;
            config(&cfg, odd[si], si % 2 ? "random" : "few", si % 2 ? LAB_FLOAT : LAB_INT);
            cfg.pad = 1;
            expect_sorted(&cfg, v->name);
        }
        if (v->kind != LAB_ROW_KERNEL) continue;
        static const int blocks[] = {1, 2, 32, 64, 128, 256, 512, 1024};
        for (size_t bi = 0; bi < sizeof blocks / sizeof blocks[0]; bi++) {
            if (blocks[bi] < v->block_min) continue;
            lab_config cfg;
            config(&cfg, blocks[bi] < 32 ? 1LL << 12 : 1LL << 20, "random", LAB_INT);
            cfg.block = blocks[bi];
            expect_sorted(&cfg, v->name);
        }
    }
    /* the library rows need no padding */
    lab_config cfg;
    config(&cfg, 1000003, "random", LAB_FLOAT);
    expect_sorted(&cfg, "thrust");
    expect_sorted(&cfg, "cub");
}

static void lecture(void)
{
    for (int vi = 0; vi < A->nvariants; vi++) {
        const lab_variant *v = &A->variants[vi];
        if (v->kind == LAB_ROW_CPU) continue;
        lab_config cfg;
        config(&cfg, 8, "lecture", LAB_INT);
        lab_result r = run_one(&cfg, v->name);
        EXPECT(r.ran && strcmp(r.result, "2 3 5 7 11 13 17 19") == 0, "%s: lecture %s (%s)", v->name,
               r.result, r.note);
    }
}

/* The GPU and the simulator record the same events. */
static void traces_match_the_simulator(void)
{
    static const long long sizes[] = {8, 64, 512, 1024};
    static const int blocks[] = {0, 1, 2, 32};
    for (int vi = 0; vi < A->nvariants; vi++) {
        const lab_variant *v = &A->variants[vi];
        if (v->kind != LAB_ROW_KERNEL) continue;
        for (size_t si = 0; si < 4; si++)
            for (size_t bi = 0; bi < 4; bi++) {
                if (sizes[si] > v->trace_max_n || (blocks[bi] && blocks[bi] < v->block_min)) continue;
                lab_config cfg;
                config(&cfg, sizes[si], sizes[si] == 8 ? "lecture" : "random", LAB_INT);
                cfg.block = blocks[bi];
                lab_input in;
                char msg[LAB_ERR_MAX];
                if (lab_input_prepare(&in, A, &cfg, msg, sizeof msg) != 0) {
                    EXPECT(0, "prepare: %s", msg);
                    continue;
                }
                lab_trace tg, ts;
                lab_result rg, rs;
                int a = lab_run(&in, v, &rg, &tg);
                cfg.backend = LAB_BACKEND_SIM;
                int b = lab_run(&in, v, &rs, &ts);
                EXPECT(a == 0 && b == 0, "%s n=%lld block=%d: traced runs: %s / %s", v->name, cfg.n,
                       cfg.block, rg.note, rs.note);
                if (a == 0 && b == 0) {
                    EXPECT(!tg.truncated && !ts.truncated, "%s n=%lld: truncated trace", v->name, cfg.n);
                    EXPECT(lab_trace_compare(&tg, &ts, msg, sizeof msg) == 0, "%s n=%lld block=%d: %s",
                           v->name, cfg.n, cfg.block, msg);
                    EXPECT(rg.correct == 1, "%s n=%lld traced on the GPU: %s", v->name, cfg.n, rg.note);
                }
                lab_trace_free(&tg);
                lab_trace_free(&ts);
                lab_input_free(&in);
            }
    }
}

int main(void)
{
    if (!lab_gpu_available()) {
        printf("no GPU: %s\n", lab_device()->why_not);
        return 77;
    }
    for (int i = 0; i < lab_algo_count(); i++) /* the registry's own list */
        if (strcmp(lab_algo_at(i)->name, "bitonic") == 0) A = lab_algo_at(i);
    if (!A) {
        printf("FAIL: bitonic is not in the registry\n");
        return 1;
    }
    lecture();
    every_gpu_row();
    odd_sizes_and_blocks();
    traces_match_the_simulator();
    printf("%s: %d failure%s\n", failures ? "FAIL" : "ok", failures, failures == 1 ? "" : "s");
    return failures ? 1 : 0;
}
