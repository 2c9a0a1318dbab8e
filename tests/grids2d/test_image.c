/* The image view: Mandelbrot and matmul traces recorded on the simulator,
 * drawn frame by frame as text and compared with the golden files in
 * tests/grids2d/golden/ (GPULAB_UPDATE_GOLDEN=1 rewrites them); and the
 * numbers the pictures are about (work per block, busy lanes), worked out
 * again here from the output. Usage: test_image GOLDEN_DIR */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <math.h>

#include "tests/common/golden.h"

#include "kernels/family.h"
#include "viz/render.h"
#include "viz/term.h"

static const char *golden_dir;

static void trace_of(const char *algo, const char *variant, const lab_config *cfg, lab_trace *t)
{
    const lab_algo *a = lab_algo_find(algo);
    assert_non_null(a);
    lab_input in;
    char msg[LAB_ERR_MAX];
    if (lab_input_prepare(&in, a, cfg, msg, sizeof msg) != 0) fail_msg("%s", msg);
    lab_result r;
    memset(t, 0, sizeof *t);
    if (lab_run(&in, lab_variant_find(a, variant), &r, t) != 0) fail_msg("%s/%s: %s", algo, variant, r.note);
    lab_input_free(&in);
}

static lab_config sim_cfg(const char *algo)
{
    const lab_algo *a = lab_algo_find(algo);
    lab_config cfg;
    lab_config_defaults(&cfg);
    cfg.backend = LAB_BACKEND_SIM;
    cfg.repeats = 1;
    cfg.dtype = a->dtype_default;
    snprintf(cfg.pattern, sizeof cfg.pattern, "%s", a->patterns[0]);
    return cfg;
}

/* Frame f of t in a w x h area (h 0: the renderer's own height) as plain
 * text, with its title, caption and counters. */
static void render_frame(const viz_renderer *rd, const lab_trace *t, int f, int w, int h, FILE *out)
{
    if (h <= 0) h = rd->height(t, w);
    canvas *c = canvas_new(w, h);
    assert_non_null(c);
    viz_frame_info info;
    viz_info_clear(&info);
    rd->draw(t, f, c, viz_rect_make(0, 0, w, h), &info);
    char counters[512];
    viz_info_counters_text(&info, counters, sizeof counters);
    fprintf(out, "--- frame %d of %d at %dx%d: %s\n%s\n%s\n", f, rd->frames(t), w, h, info.title,
            info.caption, counters);
    viz_text_opts o = {VIZ_TEXT_PLAIN, 0, 1};
    char *text = viz_text_render(c, &o, NULL);
    assert_non_null(text);
    fputs(text, out);
    free(text);
    canvas_free(c);
}

/* Compare what was drawn with NAME in the golden folder. */
static void golden(const char *name, const char *got, size_t len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", golden_dir, name);
    golden_check(path, got, len);
}

static void frames_to_golden(const lab_trace *t, const int *widths, int nw, int h, const char *name)
{
    const viz_renderer *rd = viz_renderer_find(t->algo, t->variant);
    assert_non_null(rd);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    for (int i = 0; i < nw; i++)
        for (int fr = 0; fr < rd->frames(t); fr++) render_frame(rd, t, fr, widths[i], h, f);
    fclose(f);
    golden(name, buf, len);
    free(buf);
}

static void mandelbrot_frames(void **state)
{
    (void)state;
    lab_config cfg = sim_cfg("mandelbrot");
    cfg.width = 96;
    cfg.height = 54;
    lab_trace t;
    trace_of("mandelbrot", "gpu", &cfg, &t);
    const viz_renderer *rd = viz_renderer_find("mandelbrot", "gpu");
    assert_non_null(rd);
    assert_string_equal(rd->name, "image and work per block");
    /* 6 x 4 blocks: eight fill frames (of three blocks), the work, the lanes */
    assert_int_equal(rd->frames(&t), 10);
    static const int widths[] = {120, 64};
    frames_to_golden(&t, widths, 2, 0, "mandelbrot_96x54.txt");
    lab_trace_free(&t);
}

/* A player-sized area: the picture scales down to what fits. */
static void mandelbrot_small_area(void **state)
{
    (void)state;
    lab_config cfg = sim_cfg("mandelbrot");
    cfg.width = 160;
    cfg.height = 90;
    lab_trace t;
    trace_of("mandelbrot", "gpu-nofma", &cfg, &t);
    const viz_renderer *rd = viz_renderer_find("mandelbrot", "gpu-nofma");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int last = rd->frames(&t) - 2;
    render_frame(rd, &t, last, 80, 24, f);
    render_frame(rd, &t, last, 40, 30, f);
    fclose(f);
    golden("mandelbrot_160x90_small.txt", buf, len);
    free(buf);
    lab_trace_free(&t);
}

/* The same frame in colour and in monochrome, as the terminal gets it: two
 * colours per cell (SGR 30-37 ink, 40-47 background) and, without colour,
 * the shades and half blocks alone. Blocks of 8 x 4 make a 20 x 23 grid,
 * so the heat map packs two block rows into a text row too. */
