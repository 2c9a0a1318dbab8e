/* The histogram family on the CPU rows and on the simulator: every kernel
 * variant against the CPU at several image sizes (odd ones included), on
 * every generated image and on files the test writes itself (PGM and PNG);
 * refusal of bad files; sizes, limits and the contention the traces record. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <png.h>

#include "kernels/histogram/histogram.h"
#include "kernels/family.h"

/* Looked up through the registry's own list (which also makes the linker
 * take the registry before the harness that calls it). */
static const lab_algo *hist(void)
{
    for (int i = 0; i < lab_algo_count(); i++)
        if (strcmp(lab_algo_at(i)->name, "histogram") == 0) return lab_algo_at(i);
    return NULL;
}

static char tmpdir[256];

static void path_in_tmp(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", tmpdir, name);
}

static void base_config(lab_config *cfg, lab_backend be)
{
    lab_config_defaults(cfg);
    cfg->dtype = LAB_U8;
    cfg->backend = be;
    cfg->repeats = 1;
    snprintf(cfg->pattern, sizeof cfg->pattern, "photo");
}

/* Run one row over a fresh input; the input's exact histogram comes back in
 * exact (when not NULL). */
static lab_result run_one(const lab_config *cfg, const char *variant, unsigned *exact)
{
    lab_input in;
    lab_result r;
    char msg[LAB_ERR_MAX];
    memset(&r, 0, sizeof r);
    if (lab_input_prepare(&in, hist(), cfg, msg, sizeof msg) != 0) {
        snprintf(r.note, sizeof r.note, "prepare: %s", msg);
        return r;
    }
    const lab_variant *v = lab_variant_find(hist(), variant);
    assert_non_null(v);
    lab_run(&in, v, &r, NULL);
    if (exact) memcpy(exact, ((hist_image *)in.job.priv)->exact, HIST_BINS * sizeof(unsigned));
    lab_input_free(&in);
    return r;
}

/* The message lab_input_prepare gives for cfg, or "" when it prepares. */
static const char *prepare_error(const lab_config *cfg)
{
    static char msg[LAB_ERR_MAX];
    lab_input in;
    msg[0] = 0;
    if (lab_input_prepare(&in, hist(), cfg, msg, sizeof msg) == 0) {
        lab_input_free(&in);
        msg[0] = 0;
    }
    return msg;
}

/* ------------------------------------------------------------ registry */

static void registry_entry(void **state)
{
    (void)state;
    const lab_algo *a = hist();
    assert_non_null(a);
    static const char *const names[] = {"global", "shared", "fast", "cub", "cpu-omp", "cpu-seq"};
    for (int i = 0; i < 6; i++) {
        const lab_variant *v = lab_variant_find(a, names[i]);
        assert_non_null(v);
        assert_non_null(v->summary);
        assert_non_null(v->idea);
    }
    const lab_variant *b = lab_algo_baseline(a);
    assert_non_null(b);
    assert_string_equal(b->name, "cpu-omp");
    assert_int_equal(lab_variant_find(a, "cub")->kind, LAB_ROW_LIB);
    assert_int_equal(a->dtype_default, LAB_U8);
    assert_string_equal(a->patterns[0], "photo");
    assert_int_equal(a->n_default, 7680LL * 4320);
}

/* ------------------------------------------------------------ the lecture */

/* The lecture's images at 8K on the CPU rows: flat puts every pixel in bin
 * 128; the photo is the gradient 60 + 140 x / w with noise, so its mean is
 * near 130 and its bins sum to the pixel count. */
