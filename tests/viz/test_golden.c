/* test_golden.c - whole player screens of chosen frames, compared byte for
 * byte with files under tests/viz/golden/.
 *
 * Each case records a real trace on the simulator (deterministic: fixed
 * schedule, fixed input), composes the screen the player would show at one
 * terminal size, and writes it three ways: NAME.txt (plain, for reading),
 * NAME.ansi (ANSI colours) and NAME.mono (monochrome: bold, dim, underline,
 * reverse only). The table under the picture uses fixed timings, so the
 * files do not depend on the machine.
 *
 * Regenerate after an intended change, then read the diff and the .txt
 * files by eye before committing them:
 *     GPULAB_UPDATE_GOLDEN=1 ctest --test-dir build -R viz_golden
 * or run the binary with --update. A mismatch writes NAME.EXT.actual next
 * to the test binary and prints the first line that differs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "viz/player.h"
#include "tests/viz/record.h"
#include "viz/render.h"
#include "viz/term.h"

typedef struct gcase {
    const char *name;
    const char *algo;         /* NULL: reduce */
    const char *variant, *vs; /* vs: a second variant side by side, or NULL */
    long long n;
    int block;
    lab_dtype dtype;
    const char *pattern;      /* input pattern; NULL: the default (the lecture's data) */
    const char *title;        /* the frame: the first whose title this is; NULL = frame 0 */
    int w, h;
    int help;                 /* with the help overlay */
} gcase;

static const gcase cases[] = {
    {"interleaved-n32-80x24", NULL, "interleaved", NULL, 32, 32, LAB_INT, NULL, "stride 4", 80, 24, 0},
    {"interleaved-tree-200x60", NULL, "interleaved", NULL, 32, 32, LAB_INT, NULL, "stride 4", 200, 60, 0},
    {"interleaved-input-80x24", NULL, "interleaved", NULL, 256, 64, LAB_INT, NULL, NULL, 80, 24, 0},
    {"interleaved-stride1-120x40", NULL, "interleaved", NULL, 256, 256, LAB_INT, NULL, "stride 1", 120, 40, 0},
    {"interleaved-stride32-200x60", NULL, "interleaved", NULL, 256, 256, LAB_INT, NULL, "stride 32", 200, 60, 0},
    {"sequential-stride64-200x60", NULL, "sequential", NULL, 512, 256, LAB_INT, NULL, "stride 64", 200, 60, 0},
    {"sequential-stride8-120x40", NULL, "sequential", NULL, 512, 256, LAB_INT, NULL, "stride 8", 120, 40, 0},
    {"warp-shuffle-offset16-120x40", NULL, "warp-shuffle", NULL, 256, 128, LAB_INT, NULL, "shuffle offset 16", 120, 40, 0},
    {"warp-shuffle-launch2-200x60", NULL, "warp-shuffle", NULL, 256, 128, LAB_INT, NULL, "launch 2: load", 200, 60, 0},
    /* the article's case in small: float sums of 1.23 drift from the exact sum */
    {"atomic-float-result-80x24", NULL, "atomic-float", NULL, 1000, 32, LAB_FLOAT, "const", "result", 80, 24, 0},
    {"vector-warp-sums-120x40", NULL, "vector", NULL, 256, 64, LAB_INT, NULL, "store warp sums", 120, 40, 0},
    {"interleaved-vs-sequential-200x60", NULL, "interleaved", "sequential", 64, 32, LAB_INT, NULL, "stride 2", 200, 60, 0},
    {"too-small-60x20", NULL, "interleaved", NULL, 256, 256, LAB_INT, NULL, "stride 1", 60, 20, 0},
    {"help-80x24", NULL, "interleaved", NULL, 64, 32, LAB_INT, NULL, "stride 1", 80, 24, 1},
    /* every renderer at 80x24, keeping what it is about */
    {"interleaved-vs-sequential-80x24", NULL, "interleaved", "sequential", 64, 32, LAB_INT, NULL, "stride 2", 80, 24, 0},
    {"bitonic-o-8keys-80x24", "bitonic", "o", NULL, 8, 0, LAB_INT, NULL, "k=4 j=2", 80, 24, 0},
    {"bitonic-n-8keys-80x24", "bitonic", "n", NULL, 8, 0, LAB_INT, NULL, "k=4 j=2", 80, 24, 0},
    {"histogram-shared-80x24", "histogram", "shared", NULL, 4096, 0, LAB_U8, NULL, NULL, 80, 24, 0},
    {"scale-grid-stride-80x24", "scale", "grid-stride", NULL, 1000, 64, LAB_FLOAT, NULL, NULL, 80, 24, 0},
    {"mandelbrot-gpu-80x24", "mandelbrot", "gpu", NULL, 64, 0, LAB_FLOAT, NULL, NULL, 80, 24, 0},
    {"transpose-tiled-80x24", "transpose", "tiled", NULL, 0, 0, LAB_FLOAT, NULL, NULL, 80, 24, 0},
    /* two transpose panels side by side at 80x24, banks one column each */
    {"transpose-nopad-vs-tiled-80x24", "transpose", "tiled-nopad", "tiled", 100, 0, LAB_DOUBLE, NULL, "warp 1 stores", 80, 24, 0},
    /* the banks' summary: 32 accesses in two columns of 16 at 80x24 */
    {"transpose-nopad-summary-80x24", "transpose", "tiled-nopad", NULL, 100, 0, LAB_DOUBLE, NULL, "summary", 80, 24, 0},
    /* lesson 3: the block's shared array filling, the barrier, thread 0 adding */
    {"distance-ls-warp0-80x24", "distance", "ls", NULL, 256, 64, LAB_FLOAT, NULL, "block 0, warp 0", 80, 24, 0},
    {"distance-ls-barrier-80x24", "distance", "ls", NULL, 256, 64, LAB_FLOAT, NULL, "block 1, the barrier", 80, 24, 0},
    {"distance-ls-adds-120x40", "distance", "ls", NULL, 256, 64, LAB_FLOAT, NULL, "block 0, thread 0 adds", 120, 40, 0},
    {"distance-ls-past-n-80x24", "distance", "ls", NULL, 100, 64, LAB_FLOAT, NULL, "block 1, warp 1", 80, 24, 0},
};

