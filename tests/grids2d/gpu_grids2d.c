/* transpose, mandelbrot and matmul on the GPU (label gpu; exit 77 where
 * there is none): every GPU and library row against the CPU at several sizes,
 * odd ones included; the lecture's Mandelbrot totals (gpu-nofma exactly, gpu
 * within the fused multiply-add's tolerance); and for every traced variant,
 * the GPU trace equals the simulator trace after sorting. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kernels/family.h"

#include "tests/common/expect.h"

static lab_result run_one(const char *algo, const lab_config *cfg, const char *variant,
                          lab_trace *trace)
{
    const lab_algo *a = lab_algo_find(algo);
    lab_input in;
    lab_result r;
    char msg[LAB_ERR_MAX];
    memset(&r, 0, sizeof r);
    /* an unset dtype is the algorithm's own, as `use ALGO` makes it */
    lab_config c = *cfg;
    if (!(a->dtypes & LAB_DT(c.dtype))) c.dtype = a->dtype_default;
    cfg = &c;
    if (lab_input_prepare(&in, a, cfg, msg, sizeof msg) != 0) {
        snprintf(r.note, sizeof r.note, "prepare: %s", msg);
        return r;
    }
    lab_run(&in, lab_variant_find(a, variant), &r, trace);
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

static void transpose_rows(void)
{
    static const long long sizes[] = {1, 33, 100, 1000, 1025, 4096, 8191};
    static const lab_dtype types[] = {LAB_INT, LAB_FLOAT, LAB_DOUBLE};
    const lab_algo *a = lab_algo_find("transpose");
    for (int vi = 0; vi < a->nvariants; vi++) {
        const lab_variant *v = &a->variants[vi];
        if (v->kind == LAB_ROW_CPU) continue;
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
            for (size_t ti = 0; ti < 3; ti++) {
                lab_config cfg = gpu_cfg();
                cfg.n = sizes[si];
                cfg.dtype = types[ti];
                snprintf(cfg.pattern, sizeof cfg.pattern, "%s", si % 2 ? "random" : "lecture");
                lab_result r = run_one("transpose", &cfg, v->name, NULL);
                EXPECT(r.ran && r.correct == 1 && r.backend == LAB_BACKEND_GPU,
                       "transpose/%s n=%lld %s: ran=%d correct=%d %s (%s)", v->name, cfg.n,
                       lab_dtype_name(cfg.dtype), r.ran, r.correct, r.result, r.note);
            }
    }
    /* odd block shapes */
    static const struct { const char *v; int bx, by; } shapes[] = {
        {"naive2d", 10, 10}, {"naive2d", 7, 5}, {"naive", 256, 0}, {"tiled", 32, 1}, {"tiled", 32, 32},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        lab_config cfg = gpu_cfg();
        cfg.n = 999;
        cfg.dtype = LAB_FLOAT;
        cfg.block = shapes[i].bx;
        cfg.block_y = shapes[i].by;
        lab_result r = run_one("transpose", &cfg, shapes[i].v, NULL);
        EXPECT(r.ran && r.correct == 1, "transpose/%s block %dx%d: %s (%s)", shapes[i].v,
               shapes[i].bx, shapes[i].by, r.result, r.note);
    }
}

static void mandelbrot_rows(void)
{
    static const struct { int w, h; } sizes[] = {{1, 1}, {37, 23}, {160, 90}, {1000, 999}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        lab_config cfg = gpu_cfg();
        cfg.width = sizes[i].w;
        cfg.height = sizes[i].h;
        lab_result r = run_one("mandelbrot", &cfg, "gpu-nofma", NULL);
        EXPECT(r.ran && r.correct == 1 && r.rel_error == 0, "mandelbrot/gpu-nofma %dx%d: %s (%s)",
               sizes[i].w, sizes[i].h, r.result, r.note);
        r = run_one("mandelbrot", &cfg, "gpu", NULL);
        EXPECT(r.ran && r.correct == 1, "mandelbrot/gpu %dx%d: %s (%s)", sizes[i].w, sizes[i].h,
               r.result, r.note);
    }
    /* the lecture's sizes: without fusing, the CPU's totals exactly */
    static const struct { int w, h; const char *cpu; } lect[] = {
        {1280, 720, "237691869"}, {3840, 2160, "2138019184"},
    };
    for (int i = 0; i < 2; i++) {
        lab_config cfg = gpu_cfg();
        cfg.width = lect[i].w;
        cfg.height = lect[i].h;
        lab_result r = run_one("mandelbrot", &cfg, "gpu-nofma", NULL);
        EXPECT(r.ran && strcmp(r.result, lect[i].cpu) == 0, "gpu-nofma %dx%d: %s, the lecture's CPU %s",
               lect[i].w, lect[i].h, r.result, lect[i].cpu);
        r = run_one("mandelbrot", &cfg, "gpu", NULL);
        EXPECT(r.ran && r.correct == 1, "gpu %dx%d: %s (%s)", lect[i].w, lect[i].h, r.result, r.note);
        /* the lecture's way of timing: the same kernel, with the copy back */
        lab_result rc = run_one("mandelbrot", &cfg, "gpu-copy", NULL);
        EXPECT(rc.ran && rc.correct == 1 && strcmp(rc.result, r.result) == 0, "gpu-copy %dx%d: %s (%s)",
               lect[i].w, lect[i].h, rc.result, rc.note);
        printf("mandelbrot/gpu %dx%d: total %s (the lecture's GPU: %s); %s\n", lect[i].w, lect[i].h,
               r.result, i ? "2138027805" : "237690702", r.note);
    }
}