static void lecture_images_on_cpu(void **state)
{
    (void)state;
    lab_config cfg;
    base_config(&cfg, LAB_BACKEND_SIM);
    cfg.width = 7680;
    cfg.height = 4320;
    const long long n = 7680LL * 4320;

    snprintf(cfg.pattern, sizeof cfg.pattern, "flat");
    unsigned exact[HIST_BINS];
    lab_result r = run_one(&cfg, "cpu-seq", exact);
    assert_int_equal(r.ran, 1);
    assert_int_equal(r.correct, 1);
    assert_int_equal(exact[128], (unsigned)n);
    assert_string_equal(r.result, "sum 33177600, peak bin 128");

    snprintf(cfg.pattern, sizeof cfg.pattern, "photo");
    lab_input in;
    char msg[LAB_ERR_MAX];
    assert_int_equal(lab_input_prepare(&in, hist(), &cfg, msg, sizeof msg), 0);
    const unsigned char *px = in.job.in;
    const unsigned *ex = ((hist_image *)in.job.priv)->exact;
    double mean = 0, left = 0, right = 0;
    unsigned long long total = 0;
    for (int b = 0; b < HIST_BINS; b++) {
        mean += (double)b * ex[b];
        total += ex[b];
    }
    mean /= (double)n;
    for (int y = 0; y < 4320; y += 97) {
        left += px[(long long)y * 7680 + 10];
        right += px[(long long)y * 7680 + 7670];
    }
    assert_int_equal(total, (unsigned long long)n);
    assert_true(mean > 128 && mean < 132);
    assert_true(right > left + 100.0 * 45); /* the gradient: 140 from left to right */
    lab_result omp, seq;
    assert_int_equal(lab_run(&in, lab_variant_find(hist(), "cpu-omp"), &omp, NULL), 0);
    assert_int_equal(lab_run(&in, lab_variant_find(hist(), "cpu-seq"), &seq, NULL), 0);
    assert_int_equal(omp.correct, 1);
    assert_int_equal(seq.correct, 1);
    assert_string_equal(omp.result, seq.result);
    lab_input_free(&in);
}

/* ------------------------------------------------------------ the simulator */

static const char *const kernels[] = {"global", "shared", "fast"};

/* Every kernel on the simulator against the CPU, on every image, at sizes
 * that leave partial warps, partial blocks and a tail of pixels past the last
 * 16-byte vector. */
static void every_kernel_on_the_simulator(void **state)
{
    (void)state;
    static const int sizes[][2] = {{1, 1}, {7, 3}, {17, 13}, {64, 36}, {255, 3}, {33, 33}, {101, 7}};
    static const char *const pats[] = {"photo", "flat", "random"};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (int pi = 0; pi < 3; pi++)
            for (int ki = 0; ki < 3; ki++) {
                lab_config cfg;
                base_config(&cfg, LAB_BACKEND_SIM);
                cfg.width = sizes[si][0];
                cfg.height = sizes[si][1];
                cfg.seed = 5 + (unsigned)si;
                snprintf(cfg.pattern, sizeof cfg.pattern, "%s", pats[pi]);
                lab_result r = run_one(&cfg, kernels[ki], NULL);
                if (!(r.ran && r.correct == 1 && r.backend == LAB_BACKEND_SIM))
                    fail_msg("%s %dx%d %s: ran=%d correct=%d result=%s note=%s", kernels[ki],
                             cfg.width, cfg.height, pats[pi], r.ran, r.correct, r.result, r.note);
                assert_int_equal(r.n, (long long)sizes[si][0] * sizes[si][1]);
            }
}

/* Blocks that are not a multiple of 32 (a partial last warp), tiny grids that
 * make every thread loop many times, and the simulator's default image. */
