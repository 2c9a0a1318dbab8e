/* scale, vecdiff and distance on the GPU (label gpu; exit 77 where there is
 * none): every GPU and library row against the exact answer at several sizes,
 * odd ones included, for every dtype; the lecture's wrong vecdiff steps give
 * the same exact reports as on the simulator; and for every kernel variant
 * the GPU trace equals the simulator's after sorting. */
#include <stdio.h>
#include <string.h>

#include "kernels/family.h"

#include "tests/common/expect.h"

static lab_result run_on(const char *algo, const lab_config *cfg, const char *variant, lab_trace *t)
{
    const lab_algo *a = lab_algo_find(algo);
    lab_input in;
    lab_result r;
    char msg[LAB_ERR_MAX];
    memset(&r, 0, sizeof r);
    if (t) memset(t, 0, sizeof *t);
    if (lab_input_prepare(&in, a, cfg, msg, sizeof msg) != 0) {
        snprintf(r.note, sizeof r.note, "prepare: %s", msg);
        return r;
    }
    lab_run(&in, lab_variant_find(a, variant), &r, t);
    lab_input_free(&in);
    return r;
}

static lab_config gpu_cfg(void)
{
    lab_config cfg;
    lab_config_defaults(&cfg);
    cfg.backend = LAB_BACKEND_GPU;
    cfg.repeats = 2;
    return cfg;
}

static void every_row(const char *algo)
{
    static const long long sizes[] = {1, 31, 1000, 65539, 1000003, (1LL << 24) + 7};
    static const lab_dtype types[] = {LAB_INT, LAB_FLOAT, LAB_DOUBLE};
    const lab_algo *a = lab_algo_find(algo);
    for (int vi = 0; vi < a->nvariants; vi++) {
        const lab_variant *v = &a->variants[vi];
        if (v->kind == LAB_ROW_CPU || (v->flags & LAB_WRONG_ON_PURPOSE)) continue;
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
            for (int ti = 0; ti < 3; ti++) {
                if (!(a->dtypes & LAB_DT(types[ti]))) continue;
                lab_config cfg = gpu_cfg();
                cfg.n = sizes[si];
                cfg.dtype = types[ti];
                snprintf(cfg.pattern, sizeof cfg.pattern, "%s", si % 2 ? "random" : "const");
                cfg.value = 3;
                lab_result r = run_on(algo, &cfg, v->name, NULL);
                EXPECT(r.ran && r.correct == 1 && r.backend == LAB_BACKEND_GPU,
                       "%s/%s n=%lld %s: ran=%d correct=%d result=%s note=%s", algo, v->name, cfg.n,
                       lab_dtype_name(cfg.dtype), r.ran, r.correct, r.result, r.note);
            }
    }
}

/* The wrong steps with the lecture's numbers, the same on the GPU as on the
 * simulator (tests/vector/test_vector.c). */