static void matmul_rows(void)
{
    static const long long sizes[] = {1, 33, 100, 512, 1000, 1025};
    /* the article's kernel runs only at multiples of 32 */
    static const long long article_sizes[] = {32, 96, 128, 512, 992, 1024};
    const lab_algo *a = lab_algo_find("matmul");
    for (int vi = 0; vi < a->nvariants; vi++) {
        const lab_variant *v = &a->variants[vi];
        if (v->kind == LAB_ROW_CPU) continue;
        const int article = strcmp(v->name, "gpu-article") == 0;
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            lab_config cfg = gpu_cfg();
            cfg.n = article ? article_sizes[si] : sizes[si];
            snprintf(cfg.pattern, sizeof cfg.pattern, "%s", si % 2 ? "random" : "lecture");
            lab_result r = run_one("matmul", &cfg, v->name, NULL);
            EXPECT(r.ran && r.correct == 1 && r.gflops > 0 && strstr(r.note, "with the copies"),
                   "matmul/%s n=%lld: %s (%s)", v->name, cfg.n, r.result, r.note);
        }
    }
}

/* GPU traces against simulator traces: the same events after sorting. */
static void traces(void)
{
    static const struct { const char *algo, *variant; long long n; int w, h; } cases[] = {
        {"transpose", "naive2d", 37, 0, 0}, {"transpose", "naive", 64, 0, 0}, {"transpose", "copy", 45, 0, 0},
        {"transpose", "tiled", 70, 0, 0},   {"transpose", "tiled-nopad", 33, 0, 0},
        {"mandelbrot", "gpu-nofma", 0, 61, 35}, {"matmul", "gpu-naive", 40, 0, 0},
        {"matmul", "gpu-coalesced", 33, 0, 0},  {"matmul", "gpu-tiled", 45, 0, 0},
        {"matmul", "gpu-article", 64, 0, 0},    {"matmul", "gpu-1d", 45, 0, 0},
        {"matmul", "gpu-2d", 33, 0, 0},         {"matmul", "gpu-vec", 64, 0, 0},
        {"matmul", "gpu-warp", 37, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lab_trace tg, ts;
        memset(&tg, 0, sizeof tg);
        memset(&ts, 0, sizeof ts);
        lab_config cfg = gpu_cfg();
        cfg.repeats = 1;
        cfg.n = cases[i].n;
        cfg.width = cases[i].w;
        cfg.height = cases[i].h;
        if (strcmp(cases[i].algo, "transpose") == 0) cfg.dtype = LAB_INT;
        lab_result rg = run_one(cases[i].algo, &cfg, cases[i].variant, &tg);
        cfg.backend = LAB_BACKEND_SIM;
        lab_result rs = run_one(cases[i].algo, &cfg, cases[i].variant, &ts);
        char msg[512] = "";
        int same = rg.ran && rs.ran && lab_trace_compare(&tg, &ts, msg, sizeof msg) == 0;
        /* matmul's float sums: the GPU fuses multiply-adds, the simulator
         * does not, so values may differ in the last bits; compare shapes */
        if (!same && strcmp(cases[i].algo, "matmul") == 0 && rg.ran && rs.ran &&
            tg.count == ts.count) {
            same = 1;
            for (size_t k = 0; k < tg.count && same; k++)
                same = lab_event_cmp(&tg.ev[k], &ts.ev[k]) == 0 && tg.ev[k].kind == ts.ev[k].kind &&
                       tg.ev[k].a == ts.ev[k].a &&
                       fabs(tg.ev[k].v - ts.ev[k].v) <= 1e-5 * fmax(1.0, fabs(ts.ev[k].v));
        }
        EXPECT(same, "%s/%s: GPU trace against simulator trace: %s (%s / %s)", cases[i].algo,
               cases[i].variant, msg, rg.note, rs.note);
        lab_trace_free(&tg);
        lab_trace_free(&ts);
    }
}

int main(void)
{
    if (lab_algo_count() < 1 || !lab_gpu_available()) {
        printf("no GPU: %s\n", lab_device()->why_not);
        return 77;
    }
    transpose_rows();
    mandelbrot_rows();
    matmul_rows();
    traces();
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
