/* test_sweep.c - sweeps on the simulator: value ranges, every reduce kernel
 * variant against the CPU at several block sizes, grids and n (odd ones
 * among them), refused points with their reasons, Ctrl-C keeping what was
 * measured, the launch checks against a model, the commands' output, and
 * the CSV and JSON exports read back (a CSV reader below, jansson). */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernels/family.h"
#include "repl/complete.h"
#include "repl/out.h"
#include "repl/session.h"
#include "repl/explore/sweep.h"
#include "repl/repl.h"

static int failures, checks;

#define CHECK(cond, ...)                                                             \
    do {                                                                             \
        checks++;                                                                    \
        if (!(cond)) {                                                               \
            failures++;                                                              \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                            \
            fputc('\n', stderr);                                                     \
        }                                                                            \
    } while (0)

/* ------------------------------------------------------------ ranges */

static int parse(const char *line, long long *v, int *count, int *used, char *err, int *bad)
{
    char buf[256], *w[8];
    int n = 0;
    snprintf(buf, sizeof buf, "%s", line);
    for (char *t = strtok(buf, " "); t && n < 8; t = strtok(NULL, " ")) w[n++] = t;
    return sweep_parse_values(n, w, v, SWEEP_MAX_VALUES, count, used, err, 512, bad);
}

static void test_ranges(void)
{
    long long v[SWEEP_MAX_VALUES];
    int n, used, bad;
    char err[512];
    CHECK(parse("32..1024", v, &n, &used, err, &bad) == 0 && n == 6 && v[0] == 32 && v[5] == 1024 && used == 1,
          "doubling: %d values", n);
    CHECK(parse("32..1024 step 32", v, &n, &used, err, &bad) == 0 && n == 32 && v[1] == 64 && v[31] == 1024 &&
              used == 3, "step: %d", n);
    CHECK(parse("32,96,160", v, &n, &used, err, &bad) == 0 && n == 3 && v[1] == 96, "list");
    CHECK(parse("2^10..2^28", v, &n, &used, err, &bad) == 0 && n == 19 && v[18] == 1LL << 28, "n: %d", n);
    CHECK(parse("1Ki..1Mi step x4", v, &n, &used, err, &bad) == 0 && n == 6 && v[5] == 1 << 20, "x4: %d", n);
    CHECK(parse("48..1000", v, &n, &used, err, &bad) == 0 && n == 5 && v[4] == 768, "48 doubling: %d", n);
    CHECK(parse("256", v, &n, &used, err, &bad) == 0 && n == 1 && v[0] == 256, "one");
    CHECK(parse("0..64", v, &n, &used, err, &bad) == -1 && strstr(err, "at least 1") && bad == 0, "zero: %s", err);
    CHECK(parse("-4", v, &n, &used, err, &bad) == -1, "negative: %s", err);
    CHECK(parse("64..32", v, &n, &used, err, &bad) == -1 && strstr(err, "downwards"), "down: %s", err);
    CHECK(parse("1..100000 step 1", v, &n, &used, err, &bad) == -1 && strstr(err, "at most 64"), "many: %s", err);
    CHECK(parse("32..64 step", v, &n, &used, err, &bad) == -1 && bad == 2, "step alone: %s", err);
    CHECK(parse("32..64 step x1", v, &n, &used, err, &bad) == -1 && bad == 2, "x1: %s", err);
    CHECK(parse("32,,64", v, &n, &used, err, &bad) == -1 && strstr(err, "empty"), "empty: %s", err);
    CHECK(parse("32,64 step 2", v, &n, &used, err, &bad) == -1 && bad == 1, "list step: %s", err);
    CHECK(parse("abc", v, &n, &used, err, &bad) == -1, "garbage: %s", err);
    sweep_axis a;
    CHECK(sweep_axis_parse("b", &a) == 0 && a == SWEEP_BLOCK, "prefix b");
    CHECK(sweep_axis_parse("n", &a) == 0 && a == SWEEP_N, "n");
    CHECK(sweep_axis_parse("warps", &a) == -1, "warps");
}

