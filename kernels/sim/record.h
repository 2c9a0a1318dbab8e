/* record.h - automatic access recording on the simulator.
 *
 * One recording, several readers: the profile counters read it today;
 * diagnostics and animations can read the same records. Nothing in a
 * kernel's source asks for it.
 *
 * How it sees the accesses: the simulator's build of every kernel (the
 * generated *.sim.cpp) is compiled with g++ -fsanitize=thread at compile time
 * only, so every load and store the optimiser keeps in memory calls a
 * __tsan_readN / __tsan_writeN entry point with its address; record.cpp
 * defines those entry points itself (no sanitizer runtime is linked). The
 * call's return address is the access site: one machine instruction of the
 * kernel, as one SASS instruction is one site on the GPU. Addresses are
 * kept only when they fall inside a tracked object: an allocation from the
 * simulator's cudaMalloc (global memory) or a shared array of the running
 * block; stack locals and host variables are ignored. Atomics are recorded
 * by the shim's read-modify-write (sim_rec_atomic), whose own load and store
 * then do not count again (up to sim_rec_atomic_end).
 *
 * A request is one warp's execution of one access site: lane L's k-th
 * execution of site S joins the same request as lane M's k-th execution of
 * S, counted from the warp's last block barrier (or the block start). A
 * request is complete, and handed to the readers, at the next barrier of the
 * block or at the end of the block; the readers see the requests of one warp
 * in program order (the order in which the warp's first lane made them).
 *
 * When nothing is attached the entry points cost one flag test each.
 * Builds where the instrumentation cannot be used (the ASan preset: the two
 * sanitizers do not combine) compile the kernels without it;
 * sim_rec_available() is 0 there.
 *
 * Attach, launch, detach from the thread that launches. A launch's blocks
 * may run on several worker threads (`set sim-threads`); the readers are
 * still called one at a time, with each block's records together and the
 * blocks in order, the same calls as with one worker, though not always
 * from the launching thread. */
#ifndef GPULAB_SIM_RECORD_H
#define GPULAB_SIM_RECORD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { SIM_REC_LOAD = 0, SIM_REC_STORE = 1, SIM_REC_ATOMIC = 2 };
enum { SIM_REC_GLOBAL = 0, SIM_REC_SHARED = 1 };

/* A tracked object: a global allocation (live from cudaMalloc to cudaFree)
 * or a shared array of the running block (elem is its element size; name
 * its name in the source). */
typedef struct sim_rec_object {
    uintptr_t base;
    size_t bytes;
    size_t elem;          /* element size; 0 when unknown (global memory) */
    int space;            /* SIM_REC_GLOBAL or SIM_REC_SHARED */
    unsigned id;          /* allocation number, from 1, never reused */
    const char *name;     /* "cudaMalloc", or the shared array's name */
} sim_rec_object;

/* The launch being recorded. */
typedef struct sim_rec_launch {
    unsigned index;       /* launches recorded since the reader attached, from 0 */
    const char *kernel;   /* LAUNCH's kernel expression */
    const char *file;     /* where it was launched */
    int line;
    unsigned grid[3], block[3];
    size_t dynamic_smem;
} sim_rec_launch;

/* One warp-level memory request. */
typedef struct sim_rec_request {
    unsigned long long block;  /* linear block index */
    unsigned warp;             /* warp within the block */
    unsigned epoch;            /* block barriers passed before it */
    uintptr_t site;            /* the access's instruction (a return address) */
    int kind;                  /* SIM_REC_LOAD, _STORE, _ATOMIC */
    int space;                 /* SIM_REC_GLOBAL, _SHARED */
    unsigned width;            /* bytes per lane: 1, 2, 4, 8 or 16 */
    uint32_t mask;             /* the lanes that took part */
    const uintptr_t *addr;     /* addr[lane], valid where mask has the lane */
    /* value[lane]: the bytes read, or written, as a little-endian number
     * (accesses of up to 8 bytes; 0 for wider ones). A store's value is read
     * back after the store, at the lane's next recorded access or at the
     * barrier; an atomic's is the value before it. NULL unless an attached
     * reader asked for values (sim_rec_reader's values). */
    const uint64_t *value;
} sim_rec_request;

/* Warp operations other than memory: the warp collectives and the barriers
 * of a tile of several warps (thread_block_tile<64..512>::sync()). */
