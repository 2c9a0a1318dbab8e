/* histogram_image.c - a student's own image as the histogram's input:
 * grayscale PGM (binary P5 and ASCII P2, 8 or 16 bits) and PNG through libpng,
 * and the size of the generated images.
 *
 * Every refusal says what is wrong with the file and what is accepted, since
 * the message ends up in front of the student as the row's note. */
#include "kernels/family.h"
#include "kernels/histogram/histogram.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define ACCEPTED "gpulab reads grayscale PGM (P5 or P2) and PNG"

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* ------------------------------------------------------------ PGM */

/* The next header number, skipping whitespace and # comments. */
static int pgm_number(FILE *f, long long *out)
{
    int c = fgetc(f);
    for (;;) {
        while (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') c = fgetc(f);
        if (c != '#') break;
        while (c != '\n' && c != '\r' && c != EOF) c = fgetc(f);
    }
    if (c < '0' || c > '9') return -1;
    long long v = 0;
    while (c >= '0' && c <= '9') {
        if (v > 1000000000LL) return -1;
        v = v * 10 + (c - '0');
        c = fgetc(f);
    }
    /* the one whitespace character after the number (before a P5 raster) */
    if (c != EOF && c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\v' && c != '\f') {
        if (c == '#') ungetc(c, f);
        else return -1;
    }
    *out = v;
    return 0;
}

/* Is a W x H image too large to read? Then err says why. Checked on the
 * header's numbers, before any pixel is decoded or allocated. */
static int size_refused(const char *name, long long W, long long H, long long max_pixels, char *err,
                        size_t len)
{
    if (W > HIST_IMAGE_MAX_SIDE || H > HIST_IMAGE_MAX_SIDE) {
        snprintf(err, len, "%s: the header says %lldx%lld pixels; gpulab reads images of at most %d "
                 "pixels a side", name, W, H, HIST_IMAGE_MAX_SIDE);
        return 1;
    }
    long long limit = max_pixels < HIST_IMAGE_MAX_PIXELS ? max_pixels : HIST_IMAGE_MAX_PIXELS;
    if (W * H > limit) { /* both sides are at most 2^15: no overflow */
        snprintf(err, len, "%s: %lldx%lld is %lld pixels, more than the %lld this run accepts", name, W,
                 H, W * H, limit);
        return 1;
    }
    return 0;
}

/* Bytes from the position of f to its end, -1 when f cannot tell (a pipe). */
static long long bytes_left(FILE *f)
{
    struct stat sb;
    long pos = ftell(f);
    if (pos < 0 || fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) return -1;
    return (long long)sb.st_size - pos;
}

/* How many numbers the rest of an ASCII PGM holds (it is short: see load_pgm). */
static long long count_numbers(FILE *f)
{
    long long v, k = 0;
    while (pgm_number(f, &v) == 0) k++;
    return k;
}

/* brightness v / maxval in 256 levels */
static unsigned char scale(unsigned v, unsigned maxval)
{
    if (maxval == 255) return (unsigned char)v;
    return (unsigned char)((v * 255u + maxval / 2) / maxval);
}

static int load_pgm(FILE *f, const char *path, int ascii, unsigned char **pixels, int *w, int *h,
                    int *maxval, long long max_pixels, char *err, size_t len)
{
    const char *name = base_name(path);
    long long W, H, M;
    if (pgm_number(f, &W) != 0 || pgm_number(f, &H) != 0 || pgm_number(f, &M) != 0) {
        snprintf(err, len, "%s: the PGM header is corrupt (expected width, height and maxval "
                 "after P%c)", name, ascii ? '2' : '5');
        return -1;
    }
    if (W < 1 || H < 1) {
        snprintf(err, len, "%s: the PGM header says %lldx%lld pixels; an image needs at least 1x1",
                 name, W, H);
        return -1;
    }
    if (M < 1 || M > 65535) {
        snprintf(err, len, "%s: PGM maxval %lld is invalid (it must be 1..65535)", name, M);
        return -1;
    }
    if (size_refused(name, W, H, max_pixels, err, len)) return -1;
    long long n = W * H;
    int wide = M > 255;
    /* A file shorter than its header claims is refused before the pixels
     * are allocated: a binary raster needs n (or 2n) bytes, an ASCII one
     * at least 2n - 1 (a digit and a separator per pixel). */
    long long left = bytes_left(f);
    if (left >= 0 && left < (ascii ? 2 * n - 1 : (wide ? 2 : 1) * n)) {
        long long got = ascii ? count_numbers(f) : left / (wide ? 2 : 1);
        snprintf(err, len, "%s is truncated: it ends after %lld of its %lld pixels", name, got, n);
        return -1;
    }
    unsigned char *p = malloc((size_t)n);
    if (!p) {
        snprintf(err, len, "%s: out of host memory for %lld pixels", name, n);
        return -1;
    }
    for (long long i = 0; i < n; i++) {
        long long v;
        if (ascii) {
            if (pgm_number(f, &v) != 0) {
                int at_end = feof(f);
                free(p);
                if (at_end)
                    snprintf(err, len, "%s is truncated: it ends after %lld of its %lld pixels",
                             name, i, n);
                else
                    snprintf(err, len, "%s: pixel %lld is not a number", name, i);
                return -1;
            }
        } else {
            int a = fgetc(f), b = wide ? fgetc(f) : 0;
            if (a == EOF || b == EOF) {
                free(p);
                snprintf(err, len, "%s is truncated: it ends after %lld of its %lld pixels",
                         name, i, n);
                return -1;
            }
            v = wide ? (a << 8 | b) : a;
        }
        if (v > M) {
            free(p);
            snprintf(err, len, "%s: pixel %lld has value %lld, above the file's maxval %lld",
                     name, i, v, M);
            return -1;
        }
        p[i] = scale((unsigned)v, (unsigned)M);
    }
    *pixels = p;
    *w = (int)W;
    *h = (int)H;
    *maxval = (int)M;
    return 0;
}

/* ------------------------------------------------------------ PNG */

static int load_png(const char *path, unsigned char **pixels, int *w, int *h, int *maxval,
                    long long max_pixels, char *err, size_t len)
{
    const char *name = base_name(path);
    png_image im;
    memset(&im, 0, sizeof im);
    im.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&im, path)) {
        snprintf(err, len, "%s: not a readable PNG (%s)", name, im.message);
        png_image_free(&im);
        return -1;
    }
    long long n = (long long)im.width * im.height;
    if (im.width < 1 || im.height < 1 || size_refused(name, im.width, im.height, max_pixels, err, len)) {
        if (im.width < 1 || im.height < 1)
            snprintf(err, len, "%s: the PNG says %ux%u pixels; an image needs at least 1x1", name,
                     (unsigned)im.width, (unsigned)im.height);
        png_image_free(&im);
        return -1;
    }
    /* colour becomes gray (luminance), 16 bits become 8, and transparent
     * pixels are composited onto black */
    im.format = PNG_FORMAT_GRAY;
    unsigned char *p = calloc(1, (size_t)n);
    if (!p) {
        snprintf(err, len, "%s: out of host memory for %lld pixels", name, n);
        png_image_free(&im);
        return -1;
    }
    if (!png_image_finish_read(&im, NULL, p, 0, NULL)) {
        snprintf(err, len, "%s: the PNG is corrupt (%s)", name, im.message);
        png_image_free(&im);
        free(p);
        return -1;
    }
    *pixels = p;
    *w = (int)im.width;
    *h = (int)im.height;
    *maxval = 255;
    return 0;
}

