/* test_plot.c - golden renders of the sweep plot, and the picture exports.
 *
 *   test_plot GOLDEN_DIR OUT_DIR
 *
 * compares each plot, drawn into a canvas and written as plain text, with
 * GOLDEN_DIR/NAME.txt (GPULAB_UPDATE_GOLDEN=1 rewrites them), and writes the
 * first plot as OUT_DIR/plot.svg, .png and .pdf for check_export.py. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "viz/export.h"
#include "viz/render_plot.h"
#include "viz/term.h"

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

static const char *golden_dir;

static void golden(const char *name, const canvas *c)
{
    viz_text_opts o = {VIZ_TEXT_PLAIN, 0, 1};
    size_t len = 0;
    char *text = viz_text_render(c, &o, &len);
    char path[512];
    snprintf(path, sizeof path, "%s/%s.txt", golden_dir, name);
    const char *upd = getenv("GPULAB_UPDATE_GOLDEN");
    if (upd && *upd && strcmp(upd, "0") != 0) {
        FILE *f = fopen(path, "w");
        CHECK(f != NULL, "write %s", path);
        if (f) {
            fwrite(text, 1, len, f);
            fclose(f);
        }
        free(text);
        return;
    }
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "golden file %s (GPULAB_UPDATE_GOLDEN=1 makes it)", path);
    if (!f) {
        fputs(text, stderr);
        free(text);
        return;
    }
    static char want[1 << 16];
    size_t n = fread(want, 1, sizeof want - 1, f);
    want[n] = 0;
    fclose(f);
    CHECK(n == len && memcmp(want, text, len) == 0, "%s differs from the golden file; got:\n%s", name, text);
    free(text);
}

/* A block sweep on a GPU, two variants: GB/s. */
static const double bx[] = {32, 64, 128, 256, 512, 1024};
static const double by1[] = {310.5, 602.25, 1050, 1480, 1610, 1575};
static const double by2[] = {520, 980, 1720, 2380, 2655.5, 2590};

static canvas *block_plot(int w, int h, int *rows)
{
    static viz_plot_series s[2];
    s[0] = (viz_plot_series){"interleaved", 6, bx, by1};
    s[1] = (viz_plot_series){"sequential", 6, bx, by2};
    viz_plot p = {0};
    p.title = "reduce: GB/s against block (n = 64Mi, gpu)";
    p.xlabel = "block (threads per block)";
    p.ylabel = "GB/s (higher is better)";
    p.nseries = 2;
    p.series = s;
    p.logx = p.logy = VIZ_PLOT_AUTO;
    canvas *c = canvas_new(w, h);
    *rows = viz_plot_draw(c, canvas_bounds(c), &p);
    return c;
}

static void test_block(void)
{
    int rows;
    canvas *c = block_plot(72, 20, &rows);
    CHECK(rows == 20, "rows %d", rows);
    golden("plot_block_72x20", c);
    char line[512];
    canvas_row_text(c, 1, line, sizeof line);
    CHECK(strcmp(line, "GB/s (higher is better)") == 0, "linear y: %s", line);
    int found = 0;
    for (int y = 0; y < c->h; y++) {
        canvas_row_text(c, y, line, sizeof line);
        if (strstr(line, "block (threads per block) (log scale)")) found = 1;
    }
    CHECK(found, "doubling block sizes get a log x axis");
    canvas_free(c);
    c = block_plot(44, 14, &rows);
    golden("plot_block_44x14", c);
    canvas_free(c);
}

/* An n sweep with time on log axes, a gap where a point did not run, and
 * a caption. */
static void test_n(void)
{
    static const double nx[] = {1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864};
    static const double t1[] = {0.004, 0.0042, 0.0051, 0.009, 0.021, 0.065, 0.24, 0.93, 3.7};
    static const double t2[] = {0.0061, 0.0063, 0.007, -1, 0.016, 0.041, 0.15, 0.58, 2.2};
    static const double t3[] = {0.002, 0.006, 0.02, 0.08, 0.31, 1.2, 4.9, 19.6, 79};
    viz_plot_series s[3] = {{"vector", 9, nx, t1}, {"cub", 9, nx, t2}, {"cpu-omp", 9, nx, t3}};
    viz_plot p = {0};
    p.title = "reduce: time against n (gpu)";
    p.xlabel = "n (elements)";
    p.ylabel = "ms, median (lower is better)";
    p.caption = "The GPU rows flatten at small n: a launch costs a few microseconds whatever the size.";
    p.nseries = 3;
    p.series = s;
    p.logx = p.logy = VIZ_PLOT_AUTO;
    CHECK(viz_plot_log_x(&p) && viz_plot_log_y(&p), "log-log");
    canvas *c = canvas_new(80, 24);
    viz_plot_draw(c, canvas_bounds(c), &p);
    golden("plot_n_80x24", c);
    canvas_free(c);
}