static void blocks_and_grids(void **state)
{
    (void)state;
    static const int blocks[] = {32, 48, 100, 256, 1024};
    static const int grids[] = {1, 3, 0};
    for (int ki = 0; ki < 3; ki++)
        for (int bi = 0; bi < 5; bi++)
            for (int gi = 0; gi < 3; gi++) {
                lab_config cfg;
                base_config(&cfg, LAB_BACKEND_SIM);
                cfg.width = 97;
                cfg.height = 31;
                cfg.block = blocks[bi];
                cfg.grid = grids[gi];
                snprintf(cfg.pattern, sizeof cfg.pattern, "%s", gi == 1 ? "flat" : "random");
                lab_result r = run_one(&cfg, kernels[ki], NULL);
                if (!(r.ran && r.correct == 1))
                    fail_msg("%s block %d grid %d: %s", kernels[ki], cfg.block, cfg.grid, r.note);
                assert_int_equal(r.block, blocks[bi]);
                if (grids[gi]) assert_int_equal(r.grid, grids[gi]);
            }
    /* the defaults: 256 threads (fast: 1024), and the lecture's 8 blocks per
     * SM of the modelled GPU, or fewer when the image needs fewer */
    lab_config cfg;
    base_config(&cfg, LAB_BACKEND_SIM);
    lab_result r = run_one(&cfg, "shared", NULL);
    assert_int_equal(r.ran, 1);
    assert_int_equal(r.correct, 1);
    assert_int_equal(r.n, (long long)HIST_SIM_W * HIST_SIM_H);
    assert_int_equal(r.block, 256);
    assert_int_equal(r.grid, HIST_SIM_W * HIST_SIM_H / 256);
    cfg.width = 600;
    cfg.height = 1000;
    r = run_one(&cfg, "global", NULL);
    assert_int_equal(r.correct, 1);
    assert_int_equal(r.grid, HIST_BLOCKS_PER_SM * HIST_SIM_MODEL_SMS);
    r = run_one(&cfg, "fast", NULL);
    assert_int_equal(r.correct, 1);
    assert_int_equal(r.block, 1024);
    assert_int_equal(r.grid, (600 * 1000 + 16 * 1024 - 1) / (16 * 1024));
    /* the modelled GPU sets the SM count: an A100 has 108 */
    snprintf(cfg.model, sizeof cfg.model, "a100");
    r = run_one(&cfg, "shared", NULL);
    assert_int_equal(r.correct, 1);
    assert_int_equal(r.grid, HIST_BLOCKS_PER_SM * 108);
    /* fast on an image larger than one wave: a persistent grid, as many
     * blocks as stay resident; a T4 (40 SMs of 1024 threads) holds one
     * 1024-thread block per SM */
    snprintf(cfg.model, sizeof cfg.model, "t4");
    cfg.width = 1024;
    cfg.height = 768;
    snprintf(cfg.pattern, sizeof cfg.pattern, "flat");
    r = run_one(&cfg, "fast", NULL);
    assert_int_equal(r.correct, 1);
    assert_int_equal(r.grid, 40);
}

/* The simulator's race check: zeroing, counting and merging are separated by
 * barriers, and atomics do not race with atomics. */
static void no_shared_memory_races(void **state)
{
    (void)state;
    for (int ki = 0; ki < 3; ki++) {
        lab_config cfg;
        base_config(&cfg, LAB_BACKEND_SIM);
        cfg.width = 45;
        cfg.height = 19;
        cfg.block = 96;
        cfg.grid = 2;
        cfg.race_check = 1;
        lab_result r = run_one(&cfg, kernels[ki], NULL);
        if (!(r.ran && r.correct == 1) || strstr(r.note, "race"))
            fail_msg("%s with the race check: ran=%d correct=%d note=%s", kernels[ki], r.ran,
                     r.correct, r.note);
    }
}

static void library_row_needs_a_gpu(void **state)
{
    (void)state;
    if (lab_gpu_available()) skip();
    lab_config cfg;
    base_config(&cfg, LAB_BACKEND_AUTO);
    cfg.width = 16;
    cfg.height = 9;
    lab_result r = run_one(&cfg, "cub", NULL);
    assert_int_equal(r.ran, 0);
    assert_non_null(strstr(r.note, "needs a GPU"));
}

static void simulator_limit_is_stated(void **state)
{
    (void)state;
    lab_config cfg;
    base_config(&cfg, LAB_BACKEND_SIM);
    cfg.width = 7680;
    cfg.height = 4320;
    cfg.sim_limit = 1 << 20;
    snprintf(cfg.pattern, sizeof cfg.pattern, "flat");
    lab_result r = run_one(&cfg, "global", NULL);
    assert_int_equal(r.ran, 0);
    assert_non_null(strstr(r.note, "33177600"));
    assert_non_null(strstr(r.note, "simulator"));
}

/* ------------------------------------------------------------ sizes */