/* Does the IHDR chunk's CRC (over its type and data, PNG spec 5.3) match?
 * A damaged header is left to libpng to report. */
static int ihdr_crc_ok(const unsigned char *chunk)
{
    unsigned long c = 0xffffffffUL;
    for (int i = 4; i < 8 + 13; i++) {
        c ^= chunk[i];
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xedb88320UL & (0UL - (c & 1)));
    }
    c ^= 0xffffffffUL;
    unsigned long want = (unsigned long)chunk[21] << 24 | (unsigned long)chunk[22] << 16 |
                         (unsigned long)chunk[23] << 8 | chunk[24];
    return c == want;
}

/* ------------------------------------------------------------ dispatch */

int hist_load_image(const char *path, unsigned char **pixels, int *w, int *h, int *maxval,
                    long long max_pixels, char *err, size_t len)
{
    *pixels = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, len, "cannot open image %s: %s", path, strerror(errno));
        return -1;
    }
    unsigned char magic[8] = {0};
    size_t got = fread(magic, 1, sizeof magic, f);
    int rc = -1;
    if (got >= 8 && png_sig_cmp(magic, 0, 8) == 0) {
        /* The IHDR chunk comes first (PNG spec 5.6): its width and height are
         * checked here, before libpng decodes or allocates anything. */
        unsigned char ihdr[8 + 13 + 4]; /* length, type, the 13 data bytes, CRC */
        if (fread(ihdr, 1, sizeof ihdr, f) == sizeof ihdr && memcmp(ihdr + 4, "IHDR", 4) == 0 &&
            ihdr_crc_ok(ihdr)) {
            unsigned long long W = (unsigned long long)ihdr[8] << 24 | ihdr[9] << 16 | ihdr[10] << 8 | ihdr[11];
            unsigned long long H = (unsigned long long)ihdr[12] << 24 | ihdr[13] << 16 | ihdr[14] << 8 | ihdr[15];
            if (size_refused(base_name(path), (long long)W, (long long)H, max_pixels, err, len)) {
                fclose(f);
                return -1;
            }
        }
        fclose(f);
        return load_png(path, pixels, w, h, maxval, max_pixels, err, len);
    }
    if (got >= 2 && magic[0] == 'P' && (magic[1] == '5' || magic[1] == '2')) {
        if (fseek(f, 2, SEEK_SET) == 0)
            rc = load_pgm(f, path, magic[1] == '2', pixels, w, h, maxval, max_pixels, err, len);
        else
            snprintf(err, len, "cannot read image %s: %s", path, strerror(errno));
    } else if (got == 0) {
        snprintf(err, len, "%s is empty; " ACCEPTED, base_name(path));
    } else if (got >= 2 && magic[0] == 'P' && strchr("1346", magic[1])) {
        snprintf(err, len, "%s is a %s Netpbm file (P%c); " ACCEPTED, base_name(path),
                 magic[1] == '1' || magic[1] == '4' ? "black-and-white" : "colour", magic[1]);
    } else {
        snprintf(err, len, "%s is neither PGM nor PNG (it starts with bytes %02x %02x); " ACCEPTED,
                 base_name(path), magic[0], got > 1 ? magic[1] : 0);
    }
    fclose(f);
    return rc;
}