/* ------------------------------------------------------------ sweeps */

static lab_config sim_cfg(long long n)
{
    lab_config c;
    lab_config_defaults(&c);
    c.backend = LAB_BACKEND_SIM;
    c.n = n;
    c.repeats = 1;
    return c;
}

static void check_point_occupancy(const sweep_point *p, const lab_config *c)
{
    CHECK(p->occ.known, "%s at %lld: occupancy unknown (%s)", p->r.variant, p->x, p->occ.note);
    if (!p->occ.known) return;
    CHECK(strstr(p->occ.source, "model h200") != NULL, "source %s", p->occ.source);
    if (lab_resource_count > 0)
        CHECK(p->occ.regs > 0, "%s: registers from the table (%s)", p->kernel, p->occ.note);
    /* the figures are the calculator's for the launch that was recorded */
    occ_kernel k = {0};
    k.regs = p->occ.regs > 0 ? p->occ.regs : 0;
    k.static_smem = p->occ.static_smem > 0 ? p->occ.static_smem : 0;
    k.dynamic_smem = p->occ.dynamic_smem;
    occ_result r;
    occ_compute(occ_model_find(c->model), &k, p->occ.threads, &r);
    CHECK(r.blocks_per_sm == p->occ.r.blocks_per_sm && r.blocks_per_sm > 0, "%s: %d vs %d", p->kernel,
          r.blocks_per_sm, p->occ.r.blocks_per_sm);
}

static void test_block_sweep(void)
{
    const lab_algo *a = lab_algo_find("reduce");
    CHECK(a != NULL, "reduce registered");
    if (!a) return;
    const char *names[] = {"interleaved", "sequential", "warp-shuffle", "atomic-float", "vector"};
    const lab_variant *vs[5];
    for (int i = 0; i < 5; i++) vs[i] = lab_variant_find(a, names[i]);
    const long long sizes[] = {1000, 4097, 777};
    const lab_dtype types[] = {LAB_INT, LAB_FLOAT, LAB_DOUBLE};
    for (int si = 0; si < 3; si++) {
        lab_config c = sim_cfg(sizes[si]);
        c.dtype = types[si];
        /* 48 is not a power of two and 2048 is past a block's limit */
        long long vals[] = {32, 48, 64, 256, 1024, 2048};
        sweep_data d;
        char err[512];
        int rc = sweep_run(a, vs, 5, &c, SWEEP_BLOCK, vals, 6, &d, NULL, NULL, err, sizeof err);
        CHECK(rc == 0, "sweep: %s", err);
        if (rc != 0) continue;
        CHECK(d.npoints == 30 && !d.interrupted, "%d points", d.npoints);
        for (int i = 0; i < d.npoints; i++) {
            const sweep_point *p = &d.points[i];
            if (p->x == 48 || p->x == 2048) {
                CHECK(p->refused && !p->r.ran, "%s at %lld refused", p->r.variant, p->x);
                CHECK(strstr(p->r.note, p->x == 48 ? "power of two" : "32..1024") != NULL, "%s",
                      p->r.note);
                continue;
            }
            CHECK(p->r.ran && p->r.correct == 1 && p->r.backend == LAB_BACKEND_SIM,
                  "n %lld %s %s block %lld: ran %d correct %d (%s)", sizes[si], lab_dtype_name(c.dtype),
                  p->r.variant, p->x, p->r.ran, p->r.correct, p->r.note);
            CHECK(p->r.block == p->x, "block recorded: %d", p->r.block);
            check_point_occupancy(p, &c);
            CHECK(p->occ.threads == (int)p->x || strcmp(p->r.variant, "warp-shuffle") == 0,
                  "%s main launch at block %lld has %d threads", p->r.variant, p->x, p->occ.threads);
        }
        /* more threads per block, fewer blocks per SM, for the tree kernel */
        const sweep_point *small = sweep_at(&d, 0, 1), *big = sweep_at(&d, 4, 1);
        CHECK(small->occ.r.blocks_per_sm > big->occ.r.blocks_per_sm, "32: %d, 1024: %d",
              small->occ.r.blocks_per_sm, big->occ.r.blocks_per_sm);
        CHECK(small->occ.r.limiters == OCC_LIM_BLOCKS, "block 32 is limited by the block table");
        sweep_free(&d);
    }
}