static void mandelbrot_colour_and_mono(void **state)
{
    (void)state;
    lab_config cfg = sim_cfg("mandelbrot");
    cfg.width = 160;
    cfg.height = 90;
    cfg.block = 8;
    cfg.block_y = 4;
    lab_trace t;
    trace_of("mandelbrot", "gpu-nofma", &cfg, &t);
    const viz_renderer *rd = viz_renderer_find("mandelbrot", "gpu-nofma");
    int f = rd->frames(&t) - 2; /* the work per block */
    canvas *c = canvas_new(80, 24);
    viz_frame_info info;
    viz_info_clear(&info);
    rd->draw(&t, f, c, canvas_bounds(c), &info);
    static const struct {
        viz_text_mode mode;
        const char *name;
    } modes[] = {{VIZ_TEXT_COLOUR, "mandelbrot_160x90_80x24.ansi"},
                 {VIZ_TEXT_MONO, "mandelbrot_160x90_80x24.mono"},
                 {VIZ_TEXT_PLAIN, "mandelbrot_160x90_80x24.txt"}};
    for (int i = 0; i < 3; i++) {
        viz_text_opts o = {modes[i].mode, 0, 1};
        size_t len;
        char *text = viz_text_render(c, &o, &len);
        assert_non_null(text);
        if (modes[i].mode == VIZ_TEXT_COLOUR) {
            /* ink and background colours together, in the picture */
            assert_non_null(strstr(text, ";46m\xe2\x96\x80")); /* ▀ on cyan */
            assert_non_null(strstr(text, ";42m\xe2\x96\x80")); /* ▀ on green */
        } else {
            /* no colour at all, and no cell left as ▀ over a background */
            for (const char *p = text; (p = strchr(p, '\x1b')) != NULL; p++) {
                const char *e = strchr(p, 'm');
                for (const char *q = p; q < e; q++)
                    if ((q[0] == ';' && (q[1] == '3' || q[1] == '4') && q[2] >= '0' && q[2] <= '7'))
                        fail_msg("%s: a colour code", modes[i].name);
            }
        }
        golden(modes[i].name, text, len);
        free(text);
    }
    /* the heat map: 20 columns, 23 block rows in 12 text rows, block b's
     * heat in the top or bottom half of its cell */
    int heat_x = -1, heat_y = -1;
    for (int y = 0; y < 24 && heat_x < 0; y++) {
        char line[1024];
        canvas_row_text(c, y, line, sizeof line);
        char *p = strstr(line, "work per block");
        if (p) {
            *p = '\0';
            heat_y = y + 1;
            heat_x = viz_text_width(line);
        }
    }
    assert_true(heat_x > 0);
    int halves = 0;
    for (int cy = 0; cy < 12; cy++)
        for (int cx = 0; cx < 20; cx++) {
            const viz_cell *cell = canvas_at(c, heat_x + cx, heat_y + cy);
            int top, bottom;
            if (!viz_cell_halves(cell, &top, &bottom)) {
                assert_int_equal(cell->cp, 0x25c6); /* ◆, the busiest block */
                continue;
            }
            assert_int_not_equal(top, VIZ_BG_NONE); /* every block computed: never blank */
            if (cy == 11) assert_int_equal(bottom, VIZ_BG_NONE); /* 23 rows: the 24th is none */
            else assert_int_not_equal(bottom, VIZ_BG_NONE);
            halves += top != bottom;
        }
    assert_true(halves > 20); /* neighbouring block rows do differ */
    canvas_free(c);
    lab_trace_free(&t);
}

/* Twice the rows in colour: at one pixel per half cell, each cell's top and
 * bottom roles are exactly its two pixels, worked out here from the trace. */
static void mandelbrot_two_pixels_per_cell(void **state)
{
    (void)state;
    lab_config cfg = sim_cfg("mandelbrot");
    cfg.width = 96;
    cfg.height = 54;
    lab_trace t;
    trace_of("mandelbrot", "gpu", &cfg, &t);
    const viz_renderer *rd = viz_renderer_find("mandelbrot", "gpu");
    canvas *c = canvas_new(120, 40);
    viz_frame_info info;
    viz_info_clear(&info);
    rd->draw(&t, rd->frames(&t) - 1, c, canvas_bounds(c), &info);
    double *it = calloc(96 * 54, sizeof *it);
    for (size_t i = 0; i < t.count; i++)
        if (t.ev[i].kind == LAB_EV_WRITE && t.ev[i].a < 96 * 54) it[t.ev[i].a] = t.ev[i].v;
    int differ = 0;
    for (int cy = 0; cy < 27; cy++)
        for (int cx = 0; cx < 96; cx++) {
            int want[2];
            for (int h = 0; h < 2; h++) {
                double v = it[(2 * cy + h) * 96 + cx];
                int l = v <= 1 ? 0 : (int)(log(v) / log(1000.0) * VIZ_NHEAT_ROLES);
                if (l >= VIZ_NHEAT_ROLES) l = VIZ_NHEAT_ROLES - 1;
                want[h] = v >= 1000 ? VIZ_ROLE_VALUE : l == 0 ? VIZ_BG_NONE : viz_heat_role(l);
            }
            int top, bottom;
            assert_true(viz_cell_halves(canvas_at(c, cx, 1 + cy), &top, &bottom));
            if (top != want[0] || bottom != want[1])
                fail_msg("cell (%d, %d): roles %d / %d, pixels say %d / %d", cx, cy, top, bottom,
                         want[0], want[1]);
            differ += top != bottom;
        }
    assert_true(differ > 250); /* 313 of the 2592 cells show two different pixels */
    free(it);
    canvas_free(c);
    lab_trace_free(&t);
}