static void image_sizes(void **state)
{
    (void)state;
    lab_config cfg;
    char err[256];
    int w, h;
    base_config(&cfg, LAB_BACKEND_SIM);
    assert_int_equal(hist_image_size(&cfg, &w, &h, err, sizeof err), 0);
    assert_int_equal(w, HIST_SIM_W);
    assert_int_equal(h, HIST_SIM_H);
    cfg.backend = LAB_BACKEND_GPU; /* what a GPU run would take, GPU or not */
    assert_int_equal(hist_image_size(&cfg, &w, &h, err, sizeof err), 0);
    assert_int_equal(w, 7680);
    assert_int_equal(h, 4320);
    cfg.height = 100; /* one side set: the other keeps its default */
    assert_int_equal(hist_image_size(&cfg, &w, &h, err, sizeof err), 0);
    assert_int_equal(w, 7680);
    assert_int_equal(h, 100);
    cfg.height = 0;
    cfg.n = 2304; /* n alone: as close to 16:9 as its divisors allow */
    assert_int_equal(hist_image_size(&cfg, &w, &h, err, sizeof err), 0);
    assert_int_equal(w, 64);
    assert_int_equal(h, 36);
    cfg.n = 13;
    assert_int_equal(hist_image_size(&cfg, &w, &h, err, sizeof err), 0);
    assert_int_equal(w, 13);
    assert_int_equal(h, 1);
    cfg.n = 7680LL * 4320;
    assert_int_equal(hist_image_size(&cfg, &w, &h, err, sizeof err), 0);
    assert_int_equal(w, 7680);
    assert_int_equal(h, 4320);
    cfg.n = 0;
    cfg.width = 70000;
    cfg.height = 70000;
    assert_int_equal(hist_image_size(&cfg, &w, &h, err, sizeof err), -1);
    assert_non_null(strstr(err, "2^31-1"));

    base_config(&cfg, LAB_BACKEND_SIM);
    snprintf(cfg.pattern, sizeof cfg.pattern, "stripes");
    assert_non_null(strstr(prepare_error(&cfg), "photo, flat, random"));
}

/* ------------------------------------------------------------ files */