enum {
    SIM_REC_SHFL_IDX = 0, SIM_REC_SHFL_UP, SIM_REC_SHFL_DOWN, SIM_REC_SHFL_XOR,
    SIM_REC_BALLOT, SIM_REC_ANY, SIM_REC_ALL, SIM_REC_MATCH_ANY, SIM_REC_MATCH_ALL,
    SIM_REC_SYNCWARP, SIM_REC_REDUCE, SIM_REC_TILE_SYNC
};
/* Block-wide barriers. */
enum { SIM_REC_BAR_BLOCK = 0, SIM_REC_BAR_GRID = 1 };

/* One warp's execution of a collective (shuffle, vote, match, reduce,
 * __syncwarp) or its lanes' part of a wide tile's barrier. Delivered with the
 * warp's requests, in the warp's program order. */
typedef struct sim_rec_warpop {
    unsigned long long block;
    unsigned warp, epoch;
    int op;                    /* SIM_REC_SHFL_IDX ... SIM_REC_TILE_SYNC */
    const char *name;          /* as the source calls it: "__shfl_down_sync", "thread_block_tile::ballot" */
    int line;
    const char *file;
    unsigned arg;              /* shuffles: the lane or delta; tile barriers: the tile size */
    int width;                 /* shuffles: the width (segments of the warp) */
    uint32_t mask;             /* the lanes that took part */
    const unsigned char *src;  /* src[lane]: the lane whose value the lane got (shuffles; else itself) */
    const uint64_t *value;     /* value[lane]: what the lane brought (its bits, or its predicate 0/1) */
    const uint64_t *result;    /* result[lane]: what it got back */
} sim_rec_warpop;

/* A barrier every thread of the block waited at: __syncthreads() and its
 * _count/_and/_or forms, this_thread_block().sync(), or this_grid().sync()
 * (where the block's threads all waited for the rest of the grid). */
typedef struct sim_rec_sync {
    unsigned long long block;
    unsigned epoch;            /* the epoch it closes */
    int kind;                  /* SIM_REC_BAR_BLOCK or _GRID */
    const char *name;
    int line;
    const char *file;
    unsigned threads;          /* the threads that waited: all of the block's */
} sim_rec_sync;

/* A reader: callbacks (any may be NULL) and its context. */
typedef struct sim_rec_reader {
    void *ctx;
    void (*launch_begin)(void *ctx, const sim_rec_launch *l);
    void (*request)(void *ctx, const sim_rec_request *r);
    /* a block barrier completed: every warp of the block passed it */
    void (*barrier)(void *ctx, unsigned long long block, unsigned warps);
    /* rc 0: the launch ran to its end; -1: it failed (the counts are partial) */
    void (*launch_end)(void *ctx, const sim_rec_launch *l, int rc);
    /* Optional: 0 when the reader wants nothing of this block. A block no
     * attached reader wants runs unrecorded (tracing a window of a large
     * launch costs nothing for the rest); one that another reader wants is
     * still delivered, so a reader filters by block too. NULL: every block.
     * Asked as the block starts, from the worker that runs it, with no
     * order among blocks, and also for blocks that never reach the readers
     * (started beside a block that failed): it answers and counts nothing
     * (block_begin is where to count). */
    int (*want_block)(void *ctx, unsigned long long block);
    /* warp collectives and tile barriers, in order with the requests */
    void (*warpop)(void *ctx, const sim_rec_warpop *w);
    /* a block barrier or a grid barrier, after the requests of the epoch it
     * closes (and before the barrier callback) */
    void (*sync)(void *ctx, const sim_rec_sync *s);
    /* a block began, before its records, in block order: every block of
     * the launch that ran (not again when a block resumes after a grid
     * barrier); recorded: whether a reader wanted it */
    void (*block_begin)(void *ctx, unsigned long long block, int recorded);
    /* 1: the reader reads the requests' values; 0: it counts addresses
     * only, and when no reader reads values none are taken (reading each
     * one back was a twentieth of a recorded reduction's time) */
    int values;
} sim_rec_reader;

#define SIM_REC_MAX_READERS 4

/* 1 when the kernels were compiled with the instrumentation. */
int sim_rec_available(void);