static void test_grid_and_n(void)
{
    const lab_algo *a = lab_algo_find("reduce");
    const lab_variant *ws = lab_variant_find(a, "warp-shuffle"), *il = lab_variant_find(a, "interleaved");
    const lab_variant *seq = lab_variant_find(a, "sequential"), *omp = lab_variant_find(a, "cpu-omp");
    lab_config c = sim_cfg(1001);
    char err[512];
    sweep_data d;
    long long grids[] = {1, 3, 7, 64};
    const lab_variant *v2[] = {ws, il};
    CHECK(sweep_run(a, v2, 2, &c, SWEEP_GRID, grids, 4, &d, NULL, NULL, err, sizeof err) == 0, "%s", err);
    for (int i = 0; i < d.npoints; i++) {
        const sweep_point *p = &d.points[i];
        if (p->variant == 0) {
            CHECK(p->r.ran && p->r.correct == 1 && p->r.grid == p->x, "grid-stride at grid %lld: %s", p->x, p->r.note);
        } else {
            CHECK(p->refused && strstr(p->r.note, "derives its grid"), "fixed grid: %s", p->r.note);
        }
    }
    sweep_free(&d);

    long long ns[] = {1, 999, 4096, 70001};
    const lab_variant *v3[] = {seq, omp};
    CHECK(sweep_run(a, v3, 2, &c, SWEEP_N, ns, 4, &d, NULL, NULL, err, sizeof err) == 0, "%s", err);
    CHECK(d.npoints == 8, "n points %d", d.npoints);
    for (int i = 0; i < d.npoints; i++)
        CHECK(d.points[i].r.ran && d.points[i].r.correct == 1 && d.points[i].r.n == d.points[i].x,
              "n %lld %s: %s", d.points[i].x, d.points[i].r.variant, d.points[i].r.note);
    CHECK(!d.points[1].occ.known && d.points[0].occ.known, "the CPU row has no occupancy");
    sweep_free(&d);

    /* one thread per element, no grid-stride loop: a short grid is refused
     * with the range, except the lecture's bug that is kept to be seen */
    const lab_algo *sc = lab_algo_find("scale"), *vd = lab_algo_find("vecdiff");
    const lab_variant *idx = sc ? lab_variant_find(sc, "index") : NULL;
    const lab_variant *v3b = vd ? lab_variant_find(vd, "v3") : NULL;
    if (idx && (idx->flags & LAB_GRID_COVERS_N)) {
        c = sim_cfg(1000);
        c.block = 32;
        long long g[] = {4, 32};
        const lab_variant *vi[] = {idx};
        CHECK(sweep_run(sc, vi, 1, &c, SWEEP_GRID, g, 2, &d, NULL, NULL, err, sizeof err) == 0, "%s", err);
        CHECK(d.points[0].refused && strstr(d.points[0].r.note, "allowed 32..2147483647"), "short grid: %s",
              d.points[0].r.note);
        CHECK(d.points[1].r.ran && d.points[1].r.correct == 1, "grid 32 x 32 covers 1000: %s", d.points[1].r.note);
        sweep_free(&d);
    }
    if (v3b && (v3b->flags & LAB_WRONG_ON_PURPOSE) && (v3b->flags & LAB_GRID_COVERS_N)) {
        c = sim_cfg(1000);
        c.block = 128;
        long long g[] = {2};
        const lab_variant *vv[] = {v3b};
        CHECK(sweep_run(vd, vv, 1, &c, SWEEP_GRID, g, 1, &d, NULL, NULL, err, sizeof err) == 0, "%s", err);
        CHECK(!d.points[0].refused && d.points[0].r.ran && strstr(d.points[0].r.note, "on purpose"),
              "the lecture's bug runs, labelled: %s", d.points[0].r.note);
        sweep_free(&d);
    }
}

