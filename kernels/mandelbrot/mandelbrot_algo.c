/* mandelbrot_algo.c - the Mandelbrot family in the registry: its variants,
 * the image size (width and height, or n as the width of a 16:9 picture), and
 * the check: total iterations, pixel by pixel against the CPU, and against
 * the lecture's printed totals at its two sizes. */
#include "kernels/family.h"
#include "kernels/gpu_fns.h"
#include "kernels/intl.h"
#include "kernels/mandelbrot/mandelbrot.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

LAB_DECLARE_KERNEL(mandelbrot_2d);
LAB_DECLARE_KERNEL(mandelbrot_2d_nofma);
LAB_DECLARE_KERNEL(mandelbrot_2d_copy);
int mandelbrot_cpu_omp(lab_job *job);
int mandelbrot_cpu_seq(lab_job *job);

/* One event per pixel; 16384 pixels (160 x 90 and a little more) keep a GPU
 * trace inside its buffer. */
#define TRACE_MAX_PIXELS 16384

static const lab_variant variants[] = {
    {.name = "gpu",
     .summary = N_("one thread per pixel on a 2D grid of 16 x 16 blocks (lecture)"),
     .idea = N_("a 2D grid over an image: pixels cost 1 to 1000 iterations, and a warp runs as long "
                "as its slowest pixel"),
     .kind = LAB_ROW_KERNEL, .flags = LAB_BLOCK_2D,
     .block_min = 1, .block_max = 1024, .block_default = MANDEL_BX,
     .trace_max_n = TRACE_MAX_PIXELS, LAB_KERNEL_FNS(mandelbrot_2d)},
    {.name = "gpu-copy",
     .summary = N_("the gpu kernel timed with the copy of the counts to the host (as the lecture times it)"),
     .idea = N_("what the lecture's GPU row measures: the kernel and the copy back; the copy of w*h "
                "ints can cost more than the kernel"),
     .kind = LAB_ROW_KERNEL, .flags = LAB_BLOCK_2D,
     .block_min = 1, .block_max = 1024, .block_default = MANDEL_BX,
     .trace_max_n = 0, LAB_KERNEL_FNS(mandelbrot_2d_copy)},
    {.name = "gpu-nofma",
     .summary = N_("the same kernel with __fmul_rn/__fadd_rn: no fused multiply-add"),
     .idea = N_("a fused multiply-add rounds once where the CPU rounds twice; forbid it and the "
                "GPU's counts equal the CPU's"),
     .kind = LAB_ROW_KERNEL, .flags = LAB_BLOCK_2D,
     .block_min = 1, .block_max = 1024, .block_default = MANDEL_BX,
     .trace_max_n = TRACE_MAX_PIXELS, LAB_KERNEL_FNS(mandelbrot_2d_nofma)},
    {.name = "cpu-omp",
     .summary = N_("OpenMP over rows, dynamic schedule (the lecture's Parallel.For; the baseline)"),
     .idea = N_("the CPU baseline"), .kind = LAB_ROW_CPU, .flags = LAB_OMP_BASELINE,
     .cpu = mandelbrot_cpu_omp},
    {.name = "cpu-seq", .summary = N_("one CPU thread, row after row (the lecture's sequential run)"),
     .idea = N_("the sequential baseline"), .kind = LAB_ROW_CPU, .cpu = mandelbrot_cpu_seq},
};

static const char *const patterns[] = {"lecture", NULL};

/* The lecture's printed totals: its CPU rows, and its GPU (whose fused
 * multiply-adds give other counts on the edge of the set). */
static const struct {
    int w, h;
    long long cpu, gpu;
} lecture_totals[] = {
    {1280, 720, 237691869LL, 237690702LL},
    {3840, 2160, 2138019184LL, 2138027805LL},
};

/* The image size: width and height when set; one of them alone gives the
 * other at 16:9; neither: n is the width (1280 -> 1280 x 720, 3840 ->
 * 3840 x 2160). 0 ok, -1 with a message. */
static int image_size(const lab_config *cfg, long long n, int *w, int *h, char *err, size_t len)
{
    long long W = cfg->width, H = cfg->height;
    if (W <= 0 && H <= 0) {
        if (n > 65536) {
            snprintf(err, len,
                     "mandelbrot takes n as the width of a 16:9 image, at most 65536 (n is %lld); "
                     "or `set width` and `set height`", n);
            return -1;
        }
        W = n;
    }
    if (H <= 0) H = (W * 9 + 8) / 16;
    if (W <= 0) W = (H * 16 + 4) / 9;
    if (H < 1) H = 1;
    if (W < 1) W = 1;
    if (W > 65536 || H > 65536) {
        snprintf(err, len, "an image of %lld x %lld is too large; width and height go up to 65536",
                 W, H);
        return -1;
    }
    *w = (int)W;
    *h = (int)H;
    return 0;
}

static int prepare(lab_job *job)
{
    const lab_config *cfg = job->cfg;
    if (cfg->pattern[0] && strcmp(cfg->pattern, "lecture") != 0) {
        snprintf(job->err, sizeof job->err,
                 L_("mandelbrot has one pattern, lecture (the lecture's window of the plane), not \"%s\""),
                 cfg->pattern);
        return -1;
    }
    int w, h;
    if (image_size(cfg, job->n, &w, &h, job->err, sizeof job->err) != 0) return -1;
    mandel_info *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(job->err, sizeof job->err, "%s", L_("out of host memory"));
        return -1;
    }
    m->w = w;
    m->h = h;
    job->priv = m;
    job->n = (long long)w * h;     /* n counts pixels from here on */
    job->sim_items = job->n;
    job->in = NULL;                /* nothing goes in: the picture is computed */
    job->in_bytes = 0;
    job->out_bytes = (size_t)job->n * sizeof(int);
    job->bytes = 0;                /* compute-bound: iterations per second, not GB/s */
    return 0;
}

