/* reduce_algo.c - the reduction family in the registry: its variants and
 * limits, its inputs (the lecture's data among them) and its checks. */
#include "kernels/family.h"
#include "kernels/gpu_fns.h"
#include "kernels/intl.h"
#include "kernels/reduce/reduce.h"

#include <math.h>
#include <stdlib.h>

LAB_DECLARE_KERNEL(reduce_interleaved);
LAB_DECLARE_KERNEL(reduce_sequential);
LAB_DECLARE_KERNEL(reduce_warp_shuffle);
LAB_DECLARE_KERNEL(reduce_atomic_float);
LAB_DECLARE_KERNEL(reduce_block_atomic);
LAB_DECLARE_KERNEL(reduce_vector);
int reduce_thrust(lab_job *job);
int reduce_cub(lab_job *job);
int reduce_cpu_omp(lab_job *job);
int reduce_cpu_seq(lab_job *job);
int reduce_multi(lab_input *in, const lab_variant *v, lab_multi *m, lab_trace *traces);

#define DTS (LAB_DT(LAB_INT) | LAB_DT(LAB_FLOAT) | LAB_DT(LAB_DOUBLE))

static const lab_variant variants[] = {
    {.name = "interleaved",
     .summary = N_("interleaved addressing with %, block sums by atomicAdd (lecture)"),
     .idea = N_("divergence: while the stride is below 32, only every (2*stride)-th thread of each warp "
                "works and the others are masked off"),
     .kind = LAB_ROW_KERNEL, .flags = LAB_POW2_BLOCK | LAB_FIXED_GRID,
     .block_min = 32, .block_max = 1024, .block_default = 256, .trace_max_n = 4096, .trace_block = 128,
     LAB_KERNEL_FNS(reduce_interleaved)},
    {.name = "sequential",
     .summary = N_("sequential addressing, two elements per thread while loading (lecture)"),
     .idea = N_("contiguous active threads: warps are either all busy or skip the step as a whole "
                "(no divergence until the stride drops below 32), and half as many blocks"),
     .kind = LAB_ROW_KERNEL, .flags = LAB_POW2_BLOCK | LAB_FIXED_GRID,
     .block_min = 32, .block_max = 1024, .block_default = 256, .trace_max_n = 4096, .trace_block = 128,
     LAB_KERNEL_FNS(reduce_sequential)},
    {.name = "warp-shuffle",
     .summary = N_("grid-stride loop, shared tree to 32, tile<32> shfl_down, two launches (article)"),
     .idea = N_("warp shuffles replace the last shared-memory steps; a second launch replaces atomics"),
     .kind = LAB_ROW_KERNEL, .flags = LAB_POW2_BLOCK,
     .block_min = 32, .block_max = 1024, .block_default = 128, .grid_default = 0, .trace_max_n = 4096,
     LAB_KERNEL_FNS(reduce_warp_shuffle)},
    {.name = "atomic-float",
     .summary = N_("the same kernel, block sums by atomicAdd: compare the float result (article)"),
     .idea = N_("atomicAdd adds the 10240 block sums in arrival order: float rounding moves the last digits"),
     .kind = LAB_ROW_KERNEL, .flags = LAB_POW2_BLOCK,
     .block_min = 32, .block_max = 1024, .block_default = 128, .grid_default = 0, .trace_max_n = 4096,
     LAB_KERNEL_FNS(reduce_atomic_float)},
    {.name = "block-atomic",
     .summary = N_("one element per thread, shared tree, one atomicAdd per block (the article's atomicAdd result)"),
     .idea = N_("many equal block sums added one by one into a float: the chain of roundings, not the "
                "order, gives 123633392"),
     .kind = LAB_ROW_KERNEL, .flags = LAB_POW2_BLOCK | LAB_FIXED_GRID,
     .block_min = 32, .block_max = 1024, .block_default = 128, .trace_max_n = 4096,
     LAB_KERNEL_FNS(reduce_block_atomic)},
    {.name = "vector",
     .summary = N_("16-byte loads, persistent grid, warp shuffles, one result per block"),
     .idea = N_("wide loads and several loads in flight per thread get close to the memory's limit"),
     .kind = LAB_ROW_KERNEL, .flags = LAB_POW2_BLOCK,
     .block_min = 32, .block_max = 1024, .block_default = 256, .trace_max_n = 4096,
     LAB_KERNEL_FNS(reduce_vector)},
    {.name = "thrust", .summary = N_("thrust::reduce (library)"),
     .idea = N_("the library row: what a one-line call gets"), .kind = LAB_ROW_LIB,
     .gpu = LAB_GPU_FN(reduce_thrust)},
    {.name = "cub", .summary = N_("cub::DeviceReduce::Sum (library)"),
     .idea = N_("the library row: tuned per GPU by its authors"), .kind = LAB_ROW_LIB,
     .gpu = LAB_GPU_FN(reduce_cub)},
    {.name = "cpu-omp", .summary = N_("OpenMP reduction on every CPU core (the speedup baseline)"),
     .idea = N_("the CPU baseline"), .kind = LAB_ROW_CPU, .flags = LAB_OMP_BASELINE,
     .cpu = reduce_cpu_omp},
    {.name = "cpu-seq", .summary = N_("one CPU thread, a plain loop"),
     .idea = N_("the sequential baseline"), .kind = LAB_ROW_CPU, .cpu = reduce_cpu_seq},
};