static void write_bytes(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static void write_png(const char *path, const void *pixels, int w, int h, unsigned format)
{
    png_image im;
    memset(&im, 0, sizeof im);
    im.version = PNG_IMAGE_VERSION;
    im.width = (png_uint_32)w;
    im.height = (png_uint_32)h;
    im.format = format;
    if (!png_image_write_to_file(&im, path, 0, pixels, 0, NULL))
        fail_msg("libpng could not write %s: %s", path, im.message);
}

/* A test picture: a diagonal ramp, so every row differs and the corners
 * tell a transposed or shifted image apart. */
static unsigned char ramp(int x, int y) { return (unsigned char)((x * 7 + y * 3) & 0xFF); }

/* Run every kernel and the CPU rows on the file, expecting exactly `want`. */
static void expect_file_histogram(const char *path, const unsigned *want, int w, int h)
{
    static const char *const rows[] = {"cpu-seq", "cpu-omp", "global", "shared", "fast"};
    for (int i = 0; i < 5; i++) {
        lab_config cfg;
        base_config(&cfg, LAB_BACKEND_SIM);
        snprintf(cfg.image, sizeof cfg.image, "%s", path);
        cfg.width = 5; /* ignored: the file has its own size */
        unsigned exact[HIST_BINS];
        lab_result r = run_one(&cfg, rows[i], exact);
        if (!(r.ran && r.correct == 1)) fail_msg("%s on %s: %s", rows[i], path, r.note);
        assert_int_equal(r.n, (long long)w * h);
        assert_memory_equal(exact, want, sizeof exact);
    }
}

static void pgm_and_png_files(void **state)
{
    (void)state;
    enum { W = 53, H = 21 };
    unsigned char px[W * H];
    unsigned want[HIST_BINS] = {0};
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            px[y * W + x] = ramp(x, y);
            want[ramp(x, y)]++;
        }
    char path[512], err[256];

    /* binary PGM, written by the family's own writer and by hand with a comment */
    path_in_tmp(path, sizeof path, "ramp.pgm");
    assert_int_equal(hist_save_pgm(path, px, W, H, err, sizeof err), 0);
    expect_file_histogram(path, want, W, H);
    char head[64];
    int hl = snprintf(head, sizeof head, "P5\n# made by the test\n%d %d\n255\n", W, H);
    unsigned char *buf = malloc((size_t)hl + sizeof px);
    memcpy(buf, head, (size_t)hl);
    memcpy(buf + hl, px, sizeof px);
    path_in_tmp(path, sizeof path, "comment.pgm");
    write_bytes(path, buf, (size_t)hl + sizeof px);
    expect_file_histogram(path, want, W, H);
    free(buf);

    /* the same pixels as an ASCII PGM */
    path_in_tmp(path, sizeof path, "ramp_ascii.pgm");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "P2\n%d %d\n# maxval next\n255\n", W, H);
    for (int i = 0; i < W * H; i++) fprintf(f, "%d%c", px[i], i % 17 == 16 ? '\n' : ' ');
    fclose(f);
    expect_file_histogram(path, want, W, H);

    /* 16-bit PGM: brightness v / 65535 in 256 levels, so v * 257 is v again */
    unsigned char wide[W * H * 2];
    for (int i = 0; i < W * H; i++) {
        unsigned v = px[i] * 257u;
        wide[2 * i] = (unsigned char)(v >> 8);
        wide[2 * i + 1] = (unsigned char)(v & 0xFF);
    }
    hl = snprintf(head, sizeof head, "P5 %d %d 65535\n", W, H);
    buf = malloc((size_t)hl + sizeof wide);
    memcpy(buf, head, (size_t)hl);
    memcpy(buf + hl, wide, sizeof wide);
    path_in_tmp(path, sizeof path, "ramp16.pgm");
    write_bytes(path, buf, (size_t)hl + sizeof wide);
    expect_file_histogram(path, want, W, H);
    free(buf);

    /* PNG: 8-bit gray, 16-bit gray, and gray stored as RGB */
    path_in_tmp(path, sizeof path, "ramp.png");
    write_png(path, px, W, H, PNG_FORMAT_GRAY);
    expect_file_histogram(path, want, W, H);
    unsigned short px16[W * H];
    for (int i = 0; i < W * H; i++) px16[i] = (unsigned short)(px[i] * 257u);
    path_in_tmp(path, sizeof path, "ramp16.png");
    write_png(path, px16, W, H, PNG_FORMAT_LINEAR_Y);
    {
        /* linear 16-bit data comes back through sRGB encoding: not the same
         * values, but the same count */
        lab_config cfg;
        base_config(&cfg, LAB_BACKEND_SIM);
        snprintf(cfg.image, sizeof cfg.image, "%s", path);
        lab_result r = run_one(&cfg, "fast", NULL);
        assert_int_equal(r.ran, 1);
        assert_int_equal(r.correct, 1);
        assert_int_equal(r.n, W * H);
    }
    unsigned char rgb[W * H * 3];
    for (int i = 0; i < W * H; i++) rgb[3 * i] = rgb[3 * i + 1] = rgb[3 * i + 2] = px[i];
    path_in_tmp(path, sizeof path, "ramp_rgb.png");
    write_png(path, rgb, W, H, PNG_FORMAT_RGB);
    expect_file_histogram(path, want, W, H);

    /* a PNG of the lecture's photo, 64x36, round trip */
    unsigned char photo[64 * 36];
    unsigned pw[HIST_BINS] = {0};
    lab_config cfg;
    base_config(&cfg, LAB_BACKEND_SIM);
    cfg.width = 64;
    cfg.height = 36;
    lab_input in;
    char msg[LAB_ERR_MAX];
    assert_int_equal(lab_input_prepare(&in, hist(), &cfg, msg, sizeof msg), 0);
    memcpy(photo, in.job.in, sizeof photo);
    memcpy(pw, ((hist_image *)in.job.priv)->exact, sizeof pw);
    lab_input_free(&in);
    path_in_tmp(path, sizeof path, "photo.png");
    write_png(path, photo, 64, 36, PNG_FORMAT_GRAY);
    expect_file_histogram(path, pw, 64, 36);
}

static const char *file_error(const char *name, const void *data, size_t len)
{
    static char path[512];
    path_in_tmp(path, sizeof path, name);
    if (data) write_bytes(path, data, len);
    lab_config cfg;
    base_config(&cfg, LAB_BACKEND_SIM);
    snprintf(cfg.image, sizeof cfg.image, "%s", path);
    return prepare_error(&cfg);
}

