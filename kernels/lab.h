/* lab.h - the public face of gpulab's kernels library: what repl/ and viz/ use.
 *
 * The REPL and the pictures see the kernels only through this header: the
 * registry of algorithms and their variants, the settings of a run
 * (lab_config), what a run returns (lab_result), the step traces that the
 * animations play (lab_trace, returned sorted), the device facts, and the
 * occupancy calculator (kernels/device/occupancy.h, included at the end: a
 * declared part of this API). Each family's trace vocabulary, for the
 * renderer that draws it, is in kernels/<family>/<family>_trace.h.
 *
 * Flow of one row: lab_input_new() makes the host input once (and the CPU
 * reference), lab_run() runs one variant on one backend against it and fills a
 * lab_result (and a lab_trace when asked).
 *
 * What a family implements (jobs, launches, allocations, the CPU timer) is
 * the other header, kernels/family.h; kernel sources include kernels/kern.h.
 */
#ifndef GPULAB_LAB_H
#define GPULAB_LAB_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- basics */

typedef enum lab_dtype { LAB_INT = 0, LAB_FLOAT, LAB_DOUBLE, LAB_U8, LAB_NDTYPES } lab_dtype;
#define LAB_DT(t) (1u << (t)) /* masks of allowed dtypes */

typedef enum lab_backend {
    LAB_BACKEND_AUTO = 0, /* GPU when there is one, else the simulator */
    LAB_BACKEND_GPU,
    LAB_BACKEND_SIM,
    LAB_BACKEND_CPU       /* CPU rows: OpenMP and sequential baselines */
} lab_backend;

const char *lab_dtype_name(lab_dtype t);
size_t lab_dtype_size(lab_dtype t);
int lab_dtype_parse(const char *s, lab_dtype *out); /* 0 ok, -1 unknown */
const char *lab_backend_name(lab_backend b);        /* "gpu", "sim", "cpu", "auto" */

static inline int lab_is_pow2(long long x) { return x > 0 && (x & (x - 1)) == 0; }
/* a / b rounded up (a >= 0, b > 0): the blocks that cover a items, b per block. */
static inline long long lab_ceil_div(long long a, long long b) { return (a + b - 1) / b; }
/* The median of x[0..n), n > 0: the middle one, or the mean of the middle two
 * when n is even. Sorts x, so x[0] and x[n - 1] are then its ends. */
double lab_median(double *x, int n);

/* A byte count as people read it: "512 B", "48 KiB", "1.5 GiB" (one
 * decimal unless whole); "?" for a negative (unknown) count. */
void lab_fmt_bytes(double bytes, char *buf, size_t len);

/* Host memory of this machine, to refuse what cannot fit (a run refuses an
 * input past 60% of it). */
double lab_host_memory_bytes(void);

#define LAB_MAX_REPEATS 1000
#define LAB_NAME_MAX 64
#define LAB_NOTE_MAX 512
#define LAB_ERR_MAX 1024

/* ------------------------------------------------------------- settings */

/* Every setting of a session. The REPL owns the values; families read the
 * ones that concern them. 0 in block/grid means "the variant's default". */
typedef struct lab_config {
    long long n;          /* elements (1D families); matrix side for 2D ones */
    int block, block_y;   /* threads per block; block_y 0 = 1D or variant default */
    long long grid, grid_y; /* blocks; 0 = auto (derived from n or the variant) */
    lab_dtype dtype;
    char pattern[LAB_NAME_MAX]; /* input pattern: lecture, ones, const, random, ... */
    double value;         /* the constant of pattern "const" */
    unsigned seed;
    int repeats;          /* timed repeats after warm-up (median, min, max) */
    lab_backend backend;  /* AUTO, GPU or SIM for the GPU variants */
    long long sim_limit;  /* largest n the simulator accepts */
    int race_check;       /* simulator: report races in global and shared memory */
    int pad;              /* bitonic: pad n up to a power of two */
    int width, height;    /* 2D data: images, Mandelbrot */
    char image[512];      /* histogram: path of a PGM/PNG image, "" = generated */
    char model[LAB_NAME_MAX]; /* occupancy model on the simulator (h200, a100, t4...) */
    int gpus;             /* GPUs a multi-GPU run splits the input over (1..LAB_MAX_GPUS) */
} lab_config;

