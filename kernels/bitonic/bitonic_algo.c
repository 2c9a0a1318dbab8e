/* bitonic_algo.c - the bitonic sort family in the registry: its variants and
 * limits, its inputs (the lecture's eight numbers among them), the padding
 * to a power of two, and the check that an answer is the sorted input. */
#include "kernels/family.h"
#include "kernels/gpu_fns.h"
#include "kernels/intl.h"
#include "kernels/bitonic/bitonic.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

LAB_DECLARE_KERNEL(bitonic_o);
LAB_DECLARE_KERNEL(bitonic_ov);
LAB_DECLARE_KERNEL(bitonic_n);
LAB_DECLARE_KERNEL(bitonic_nl);
LAB_DECLARE_KERNEL(bitonic_fast);
int bitonic_thrust(lab_job *job);
int bitonic_cub(lab_job *job);
int bitonic_cpu_omp(lab_job *job);
int bitonic_cpu_seq(lab_job *job);
int bitonic_cpu_qsort(lab_job *job);

#define NET_FLAGS (LAB_POW2_N | LAB_FIXED_GRID)

/* trace_block: the block animate uses when block is auto. o, ov: a warp, so
 * n = 64 shows two blocks; n, nl: two threads, slices of 4 keys, so the
 * lecture's 8 numbers need all three kernels (start for k = 2, 4, a middle
 * launch for k = 8, j = 4, the finish for j = 2, 1); fast: one thread, tiles
 * of 32 keys, so from 64 keys on the planned passes appear. */

static const lab_variant variants[] = {
    {.name = "o",
     .summary = N_("one launch per (k, j), one thread per key, half of them idle (lecture)"),
     .idea = N_("the host's k and j loops are the global barrier; the test i2 > i1 leaves half the threads idle"),
     .kind = LAB_ROW_KERNEL, .flags = NET_FLAGS,
     .block_min = 32, .block_max = 1024, .block_default = 256, .trace_max_n = 1024,
     .trace_block = 32, LAB_KERNEL_FNS(bitonic_o)},
    {.name = "ov",
     .summary = N_("one launch per (k, j), one thread per pair: every thread busy (lecture)"),
     .idea = N_("half as many threads and none idle; i1 = 2*j*(gid/j) + gid%j finds each thread's pair"),
     .kind = LAB_ROW_KERNEL, .flags = NET_FLAGS,
     .block_min = 32, .block_max = 1024, .block_default = 256, .trace_max_n = 1024,
     .trace_block = 32, LAB_KERNEL_FNS(bitonic_ov)},
    {.name = "n",
     .summary = N_("start, middle and finish kernels: block barriers while a slice fits a block (lecture)"),
     .idea = N_("__syncthreads replaces a launch for every step that stays inside one block's slice"),
     .kind = LAB_ROW_KERNEL, .flags = NET_FLAGS,
     .block_min = 1, .block_max = 1024, .block_default = 512, .trace_max_n = 1024,
     .trace_block = 2, LAB_KERNEL_FNS(bitonic_n)},
    {.name = "nl",
     .summary = N_("as n, with start and finish working in shared memory (lecture)"),
     .idea = N_("keys used by many steps are copied to shared memory once; the middle kernel uses them once and stays global"),
     .kind = LAB_ROW_KERNEL, .flags = NET_FLAGS,
     .block_min = 1, .block_max = 1024, .block_default = 512, .trace_max_n = 1024,
     .trace_block = 2, LAB_KERNEL_FNS(bitonic_nl)},
    {.name = "fast",
     .summary = N_("32 keys per thread in shared memory, up to 5 steps per round in registers, 18 passes at 2^24 "
                    "(15 at block 1024)"),
     .idea = N_("fewer passes over memory: steps fused in registers, every step inside a tile done in shared memory"),
     .kind = LAB_ROW_KERNEL, .flags = NET_FLAGS,
     .block_min = 1, .block_max = 1024, .block_default = 512, .trace_max_n = 512,
     .trace_block = 1, LAB_KERNEL_FNS(bitonic_fast)},
    {.name = "thrust", .summary = N_("thrust::sort (library; a radix sort for these keys)"),
     .idea = N_("the library row: what a one-line call gets"), .kind = LAB_ROW_LIB,
     .gpu = LAB_GPU_FN(bitonic_thrust)},
    {.name = "cub", .summary = N_("cub::DeviceRadixSort::SortKeys (library)"),
     .idea = N_("the library row: a radix sort tuned per GPU by its authors"), .kind = LAB_ROW_LIB,
     .gpu = LAB_GPU_FN(bitonic_cub)},
    {.name = "cpu-omp", .summary = N_("OpenMP: a quicksort per thread, then parallel merges (the speedup baseline)"),
     .idea = N_("the CPU baseline"), .kind = LAB_ROW_CPU, .flags = LAB_OMP_BASELINE,
     .cpu = bitonic_cpu_omp},
    {.name = "cpu-seq", .summary = N_("one CPU thread running the lecture's k, j, i loops"),
     .idea = N_("the network on one core: n log n (log n + 1) / 4 compare-exchanges"), .kind = LAB_ROW_CPU,
     .flags = LAB_POW2_N, .cpu = bitonic_cpu_seq},
    {.name = "cpu-qsort", .summary = N_("one CPU thread, the C library's qsort"),
     .idea = N_("the sequential baseline: O(n log n) comparisons through a function pointer"),
     .kind = LAB_ROW_CPU, .cpu = bitonic_cpu_qsort},
};