#define EXPECT_REFUSED(name, data, len, words)                                   \
    do {                                                                         \
        const char *e_ = file_error(name, data, len);                            \
        if (!strstr(e_, words)) fail_msg("%s: \"%s\" lacks \"%s\"", name, e_, words); \
    } while (0)

static void bad_files_are_refused(void **state)
{
    (void)state;
    EXPECT_REFUSED("missing.pgm", NULL, 0, "No such file");
    EXPECT_REFUSED("empty.pgm", "", 0, "is empty");
    static const char trunc5[] = "P5\n4 4\n255\n0123456789";
    EXPECT_REFUSED("trunc5.pgm", trunc5, sizeof trunc5 - 1, "truncated: it ends after 10 of its 16");
    static const char trunc2[] = "P2\n3 2\n255\n1 2 3 4";
    EXPECT_REFUSED("trunc2.pgm", trunc2, sizeof trunc2 - 1, "truncated: it ends after 4 of its 6");
    static const char text[] = "hello, this is not an image\n";
    EXPECT_REFUSED("text.pgm", text, sizeof text - 1, "neither PGM nor PNG");
    static const char ppm[] = "P6\n1 1\n255\nabc";
    EXPECT_REFUSED("color.ppm", ppm, sizeof ppm - 1, "colour Netpbm file (P6)");
    static const char pbm[] = "P4\n8 1\n\x55";
    EXPECT_REFUSED("bw.pbm", pbm, sizeof pbm - 1, "black-and-white");
    static const char m0[] = "P5\n1 1\n0\n\x01";
    EXPECT_REFUSED("maxval0.pgm", m0, sizeof m0 - 1, "maxval 0 is invalid");
    static const char m7[] = "P5\n1 1\n70000\n\x01\x01";
    EXPECT_REFUSED("maxval70000.pgm", m7, sizeof m7 - 1, "maxval 70000 is invalid");
    static const char zero[] = "P5\n0 5\n255\n";
    EXPECT_REFUSED("zero.pgm", zero, sizeof zero - 1, "at least 1x1");
    static const char hdr[] = "P5\nwide tall\n255\n";
    EXPECT_REFUSED("header.pgm", hdr, sizeof hdr - 1, "header is corrupt");
    static const char over[] = "P2\n2 1\n100\n50 101\n";
    EXPECT_REFUSED("over.pgm", over, sizeof over - 1, "above the file's maxval 100");
    static const char nan2[] = "P2\n2 1\n255\n50 x\n";
    EXPECT_REFUSED("nan.pgm", nan2, sizeof nan2 - 1, "pixel 1 is not a number");

    /* PNGs: a real one cut short, and one with a damaged header */
    char path[512];
    unsigned char px[40 * 30];
    for (int i = 0; i < 40 * 30; i++) px[i] = (unsigned char)(i * 13);
    path_in_tmp(path, sizeof path, "good.png");
    write_png(path, px, 40, 30, PNG_FORMAT_GRAY);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    unsigned char data[4096];
    size_t len = fread(data, 1, sizeof data, f);
    fclose(f);
    assert_true(len > 60 && len < sizeof data);
    EXPECT_REFUSED("cut.png", data, 60, "PNG is corrupt");
    EXPECT_REFUSED("sig_only.png", data, 8, "not a readable PNG");
    data[20] ^= 0x40; /* inside IHDR: its CRC no longer matches */
    EXPECT_REFUSED("crc.png", data, len, "PNG");
}

/* ------------------------------------------------------------ traces */

static int trace_one(const lab_config *cfg, const char *variant, lab_trace *t, lab_result *r)
{
    lab_input in;
    char msg[LAB_ERR_MAX];
    memset(t, 0, sizeof *t);
    assert_int_equal(lab_input_prepare(&in, hist(), cfg, msg, sizeof msg), 0);
    int rc = lab_run(&in, lab_variant_find(hist(), variant), r, t);
    lab_input_free(&in);
    return rc;
}

/* Contention as the traces record it: on the flat image every lane of every
 * full warp hits bin 128 (32 lanes, one counter, for global and shared); the
 * fast variant's lanes share the bin but never the counter. Events per pixel:
 * a read, a match mark and an atomic. */
