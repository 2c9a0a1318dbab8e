/* histogram_algo.c - the histogram family in the registry: its variants and
 * limits, its images (the lecture's photo and flat image among them, or the
 * student's own file) and its check. */
#include "kernels/family.h"
#include "kernels/gpu_fns.h"
#include "kernels/intl.h"
#include "kernels/histogram/histogram.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

LAB_DECLARE_KERNEL(hist_global);
LAB_DECLARE_KERNEL(hist_shared);
LAB_DECLARE_KERNEL(hist_fast);
int hist_cub(lab_job *job);
int hist_cpu_omp(lab_job *job);
int hist_cpu_seq(lab_job *job);

static const lab_variant variants[] = {
    {.name = "global",
     .summary = N_("every pixel is an atomicAdd on the global histogram, grid-stride loop (lecture)"),
     .idea = N_("contention: atomics on one address run one after another, so a flat image "
                "serialises the whole GPU on one counter"),
     .kind = LAB_ROW_KERNEL, .block_min = 32, .block_max = 1024, .block_default = 256,
     .trace_max_n = HIST_TRACE_MAX_PIXELS, LAB_KERNEL_FNS(hist_global)},
    {.name = "shared",
     .summary = N_("a private histogram per block in shared memory, one atomic per bin per block (lecture)"),
     .idea = N_("privatisation: contend in fast shared memory, then merge 256 counters per block"),
     .kind = LAB_ROW_KERNEL, .block_min = 32, .block_max = 1024, .block_default = 256,
     .trace_max_n = HIST_TRACE_MAX_PIXELS, LAB_KERNEL_FNS(hist_shared)},
    {.name = "fast",
     .summary = N_("lane-private columns (lane L counts in bank L), 16-byte loads, persistent grid"),
     .idea = N_("give every lane its own counter in its own bank, so no two lanes of a warp share one on "
                "any GPU; on the H200 its lead over shared comes from 16-byte loads and a persistent grid, "
                "since sm_90 already combines a warp's same-counter increments in shared memory"),
     .kind = LAB_ROW_KERNEL, .block_min = 32, .block_max = 1024, .block_default = 1024,
     .trace_max_n = HIST_TRACE_MAX_PIXELS, LAB_KERNEL_FNS(hist_fast)},
    {.name = "cub", .summary = N_("cub::DeviceHistogram::HistogramEven, 256 levels (library)"),
     .idea = N_("the library row: tuned per GPU by its authors"), .kind = LAB_ROW_LIB,
     .gpu = LAB_GPU_FN(hist_cub)},
    {.name = "cpu-omp",
     .summary = N_("OpenMP, a histogram per thread merged in a critical section (the speedup baseline)"),
     .idea = N_("the CPU baseline: thread-local histograms, as in the lecture"), .kind = LAB_ROW_CPU,
     .flags = LAB_OMP_BASELINE, .cpu = hist_cpu_omp},
    {.name = "cpu-seq", .summary = N_("one CPU thread, a plain counting loop"),
     .idea = N_("the sequential baseline"), .kind = LAB_ROW_CPU, .cpu = hist_cpu_seq},
};

static const char *const patterns[] = {"photo", "flat", "random", NULL};

#define N_DEFAULT ((long long)HIST_LECTURE_W * HIST_LECTURE_H)

/* The random image: splitmix64 bytes from the session's seed (the photo
 * keeps the lecture's seed 8 whatever the seed is). */
static void gen_random(unsigned char *p, long long n, unsigned seed)
{
    uint64_t s = seed;
    for (long long i = 0; i < n; i += 8) {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        for (int k = 0; k < 8 && i + k < n; k++) p[i + k] = (unsigned char)(z >> (8 * k));
    }
}

/* Largest image we accept: 2^31-1 pixels, and half of the host's memory. */
static long long max_pixels(void)
{
    double half = 0.5 * lab_host_memory_bytes();
    return half < (double)INT_MAX ? (long long)half : (long long)INT_MAX;
}