/* Start delivering records to r (kept by pointer until detached). 0 ok; -1
 * when the instrumentation is not there, SIM_REC_MAX_READERS are attached,
 * or a launch is running. */
int sim_rec_attach(const sim_rec_reader *r);
void sim_rec_detach(const sim_rec_reader *r);

/* The tracked object holding address a, or NULL. */
const sim_rec_object *sim_rec_object_at(uintptr_t a);

/* Requests of one block between two barriers are held until the barrier;
 * past this many the block's further requests are dropped (counted by
 * sim_rec_dropped) rather than memory running out. */
#define SIM_REC_POOL_MAX (1u << 17)
/* Bytes from the start of the block's shared memory to p (0 when p is not
 * shared memory): where a shared array lies, as the banks see it. */
size_t sim_rec_shared_offset(const void *p);
/* Lane accesses dropped since the first reader attached. */
unsigned long long sim_rec_dropped(void);

/* The distinct 32-byte sectors of a request's active lanes' bytes, sorted
 * into out (room for 128); returns how many. */
unsigned sim_rec_sectors(const sim_rec_request *r, uint64_t *out);
/* Shared-memory wavefronts of a request: 32 banks of 4-byte words, in
 * phases of 128 bytes (all 32 lanes for widths up to 4 bytes, half warps for
 * 8, quarter warps for 16); lanes on one word share it, each bank serves one
 * word per wavefront; atomics on one word serialise. */
unsigned long long sim_rec_wavefronts(const sim_rec_request *r);

/* Where an access site is in the source: the kernel's own line, past the
 * simulator's inlined shim functions. Returns 0 with file (a basename) and
 * line, or -1 when the debug information does not say. */
int sim_rec_site_where(uintptr_t site, char *file, size_t filelen, int *line);
/* The same for a site of another executable (built without PIE, so its
 * addresses are those of the file): a student's program, after it ran. exe
 * NULL forgets the executable read last. */
int sim_rec_site_where_exe(const char *exe, uintptr_t site, char *file, size_t filelen, int *line);

/* ---- hooks: the simulator calls these; kernels and readers do not ---- */

extern __thread int sim_rec_on; /* a reader is attached, a launch is running and wants this worker's block */
extern __thread int sim_acc_on;   /* anything wants the accesses (check.h's hook): memcheck, a checker, a reader */
extern __thread int sim_acc_direct; /* no checker and no reader: a shared element the proxy checked skips the hook */
int sim_checkers_attached(void);   /* how many checkers see every access (the race check's, a schedule's) */
/* one checker, which takes plain loads and stores (check.h's plain), and no
 * reader: a shared element the proxy checked and reads or writes goes to
 * sim_acc_shared_load or sim_acc_shared_store */
extern __thread int sim_acc_plain;
void sim_acc_shared_load(const void *p, unsigned size);
void sim_acc_shared_store(const void *p, unsigned size);
void sim_rec_object_add(const void *p, size_t bytes, const char *what);
void sim_rec_object_remove(const void *p);
void sim_rec_shared_array(const void *p, size_t bytes, size_t elem, const char *name);
void sim_rec_launch_begin(const char *kernel, const char *file, int line, const unsigned grid[3],
                          const unsigned block[3], size_t dynamic_smem);
void sim_rec_launch_end(int rc);
void sim_rec_block_begin(unsigned long long block);
void sim_rec_block_end(void);
/* a block barrier completed: kind is the shim's SIM_BAR_* */
void sim_rec_barrier(int kind, int line, const char *file);
/* a warp collective completed (every fiber of warp in need holds its op,
 * value and result); src[lane]: the lane it read (shuffles), or NULL */
void sim_rec_collective(unsigned warp, uint32_t need, const unsigned char *src);
/* a tile of threads [first, end) passed its barrier (tile size n) */
void sim_rec_tile_sync(unsigned first, unsigned end, unsigned n, int line, const char *file);
/* the running block's threads all arrived at this_grid().sync() */
void sim_rec_grid_sync(int line, const char *file);
/* an atomic read-modify-write of bytes at p, from the shim; noinline so that
 * its return address is the kernel's instruction */
void sim_rec_atomic(const void *p, unsigned bytes) __attribute__((noinline));
/* ... and its own load and store are done: the accesses after it count */
void sim_rec_atomic_end(void);

#ifdef __cplusplus
}
#endif
#endif