/* A linear step, occupancy in %, and the smallest area. */
static void test_linear_and_small(void)
{
    static const double x[] = {32, 96, 160, 224, 288, 352};
    static const double y[] = {50, 100, 93.75, 87.5, 84.375, 100};
    viz_plot_series s[1] = {{"sequential", 6, x, y}};
    viz_plot p = {0};
    p.xlabel = "block (threads per block)";
    p.ylabel = "theoretical occupancy, %";
    p.nseries = 1;
    p.series = s;
    p.logx = p.logy = VIZ_PLOT_AUTO;
    CHECK(!viz_plot_log_x(&p) && !viz_plot_log_y(&p), "a linear step stays linear");
    canvas *c = canvas_new(60, 14);
    viz_plot_draw(c, canvas_bounds(c), &p);
    golden("plot_linear_60x14", c);
    canvas_free(c);
    c = canvas_new(20, 5);
    CHECK(viz_plot_draw(c, canvas_bounds(c), &p) == 1, "too small");
    char line[128];
    canvas_row_text(c, 0, line, sizeof line);
    CHECK(strstr(line, "(the plot needs") == line, "%s", line);
    canvas_free(c);
    /* nothing ran: axes and a message, no crash */
    static const double none[] = {-1, -1};
    viz_plot_series e[1] = {{"v", 2, x, none}};
    p.series = e;
    c = canvas_new(40, 12);
    viz_plot_draw(c, canvas_bounds(c), &p);
    int found = 0;
    for (int yy = 0; yy < c->h; yy++) {
        canvas_row_text(c, yy, line, sizeof line);
        found |= strstr(line, "no point") != NULL;
    }
    CHECK(found, "no point message");
    canvas_free(c);
}

static void test_fmt(void)
{
    char b[32];
    CHECK(strcmp(viz_plot_fmt(1024, 1, b, sizeof b), "1Ki") == 0, "%s", b);
    CHECK(strcmp(viz_plot_fmt(67108864, 1, b, sizeof b), "64Mi") == 0, "%s", b);
    CHECK(strcmp(viz_plot_fmt(1000, 1, b, sizeof b), "1000") == 0, "%s", b);
    CHECK(strcmp(viz_plot_fmt(3072, 1, b, sizeof b), "3Ki") == 0, "%s", b);
    CHECK(strcmp(viz_plot_fmt(96, 1, b, sizeof b), "96") == 0, "%s", b);
    CHECK(viz_plot_marker(0) != viz_plot_marker(1) && viz_ascii_glyph(viz_plot_marker(0)) !=
                                                          viz_ascii_glyph(viz_plot_marker(1)),
          "markers differ, in ASCII too");
}

static void test_export(const char *out)
{
    int rows;
    canvas *c = block_plot(72, 20, &rows);
    char path[512], err[256];
    const char *ext[] = {"svg", "png", "pdf"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/plot.%s", out, ext[i]);
        FILE *out = fopen(path, "wb");
        CHECK(out && viz_export_canvas(c, rows, path, out, err, sizeof err) == 0, "%s: %s", path, err);
        if (out) fclose(out);
        FILE *f = fopen(path, "rb");
        unsigned char head[8] = {0};
        CHECK(f && fread(head, 1, 8, f) == 8, "%s written", path);
        if (f) fclose(f);
        if (i == 1) CHECK(memcmp(head, "\x89PNG\r\n\x1a\n", 8) == 0, "PNG signature");
        if (i == 2) CHECK(memcmp(head, "%PDF", 4) == 0, "PDF header");
    }
    snprintf(path, sizeof path, "%s/plot.bmp", out);
    CHECK(viz_export_canvas(c, rows, path, NULL, err, sizeof err) == -1 && strstr(err, ".svg"), "%s", err);
    /* a failed write names the system's reason, not cairo's "error while writing" */
    FILE *full = fopen("/dev/full", "wb");
    if (full) {
        CHECK(viz_export_canvas(c, rows, "p.pdf", full, err, sizeof err) == -1 &&
                  strstr(err, "p.pdf") && strstr(err, strerror(ENOSPC)),
              "full disk: %s", err);
        fclose(full);
    }
    /* the newest offered picture is what export takes */
    viz_picture pic = {0};
    CHECK(pic.c == NULL, "nothing offered yet");
    viz_picture_keep(&pic, c, rows, "the plot");
    const char *what = pic.what;
    int r2 = pic.rows;
    const canvas *l = pic.c;
    CHECK(l && l != c && r2 == rows && strcmp(what, "the plot") == 0 && l->w == 72, "offered copy");
    canvas_free(c);
    CHECK(pic.c->cells[0].cp == 'r', "the copy outlives the canvas");
    viz_picture_free(&pic);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_plot GOLDEN_DIR OUT_DIR\n");
        return 2;
    }
    golden_dir = argv[1];
    test_fmt();
    test_block();
    test_n();
    test_linear_and_small();
    test_export(argv[2]);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
