/* bench_access.c - what the automatic access trace costs, and how fast the
 * generic animation draws (docs/performance.md, "Automatic traces").
 *   bench_access [N]
 * 1. reduce (every kernel variant) at N elements (default 2^16) on the
 *    simulator: the run alone, and the run with every access of every block
 *    written to the trace and read back; medians of 5 after a warm-up.
 * 2. A whole player screen at 200x60 of a launch touching 4 arrays of 1024
 *    cells (every thread reads three and writes one), code pane beside:
 *    the median of 50 draws of each of its frames, after a warm-up. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernels/lab.h"
#include "kernels/sim/acctrace.h"
#include "kernels/sim/record.h"
#include "viz/player.h"

/* CPU time of this process: the build machine is shared, and the wall
 * clock would count the other processes' turns */
static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return v[n / 2];
}

/* One run of v; traced: every access into memory, then parsed. */
static double run(const lab_algo *al, const lab_variant *v, const lab_config *cfg, int traced, size_t *lanes)
{
    char err[LAB_ERR_MAX];
    lab_input *in = lab_input_new(al, cfg, err, sizeof err);
    if (!in) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
    lab_result r;
    char *buf = NULL;
    size_t blen = 0;
    FILE *mf = NULL;
    double t0 = now_s();
    if (traced) {
        mf = open_memstream(&buf, &blen);
        acc_writer_attach(mf, 1u << 20, 1ull << 26);
    }
    lab_run(in, v, &r, NULL);
    if (traced) {
        acc_writer_detach();
        fclose(mf);
        FILE *rf = fmemopen(buf, blen, "r");
        acc_trace t;
        acc_trace_read(rf, &t, 1ull << 26, err, sizeof err);
        fclose(rf);
        *lanes = t.nlanes;
        acc_trace_free(&t);
        free(buf);
    }
    double s = now_s() - t0;
    lab_input_delete(in);
    return s;
}

static void tracing_cost(long long n)
{
    const lab_algo *al = lab_algo_find("reduce");
    lab_config cfg;
    lab_config_defaults(&cfg);
    cfg.backend = LAB_BACKEND_SIM;
    cfg.repeats = 1;
    cfg.n = n;
    printf("tracing cost, reduce at n = %lld on the simulator (medians of 5 after a warm-up)\n", n);
    printf("%-22s %10s %10s %8s %10s\n", "variant", "run s", "traced s", "ratio", "accesses");
    printf("(CPU seconds)\n");
    for (int i = 0; i < al->nvariants; i++) {
        const lab_variant *v = &al->variants[i];
        char err[LAB_ERR_MAX];
        if (v->kind != LAB_ROW_KERNEL || !v->sim || lab_validate(al, v, &cfg, err, sizeof err) != 0) continue;
        size_t lanes = 0;
        run(al, v, &cfg, 0, &lanes);
        run(al, v, &cfg, 1, &lanes);
        double off[5], on[5];
        for (int k = 0; k < 5; k++) {
            off[k] = run(al, v, &cfg, 0, &lanes);
            on[k] = run(al, v, &cfg, 1, &lanes);
        }
        double a = median(off, 5), b = median(on, 5);
        printf("%-22s %10.4f %10.4f %7.2fx %10zu\n", v->name, a, b, b / a, lanes);
    }
}

static void frame_time(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    fprintf(f, "# gpulab access trace 1, blocks 4, lanes 1048576\nL 0 1,1,1 1024,1,1 0 20 four\n");
    const char *names[4] = {"a", "b", "c", "d"};
    for (int k = 0; k < 4; k++) fprintf(f, "S %d %x\nO %d g 4096 4 0 %s\n", k, 0x401000 + 16 * k, k + 1, names[k]);
    for (int w = 0; w < 32; w++)
        for (int k = 0; k < 4; k++) {
            fprintf(f, "R 0 %d 0 %d %c g 4 4 0", w, k, k < 3 ? 'l' : 's');
            for (int l = 0; l < 32; l++) fprintf(f, " %d:%d:%x:%x", l, k + 1, 4 * (w * 32 + l), w * 32 + l + k);
            fprintf(f, "\n");
        }
    fprintf(f, "E 0 0 1 0 0\n");
    fclose(f);
    FILE *rf = fmemopen(text, len, "r");
    acc_trace t;
    char err[128];
    acc_trace_read(rf, &t, 0, err, sizeof err);
    fclose(rf);
    free(text);
    static const char src[] = "__global__ void four(const float *a, const float *b, const float *c, float *d)\n"
                              "{\n    int i = threadIdx.x;\n    d[i] = a[i] + b[i] + c[i];\n}\n";
    viz_access a = {.t = &t, .source = src, .source_len = sizeof src - 1, .source_name = "four.cu"};
    viz_side side = {.label = "four.cu", .acc = &a};
    viz_play_state st;
    viz_play_init(&st, viz_access_frames(&a));
    st.sel.on = 1;
    st.sel.strip = 3;
    st.sel.cell = 500;
    canvas *c = canvas_new(200, 60);
    double worst = 0;
    for (int fr = 0; fr < st.nframes; fr++) {
        st.frame = fr;
        viz_player_compose(c, &side, 1, &st, NULL);
        double ms[50];
        for (int k = 0; k < 50; k++) {
            double t0 = now_s();
            viz_player_compose(c, &side, 1, &st, NULL);
            ms[k] = (now_s() - t0) * 1e3;
        }
        double m = median(ms, 50);
        if (m > worst) worst = m;
    }
    printf("a player screen at 200x60, 4 arrays of 1024 cells, code pane, a cell selected: %.3f ms (median of 50, "
           "slowest frame of %d)\n",
           worst, st.nframes);
    canvas_free(c);
    acc_trace_free(&t);
}

int main(int argc, char **argv)
{
    if (!sim_rec_available()) {
        printf("skipped: this build has no access recording\n");
        return 77;
    }
    long long n = argc > 1 ? atoll(argv[1]) : 1 << 16;
    tracing_cost(n);
    frame_time();
    return 0;
}