static const char *const patterns[] = {"lecture", "ones", "const", "random", NULL};

static int prepare(lab_job *job)
{
    const lab_config *cfg = job->cfg;
    const long long n = job->n;
    const char *pat = cfg->pattern[0] ? cfg->pattern : "lecture";
    size_t es = lab_dtype_size(cfg->dtype);
    job->in_bytes = (size_t)n * es;
    job->in = lab_alloc_big(job->in_bytes);
    reduce_ref *ref = calloc(1, sizeof *ref);
    if (!job->in || !ref) {
        free(ref);
        snprintf(job->err, sizeof job->err, L_("out of host memory for %lld elements"), n);
        return -1;
    }
    job->priv = ref;
    job->out_bytes = sizeof(reduce_out);
    job->bytes = (double)job->in_bytes;

    /* Integer values first (lecture: mt19937 seed 26, values % 100), then as
     * the chosen type: ints straight into the input. */
    int gen = strcmp(pat, "lecture") == 0 || strcmp(pat, "random") == 0;
    if (!gen && strcmp(pat, "ones") != 0 && strcmp(pat, "const") != 0) {
        snprintf(job->err, sizeof job->err,
                 L_("reduce has no pattern \"%s\"; patterns: lecture, ones, const, random"), pat);
        return -1;
    }
    double c = strcmp(pat, "ones") == 0 ? 1.0 : cfg->value;
    if (cfg->dtype == LAB_INT && !gen && c != floor(c)) {
        snprintf(job->err, sizeof job->err,
                 L_("pattern const with dtype int needs a whole number (value is %g)"), c);
        return -1;
    }
    int *iv = NULL;
    if (gen) {
        iv = cfg->dtype == LAB_INT ? (int *)job->in : lab_alloc_big(sizeof(int) * (size_t)n);
        if (!iv) {
            snprintf(job->err, sizeof job->err, L_("out of host memory for %lld elements"), n);
            return -1;
        }
        lab_gen_mt_mod_int(iv, n, strcmp(pat, "lecture") == 0 ? 26u : cfg->seed, 100u);
    }
    long long isum = 0;
    long double lsum = 0; /* a long double sum of the values as stored */
    switch (cfg->dtype) {
    case LAB_INT: {
        int *in = job->in;
        for (long long i = 0; i < n; i++) {
            if (!iv) in[i] = (int)c;
            isum += in[i];
        }
        lsum = (long double)isum; /* exact: whole numbers below 2^63 */
        break;
    }
    case LAB_FLOAT:
        for (long long i = 0; i < n; i++) {
            float x = (float)(iv ? iv[i] : c);
            ((float *)job->in)[i] = x;
            lsum += x;
        }
        break;
    default:
        for (long long i = 0; i < n; i++) {
            double x = iv ? iv[i] : c;
            ((double *)job->in)[i] = x;
            lsum += x;
        }
        break;
    }
    if (iv != job->in) free(iv);
    ref->isum = isum;
    ref->sum = (double)lsum;
    return 0;
}

static int check(const lab_job *job, const lab_job *refjob, lab_result *r)
{
    const reduce_out *o = (const reduce_out *)job->out;
    const reduce_ref *ref = (const reduce_ref *)job->priv;
    if (job->cfg->dtype == LAB_INT) {
        snprintf(r->result, sizeof r->result, "%lld", o->isum);
        r->value = (double)o->isum;
        r->correct = o->isum == ref->isum;
        if (!r->correct)
            snprintf(r->note, sizeof r->note, L_("expected %lld"), ref->isum);
        return 0;
    }
    snprintf(r->result, sizeof r->result, "%.10g", o->sum);
    r->value = o->sum;
    r->rel_error = ref->sum != 0 ? fabs(o->sum - ref->sum) / fabs(ref->sum) : fabs(o->sum);
    /* float sums of millions of values drift: a tolerance that a careful
     * float sum meets and a stagnating one does not */
    double tol = job->cfg->dtype == LAB_FLOAT ? 1e-2 : 1e-9;
    r->correct = r->rel_error <= tol;
    snprintf(r->note, sizeof r->note, L_("exact %.10g, relative error %.2e%s"), ref->sum, r->rel_error,
             r->correct ? "" : L_(" (past the tolerance: float rounding)"));
    return 0;
}

static double host_bytes(const lab_config *cfg)
{
    double n = cfg->n > 0 ? (double)cfg->n : (double)(1LL << 26);
    return n * (lab_dtype_size(cfg->dtype) + 8.0);
}

const lab_algo lab_algo_reduce = {
    .name = "reduce",
    .summary = N_("sum of n numbers: interleaved, sequential, warp shuffles, vector loads"),
    .lesson = "04-reduction",
    .variants = variants,
    .nvariants = LAB_COUNT(variants),
    .dtypes = DTS,
    .patterns = patterns,
    .n_default = 1LL << 26,
    .sim_default_n = 1LL << 20,
    /* animate with n auto: 256 elements, so that the tree kernels' blocks of
     * 128 hold four warps and interleaved and sequential visibly differ */
    .trace_n = 256,
    .dtype_default = LAB_INT,
    .prepare = prepare,
    .check = check,
    .host_bytes = host_bytes,
    .multi = reduce_multi,
};