static const char *const patterns[] = {"lecture", "random", "sorted", "reversed", "few", NULL};

/* The eight numbers of the lecture's example. */
static const int lecture[8] = {2, 5, 7, 13, 3, 11, 17, 19};

/* ------------------------------------------------------------ helpers */

static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

void bitonic_fingerprint(const uint32_t *keys, long long n, uint64_t *sum, uint64_t *mix)
{
    uint64_t s = 0, m = 0;
    for (long long i = 0; i < n; i++) {
        uint64_t h = mix64(keys[i]);
        s += h;
        m += h * (h | 1);
    }
    *sum = s;
    *mix = m;
}

static int log2ll(long long x)
{
    int l = 0;
    while (l < 62 && (1LL << (l + 1)) <= x) l++;
    return l;
}

int bitonic_nsteps(long long n)
{
    if (n < 2) return 0;
    int p = log2ll(n);
    return p * (p + 1) / 2;
}

void bitonic_step_kj(int s, long long *k, long long *j)
{
    int lk = 1;
    while (s >= lk) {
        s -= lk;
        lk++;
    }
    *k = 1LL << lk;
    *j = 1LL << (lk - 1 - s);
}

int bitonic_step_index(long long k, long long j)
{
    if (k < 2 || j < 1 || j >= k || (k & (k - 1)) || (j & (j - 1))) return -1;
    int lk = log2ll(k), lj = log2ll(j);
    return (lk - 1) * lk / 2 + (lk - 1 - lj);
}


static long long pow2_at_least(long long x)
{
    long long p = 1;
    while (p < x) p *= 2;
    return p;
}

/* ------------------------------------------------------------ input */

