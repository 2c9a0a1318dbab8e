/* occupancy.h - how many blocks of a kernel fit on one SM, and why no more.
 *
 * An SM holds a block only when it has room for all of it at once: warp
 * slots, registers (given to whole warps in fixed units), shared memory
 * (rounded up to an allocation unit, plus what the driver keeps per block)
 * and a slot in its table of resident blocks. The fewest blocks any of these
 * allows is the number of resident blocks; resident warps over the SM's warp
 * slots is the theoretical occupancy.
 *
 * The calculator is plain arithmetic over a device description (occ_model),
 * so it works without a GPU: the built-in models carry the published per-SM
 * limits of common GPUs (kernels/device/models.c), and occ_model_from_device()
 * describes the GPU that is present. On a GPU, the CUDA occupancy API gives
 * the same answer (tests/explore/gpu_occupancy.c checks that it does).
 */
#ifndef GPULAB_OCCUPANCY_H
#define GPULAB_OCCUPANCY_H

/* A part of the kernels API: include kernels/lab.h, which includes this. */
#ifndef GPULAB_LAB_H
#  error "include kernels/lab.h; kernels/device/occupancy.h is a part of it"
#endif

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ devices */

typedef struct occ_model {
    const char *name;            /* what `set model` takes: "h200" */
    const char *title;           /* "NVIDIA H200 SXM, Hopper, 141 GB HBM3e" */
    int cc_major, cc_minor;      /* compute capability */
    int sms;                     /* streaming multiprocessors */
    int warp_size;
    int max_threads_per_block;
    int max_threads_per_sm;
    int max_blocks_per_sm;
    int regs_per_sm;             /* 32-bit registers in one SM's register file */
    int regs_per_block;          /* most registers one block may hold */
    int max_regs_per_thread;
    int reg_alloc_unit;          /* a warp's registers come in units of this many */
    int sub_partitions;          /* warp schedulers; each owns a share of the register file */
    long smem_per_sm;            /* shared memory an SM can give to blocks (bytes) */
    long smem_per_block;         /* per block without opting in (48 KiB) */
    long smem_per_block_optin;   /* per block for a kernel that opts in */
    long smem_reserved_per_block;/* kept by the driver for every resident block */
    int smem_alloc_unit;         /* a block's shared memory is rounded up to this */
    double mem_gbps;             /* published memory bandwidth, GB/s (0: unknown) */
    long l2_bytes;               /* L2 cache, as cudaDeviceProp::l2CacheSize reports it (0: unknown) */
    long l2_persist_max;         /* persistingL2CacheMaxSize (0: none, or not measured) */
    long l2_window_max;          /* accessPolicyMaxWindowSize (0: none, or not measured) */
} occ_model;

int occ_model_count(void);
const occ_model *occ_model_at(int i);             /* NULL past the end */
const occ_model *occ_model_find(const char *name); /* exact name, case-insensitive */
/* "h200, h100, a100, ..." for messages. */
void occ_model_names(char *buf, size_t len);

/* The limits that do not appear among the device attributes, by compute
 * capability (allocation units, sub-partitions). 0 ok, -1 for an unknown
 * architecture (then the fields keep the Hopper values). */
int occ_arch_units(int cc_major, int cc_minor, occ_model *m);

/* Describe the GPU that is present (name "gpu"). 0 ok, -1 when there is none. */
int occ_model_from_device(occ_model *m, char *title, size_t titlelen);

/* ------------------------------------------------------------ kernels */

/* What one block of a kernel asks for. */
typedef struct occ_kernel {
    int regs;                 /* registers per thread; 0 = not known (no register limit) */
    long static_smem;         /* __shared__ arrays, bytes per block */
    long dynamic_smem;        /* bytes per block given at the launch ... */
    double dynamic_per_thread;/* ... plus this many per thread (for block-size searches) */
    int max_threads;          /* __launch_bounds__ / the compiled limit; 0 = the device's */
    long max_dynamic_smem;    /* dynamic bytes the kernel opted in to; 0 = the default limit */
} occ_kernel;

/* Resources, as bits: what limits the resident blocks. */
enum {
    OCC_LIM_WARPS = 1u << 0,  /* warp slots (threads per SM) */
    OCC_LIM_REGS = 1u << 1,   /* the register file */
    OCC_LIM_SMEM = 1u << 2,   /* shared memory */
    OCC_LIM_BLOCKS = 1u << 3  /* resident blocks per SM */
};