void lab_config_defaults(lab_config *cfg);

/* ------------------------------------------------------------- results */

typedef struct lab_result {
    char algo[LAB_NAME_MAX], variant[LAB_NAME_MAX];
    lab_backend backend;   /* GPU, SIM or CPU: where it really ran */
    long long n;
    lab_dtype dtype;
    int block, block_y;
    long long grid, grid_y;
    int ran;               /* 0: not run; note says why */
    double ms, ms_min, ms_max; /* median, min, max over the repeats */
    int repeats;
    double bytes;          /* bytes moved by one run (for GB/s) */
    double gbps, pct_peak; /* pct_peak < 0 when unknown */
    double speedup;        /* against the OpenMP row; < 0 when unknown */
    char result[LAB_NAME_MAX]; /* the answer as text (a sum, "sorted", ...) */
    double value;          /* the answer as a number when there is one */
    int correct;           /* 1 right, 0 wrong, -1 not checked */
    double rel_error;      /* floats: |got - ref| / |ref|; -1 when not applicable */
    char note[LAB_NOTE_MAX];
    double gflops;         /* arithmetic rows (matmul): GFLOP/s; 0 when not applicable */
    double ops;            /* operations of one run when the family counts them; 0 unknown */
    char ops_unit[16];     /* what ops counts: "flop", "iteration" */
    double est_ms;         /* simulator rows: estimated GPU time for cfg->model from the
                              counted accesses (kernels/profile); 0 when there is none */
} lab_result;

/* ---------------------------------------------------------------- traces */

/* One recorded step of one thread. Sorting by (launch, block, thread, epoch,
 * seq) makes a GPU trace and a simulator trace of a race-free kernel equal. */
typedef enum lab_event_kind {
    LAB_EV_READ = 1,   /* a = index read, v = value */
    LAB_EV_WRITE,      /* a = index written, v = value */
    LAB_EV_ADD,        /* a[dst] = a[dst] + b[src]: a = dst, b = src, v = new value, v2 = added value */
    LAB_EV_CSWAP,      /* compare-exchange of a and b: v = 1 if swapped, v2 = direction (1 ascending) */
    LAB_EV_ATOMIC,     /* atomic on index a: v = operand, v2 = old value (order-dependent) */
    LAB_EV_BARRIER,    /* __syncthreads passed; a = source line */
    LAB_EV_SHFL,       /* register exchange: a = this lane, b = source lane, v = value received, v2 = own value after */
    LAB_EV_MARK        /* a free-form marker: a = what (family-defined), v, v2 */
} lab_event_kind;

typedef enum lab_space { LAB_SP_GLOBAL = 0, LAB_SP_SHARED, LAB_SP_REG } lab_space;

typedef struct lab_event {
    uint32_t launch;   /* which launch of the run (0, 1, ...) */
    uint32_t block;    /* linear block index */
    uint32_t thread;   /* linear thread index within the block */
    uint32_t epoch;    /* barriers this thread had passed before the event */
    uint32_t seq;      /* per-thread sequence number within the launch */
    uint16_t kind;     /* lab_event_kind */
    uint16_t space;    /* lab_space */
    int32_t a, b;
    double v, v2;
    int32_t line;      /* the TRACE_* line (or barrier) in the kernel's source file; 0 unknown */
} lab_event;

/* Events both recorders (the traced GPU build and the simulator) keep per
 * thread and launch: 256, more when few threads run (a thread of bitonic's
 * fast sorts 32 keys), up to 4096, so that about LAB_TRACE_EVENTS fit in all.
 * A thread that records more is cut there and the trace marked truncated. */