static int stop_after;
static void stop_progress(const sweep_data *d, int i, int j, void *ctx)
{
    (void)ctx;
    if (i * d->nvariants + j == stop_after) lab_interrupted = 1;
}

static void test_interrupt(void)
{
    const lab_algo *a = lab_algo_find("reduce");
    const lab_variant *vs[] = {lab_variant_find(a, "sequential")};
    lab_config c = sim_cfg(2048);
    long long vals[] = {32, 64, 128, 256, 512};
    sweep_data d;
    char err[256];
    stop_after = 2;
    lab_interrupted = 0;
    CHECK(sweep_run(a, vs, 1, &c, SWEEP_BLOCK, vals, 5, &d, stop_progress, NULL, err, sizeof err) == 0, "%s", err);
    /* the third point was starting when Ctrl-C came: it stops inside it,
     * and the two measured before stay */
    CHECK(d.interrupted && d.npoints >= 2 && d.npoints < 5, "interrupted with %d points", d.npoints);
    for (int i = 0; i < 2; i++) CHECK(d.points[i].r.ran && d.points[i].r.correct == 1, "kept point %d", i);
    lab_interrupted = 0;
    struct session s;
    sess_init(&s);
    sess_output_sweep(&s, &d);
    CHECK(s.last.kind == SESS_OUTPUT_SWEEP && s.last.sweep && s.last.sweep->interrupted, "kept as the last sweep");
    sess_free(&s);
}

/* ------------------------------------------------------------ launch checks */

static void test_launch_checks(void)
{
    lab_config c = sim_cfg(100);
    snprintf(c.model, sizeof c.model, "t4");
    lab_job job;
    memset(&job, 0, sizeof job);
    job.cfg = &c;
    job.backend = LAB_BACKEND_SIM;
    unsigned g[3] = {4, 1, 1}, b[3] = {256, 1, 1};
    CHECK(lab_launch_check(&job, "k", NULL, g, b, 1024) == 0, "a fine launch: %s", job.err);
    b[0] = 2048;
    CHECK(lab_launch_check(&job, "k", NULL, g, b, 0) == -1 && strstr(job.err, "1..1024"), "%s", job.err);
    b[0] = 256;
    CHECK(lab_launch_check(&job, "k", NULL, g, b, 70 * 1024) == -1 && strstr(job.err, "65536") &&
              strstr(job.err, "t4"), "t4 shared memory: %s", job.err);
    b[0] = 0;
    CHECK(lab_launch_check(&job, "k", NULL, g, b, 0) == -1 && strstr(job.err, "no threads"), "%s", job.err);
    b[0] = 8;
    b[2] = 65;
    CHECK(lab_launch_check(&job, "k", NULL, g, b, 0) == -1 && strstr(job.err, "1024x1024x64"), "z: %s", job.err);
    b[2] = 1;
    g[1] = 70000;
    CHECK(lab_launch_check(&job, "k", NULL, g, b, 0) == -1 && strstr(job.err, "65535"), "%s", job.err);
    g[1] = 1;
    g[0] = 0;
    CHECK(lab_launch_check(&job, "k", NULL, g, b, 0) == -1 && strstr(job.err, "no blocks"), "%s", job.err);
    /* probing records each shape once, counting repeats */
    g[0] = 4;
    lab_launch_probe l[2];
    lab_probe p = {l, 0, 2, 0};
    job.probe = &p;
    lab_launch_check(&job, "k<T>", NULL, g, b, 128);
    lab_launch_check(&job, "k<T>", NULL, g, b, 128);
    lab_launch_check(&job, "other", NULL, g, b, 0);
    lab_launch_check(&job, "third", NULL, g, b, 0);
    CHECK(p.count == 2 && l[0].count == 2 && l[0].dynamic_smem == 128 && p.dropped == 1 && l[0].regs == -1,
          "probe: %d shapes", p.count);
}

/* ------------------------------------------------------------ commands */