typedef struct occ_result {
    int block;                /* threads per block */
    int warps_per_block;
    long dynamic_smem;        /* dynamic bytes at this block size */
    int by_warps, by_regs, by_smem, by_blocks; /* blocks per SM each allows (-1: no limit) */
    int blocks_per_sm;        /* resident blocks: the smallest of the above */
    int active_warps, max_warps;
    double occupancy;         /* active_warps / max_warps */
    unsigned limiters;        /* OCC_LIM_* bits of every resource at the minimum */
    int regs_per_block;       /* registers one block really takes */
    long smem_per_block;      /* shared memory one block really takes (rounded, reserve included) */
    char why[256];            /* blocks_per_sm == 0: why the block cannot run at all */
} occ_result;

/* The occupancy of kernel k in blocks of `block` threads on model m.
 * Returns blocks_per_sm (0 when such a block cannot run; r->why says why). */
int occ_compute(const occ_model *m, const occ_kernel *k, int block, occ_result *r);

/* "registers", "shared memory", "warps", "blocks": "registers, warps and blocks";
 * "-" when no bit is set. Returns buf. */
char *occ_limiters_text(unsigned limiters, char *buf, size_t len);

/* The block size with the highest occupancy, the way
 * cudaOccupancyMaxPotentialBlockSize picks it: every multiple of the warp
 * size from the largest allowed down, keeping the first that reaches the
 * most resident threads. block_limit 0 = no limit beyond the device's and
 * the kernel's. *min_grid: blocks that fill every SM once. Returns the block
 * size, 0 when no size can run. */
int occ_suggest_block(const occ_model *m, const occ_kernel *k, int block_limit, int *min_grid);

/* ------------------------------------------- registers from the compiler */

/* One kernel as ptxas compiled it: generated at build time from
 * `nvcc --resource-usage` (cmake/ResourceUsage.cmake). */
typedef struct occ_resource {
    const char *mangled;      /* the symbol: _Z19reduce_sequential_kIiEv... */
    int arch;                 /* 90 for sm_90 */
    int regs;                 /* registers per thread */
    int static_smem;          /* bytes of __shared__ per block */
    int stack;                /* bytes of stack frame per thread (local memory) */
} occ_resource;

/* The base name of a mangled kernel symbol ("reduce_sequential_k", or
 * "ns::k" for nested names) and the type code of its first template argument
 * ('i' int, 'f' float, 'd' double, 'h' unsigned char, 'x' long long, ...;
 * 0 when there is none). 0 ok, -1 when it is not a mangled C++ name (then
 * the symbol itself is the base: extern "C" kernels). */
int occ_mangled_base(const char *mangled, char *base, size_t len, char *targ);

/* The base name of a LAUNCH's kernel expression: "reduce_sequential_k<T>"
 * and "&ns::k<float, 4>" give "reduce_sequential_k" and "ns::k". */
void occ_expr_base(const char *expr, char *base, size_t len);

/* Find the compiled kernel behind a LAUNCH's kernel expression in a table:
 * same base name; among several template instances the one whose first
 * template argument is dt's type, else the one with the most registers (and
 * note says so); the entry for the largest arch <= arch, else the smallest.
 * NULL when the kernel is not in the table. */
const occ_resource *occ_resource_find(const occ_resource *table, int count, const char *expr,
                                      lab_dtype dt, int arch, char *note, size_t notelen);
/* The same, for a kernel compiled once per block size (a template argument
 * equal to the block's threads, as reduce's tree kernels): among the
 * instances of dt, the one instantiated for `threads` when there is one. */
const occ_resource *occ_resource_find_block(const occ_resource *table, int count, const char *expr,
                                            lab_dtype dt, int arch, int threads, char *note,
                                            size_t notelen);

/* The table of this build (kernels/gen: generated, possibly empty) and a
 * sentence saying where it came from or why it is empty. */
extern const occ_resource lab_resource_table[];
extern const int lab_resource_count;
extern const char lab_resource_origin[];

/* ------------------------------------------------ the CUDA occupancy API */

/* On the GPU: the resident blocks per SM of a kernel (its address, from a
 * probe) as cudaOccupancyMaxActiveBlocksPerMultiprocessor says. -1 when there
 * is no GPU or the call fails (msg says why). */
int occ_api_blocks_per_sm(const void *func, int block, size_t dynamic_smem, char *msg, size_t len);

/* On the GPU: the kernel's attributes through cudaFuncGetAttributes. 0 ok. */
int occ_api_kernel(const void *func, occ_kernel *k, char *msg, size_t len);

/* On the GPU: the suggestion of the occupancy API for a kernel whose dynamic
 * shared memory is base + per_thread * block: the same search as
 * cudaOccupancyMaxPotentialBlockSizeVariableSMem, asking the driver at every
 * size. Returns the block size, or -1 (msg says why). */
int occ_api_suggest_block(const void *func, long base, double per_thread, int block_limit,
                          int *min_grid, char *msg, size_t len);

#ifdef __cplusplus
}
#endif
#endif
