/* lab.h - the one public header of gpulab's kernels library.
 *
 * The REPL, the pictures and the tests see the kernels only through this
 * header: the registry of algorithms and their variants, the settings of a run
 * (lab_config), what a run returns (lab_result), the step traces that the
 * animations play (lab_trace), and the device layer.
 *
 * Flow of one row: lab_input_prepare() makes the host input once (and the CPU
 * reference), lab_run() runs one variant on one backend against it and fills a
 * lab_result (and a lab_trace when asked).
 */
#ifndef GPULAB_LAB_H
#define GPULAB_LAB_H

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
    int race_check;       /* simulator: report shared-memory races */
    int pad;              /* bitonic: pad n up to a power of two */
    int width, height;    /* 2D data: images, Mandelbrot */
    char image[512];      /* histogram: path of a PGM/PNG image, "" = generated */
    char model[LAB_NAME_MAX]; /* occupancy model on the simulator (h200, a100, t4...) */
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
} lab_trace;

void lab_trace_free(lab_trace *t);
void lab_trace_sort(lab_trace *t);                 /* by the key above */
int  lab_event_cmp(const lab_event *x, const lab_event *y); /* key order */
/* 0 when equal after sorting; else a message about the first difference. */
int  lab_trace_compare(const lab_trace *a, const lab_trace *b, char *msg, size_t msglen);
const char *lab_event_kind_name(int kind);

/* ------------------------------------------------------------- registry */

struct lab_job;
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
    /* Free family data attached to a job (job->priv), may be NULL. */
    void (*release)(struct lab_job *job);
} lab_algo;

int lab_algo_count(void);
const lab_algo *lab_algo_at(int i);
const lab_algo *lab_algo_find(const char *name);   /* exact name */
const lab_variant *lab_variant_find(const lab_algo *a, const char *name);
/* The variant that speedups are measured against (LAB_OMP_BASELINE), or NULL. */
const lab_variant *lab_algo_baseline(const lab_algo *a);

/* ----------------------------------------------------------------- jobs */

/* A job: one variant run on one backend over one prepared input. Families'
 * entry points receive it; the harness (lab.c) owns its buffers. */
#define LAB_MAX_ALLOCS 32
typedef struct lab_job {
    const lab_config *cfg;
    const lab_algo *algo;
    const lab_variant *variant;
    lab_backend backend;     /* GPU, SIM or CPU: resolved */
    long long n;             /* resolved n (after padding) */
    long long sim_items;     /* elements the simulator limit applies to (0 = n) */
    int block, block_y;      /* resolved block */
    long long grid, grid_y;  /* resolved grid; families set it when they derive it */
    void *in;                /* host input, n elements of dtype (family-defined) */
    size_t in_bytes;
    void *out;               /* host output buffer, out_bytes */
    size_t out_bytes;
    void *priv;              /* family data (image size, extra inputs, ...) */
    double bytes;            /* bytes one run moves (GB/s) */
    double value;            /* a scalar answer (sums) for check() */
    /* timing: filled by the timed loop */
    double samples[LAB_MAX_REPEATS];
    int nsamples;
    /* device allocations, freed by the harness after the entry returns */
    void *allocs[LAB_MAX_ALLOCS];
    void (*alloc_free[LAB_MAX_ALLOCS])(void *); /* how to free each (GPU or simulator) */
    int nallocs;
    lab_trace *trace;        /* non-NULL: record events */
    void *trace_buf[3];      /* GPU trace buffers, reused by every launch of the run */
    unsigned long long trace_buf_threads; /* threads they have room for */
    char note[LAB_NOTE_MAX];
    char err[LAB_ERR_MAX];
    struct lab_probe *probe; /* non-NULL: LAUNCH records every launch here */
} lab_job;

/* A prepared input shared by the rows of one compare: the host data, and the
 * reference row's job once it has run. */
typedef struct lab_input {
    lab_job job;             /* prepared: in, in_bytes, out_bytes, bytes, priv */
    lab_job ref;             /* the reference (CPU) row's output, for checks */
    int have_ref;
    double omp_ms;           /* the OpenMP row's median, for speedups; < 0 unknown */
} lab_input;

/* Prepare the input for cfg (validating sizes against host memory).
 * 0 ok; -1 with msg. */
int lab_input_prepare(lab_input *in, const lab_algo *a, const lab_config *cfg,
                      char *msg, size_t msglen);
void lab_input_free(lab_input *in);

/* Check cfg against variant limits (block, grid, n, dtype) without running.
 * 0 ok; -1 with a message saying what is allowed. */
int lab_validate(const lab_algo *a, const lab_variant *v, const lab_config *cfg,
                 char *msg, size_t msglen);

/* Run one row. Always fills r (r->ran = 0 with a note when it could not run).
 * trace: NULL, or an empty lab_trace to fill. Returns 0 if it ran, -1 if not. */
int lab_run(lab_input *in, const lab_variant *v, lab_result *r, lab_trace *trace);

/* Which backend a kernel row uses under cfg: GPU or SIM. */
lab_backend lab_kernel_backend(const lab_config *cfg);

/* Set by a SIGINT handler; checked between repeats. */
extern volatile int lab_interrupted;

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

/* Where a run records its launches: set in->job.probe before lab_run() and
 * every row run over that input fills it (the same shape twice counts once). */
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

/* Called by LAUNCH before every launch (kern.h): checks the shape against
 * the device (on the simulator: against the model of cfg->model), with the
 * allowed range in job->err when it is refused, and records it when the job
 * is probed. 0 ok, -1 refused. */
int lab_launch_check(lab_job *job, const char *kernel, const void *func, const unsigned grid[3],
                     const unsigned block[3], size_t dynamic_smem);

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
/* Record a CUDA error from a call; sticky errors disable the GPU. Returns -1
 * and writes a message into err. */
int lab_device_fail(int cuda_err, const char *expr, const char *file, int line,
                    char *err, size_t errlen);
/* Can n bytes be allocated on the device now? 0 yes; -1 with a message. */
int lab_device_reserve(size_t bytes, char *msg, size_t msglen);
/* Free the job's device allocations (GPU or simulator memory). */
void lab_job_free_allocs(lab_job *job);

#ifdef __cplusplus
}
#endif
#endif