static char *run_cmds(struct session *s, const char *line, int *status)
{
    char *buf = NULL, *ebuf = NULL;
    size_t len = 0, elen = 0;
    FILE *o = open_memstream(&buf, &len), *e = open_memstream(&ebuf, &elen);
    out_set_streams(o, e);
    *status = repl_exec_line(s, line);
    out_set_streams(NULL, NULL);
    fclose(o);
    fclose(e);
    size_t n = len + elen + 2;
    char *all = malloc(n);
    snprintf(all, n, "%s\n%s", buf ? buf : "", ebuf ? ebuf : "");
    free(buf);
    free(ebuf);
    return all;
}

/* A CSV reader: comment lines skipped, quoted fields with doubled quotes. */
typedef struct csv {
    int rows, cols;
    char *cell[128][40];
} csv;

static int csv_read(const char *path, csv *t)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    memset(t, 0, sizeof *t);
    char line[8192];
    while (fgets(line, sizeof line, f) && t->rows < 128) {
        if (line[0] == '#') continue;
        int c = 0;
        char *p = line;
        while (*p && *p != '\n' && c < 40) {
            char field[2048];
            size_t k = 0;
            if (*p == '"') {
                p++;
                while (*p && !(*p == '"' && p[1] != '"')) {
                    if (*p == '"') p++;
                    if (k < sizeof field - 1) field[k++] = *p;
                    p++;
                }
                if (*p == '"') p++;
            } else {
                while (*p && *p != ',' && *p != '\n')
                    if (k < sizeof field - 1) field[k++] = *p++;
            }
            field[k] = 0;
            t->cell[t->rows][c++] = strdup(field);
            if (*p == ',') {
                p++;
                if (*p == '\n' || !*p) t->cell[t->rows][c++] = strdup("");
            }
        }
        if (t->cols == 0) t->cols = c;
        if (c != t->cols) {
            fclose(f);
            return -2;
        }
        t->rows++;
    }
    fclose(f);
    return 0;
}

static int csv_col(const csv *t, const char *name)
{
    for (int i = 0; i < t->cols; i++)
        if (strcmp(t->cell[0][i], name) == 0) return i;
    return -1;
}

static void csv_free(csv *t)
{
    for (int r = 0; r < t->rows; r++)
        for (int c = 0; c < t->cols; c++) free(t->cell[r][c]);
}