/* The counters against the output itself: total iterations, the busiest
 * block, and the lanes' busy share worked out warp by warp. */
static void mandelbrot_numbers(void **state)
{
    (void)state;
    lab_config cfg = sim_cfg("mandelbrot");
    cfg.width = 50;
    cfg.height = 30;
    cfg.block = 8;
    cfg.block_y = 4;
    lab_trace t;
    trace_of("mandelbrot", "gpu", &cfg, &t);
    const viz_renderer *rd = viz_renderer_find("mandelbrot", "gpu");
    int nf = rd->frames(&t);
    canvas *c = canvas_new(100, 40);
    viz_frame_info info;
    viz_info_clear(&info);
    rd->draw(&t, nf - 1, c, viz_rect_make(0, 0, 100, 40), &info);
    /* the same from the trace's events, warp by warp (8 x 4 blocks: one warp) */
    double total = 0, useful = 0, spent = 0;
    int grid_x = (50 + 7) / 8, grid_y = (30 + 3) / 4;
    for (int by = 0; by < grid_y; by++)
        for (int bx = 0; bx < grid_x; bx++) {
            double mx = 0, sum = 0;
            for (size_t i = 0; i < t.count; i++) {
                const lab_event *e = &t.ev[i];
                if (e->kind != LAB_EV_WRITE || e->block != (unsigned)(by * grid_x + bx)) continue;
                sum += e->v;
                if (e->v > mx) mx = e->v;
            }
            total += sum;
            useful += sum;
            spent += mx * 32;
        }
    assert_true(total == t.result);
    long long want_pct = (long long)(100.0 * useful / spent + 0.5);
    int found = 0;
    for (int i = 0; i < info.ncounters; i++) {
        if (strcmp(info.counters[i].name, "iterations") == 0) {
            assert_int_equal(info.counters[i].value, (long long)total);
            found++;
        }
        if (strcmp(info.counters[i].name, "busy lanes") == 0) {
            assert_int_equal(info.counters[i].value, want_pct);
            found++;
        }
    }
    assert_int_equal(found, 2);
    assert_non_null(strstr(info.caption, "divergence"));
    canvas_free(c);
    lab_trace_free(&t);
}

/* Any 2D result: the product of the article's matrices, as shades. */
static void matmul_frames(void **state)
{
    (void)state;
    lab_config cfg = sim_cfg("matmul");
    cfg.n = 40;
    lab_trace t;
    trace_of("matmul", "gpu-tiled", &cfg, &t);
    static const int widths[] = {90};
    frames_to_golden(&t, widths, 1, 0, "matmul_40.txt");
    lab_trace_free(&t);
}

/* A trace with nothing in it draws a blank picture and says so, without
 * crashing; tiny areas draw what fits. */
static void odd_inputs(void **state)
{
    (void)state;
    lab_config cfg = sim_cfg("mandelbrot");
    cfg.width = 7;
    cfg.height = 3;
    lab_trace t;
    trace_of("mandelbrot", "gpu", &cfg, &t);
    const viz_renderer *rd = viz_renderer_find("mandelbrot", "gpu");
    static const int sizes[][2] = {{1, 1}, {5, 2}, {30, 8}, {200, 60}};
    for (int i = 0; i < 4; i++) {
        canvas *c = canvas_new(sizes[i][0], sizes[i][1]);
        for (int f = -1; f <= rd->frames(&t); f++) {
            viz_frame_info info;
            viz_info_clear(&info);
            rd->draw(&t, f, c, canvas_bounds(c), &info);
            assert_true(info.title[0] != 0);
        }
        canvas_free(c);
    }
    lab_trace empty;
    memset(&empty, 0, sizeof empty);
    snprintf(empty.algo, sizeof empty.algo, "mandelbrot");
    empty.n = 4;
    assert_true(rd->frames(&empty) >= 1);
    canvas *c = canvas_new(40, 10);
    viz_frame_info info;
    viz_info_clear(&info);
    rd->draw(&empty, 0, c, canvas_bounds(c), &info);
    canvas_free(c);
    lab_trace_free(&t);
}

int main(int argc, char **argv)
{
    golden_dir = argc > 1 ? argv[1] : "golden";
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mandelbrot_frames),
        cmocka_unit_test(mandelbrot_small_area),
        cmocka_unit_test(mandelbrot_colour_and_mono),
        cmocka_unit_test(mandelbrot_two_pixels_per_cell),
        cmocka_unit_test(mandelbrot_numbers),
        cmocka_unit_test(matmul_frames),
        cmocka_unit_test(odd_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