static void traces_record_contention(void **state)
{
    (void)state;
    for (int ki = 0; ki < 3; ki++) {
        lab_config cfg;
        base_config(&cfg, LAB_BACKEND_SIM);
        cfg.width = 64;
        cfg.height = 36;
        snprintf(cfg.pattern, sizeof cfg.pattern, "flat");
        lab_trace t;
        lab_result r;
        if (trace_one(&cfg, kernels[ki], &t, &r) != 0) fail_msg("%s: %s", kernels[ki], r.note);
        assert_int_equal(r.correct, 1);
        assert_int_equal(t.width, 64);
        assert_int_equal(t.height, 36);
        assert_int_equal(t.truncated, 0);
        long long reads = 0, marks = 0, pixel_atomics = 0, merges = 0;
        for (size_t i = 0; i < t.count; i++) {
            const lab_event *e = &t.ev[i];
            if (e->kind == LAB_EV_READ && e->space == LAB_SP_GLOBAL) {
                reads++;
                assert_int_equal((int)e->v, 128);
            } else if (e->kind == LAB_EV_MARK && e->a == HIST_MARK_MATCH) {
                marks++;
                assert_int_equal(e->b, 128);
                /* fast: 144 vectors for 1024 threads, so the fifth warp has 16 */
                if (!((int)e->v == 32 || (ki == 2 && (int)e->v == 16)))
                    fail_msg("%s: %d lanes in bin 128", kernels[ki], (int)e->v);
                assert_int_equal((int)e->v2, ki == 2 ? 1 : (int)e->v);
            } else if (e->kind == LAB_EV_ATOMIC) {
                if ((int)e->v == 1 && (ki == 0 || e->space == LAB_SP_SHARED)) pixel_atomics++;
                else merges++;
            }
        }
        assert_int_equal(reads, 64 * 36);
        assert_int_equal(marks, 64 * 36);
        assert_int_equal(pixel_atomics, 64 * 36);
        /* global has no merge; shared and fast add one counter per block */
        assert_int_equal(merges, ki == 0 ? 0 : (long long)r.grid);
        lab_trace_free(&t);
    }
    /* a photo: lanes of a warp spread over several bins, and the simulator
     * records the same trace twice */
    lab_config cfg;
    base_config(&cfg, LAB_BACKEND_SIM);
    cfg.width = 17;
    cfg.height = 13;
    cfg.block = 48;
    cfg.grid = 2;
    lab_trace a, b;
    lab_result ra, rb;
    assert_int_equal(trace_one(&cfg, "shared", &a, &ra), 0);
    assert_int_equal(trace_one(&cfg, "shared", &b, &rb), 0);
    char msg[256];
    assert_int_equal(lab_trace_compare(&a, &b, msg, sizeof msg), 0);
    int most = 0, least = 99;
    for (size_t i = 0; i < a.count; i++)
        if (a.ev[i].kind == LAB_EV_MARK && a.ev[i].a == HIST_MARK_MATCH) {
            int v = (int)a.ev[i].v;
            if (v > most) most = v;
            if (v < least) least = v;
        }
    assert_true(least >= 1 && most < 16); /* the last warp of 48 has 16 lanes */
    lab_trace_free(&a);
    lab_trace_free(&b);

    /* past the tracing limit: refused with the limit */
    cfg.width = 65;
    cfg.height = 64;
    cfg.block = 0;
    cfg.grid = 0;
    lab_trace t;
    lab_result r;
    assert_int_not_equal(trace_one(&cfg, "global", &t, &r), 0);
    assert_non_null(strstr(r.note, "4096"));
    lab_trace_free(&t);
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/gpulab-hist-XXXXXX");
    if (!mkdtemp(tmpdir)) return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(registry_entry),
        cmocka_unit_test(lecture_images_on_cpu),
        cmocka_unit_test(every_kernel_on_the_simulator),
        cmocka_unit_test(blocks_and_grids),
        cmocka_unit_test(no_shared_memory_races),
        cmocka_unit_test(library_row_needs_a_gpu),
        cmocka_unit_test(simulator_limit_is_stated),
        cmocka_unit_test(image_sizes),
        cmocka_unit_test(pgm_and_png_files),
        cmocka_unit_test(bad_files_are_refused),
        cmocka_unit_test(traces_record_contention),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
