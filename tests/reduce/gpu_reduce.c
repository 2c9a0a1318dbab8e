/* The reduction family on the GPU (label gpu; exit 77 where there is none):
 * every GPU and library row against the exact sum at several sizes, odd ones
 * included; the lecture's sum; the article's float case; and for every traced
 * variant, the GPU trace equals the simulator trace after sorting. */
#include <stdio.h>
#include <string.h>

#include "kernels/family.h"

#include "tests/common/expect.h"

static const lab_algo *A;

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

static void sizes_and_types(void)
{
    static const long long sizes[] = {1, 31, 1000, 65539, 1000003, 1LL << 24, (1LL << 26) + 7};
    static const lab_dtype types[] = {LAB_INT, LAB_FLOAT, LAB_DOUBLE};
    for (int vi = 0; vi < A->nvariants; vi++) {
        const lab_variant *v = &A->variants[vi];
        if (v->kind == LAB_ROW_CPU) continue;
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
            for (size_t ti = 0; ti < 3; ti++) {
                lab_config cfg;
                lab_config_defaults(&cfg);
                cfg.backend = LAB_BACKEND_GPU;
                cfg.repeats = 2;
                cfg.n = sizes[si];
                cfg.dtype = types[ti];
                snprintf(cfg.pattern, sizeof cfg.pattern, "%s", si % 2 ? "random" : "lecture");
                lab_result r = run_one(&cfg, v->name);
                EXPECT(r.ran && r.correct == 1 && r.backend == LAB_BACKEND_GPU,
                       "%s n=%lld %s: ran=%d correct=%d result=%s note=%s", v->name, cfg.n,
                       lab_dtype_name(cfg.dtype), r.ran, r.correct, r.result, r.note);
            }
    }
}

static void lecture_and_article(void)
{
    lab_config cfg;
    lab_config_defaults(&cfg);
    cfg.backend = LAB_BACKEND_GPU;
    cfg.n = 1LL << 26;
    cfg.repeats = 3;
    static const char *const rows[] = {"interleaved", "sequential", "warp-shuffle", "vector",
                                       "thrust", "cub"};
    for (int i = 0; i < 6; i++) {
        lab_result r = run_one(&cfg, rows[i]);
        EXPECT(r.ran && strcmp(r.result, "3321858913") == 0, "%s: lecture sum %s (%s)", rows[i],
               r.result, r.note);
    }
    /* The article: 1e8 floats of 1.23, grid 10240 x 128. Two passes give
     * 123000064; atomics add the block sums in arrival order. */
    cfg.n = 100000000;
    cfg.dtype = LAB_FLOAT;
    snprintf(cfg.pattern, sizeof cfg.pattern, "const");
    cfg.value = 1.23;
    cfg.block = 128;
    cfg.grid = 10240;
    lab_result two = run_one(&cfg, "warp-shuffle");
    lab_result at = run_one(&cfg, "atomic-float");
    EXPECT(two.ran && two.value == 123000064.0, "two-pass float sum %s (article: 123000064)",
           two.result);
    printf("article case: two-pass %s, atomicAdd %s (article: 123000064 and 123633392)\n",
           two.result, at.result);
    EXPECT(at.ran && at.rel_error > two.rel_error, "atomic rel error %g vs two-pass %g",
           at.rel_error, two.rel_error);
    /* The article's 123633392: one element per thread, blocks of 128, one
     * atomicAdd of each (equal) block sum: the same in any block order. */
    cfg.grid = 0;
    for (int run = 0; run < 2; run++) {
        lab_result ba = run_one(&cfg, "block-atomic");
        EXPECT(ba.ran && ba.value == 123633392.0, "block-atomic %s (article: 123633392)", ba.result);
    }
}

static void traces_match_the_simulator(void)
{
    static const char *const traced[] = {"interleaved", "sequential", "warp-shuffle",
                                         "atomic-float", "vector", "block-atomic"};
    for (int i = 0; i < 6; i++)
        for (int dt = 0; dt < 2; dt++) {
            lab_config cfg;
            lab_config_defaults(&cfg);
            /* vector: one block, since which block finishes last is a race */
            cfg.n = strcmp(traced[i], "vector") == 0 ? 1000 : 777;
            cfg.dtype = dt ? LAB_FLOAT : LAB_INT;
            snprintf(cfg.pattern, sizeof cfg.pattern, "random");
            lab_trace tg, ts;
            lab_result rg, rs;
            char msg[LAB_ERR_MAX];
            lab_input in;
            if (lab_input_prepare(&in, A, &cfg, msg, sizeof msg) != 0) {
                EXPECT(0, "prepare: %s", msg);
                continue;
            }
            const lab_variant *v = lab_variant_find(A, traced[i]);
            cfg.backend = LAB_BACKEND_GPU;
            int okg = lab_run(&in, v, &rg, &tg) == 0;
            cfg.backend = LAB_BACKEND_SIM;
            int oks = lab_run(&in, v, &rs, &ts) == 0;
            EXPECT(okg && oks, "%s: traced runs: gpu %s / sim %s", traced[i], rg.note, rs.note);
            if (okg && oks) {
                EXPECT(lab_trace_compare(&tg, &ts, msg, sizeof msg) == 0, "%s %s trace: %s",
                       traced[i], lab_dtype_name(cfg.dtype), msg);
                EXPECT(rg.value == rs.value, "%s: gpu %s sim %s", traced[i], rg.result, rs.result);
                EXPECT(tg.count > 0 && !tg.truncated, "%s: %zu events, truncated %d", traced[i],
                       tg.count, tg.truncated);
                lab_trace_free(&tg);
                lab_trace_free(&ts);
            }
            lab_input_free(&in);
        }
}

int main(void)
{
    if (!lab_gpu_available()) {
        printf("no GPU: %s\n", lab_device()->why_not);
        return 77;
    }
    A = lab_algo_find("reduce");
    printf("device: %s, %d SMs, copy %.0f GB/s\n", lab_device()->name, lab_device()->sms,
           lab_device_copy_gbps());
    sizes_and_types();
    lecture_and_article();
    traces_match_the_simulator();
    printf("%s: %d failure(s)\n", failures ? "FAILED" : "ok", failures);
    return failures ? 1 : 0;
}