#define LAB_TRACE_EVENTS (1ull << 20)
#define LAB_TRACE_CAP_MIN 256
#define LAB_TRACE_CAP_MAX 4096
static inline uint32_t lab_trace_cap(unsigned long long threads)
{
    if (threads * LAB_TRACE_CAP_MAX <= LAB_TRACE_EVENTS) return LAB_TRACE_CAP_MAX;
    if (threads * LAB_TRACE_CAP_MIN >= LAB_TRACE_EVENTS) return LAB_TRACE_CAP_MIN;
    return (uint32_t)(LAB_TRACE_EVENTS / threads);
}
/* Events that hold any launch of at most this many threads. */
static inline unsigned long long lab_trace_room(unsigned long long threads)
{
    return threads * LAB_TRACE_CAP_MIN > LAB_TRACE_EVENTS ? threads * LAB_TRACE_CAP_MIN : LAB_TRACE_EVENTS;
}

typedef struct lab_launch_info {
    unsigned grid[3], block[3];
    char kernel[LAB_NAME_MAX];
} lab_launch_info;

#define LAB_TRACE_MAX_LAUNCHES 64
typedef struct lab_trace {
    lab_event *ev;
    size_t count, cap;
    int truncated;                 /* events were dropped: cap reached */
    int nlaunches;
    lab_launch_info launches[LAB_TRACE_MAX_LAUNCHES];
    lab_backend backend;           /* GPU or SIM */
    char algo[LAB_NAME_MAX], variant[LAB_NAME_MAX];
    long long n;
    lab_dtype dtype;
    int smem_elem_bytes;           /* bytes per shared-memory element (bank conflicts) */
    int width, height;             /* 2D data (matrices, images): the shape; 0 = 1D */
    double *input;                 /* the traced input as doubles (n of them) */
    double result;                 /* the variant's answer */
    /* A run across GPUs (animate with gpus > 1): no events of its own but
     * each GPU's trace over its slice, and the run (slices, partials,
     * combines); lab_trace_free frees both. */
    int gpus;
    struct lab_trace *parts;
    struct lab_multi *multi;
} lab_trace;

/* lab_run() returns a trace sorted by the key above (lab_event_cmp), so a
 * renderer can walk it in key order without sorting it again. */
void lab_trace_free(lab_trace *t);
void lab_trace_sort(lab_trace *t);                 /* by the key above */
int  lab_event_cmp(const lab_event *x, const lab_event *y); /* key order */
/* 0 when equal after sorting; else a message about the first difference. */
int  lab_trace_compare(const lab_trace *a, const lab_trace *b, char *msg, size_t msglen);
const char *lab_event_kind_name(int kind);

/* ------------------------------------------------------------- registry */

struct lab_job;
struct lab_input;
struct lab_multi;
typedef int (*lab_fn)(struct lab_job *job);  /* 0 ok, -1 error (job->err says) */

typedef enum lab_row_kind {
    LAB_ROW_KERNEL = 0, /* our own kernel: runs on the GPU and on the simulator */
    LAB_ROW_LIB,        /* a vendor library (thrust, CUB, cuBLAS): GPU only */
    LAB_ROW_CPU         /* a CPU baseline */
} lab_row_kind;

/* Variant flags */
#define LAB_POW2_BLOCK    (1u << 0) /* block must be a power of two */
#define LAB_POW2_N        (1u << 1) /* n must be a power of two (set pad on pads) */
#define LAB_FIXED_BLOCK   (1u << 2) /* the variant chooses its block itself */
#define LAB_FIXED_GRID    (1u << 3) /* the variant chooses its grid itself */
#define LAB_WRONG_ON_PURPOSE (1u << 4) /* a lecture's bug, kept to be seen */
#define LAB_BLOCK_2D      (1u << 5) /* block is bx x by */
#define LAB_OMP_BASELINE  (1u << 6) /* the row speedups are measured against */
#define LAB_GRID_COVERS_N (1u << 7) /* no grid-stride loop: a grid the user sets must cover n
                                       (grid * block * items_per_thread >= n) */