static void lecture_reports(void)
{
    static const struct {
        const char *v;
        long long n, grid;
        int block, correct;
        const char *note;
    } runs[] = {
        {"v1", 128, 1, 128, 1, ""},
        {"v1", 100, 1, 128, 0, "28 threads wrote past the end of c: c[100..127], in the guard zone"},
        {"v1", 100, 2, 128, 0, "56 threads (28 in each of 2 blocks) wrote past the end of c: c[100..127]"},
        {"v2", 100, 1, 128, 1, ""},
        {"v2", 200, 1, 128, 0, "72 elements no thread reached: c[128..199]"},
        {"v2", 200, 2, 128, 0, "all 2 blocks computed the same c[0..127]"},
        {"v3", 200, 2, 128, 1, ""},
        {"v3", 200, 1, 128, 0, "72 elements no thread reached: c[128..199]"},
        {"v3", 1000, 3, 64, 0, "808 elements no thread reached: c[192..999]"},
        {"v4", 200, 1, 128, 1, ""},
        {"unified", 200, 0, 128, 1, ""},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        lab_config cfg = gpu_cfg();
        cfg.n = runs[i].n;
        cfg.grid = runs[i].grid;
        cfg.block = runs[i].block;
        lab_result r = run_on("vecdiff", &cfg, runs[i].v, NULL);
        EXPECT(r.ran && r.correct == runs[i].correct && strstr(r.note, runs[i].note),
               "vecdiff/%s n=%lld grid %lld: correct=%d note=%s (want %d, \"%s\")", runs[i].v, cfg.n,
               cfg.grid, r.correct, r.note, runs[i].correct, runs[i].note);
    }
    /* the lecture's distance size: 2^28 floats, block 1024 */
    static const char *const dv[] = {"g", "ls", "tree", "thrust"};
    for (int i = 0; i < 4; i++) {
        lab_config cfg = gpu_cfg();
        cfg.dtype = LAB_FLOAT;
        lab_result r = run_on("distance", &cfg, dv[i], NULL);
        EXPECT(r.ran && r.correct == 1 && r.n == (1LL << 28), "distance/%s n=2^28: ran=%d correct=%d note=%s",
               dv[i], r.ran, r.correct, r.note);
    }
}

/* Each kernel variant's GPU trace against the simulator's. */
static void traces_match(void)
{
    static const struct {
        const char *algo, *v;
        long long n, grid;
        int block;
    } rows[] = {
        {"scale", "index", 1000, 0, 32},       {"scale", "grid-stride", 1000, 3, 64},
        {"vecdiff", "v1", 100, 2, 128},        {"vecdiff", "v2", 200, 2, 128},
        {"vecdiff", "v3", 200, 1, 128},        {"vecdiff", "v4", 1001, 3, 100},
        {"vecdiff", "unified", 1001, 0, 128},  {"distance", "g", 3000, 0, 256},
        {"distance", "ls", 3000, 0, 1024},     {"distance", "tree", 3000, 2, 256},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        lab_config cfg = gpu_cfg();
        cfg.n = rows[i].n;
        cfg.grid = rows[i].grid;
        cfg.block = rows[i].block;
        cfg.dtype = strcmp(rows[i].algo, "distance") == 0 ? LAB_DOUBLE : LAB_INT;
        lab_trace tg, ts;
        lab_result rg = run_on(rows[i].algo, &cfg, rows[i].v, &tg);
        cfg.backend = LAB_BACKEND_SIM;
        lab_result rs = run_on(rows[i].algo, &cfg, rows[i].v, &ts);
        char msg[512] = "";
        EXPECT(rg.ran && rs.ran, "%s/%s traced: gpu %s / sim %s", rows[i].algo, rows[i].v, rg.note, rs.note);
        if (rg.ran && rs.ran)
            EXPECT(lab_trace_compare(&tg, &ts, msg, sizeof msg) == 0, "%s/%s: GPU and simulator traces: %s",
                   rows[i].algo, rows[i].v, msg);
        /* exact answers agree to the byte (distance's last bits may not:
         * the GPU fuses d * d + acc into one rounding) */
        if (strcmp(rows[i].algo, "distance") != 0)
            EXPECT(strcmp(rg.note, rs.note) == 0 && strcmp(rg.result, rs.result) == 0,
               "%s/%s: gpu \"%s\" \"%s\" / sim \"%s\" \"%s\"", rows[i].algo, rows[i].v, rg.result, rg.note,
               rs.result, rs.note);
        lab_trace_free(&tg);
        lab_trace_free(&ts);
    }
}

int main(void)
{
    if (!lab_gpu_available()) {
        printf("no GPU: %s\n", lab_device()->why_not);
        return 77;
    }
    every_row("scale");
    every_row("vecdiff");
    every_row("distance");
    lecture_reports();
    traces_match();
    if (failures) printf("%d failures\n", failures);
    else printf("all GPU checks passed\n");
    return failures ? 1 : 0;
}
