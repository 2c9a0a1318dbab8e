/* simtest.h - the simulator's test kernels (simtest_kernels.cu) and what the
 * tests pass them through job->priv. */
#ifndef GPULAB_SIMTEST_H
#define GPULAB_SIMTEST_H

#include "kernels/family.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which kernel of a multi-kernel entry runs. */
enum simtest_diag {
    SIMTEST_TWO_BARRIERS = 0, /* half the block at one __syncthreads, half at another */
    SIMTEST_EARLY_EXIT,       /* threads >= n return before a __syncthreads */
    SIMTEST_WARP_EXIT,        /* lanes 16-31 exit before a full-mask shuffle */
    SIMTEST_WARP_SPLIT,       /* lanes at two different shuffles */
    SIMTEST_WARP_BARRIER,     /* lanes 0-15 at a shuffle, 16-31 at __syncthreads */
    SIMTEST_MASK_SELF,        /* a lane's mask leaves out the lane itself */
    SIMTEST_WIDTH,            /* a shuffle width of 12 */
    SIMTEST_OOB,              /* s[threadIdx.x + 1] on a 256-element array */
    SIMTEST_OOB2,             /* tile[2][8] on an 8x8 array */
    SIMTEST_OOB_DYN,          /* index 60 of 60 dynamic ints */
    SIMTEST_RACE,             /* write then read a neighbour without a barrier (arg 1: with one) */
    SIMTEST_WARP_RACE,        /* the same within a warp (arg 1: with __syncwarp) */
    SIMTEST_WARP_TREE,        /* a warp tree reduction in shared memory with __syncwarp */
    SIMTEST_SHARED_ATOMIC,    /* shared histogram (arg 1: plus a plain read racing the atomics) */
    SIMTEST_TRAP,             /* thread 5 calls __trap() */
    SIMTEST_OVERFLOW,         /* deep recursion with big frames */
    SIMTEST_SMEM_TOO_BIG,     /* two SHARED arrays of 32 KiB */
    SIMTEST_CG_SPLIT,         /* block.sync() by some threads, __syncthreads() by others */
    SIMTEST_ACTIVEMASK_SPLIT  /* __activemask in two branches, then a shuffle with that mask */
};

/* Warp collective of simtest_warp_op. */
enum simtest_op {
    SIMTEST_SHFL = 0, SIMTEST_SHFL_UP, SIMTEST_SHFL_DOWN, SIMTEST_SHFL_XOR,
    SIMTEST_BALLOT, SIMTEST_ANY, SIMTEST_ALL, SIMTEST_MATCH_ANY, SIMTEST_MATCH_ALL,
    SIMTEST_REDUCE_ADD, SIMTEST_REDUCE_MIN, SIMTEST_REDUCE_MAX, SIMTEST_ACTIVEMASK,
    SIMTEST_SHFL_FLOAT, SIMTEST_SHFL_DOUBLE
};

#define SIMTEST_UNSET 0xDEADu

typedef struct simtest_params {
    int which;             /* enum simtest_diag, or a variant */
    int arg;               /* a kernel's argument (mode, n, depth...) */
    unsigned grid[3], block[3];
    unsigned smem;         /* dynamic shared memory bytes */
    /* simtest_warp_op */
    int op;                /* enum simtest_op */
    unsigned mask;         /* the mask passed to the collective */
    unsigned active;       /* the lanes (of every warp) that call it */
    int lane_arg;          /* srcLane / delta / laneMask */
    int width;
    int in[64];            /* per-thread input */
} simtest_params;

/* Output of simtest_atomics. */
typedef struct simtest_atomics_out {
    int i_add, i_sub, i_min, i_max, i_exch, i_cas, i_and, i_or, i_xor;
    unsigned u_add, u_sub, u_min, u_max, u_exch, u_inc, u_dec, u_cas, u_and, u_or, u_xor;
    unsigned long long ull_add, ull_min, ull_max, ull_exch, ull_cas, ull_and, ull_or, ull_xor;
    long long ll_min, ll_max;
    float f_add, f_exch;
    double d_add;
    unsigned short us_cas;
    unsigned short pad_;
    int sh_add, sh_sub;
    unsigned sh_max, sh_min, sh_or;
    float sh_fadd;
    double sh_dadd;
    long long exch_old_sum;   /* sum of the values atomicExch returned */
} simtest_atomics_out;

LAB_DECLARE_KERNEL(simtest_index);         /* grid/block from params; 13 ints per thread */
LAB_DECLARE_KERNEL(simtest_poison);        /* 3 blocks of 64: 5 unsigned per block */
LAB_DECLARE_KERNEL(simtest_barrier);       /* block 16x12: 5 x 192 ints */
LAB_DECLARE_KERNEL(simtest_diag);          /* params.which; out: ints */
LAB_DECLARE_KERNEL(simtest_launch);        /* an empty kernel with params' grid, block, smem */
LAB_DECLARE_KERNEL(simtest_warp_op);       /* params.op over params.block threads; out: 2 x 64 unsigned */
LAB_DECLARE_KERNEL(simtest_atomics);       /* 4 blocks of 64; out: simtest_atomics_out */
LAB_DECLARE_KERNEL(simtest_fsum);          /* float sum of job->in (n = job->n), block 256: out: float sum, then partials */
LAB_DECLARE_KERNEL(simtest_cg);            /* block 64: 8 ints per thread */
LAB_DECLARE_KERNEL(simtest_trace);         /* 2 blocks of 64, traced: barrier events and epochs */
LAB_DECLARE_KERNEL(simtest_reduce);        /* int sum of job->in (n = job->n), block job->block, one
                                              element per thread, interleaved tree: out: long long */

#ifdef __cplusplus
}
#endif
#endif