typedef struct lab_variant {
    const char *name;
    const char *summary;     /* one line for list and help */
    const char *idea;        /* the idea it teaches, a sentence */
    lab_row_kind kind;
    unsigned flags;
    unsigned dtypes;         /* LAB_DT() mask; 0 = as the algorithm */
    int block_min, block_max, block_default;
    long long grid_default;  /* 0 = derived from n */
    long long trace_max_n;   /* largest n it can be traced at; 0 = not traceable */
    lab_fn gpu, gpu_traced, sim, cpu;
    int items_per_thread;    /* LAB_GRID_COVERS_N: elements one thread handles; 0 = 1 */
    int trace_block;         /* block for trace/animate when block is auto, chosen so the
                                picture shows what the variant teaches; 0 = no preference */
} lab_variant;

typedef struct lab_algo {
    const char *name;
    const char *summary;
    const char *lesson;      /* lesson file stem, e.g. "04-reduction" */
    const lab_variant *variants;
    int nvariants;
    unsigned dtypes;
    const char *const *patterns; /* NULL-terminated; first is the default */
    long long n_default;     /* the lecture's size, for a GPU */
    long long sim_default_n; /* default n on the simulator (0 = n_default) */
    long long trace_n;       /* n for trace/animate when n is auto (0 = the default
                                n if it can be traced, else 64) */
    lab_dtype dtype_default;
    /* Make the host input (job->in, job->in_bytes), size job->out, set
     * job->bytes (bytes one run moves) and anything family-specific. */
    int (*prepare)(struct lab_job *job);
    /* Check job->out against the reference row's output; fill result,
     * value, correct, rel_error and note of r. ref may be job itself
     * (the reference row checks itself against an exact computation). */
    int (*check)(const struct lab_job *job, const struct lab_job *ref, lab_result *r);
    /* Host memory needed for n elements, to refuse sizes beyond the machine. */
    double (*host_bytes)(const lab_config *cfg);
    /* Free what family data attached to a job (job->priv) holds, or NULL;
     * the harness then frees job->priv itself with free(). */
    void (*release)(struct lab_job *job);
    /* Run a variant across cfg->gpus GPUs (lab_multi_run), or NULL when the
     * family runs on one GPU only. */
    int (*multi)(struct lab_input *in, const struct lab_variant *v, struct lab_multi *m, struct lab_trace *traces);
} lab_algo;

int lab_algo_count(void);
const lab_algo *lab_algo_at(int i);
const lab_algo *lab_algo_find(const char *name);   /* exact name */
const lab_variant *lab_variant_find(const lab_algo *a, const char *name);
/* The variant that speedups are measured against (LAB_OMP_BASELINE), or NULL. */
const lab_variant *lab_algo_baseline(const lab_algo *a);
/* One table's speedups against its own baseline row, when that row ran:
 * the baseline reads 1.00x, as in the lecture's tables (without it the
 * rows keep the speedup against the reference run lab_run made). */
void lab_rebase_speedups(const lab_algo *a, lab_result *rows, int n);


/* ---------------------------------------------------------------- inputs */

/* A prepared input shared by the rows of one compare: the host data, and the
 * reference row's output once it has run. Opaque here (kernels/family.h
 * defines it for the families). */
typedef struct lab_input lab_input;
struct lab_probe;

/* Prepare the input for cfg (validating sizes against host memory): a new
 * input, or NULL with msg. */
lab_input *lab_input_new(const lab_algo *a, const lab_config *cfg, char *msg, size_t msglen);
void lab_input_delete(lab_input *in);                  /* NULL is fine */
/* n as the rows run it (after padding, or the family's own resolution). */
long long lab_input_n(const lab_input *in);
/* Elements the simulator limit applies to (n x n, an image's pixels), or 0 = n. */
long long lab_input_sim_items(const lab_input *in);
/* Record the launches of every row run over in into p (NULL: stop). */
void lab_input_set_probe(lab_input *in, struct lab_probe *p);