static int prepare(lab_job *job)
{
    const lab_config *cfg = job->cfg;
    const long long n_user = job->n;
    const char *pat = cfg->pattern[0] ? cfg->pattern : "lecture";
    if (cfg->dtype != LAB_INT && cfg->dtype != LAB_FLOAT) {
        snprintf(job->err, sizeof job->err, L_("bitonic sorts int or float keys, not %s"),
                 lab_dtype_name(cfg->dtype));
        return -1;
    }
    int kind = -1;
    for (int i = 0; patterns[i]; i++)
        if (strcmp(pat, patterns[i]) == 0) kind = i;
    if (kind < 0) {
        snprintf(job->err, sizeof job->err,
                 L_("bitonic has no pattern \"%s\"; patterns: lecture, random, sorted, reversed, few"), pat);
        return -1;
    }
    const long long n = cfg->pad && !lab_is_pow2(n_user) ? pow2_at_least(n_user) : n_user;
    if (n > BITONIC_MAX_N) {
        snprintf(job->err, sizeof job->err, L_("bitonic sorts at most 2^30 keys (n is %lld%s)"), n_user,
                 n != n_user ? ", padded further" : "");
        return -1;
    }
    bitonic_priv *priv = calloc(1, sizeof *priv);
    job->in_bytes = (size_t)n * 4;
    job->in = malloc(job->in_bytes ? job->in_bytes : 4);
    unsigned *words = NULL;
    if (kind == 1 || kind == 4) words = malloc(sizeof(unsigned) * (size_t)(n_user ? n_user : 1));
    if (!priv || !job->in || ((kind == 1 || kind == 4) && !words)) {
        free(priv);
        free(words);
        snprintf(job->err, sizeof job->err, L_("out of host memory for %lld keys"), n);
        return -1;
    }
    job->priv = priv;
    priv->n_user = n_user;
    priv->n_pad = n - n_user;
    job->n = n;
    job->out_bytes = (size_t)n * 4;
    /* a sort reads every key and writes it once at least: GB/s counts that */
    job->bytes = 2.0 * (double)n * 4;

    int *iv = (int *)job->in;
    float *fv = (float *)job->in;
    const int isint = cfg->dtype == LAB_INT;
    if (kind == 1) {
        if (isint) lab_gen_mt_words((unsigned *)iv, n_user, cfg->seed); /* the whole int range */
        else lab_gen_uniform_float(fv, n_user, cfg->seed, -1.0f, 1.0f);
    } else if (kind == 4) {
        lab_gen_mt_words(words, n_user, cfg->seed);
    }
    for (long long i = 0; i < n_user; i++) {
        double x;
        switch (kind) {
        case 0: x = lecture[i % 8]; break;
        case 2: x = (double)i; break;
        case 3: x = (double)(n_user - 1 - i); break;
        case 4: x = words[i] % 8u; break;
        default: continue; /* random: generated above */
        }
        if (isint) iv[i] = (int)x;
        else fv[i] = (float)x;
    }
    free(words);
    for (long long i = n_user; i < n; i++) {
        if (isint) iv[i] = INT_MAX;
        else fv[i] = INFINITY;
    }
    if (kind == 0 && n_user > 8) priv->lecture_repeats = (int)((n_user + 7) / 8);
    bitonic_fingerprint((const uint32_t *)job->in, n, &priv->fp_sum, &priv->fp_mix);
    return 0;
}

/* ------------------------------------------------------------ check */