static void test_commands(void)
{
    struct session s;
    sess_init(&s);
    s.cfg.backend = LAB_BACKEND_SIM;
    int st;
    char *o = run_cmds(&s, "use reduce/sequential; set n 3001; set repeats 1", &st);
    CHECK(st == CMD_OK, "setup: %s", o);
    free(o);

    o = run_cmds(&s, "sweep block 32..1024 for interleaved,sequential", &st);
    CHECK(st == CMD_OK, "sweep: %s", o);
    CHECK(strstr(o, "blocks/SM") && strstr(o, "occupancy") && strstr(o, "limited by"), "columns: %s", o);
    CHECK(strstr(o, "block (threads per block") && strstr(o, "interleaved") && strstr(o, "simulator time"),
          "plot: %s", o);
    CHECK(strstr(o, "WRONG") == NULL && strstr(o, "refused") == NULL, "all points ok: %s", o);
    CHECK(s.last.kind == SESS_OUTPUT_SWEEP && s.last.nrows == 12, "the sweep's rows are the last output: %d",
          s.last.nrows);
    free(o);

    char dir[] = "/tmp/gpulab-explore-XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "temp dir");
    char csvp[128], jsonp[128], svgp[128], line[512];
    snprintf(csvp, sizeof csvp, "%s/sweep.csv", dir);
    snprintf(jsonp, sizeof jsonp, "%s/sweep.json", dir);
    snprintf(svgp, sizeof svgp, "%s/plot.svg", dir);
    snprintf(line, sizeof line, "export %s; export %s; export %s", csvp, jsonp, svgp);
    o = run_cmds(&s, line, &st);
    CHECK(st == CMD_OK && strstr(o, "12 points") && strstr(o, "plot of the sweep"), "export: %s", o);
    free(o);

    const sweep_data *d = s.last.sweep;
    csv t;
    CHECK(csv_read(csvp, &t) == 0, "CSV reads back");
    CHECK(t.rows == 1 + d->npoints, "CSV rows %d", t.rows);
    int cx = csv_col(&t, "swept_block"), cv = csv_col(&t, "variant"), cms = csv_col(&t, "ms"),
        cb = csv_col(&t, "blocks_per_sm"), cn = csv_col(&t, "note"), co = csv_col(&t, "ok");
    CHECK(cx == 0 && cv == 1 && cms > 0 && cb > 0 && cn == t.cols - 1 && co < 0, "columns %d %d %d %d %d", cx, cv,
          cms, cb, cn);
    for (int i = 1; i < t.rows && cx == 0 && cms > 0 && cb > 0; i++) {
        const sweep_point *p = &d->points[i - 1];
        CHECK(atoll(t.cell[i][cx]) == p->x && strcmp(t.cell[i][cv], p->r.variant) == 0, "row %d", i);
        CHECK(fabs(atof(t.cell[i][cms]) - p->r.ms) <= 1e-5 * p->r.ms + 1e-12, "ms %s vs %g", t.cell[i][cms], p->r.ms);
        CHECK(atoi(t.cell[i][cb]) == p->occ.r.blocks_per_sm, "blocks/SM");
    }
    csv_free(&t);
    FILE *f = fopen(csvp, "r");
    char head[4][512] = {{0}};
    for (int i = 0; f && i < 4; i++) fgets(head[i], sizeof head[i], f);
    if (f) fclose(f);
    CHECK(strstr(head[0], "# gpulab") && strstr(head[1], "# date: 20") && strstr(head[2], "# device: the simulator") &&
              strstr(head[3], "# algorithm: reduce"), "preamble: %s%s%s", head[0], head[1], head[2]);

    json_error_t je;
    json_t *j = json_load_file(jsonp, 0, &je);
    CHECK(j != NULL, "JSON reads back: %s", je.text);
    if (j) {
        CHECK(strcmp(json_string_value(json_object_get(j, "kind")), "sweep") == 0 &&
                  strcmp(json_string_value(json_object_get(j, "axis")), "block") == 0, "kind and axis");
        json_t *pts = json_object_get(j, "points");
        CHECK(json_array_size(pts) == (size_t)d->npoints, "points %zu", json_array_size(pts));
        json_t *p0 = json_array_get(pts, 0);
        CHECK(json_integer_value(json_object_get(p0, "x")) == 32 &&
                  json_integer_value(json_object_get(json_object_get(p0, "occupancy"), "blocks_per_sm")) ==
                      d->points[0].occ.r.blocks_per_sm,
              "point 0");
        CHECK(strcmp(json_string_value(json_object_get(json_object_get(j, "settings"), "n")), "3001") == 0 &&
                  json_string_value(json_object_get(j, "date")) && json_string_value(json_object_get(j, "device")),
              "settings, date, device");
        json_decref(j);
    }
    f = fopen(svgp, "r");
    char svg[256] = "";
    if (f) {
        fread(svg, 1, sizeof svg - 1, f);
        fclose(f);
    }
    CHECK(strstr(svg, "<svg") != NULL, "an SVG file");

    /* a run after the sweep: export takes the newer table */
    o = run_cmds(&s, "run", &st);
    free(o);
    snprintf(line, sizeof line, "export %s", csvp);
    o = run_cmds(&s, line, &st);
    CHECK(st == CMD_OK && strstr(o, "last table, 1 row\n"), "results export: %s", o);
    free(o);
    CHECK(csv_read(csvp, &t) == 0 && t.rows == 2 && csv_col(&t, "block") == 4 && csv_col(&t, "block_y") == 5 &&
              csv_col(&t, "grid") == 6 && csv_col(&t, "grid_y") == 7,
          "results CSV: one column per field");
    csv_free(&t);

    o = run_cmds(&s, "occupancy", &st);
    CHECK(st == CMD_OK && strstr(o, "reduce_sequential_k") && strstr(o, "Why ") && strstr(o, "warp slots"),
          "occupancy: %s", o);
    free(o);
    o = run_cmds(&s, "set model t4; occupancy vector", &st);
    CHECK(st == CMD_OK && strstr(o, "model t4") && strstr(o, "reduce_vector_k"), "t4: %s", o);
    free(o);
    o = run_cmds(&s, "suggest", &st);
    /* on the simulator the blocks compare by the estimate, and say so */
    CHECK(st == CMD_OK && strstr(o, "occupancy suggests: block") && strstr(o, "fastest estimated:  block") &&
              strstr(o, "estimated from their counted") && !strstr(o, "fastest measured"),
          "suggest: %s", o);
    free(o);
    o = run_cmds(&s, "occupancy cpu-omp", &st);
    CHECK(st == CMD_ERROR && strstr(o, "CPU row"), "cpu: %s", o);
    free(o);
    o = run_cmds(&s, "sweep block 0..64", &st);
    CHECK(st == CMD_ERROR && strstr(o, "at least 1") && strstr(o, "^"), "zero: %s", o);
    free(o);
    o = run_cmds(&s, "sweep warps 1..2", &st);
    CHECK(st == CMD_ERROR && strstr(o, "block, grid or n"), "axis: %s", o);
    free(o);
    o = run_cmds(&s, "sweep block 32..64 for nosuch", &st);
    CHECK(st == CMD_ERROR, "variant: %s", o);
    free(o);
    o = run_cmds(&s, "sweep block 32,64 for cpu-omp", &st);
    CHECK(st == CMD_ERROR && strstr(o, "CPU row"), "cpu sweep: %s", o);
    free(o);
    o = run_cmds(&s, "sweep block 2048,4096 plot none", &st);
    CHECK(st == CMD_ERROR && strstr(o, "refused") && strstr(o, "no point of the sweep ran"), "refused: %s", o);
    free(o);
    o = run_cmds(&s, "export /nonexistent-dir/x.csv", &st);
    CHECK(st == CMD_ERROR && strstr(o, "cannot write"), "bad path: %s", o);
    free(o);
    o = run_cmds(&s, "export x.txt", &st);
    CHECK(st == CMD_ERROR && strstr(o, ".csv"), "bad format: %s", o);
    free(o);

    s.json = 1;
    o = run_cmds(&s, "sweep n 1000,2001 for sequential", &st);
    CHECK(st == CMD_OK && strstr(o, "\"axis\": \"n\"") == NULL && strstr(o, "\"axis\":\"n\"") &&
              strstr(o, "\"x\":2001"), "json lines: %s", o);
    free(o);
    s.json = 0;

    /* completion: the axis, then variants after `for`, metrics after `plot` */
    struct cmp_list cl = {0};
    int files = 0;
    cmp_candidates(&s, "sweep b", 6, "b", &cl, &files);
    int has = 0;
    for (int i = 0; i < cl.n; i++) has |= strcmp(cl.words[i], "block") == 0;
    CHECK(has, "sweep completes block");
    cmp_free(&cl);
    memset(&cl, 0, sizeof cl);
    cmp_candidates(&s, "sweep block 32..64 for ", 23, "", &cl, &files);
    has = 0;
    for (int i = 0; i < cl.n; i++) has |= strcmp(cl.words[i], "sequential") == 0;
    CHECK(has, "for completes variants");
    cmp_free(&cl);
    memset(&cl, 0, sizeof cl);
    cmp_candidates(&s, "sweep block 32..64 plot ", 24, "", &cl, &files);
    has = 0;
    for (int i = 0; i < cl.n; i++) has |= strcmp(cl.words[i], "gbps") == 0;
    CHECK(has, "plot completes metrics");
    cmp_free(&cl);

    snprintf(line, sizeof line, "rm -rf %s", dir);
    CHECK(system(line) == 0, "cleanup");
    sess_free(&s);
}

int main(void)
{
    setenv("GPULAB_NO_GPU", "1", 1);
    test_ranges();
    test_launch_checks();
    test_block_sweep();
    test_grid_and_n();
    test_interrupt();
    test_commands();
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