int hist_save_pgm(const char *path, const unsigned char *pixels, int w, int h, char *err, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(err, len, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    fprintf(f, "P5\n%d %d\n255\n", w, h);
    size_t n = (size_t)w * (size_t)h;
    int ok = fwrite(pixels, 1, n, f) == n;
    if (fclose(f) != 0) ok = 0;
    if (!ok) snprintf(err, len, "could not write all of %s", path);
    return ok ? 0 : -1;
}

/* ------------------------------------------------------------ sizes */

/* The factor pair of n closest to 16:9 (n prime: n x 1). */
static void shape_of(long long n, int *w, int *h)
{
    long long bw = n, bh = 1;
    double best = 1e300;
    for (long long d = 1; d * d <= n; d++) {
        if (n % d) continue;
        long long pair[2][2] = {{n / d, d}, {d, n / d}};
        for (int k = 0; k < 2; k++) {
            double off = fabs(log((double)pair[k][0] / (double)pair[k][1]) - log(16.0 / 9.0));
            if (off < best - 1e-12) {
                best = off;
                bw = pair[k][0];
                bh = pair[k][1];
            }
        }
    }
    *w = (int)bw;
    *h = (int)bh;
}

int hist_image_size(const lab_config *cfg, int *w, int *h, char *err, size_t len)
{
    int sim = lab_kernel_backend(cfg) == LAB_BACKEND_SIM;
    long long W = cfg->width, H = cfg->height;
    if (W < 0 || H < 0) {
        snprintf(err, len, "width and height must be positive (or auto), not %lldx%lld", W, H);
        return -1;
    }
    if (W == 0 && H == 0 && cfg->n > 0) {
        if (cfg->n > INT_MAX) {
            snprintf(err, len, "n = %lld pixels is more than the histogram's 2^31-1", cfg->n);
            return -1;
        }
        shape_of(cfg->n, w, h);
        return 0;
    }
    if (W == 0) W = sim ? HIST_SIM_W : HIST_LECTURE_W;
    if (H == 0) H = sim ? HIST_SIM_H : HIST_LECTURE_H;
    if (W > INT_MAX || H > INT_MAX || W * H > INT_MAX) {
        snprintf(err, len, "%lldx%lld is %lld pixels, more than the histogram's 2^31-1", W, H, W * H);
        return -1;
    }
    *w = (int)W;
    *h = (int)H;
    return 0;
}