static const struct {
    const char *ext;
    viz_text_mode mode;
} modes[] = {{"txt", VIZ_TEXT_PLAIN}, {"ansi", VIZ_TEXT_COLOUR}, {"mono", VIZ_TEXT_MONO}};

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    for (;;) {
        if (n == cap) b = realloc(b, cap *= 2);
        size_t k = fread(b + n, 1, cap - n, f);
        if (k == 0) break;
        n += k;
    }
    fclose(f);
    *len = n;
    return b;
}

static int write_file(const char *path, const char *s, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    int rc = fwrite(s, 1, len, f) == len ? 0 : -1;
    if (fclose(f) != 0) rc = -1;
    return rc;
}

/* The first line where a and b differ, 1-based. */
static int first_diff_line(const char *a, size_t na, const char *b, size_t nb)
{
    int line = 1;
    for (size_t i = 0; i < na && i < nb; i++) {
        if (a[i] != b[i]) return line;
        if (a[i] == '\n') line++;
    }
    return line;
}

/* The row a timing table would show, with fixed times. */
static lab_result fixed_row(const lab_trace *t, const lab_result *traced, int k)
{
    lab_result r = *traced;
    r.ran = 1;
    r.backend = LAB_BACKEND_SIM;
    r.repeats = 5;
    r.ms = 2.5 + k;
    r.ms_min = 2.25 + k;
    r.ms_max = 3.0 + k;
    r.gbps = r.pct_peak = r.speedup = -1;
    r.note[0] = '\0';
    (void)t;
    return r;
}