/* Check cfg against variant limits (block, grid, n, dtype) without running.
 * 0 ok; -1 with a message saying what is allowed. */
int lab_validate(const lab_algo *a, const lab_variant *v, const lab_config *cfg,
                 char *msg, size_t msglen);

/* Run one row. Always fills r (r->ran = 0 with a note when it could not run).
 * trace: NULL, or an empty lab_trace to fill. Returns 0 if it ran, -1 if not. */
int lab_run(lab_input *in, const lab_variant *v, lab_result *r, lab_trace *trace);

/* Which backend a kernel row uses under cfg: GPU or SIM. */
lab_backend lab_kernel_backend(const lab_config *cfg);
/* Where row v runs under cfg: CPU rows on the CPU, library rows on the GPU,
 * kernel rows as lab_kernel_backend() says. lab_run() fills r->backend so. */
lab_backend lab_row_backend(const lab_variant *v, const lab_config *cfg);

/* Set by a SIGINT handler; checked between repeats. */
extern volatile sig_atomic_t lab_interrupted;

/* ------------------------------------------------------- several GPUs */

/* A run across N GPUs (`set gpus N`): the input is cut into N contiguous
 * slices whose sizes differ by at most one element (lab_multi_split), each
 * GPU reduces its slice with the chosen variant, and the N partial results
 * are combined three ways. On the simulator the N GPUs are modelled one
 * after another; the combines compute their result there but are not timed. */
#define LAB_MAX_GPUS 8
typedef enum lab_combine {
    LAB_COMBINE_HOST = 0, /* the partials copied to the host and added there */
    LAB_COMBINE_P2P,      /* peer-to-peer copies to GPU 0, added there */
    LAB_COMBINE_NCCL,     /* ncclAllReduce: every GPU ends with the total */
    LAB_NCOMBINES
} lab_combine;
const char *lab_combine_name(lab_combine c); /* "host", "p2p", "nccl" */

/* Slice d of n elements over gpus GPUs: [*lo, *lo + *len). The first
 * n % gpus slices hold one element more. */
void lab_multi_split(long long n, int gpus, int d, long long *lo, long long *len);

typedef struct lab_multi_combine {
    lab_combine way;
    int ran;                 /* 0: not run, note says why */
    int timed;               /* 1: ms measured; 0: result computed, time not (simulator) */
    double ms;               /* the combine's median over the repeats */
    double total_ms;         /* slowest GPU + combine; < 0 unknown */
    double speedup;          /* one GPU over all of n / total; < 0 unknown */
    double algbw, busbw;     /* nccl: GB/s as nccl-tests define them; < 0 unknown */
    char result[LAB_NAME_MAX];
    double value;
    int correct;             /* against the CPU reference of all of n */
    double rel_error;
    char note[LAB_NOTE_MAX];
} lab_multi_combine;

typedef struct lab_multi {
    int gpus;
    lab_backend backend;          /* GPU or SIM */
    long long n;
    long long lo[LAB_MAX_GPUS], len[LAB_MAX_GPUS];
    lab_result part[LAB_MAX_GPUS]; /* each GPU's row over its slice (result: its partial) */
    lab_result one;               /* the variant on one GPU over all of n (GPU only) */
    double bytes;                 /* bytes of the buffer the combine all-reduces (one partial) */
    long long elems;              /* elements of that buffer (the reduction: 1); 0 reads as 1 */
    int elem_bytes;               /* bytes of one element (0: bytes / elems) */
    lab_multi_combine comb[LAB_NCOMBINES];
} lab_multi;

/* Run v across cfg->gpus GPUs over in. 0 when the slices ran (each combine
 * says whether it did); -1 with msg saying why not. traces: NULL, or room
 * for cfg->gpus traces, one per GPU over its slice (as lab_run records). */