static int prepare(lab_job *job)
{
    const lab_config *cfg = job->cfg;
    hist_image *im = calloc(1, sizeof *im);
    if (!im) {
        snprintf(job->err, sizeof job->err, "%s", L_("out of host memory"));
        return -1;
    }
    job->priv = im;
    unsigned char *px = NULL;
    if (cfg->image[0]) {
        if (hist_load_image(cfg->image, &px, &im->width, &im->height, &im->maxval, max_pixels(),
                            job->err, sizeof job->err) != 0)
            return -1;
        const char *slash = strrchr(cfg->image, '/');
        snprintf(im->source, sizeof im->source, "%s", slash ? slash + 1 : cfg->image);
    } else {
        const char *pat = cfg->pattern[0] ? cfg->pattern : "photo";
        if (strcmp(pat, "photo") != 0 && strcmp(pat, "flat") != 0 && strcmp(pat, "random") != 0) {
            snprintf(job->err, sizeof job->err,
                     L_("histogram has no pattern \"%s\"; patterns: photo, flat, random "
                     "(or `set image FILE` for a PGM or PNG)"), pat);
            return -1;
        }
        if (hist_image_size(cfg, &im->width, &im->height, job->err, sizeof job->err) != 0)
            return -1;
        long long n = (long long)im->width * im->height;
        if (n > max_pixels()) {
            snprintf(job->err, sizeof job->err, L_("%dx%d is more pixels than this machine can hold"),
                     im->width, im->height);
            return -1;
        }
        px = malloc((size_t)n);
        if (!px) {
            snprintf(job->err, sizeof job->err, L_("out of host memory for %lld pixels"), n);
            return -1;
        }
        if (strcmp(pat, "photo") == 0)
            lab_gen_photo(px, im->width, im->height, HIST_PHOTO_SEED, HIST_PHOTO_SIGMA);
        else if (strcmp(pat, "flat") == 0)
            memset(px, HIST_FLAT_VALUE, (size_t)n);
        else
            gen_random(px, n, cfg->seed);
        im->maxval = 255;
        snprintf(im->source, sizeof im->source, "%s", pat);
    }
    const long long n = (long long)im->width * im->height;
    for (long long i = 0; i < n; i++) im->exact[px[i]]++;
    job->in = px;
    job->in_bytes = (size_t)n;
    job->n = n;
    job->sim_items = n;
    job->out_bytes = sizeof(hist_out);
    /* every pixel read once, the 256 counters written once */
    job->bytes = (double)n + sizeof(hist_out);
    return 0;
}

static int check(const lab_job *job, const lab_job *ref, lab_result *r)
{
    const hist_image *im = (const hist_image *)job->priv;
    /* The reference row itself may arrive with its output moved to ref. */
    const hist_out *o = (const hist_out *)(job->out ? job->out : ref->out);
    if (!o) return -1;
    int self = !job->out || ref == job || ref->out == job->out || !ref->out;
    const unsigned *want = self ? im->exact : ((const hist_out *)ref->out)->bins;
    const char *whose = self ? L_("an exact count") : L_("the CPU's");
    unsigned long long sum = 0;
    int bad = 0, first = -1, peak = 0;
    for (int b = 0; b < HIST_BINS; b++) {
        sum += o->bins[b];
        if (o->bins[b] > o->bins[peak]) peak = b;
        if (o->bins[b] != want[b]) {
            if (first < 0) first = b;
            bad++;
        }
    }
    const long long n = job->n;
    snprintf(r->result, sizeof r->result, L_("sum %llu, peak bin %d"), sum, peak);
    r->value = (double)sum;
    r->correct = bad == 0 && sum == (unsigned long long)n;
    if (bad)
        snprintf(r->note, sizeof r->note,
                 L_("%d of 256 bins differ from %s (first: bin %d has %u, expected %u); "
                 "the bins sum to %llu for %lld pixels"),
                 bad, whose, first, o->bins[first], want[first], sum, n);
    else if (sum != (unsigned long long)n)
        snprintf(r->note, sizeof r->note, L_("the bins sum to %llu, not to the %lld pixels"), sum, n);
    else if (self)
        snprintf(r->note, sizeof r->note, L_("image %s, %dx%d%s"), im->source, im->width, im->height,
                 im->maxval != 255 ? " (PGM maxval scaled to 255)" : "");
    return 0;
}

static double host_bytes(const lab_config *cfg)
{
    int w, h;
    char err[LAB_ERR_MAX];
    if (cfg->image[0]) return 0; /* the loader refuses what cannot fit */
    if (hist_image_size(cfg, &w, &h, err, sizeof err) != 0) return 0;
    return 2.0 * w * (double)h; /* the image, and a copy for a trace */
}

const lab_algo lab_algo_histogram = {
    .name = "histogram",
    .summary = N_("256-bin brightness histogram of an 8K image: global atomics, shared memory, lane columns"),
    .lesson = "05-histogram",
    .variants = variants,
    .nvariants = LAB_COUNT(variants),
    .dtypes = LAB_DT(LAB_U8),
    .patterns = patterns,
    .n_default = N_DEFAULT,
    .sim_default_n = (long long)HIST_SIM_W * HIST_SIM_H,
    .trace_n = 64 * 36, /* a 64x36 picture flowing into the bins */
    .dtype_default = LAB_U8,
    .prepare = prepare,
    .check = check,
    .host_bytes = host_bytes,
};