static int frame_with_title(const viz_renderer *r, const lab_trace *t, const char *title)
{
    if (!title) return 0;
    canvas *c = canvas_new(120, 40);
    int found = -1;
    for (int f = 0; f < r->frames(t) && found < 0; f++) {
        viz_frame_info info;
        viz_info_clear(&info);
        canvas_clear(c);
        r->draw(t, f, c, canvas_bounds(c), &info);
        if (strcmp(info.title, title) == 0) found = f;
    }
    canvas_free(c);
    return found;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "golden";
    int update = getenv("GPULAB_UPDATE_GOLDEN") && *getenv("GPULAB_UPDATE_GOLDEN") &&
                 strcmp(getenv("GPULAB_UPDATE_GOLDEN"), "0") != 0;
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--update") == 0) update = 1;
    int failures = 0, written = 0, checked = 0;

    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        const gcase *gc = &cases[ci];
        lab_trace t[2];
        lab_result traced[2];
        char err[LAB_ERR_MAX];
        int nsides = gc->vs ? 2 : 1;
        int ok = 1;
        for (int s = 0; s < nsides; s++) {
            if (viz_test_record(gc->algo ? gc->algo : "reduce", s ? gc->vs : gc->variant, gc->n, gc->block, gc->dtype, gc->pattern,
                                LAB_BACKEND_SIM, &t[s], &traced[s], err, sizeof err) != 0) {
                fprintf(stderr, "%s: %s\n", gc->name, err);
                failures++;
                for (int k = 0; k < s; k++) lab_trace_free(&t[k]);
                ok = 0;
                break;
            }
        }
        if (!ok) continue;
        viz_side sides[2];
        memset(sides, 0, sizeof sides);
        lab_result rows[2];
        char labels[2][128];
        for (int s = 0; s < nsides; s++) {
            const char *algo = gc->algo ? gc->algo : "reduce";
            sides[s].r = viz_renderer_find(algo, t[s].variant);
            snprintf(labels[s], sizeof labels[s], "%s%s%s", nsides > 1 ? "" : algo, nsides > 1 ? "" : "/",
                     t[s].variant);
            sides[s].label = labels[s];
            sides[s].trace = &t[s];
            rows[s] = fixed_row(&t[s], &traced[s], s);
        }
        char heading[160];
        snprintf(heading, sizeof heading, "%s/%s%s%s  n = %lld %s  on the simulator", gc->algo ? gc->algo : "reduce",
                 gc->variant, gc->vs ? " vs " : "", gc->vs ? gc->vs : "", t[0].n, lab_dtype_name(t[0].dtype));
        viz_player_opts o = {0, rows, nsides, heading, NULL};
        viz_play_state st;
        int nframes = 0;
        for (int s = 0; s < nsides; s++)
            if (sides[s].r->frames(&t[s]) > nframes) nframes = sides[s].r->frames(&t[s]);
        viz_play_init(&st, nframes);
        st.frame = frame_with_title(sides[0].r, &t[0], gc->title);
        st.help = gc->help;
        if (st.frame < 0) {
            fprintf(stderr, "%s: no frame titled \"%s\" in the trace of %s\n", gc->name, gc->title,
                    gc->variant);
            failures++;
        } else {
            canvas *c = canvas_new(gc->w, gc->h);
            viz_player_compose(c, sides, nsides, &st, &o);
            for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
                viz_text_opts to = {modes[m].mode, 0, 0};
                size_t len = 0;
                char *got = viz_text_render(c, &to, &len);
                char path[1024];
                snprintf(path, sizeof path, "%s/%s.%s", dir, gc->name, modes[m].ext);
                if (update) {
                    if (write_file(path, got, len) != 0) {
                        fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
                        failures++;
                    } else {
                        written++;
                    }
                } else {
                    size_t wlen = 0;
                    char *want = read_file(path, &wlen);
                    checked++;
                    if (!want) {
                        fprintf(stderr, "%s: missing (GPULAB_UPDATE_GOLDEN=1 makes it)\n", path);
                        failures++;
                    } else if (wlen != len || memcmp(want, got, len) != 0) {
                        char actual[1100];
                        snprintf(actual, sizeof actual, "%s.%s.actual", gc->name, modes[m].ext);
                        write_file(actual, got, len);
                        fprintf(stderr, "%s: differs from line %d on; what was drawn is in %s\n", path,
                                first_diff_line(want, wlen, got, len), actual);
                        failures++;
                    }
                    free(want);
                }
                free(got);
            }
            canvas_free(c);
        }
        for (int s = 0; s < nsides; s++) lab_trace_free(&t[s]);
    }
    if (update) printf("wrote %d golden files under %s\n", written, dir);
    else printf("%d golden files checked, %d differ\n", checked, failures);
    return failures ? 1 : 0;
}