int lab_multi_run(lab_input *in, const lab_variant *v, lab_multi *m, lab_trace *traces, char *msg,
                  size_t msglen);

/* ------------------------------------------------ launches, probed */

/* One launch shape of a run, as LAUNCH saw it. On the GPU the kernel's
 * address and its compiled attributes come along, so the occupancy API can be
 * asked about it; on the simulator they are unknown (-1, NULL). */
typedef struct lab_launch_probe {
    char kernel[LAB_NAME_MAX]; /* LAUNCH's kernel expression: "reduce_sequential_k<T>" */
    const void *func;          /* GPU: the kernel's address; NULL on the simulator */
    unsigned grid[3], block[3];
    size_t dynamic_smem;       /* bytes of dynamic shared memory per block */
    int count;                 /* launches of this shape in the run */
    int regs;                  /* registers per thread; -1 unknown */
    int max_threads;           /* the compiled limit of threads per block; -1 unknown */
    long long static_smem;     /* __shared__ bytes per block; -1 unknown */
    long long local_bytes;     /* local memory per thread; -1 unknown */
    long long max_dynamic_smem;/* dynamic shared memory the kernel may ask for; -1 unknown */
} lab_launch_probe;

/* Where a run records its launches: lab_input_set_probe() before lab_run(),
 * and every row run over that input fills it (the same shape twice counts once). */
typedef struct lab_probe {
    lab_launch_probe *launches;
    int count, max;
    int dropped;               /* shapes that did not fit in max */
} lab_probe;

/* Run v once over in (prepare in with repeats 1 to keep it quick) and
 * return its launch shapes in out[0..max): their number, or -1 with msg
 * when the variant did not run. */
int lab_probe_launches(lab_input *in, const lab_variant *v, lab_launch_probe *out, int max,
                       char *msg, size_t msglen);


/* --------------------------------------------------------- device layer */

typedef struct lab_device_info {
    int present;               /* 1 when a usable GPU is there */
    char name[256];
    int cc_major, cc_minor;
    int sms;
    size_t mem_total, mem_free;
    int max_threads_per_block, max_threads_per_sm, max_blocks_per_sm;
    int warp_size;
    size_t smem_per_block, smem_per_block_optin, smem_per_sm;
    int regs_per_block, regs_per_sm;
    int max_grid[3], max_block[3];
    int clock_khz, mem_clock_khz, mem_bus_bits;
    double copy_gbps;          /* measured device-to-device copy; 0 until probed */
    char why_not[LAB_NOTE_MAX];/* when not present: why */
} lab_device_info;

/* First call starts CUDA (lazily). Never fails: no GPU is a normal state. */
const lab_device_info *lab_device(void);
int lab_gpu_available(void);             /* a GPU is present and not disabled */
/* Measure (once, cached) the device-to-device copy bandwidth in GB/s,
 * counting bytes read plus bytes written. 0 when there is no GPU. */
double lab_device_copy_gbps(void);
/* A sticky error disabled the GPU for this session: the explanation, or NULL. */
const char *lab_device_disabled(void);
/* CUDA devices of this machine (0 without a GPU). */
int lab_device_count(void);
/* Device i's name and memory, for `device`; -1 when there is no such device. */
int lab_device_describe(int i, char *name, size_t len, size_t *mem_total);
/* Make device d current for the calls that follow; 0, or -1 with msg. */
int lab_device_select(int d, char *msg, size_t msglen);
/* Can n bytes be allocated on the device now? 0 yes; -1 with a message. */
int lab_device_reserve(size_t bytes, char *msg, size_t msglen);

#ifdef __cplusplus
}
#endif

/* ------------------------------------------------------------ occupancy */

/* A public part of this API, kept in its own file: how many blocks of a
 * kernel fit on one SM, on the GPU or on a modelled one. */
#include "kernels/device/occupancy.h"

#endif