static void append(char *note, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void append(char *note, size_t len, const char *fmt, ...)
{
    size_t l = strlen(note);
    if (l >= len - 1) return;
    if (l) {
        snprintf(note + l, len - l, "; ");
        l = strlen(note);
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(note + l, len - l, fmt, ap);
    va_end(ap);
}

static double key_at(const void *keys, lab_dtype dt, long long i)
{
    return dt == LAB_INT ? (double)((const int *)keys)[i] : (double)((const float *)keys)[i];
}

static int check(const lab_job *job, const lab_job *ref, lab_result *r)
{
    const bitonic_priv *priv = (const bitonic_priv *)job->priv;
    const lab_dtype dt = job->cfg->dtype;
    const long long n = job->n;
    const void *out = job->out;
    /* the reference row: the harness may have handed its output to ref */
    if (!out && ref) out = ref->out;
    r->note[0] = 0;
    if (!out) {
        r->correct = -1;
        snprintf(r->note, sizeof r->note, L_("no output to check"));
        return 0;
    }

    /* sorted: count the descents (0 for a sorted answer) */
    long long descents = 0, first_descent = -1;
    for (long long i = 0; i + 1 < n; i++) {
        int down = dt == LAB_INT ? ((const int *)out)[i] > ((const int *)out)[i + 1]
                                 : ((const float *)out)[i] > ((const float *)out)[i + 1];
        if (down) {
            if (first_descent < 0) first_descent = i;
            descents++;
        }
    }
    /* a permutation of the input: the same multiset of keys */
    uint64_t s, m;
    bitonic_fingerprint((const uint32_t *)out, n, &s, &m);
    int permutation = s == priv->fp_sum && m == priv->fp_mix;
    /* the same answer as the CPU's reference row */
    long long differ = 0, first_differ = -1;
    if (ref && ref != job && ref->out && ref->out != out && ref->n == n) {
        for (long long i = 0; i < n; i++) {
            if (key_at(out, dt, i) != key_at(ref->out, dt, i)) {
                if (first_differ < 0) first_differ = i;
                differ++;
            }
        }
    }
    r->value = (double)descents;
    r->correct = descents == 0 && permutation && differ == 0;

    if (r->correct) {
        /* small answers are shown whole: the lecture's example reads
         * "2 3 5 7 11 13 17 19" */
        char buf[LAB_NAME_MAX] = "";
        size_t l = 0;
        int fits = priv->n_user <= 16;
        for (long long i = 0; fits && i < priv->n_user; i++) {
            int w = snprintf(buf + l, sizeof buf - l, "%s%g", i ? " " : "", key_at(out, dt, i));
            if (w < 0 || (size_t)w >= sizeof buf - l) fits = 0;
            else l += (size_t)w;
        }
        snprintf(r->result, sizeof r->result, "%s", fits && priv->n_user > 0 ? buf : "sorted");
    } else if (descents) {
        snprintf(r->result, sizeof r->result, L_("NOT sorted"));
        append(r->note, sizeof r->note, L_("%lld keys are followed by a smaller one, the first at %lld: %g > %g"),
               descents, first_descent, key_at(out, dt, first_descent), key_at(out, dt, first_descent + 1));
        if (!permutation) append(r->note, sizeof r->note, L_("and keys were lost or changed"));
    } else if (!permutation) {
        snprintf(r->result, sizeof r->result, L_("keys lost"));
        append(r->note, sizeof r->note, L_("sorted, but not a permutation of the input: keys were lost, duplicated or changed"));
    } else {
        snprintf(r->result, sizeof r->result, L_("differs"));
        append(r->note, sizeof r->note, L_("sorted, but %lld keys differ from the CPU's answer, the first at %lld"), differ,
               first_differ);
    }
    if (priv->n_pad > 0)
        append(r->note, sizeof r->note, L_("n = %lld padded to %lld with %lld keys of %s, stripped from the answer"),
               priv->n_user, n, priv->n_pad, dt == LAB_INT ? "INT_MAX" : "+inf");
    if (priv->lecture_repeats > 0)
        append(r->note, sizeof r->note, L_("the lecture's 8 numbers repeated to fill n = %lld"), priv->n_user);
    else if (priv->n_user < 8 && (!job->cfg->pattern[0] || strcmp(job->cfg->pattern, "lecture") == 0))
        append(r->note, sizeof r->note, L_("the first %lld of the lecture's 8 numbers"), priv->n_user);
    return 0;
}

static double host_bytes(const lab_config *cfg)
{
    double n = (double)(cfg->n > 0 ? cfg->n : 8);
    if (cfg->pad && cfg->n > 0 && !lab_is_pow2(cfg->n)) n = (double)pow2_at_least(cfg->n);
    if (n > (double)BITONIC_MAX_N) return 0; /* prepare refuses it, saying why */
    /* input, the reference's output, a row's output, the merge buffer, words */
    return n * 4.0 * 5;
}

const lab_algo lab_algo_bitonic = {
    .name = "bitonic",
    .summary = N_("bitonic sort: the lecture's o, ov, n, nl, a fused fast network, thrust and CUB"),
    .lesson = "06-bitonic-sort",
    .variants = variants,
    .nvariants = LAB_COUNT(variants),
    .dtypes = LAB_DT(LAB_INT) | LAB_DT(LAB_FLOAT),
    .patterns = patterns,
    .n_default = 8,
    .sim_default_n = 0,
    .dtype_default = LAB_INT,
    .prepare = prepare,
    .check = check,
    .host_bytes = host_bytes,
};