static long long lecture_total(int w, int h, int gpu)
{
    for (int i = 0; i < LAB_COUNT(lecture_totals); i++)
        if (lecture_totals[i].w == w && lecture_totals[i].h == h)
            return gpu ? lecture_totals[i].gpu : lecture_totals[i].cpu;
    return 0;
}

static void note_add(lab_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note_add(lab_result *r, const char *fmt, ...)
{
    size_t l = strlen(r->note);
    if (l >= sizeof r->note - 1) return;
    if (l) {
        snprintf(r->note + l, sizeof r->note - l, "; ");
        l = strlen(r->note);
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->note + l, sizeof r->note - l, fmt, ap);
    va_end(ap);
}

/* The total is the answer. The reference row (OpenMP) is checked against the
 * lecture's total where the size is the lecture's; every other row pixel by
 * pixel against it. The plain GPU kernel is allowed its fused multiply-adds:
 * up to 1% of the pixels may differ, and the total by 1e-3 (on small pictures
 * a few pixels of the set's edge, each worth hundreds of iterations, move the
 * total by more than 1e-4; at the lecture's sizes it moved by 5e-6). */
static int check(const lab_job *job, const lab_job *ref, lab_result *r)
{
    /* the baseline row that became the reference hands its output over */
    if (!job->out && ref) job = ref;
    const mandel_info *m = (const mandel_info *)job->priv;
    const long long pixels = (long long)m->w * m->h;
    const int *c = (const int *)job->out;
    long long total = 0, unreached = 0;
    for (long long i = 0; i < pixels; i++) {
        if (c[i] < 0) unreached++;
        else total += c[i];
    }
    snprintf(r->result, sizeof r->result, "%lld", total);
    r->value = (double)total;
    r->ops = (double)total;
    snprintf(r->ops_unit, sizeof r->ops_unit, "iteration");
    note_add(r, "%dx%d", m->w, m->h);
    if (r->backend != LAB_BACKEND_SIM && r->ms > 0)
        note_add(r, L_("%.3g iterations/s"), (double)total / (r->ms * 1e-3));
    if (unreached)
        note_add(r, L_("%lld pixels no thread reached (is the grid large enough?)"), unreached);
    const long long lect_cpu = lecture_total(m->w, m->h, 0), lect_gpu = lecture_total(m->w, m->h, 1);

    if (ref == job || !ref->out || (job->variant->flags & LAB_OMP_BASELINE)) {
        /* the reference row itself (also when it runs again after it has
         * served as the reference): only the lecture's number can judge it */
        if (lect_cpu) {
            r->correct = total == lect_cpu;
            note_add(r, L_("the lecture's CPU total is %lld%s"), lect_cpu,
                     total == lect_cpu ? "" : L_(": DIFFERENT"));
        } else {
            r->correct = -1;
            note_add(r, L_("the reference row (the lecture printed totals for 1280x720 and 3840x2160)"));
        }
        return 0;
    }

    const int *rc = (const int *)ref->out;
    long long rtotal = 0, differ = 0, first = -1;
    for (long long i = 0; i < pixels; i++) {
        rtotal += rc[i];
        if (c[i] != rc[i]) {
            differ++;
            if (first < 0) first = i;
        }
    }
    r->rel_error = rtotal > 0 ? fabs((double)(total - rtotal)) / (double)rtotal : 0;
    /* gpu and gpu-copy run the fused kernel */
    const char *vn = job->variant->name;
    const int fused = job->backend == LAB_BACKEND_GPU && (strcmp(vn, "gpu") == 0 || strcmp(vn, "gpu-copy") == 0);
    if (differ == 0) {
        r->correct = unreached == 0;
        /* rows that round as the CPU does must also give the lecture's total */
        if (lect_cpu && !fused) {
            if (total == lect_cpu) note_add(r, L_("the lecture's CPU total"));
            else {
                r->correct = 0;
                note_add(r, L_("the lecture's CPU total is %lld"), lect_cpu);
            }
        }
        return 0;
    }
    r->correct = fused && unreached == 0 && differ * 100 <= pixels && r->rel_error <= 1e-3;
    note_add(r, L_("%lld pixels differ from the CPU, the first at (%lld, %lld): %d against %d"), differ,
             first % m->w, first / m->w, c[first], rc[first]);
    if (fused)
        note_add(r, L_("fused multiply-adds round once where the CPU rounds twice (gpu-nofma does not "
                    "fuse)%s"),
                 lect_gpu && total == lect_gpu ? L_("; the lecture's GPU total too") : "");
    return 0;
}

static double host_bytes(const lab_config *cfg)
{
    int w, h;
    char err[256];
    if (image_size(cfg, cfg->n > 0 ? cfg->n : 1280, &w, &h, err, sizeof err) != 0) return 0;
    /* the reference row's counts, a row's counts, and a trace's worth */
    return (double)w * h * (2.0 * sizeof(int) + sizeof(double));
}

const lab_algo lab_algo_mandelbrot = {
    .name = "mandelbrot",
    .summary = N_("iterations of the Mandelbrot set per pixel, at most 1000: CPU, OpenMP, a 2D grid"),
    .lesson = "08-mandelbrot",
    .variants = variants,
    .nvariants = LAB_COUNT(variants),
    .dtypes = LAB_DT(LAB_FLOAT),
    .patterns = patterns,
    .n_default = 1280,     /* 1280 x 720, the lecture's first size */
    .sim_default_n = 160,  /* 160 x 90 on the simulator */
    .trace_n = 160,        /* and the animated picture */
    .dtype_default = LAB_FLOAT,
    .prepare = prepare,
    .check = check,
    .host_bytes = host_bytes,
};
