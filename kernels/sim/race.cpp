/* race.cpp - the race check (race.h): a checker on the one access hook
 * (check.h) with shadow memory for global and shared memory.
 *
 * Shadow: every 4-byte granule of an allocation a launch touches, and of
 * the block's shared memory, keeps its last write (or atomic) and its last
 * two reads by different threads: launch, block, thread, the sync clock at
 * the access, the bytes touched and the instruction. A new access that
 * overlaps a recorded one of another thread, at least one of them writing,
 * is a race unless happens-before orders the recorded one first:
 *
 *   - one launch, one block: a block barrier completed after it; a warp
 *     collective or __syncwarp completed after it whose mask holds both
 *     lanes; a tile barrier of a tile that holds both;
 *   - one launch: a grid barrier (this_grid().sync()) completed after it;
 *     a release and an acquire: the writer's thread made a __threadfence*()
 *     after it (or after a barrier of its block that came after it) and
 *     then stored to some location, and the reader's thread read that
 *     location (or a thread of the reader's block did, before a barrier the
 *     reader passed);
 *   - an earlier launch: the same stream, or an event the later launch's
 *     stream waited for, or the host's synchronisation in between (the
 *     legacy default stream orders itself with every blocking stream).
 *
 * Atomics never race with atomics, and a store made after a fence (a flag)
 * does not race with reads of it. In global memory a plain load does not
 * race with atomics either: it is the first load of a compare-and-swap loop
 * (atomicCAS checks what it read); in shared memory a plain load among
 * atomic updates is the usual bug (a counter read before the barrier). The clock ticks at every completed sync,
 * so "completed after it" is a comparison of two numbers.
 *
 * Reports: each race hit is grouped by its two instructions and the memory
 * (allocation or shared array); when the launch closes, groups with the
 * same two source lines are merged and each becomes one line of the
 * grouped report (check.cpp) with its counts and the advice that fits its
 * pattern. A read of shared memory that no thread of the block wrote is
 * reported too (shared memory starts undefined in every block). */
#include "kernels/sim/internal.h"
#include "kernels/sim/race.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

using namespace gpulab_sim;

namespace {

enum { K_READ = 0, K_WRITE = 1, K_ATOMIC = 2, K_FLAG = 3 }; /* K_FLAG: a store after a fence */
/* with a kind in a record: the access was volatile (a relaxed one, PTX) */
enum { K_VOL = 4 };

/* An access in the shadow, 16 bytes. id: 0 when empty, else the block's
 * serial (below) << 17 | the thread << 7 | the bytes touched << 3 | the
 * kind (with K_VOL); clk: the sync clock at the access; site: the
 * instruction's code (site_code). A block's serial numbers it among every
 * block of every launch (the launch's first serial + its index), so one
 * number says both the launch and the block. */
struct rrec {
    uint64_t id;
    uint32_t clk;
    uint32_t site;
};
enum { RR_SERIAL = 17, RR_WHO = 7 };
inline uint64_t rr_serial(const rrec &p) { return p.id >> RR_SERIAL; }
inline uint64_t rr_who(const rrec &p) { return p.id >> RR_WHO; }     /* serial and thread */
inline unsigned rr_thread(const rrec &p) { return (unsigned)(p.id >> RR_WHO) & 1023; }
inline unsigned rr_mask(const rrec &p) { return (unsigned)(p.id >> 3) & 15; }
inline unsigned rr_kind(const rrec &p) { return (unsigned)p.id & 7; }
inline uint64_t rr_id(uint64_t who, unsigned mask, unsigned kind) { return who << RR_WHO | mask << 3 | kind; }

/* A granule of 4 bytes: its last write (or atomic) and last two reads by
 * different threads, 48 bytes. A granule of shared memory has an owner
 * word beside it (shshadow::own): the serial of the block its bytes
 * belong to << 4 | the bytes some thread of that block wrote.
 *
 * An allocation's shadow of n granules keeps them in three planes of n
 * records: every granule's w, then every r1, then every r2. A buffer that
 * a launch only reads, each element by one thread (a kernel's input), then
 * writes only the r1 plane, and its r2 plane is never touched. Its w plane
 * is not even read: a byte per WCHUNK granules (wmap) says whether any of
 * them was ever written, and a chunk never written reads as empty records
 * (NO_WRITE). Untouched, those pages are never given: in a huge-page
 * region a read alone takes a huge page and zeroes it, and zeroing the
 * shadow was a fifth of a checked 2^20 reduction's CPU time. The shared
 * arena's shadow, small and read again and again, keeps a granule's three
 * records together (one cache line for a read, where the planes take
 * three) and has no wmap. planes names either layout: granule i's records
 * are p[i*k], p[i*k + d] and p[i*k + 2d]; a write goes through wslot. */
enum : size_t { GRAN_RECS = 3, GRAN_BYTES = GRAN_RECS * sizeof(rrec), WCHUNK_BITS = 12 };
struct planes {
    rrec *p = nullptr;
    size_t k = 1, d = 0;
    uint8_t *wmap = nullptr;
    explicit operator bool() const { return p != nullptr; }
};
struct granref {
    const rrec &w;
    rrec &r1, &r2;
};
const rrec NO_WRITE = {};
inline granref at(planes g, size_t i)
{
    rrec *r = g.p + i * g.k;
    return {!g.wmap || g.wmap[i >> WCHUNK_BITS] ? r[0] : NO_WRITE, r[g.d], r[2 * g.d]};
}
/* granule i's last write, to be written */
inline rrec &wslot(planes g, size_t i)
{
    if (g.wmap) g.wmap[i >> WCHUNK_BITS] = 1;
    return g.p[i * g.k];
}

/* Sites as 32-bit codes: an instruction's distance from a point in this
 * file's code less SITE_NEAR (the kernels are linked into the executable
 * that holds this file, so their instructions lie within the 3.75 GiB the
 * codes cover), or, for one beyond, SITE_FAR + its index in a table. */
const uint32_t SITE_FAR = 0xf0000000u;
const uintptr_t SITE_NEAR = 0x70000000u;
uint32_t site_far(uintptr_t pc);
uintptr_t site_far_pc(uint32_t code);
inline uintptr_t site_origin() { return (uintptr_t)(void *)&site_far - SITE_NEAR; }
inline uint32_t site_code(uintptr_t pc)
{
    const uintptr_t d = pc - site_origin();
    return __builtin_expect(d < SITE_FAR, 1) ? (uint32_t)d : site_far(pc);
}
inline uintptr_t site_pc(uint32_t c) { return c < SITE_FAR ? site_origin() + c : site_far_pc(c); }

/* the far sites: chunks that never move, so a code read on another
 * worker (handed over with a log) finds its entry without the lock */
struct far_sites {
    enum { CHUNK = 4096, CHUNKS = (0x100000000ull - SITE_FAR) / CHUNK };
    std::mutex lk;
    std::unordered_map<uintptr_t, uint32_t> index;
    uintptr_t *chunk[CHUNKS];
    uint32_t n;
};
far_sites &FS()
{
    static far_sites *f = new far_sites();
    return *f;
}
__attribute__((noinline)) uint32_t site_far(uintptr_t pc)
{
    far_sites &f = FS();
    std::lock_guard<std::mutex> lk(f.lk);
    auto it = f.index.find(pc);
    if (it != f.index.end()) return it->second;
    if (f.n >= (uint32_t)far_sites::CHUNKS * far_sites::CHUNK) abort(); /* 2^28 instructions */
    uintptr_t *&c = f.chunk[f.n / far_sites::CHUNK];
    if (!c && !(c = (uintptr_t *)calloc(far_sites::CHUNK, sizeof(uintptr_t)))) abort();
    c[f.n % far_sites::CHUNK] = pc;
    const uint32_t code = SITE_FAR + f.n++;
    f.index.emplace(pc, code);
    return code;
}
uintptr_t site_far_pc(uint32_t code)
{
    const uint32_t i = code - SITE_FAR;
    return FS().chunk[i / far_sites::CHUNK][i % far_sites::CHUNK];
}

/* what a thread learnt from a release: accesses of thread `thread` of
 * `block` before clock `own`, and of any thread of the block before `blk`,
 * happen before it */
struct rel {
    uint32_t block;
    uint16_t thread;
    uint8_t scope;             /* the fence's: 0 __threadfence_block (its block only), 1 the device, 2 the system */
    uint32_t own, blk;
};

struct bstate {
    uint32_t bar;              /* the clock of the block's last barrier */
    std::vector<uint32_t> wfull;                   /* per warp: its last full-warp sync */
    std::vector<std::vector<uint32_t>> wpair;      /* per warp, 32x32: last sync of two lanes (partial masks) */
    uint32_t tile[SIM_TILE_LEVELS][SIM_MAX_THREADS / SIM_TILE_MIN];
    std::vector<uint32_t> fence_own, fence_blk;    /* per thread: its last fence */
    std::vector<uint8_t> fence_pend;               /* per thread: fenced, no store since: 1 + the widest scope */
    std::vector<std::vector<rel>> acq;             /* per thread: releases it acquired */
    std::vector<rel> acq_blk;                      /* acquired by the block before its last barrier */
    bool any_acq;
    /* per thread: releases it read whose fence's scope does not hold it
     * (another block's __threadfence_block): they order nothing, and
     * explain a race they did not prevent */
    std::vector<std::vector<rel>> narrow;
    bool any_narrow = false;
    /* a cooperative launch: the block's shared-memory shadow while it is
     * parked at a grid barrier (its arena is kept aside too, grid.cpp) */
    std::vector<rrec> shsave; /* GRAN_RECS records a granule */
    std::vector<uint64_t> shosave;
};

enum {
    F_CROSS_BLOCK = 1, F_SAME_WARP = 2, F_WW = 4, F_RW = 8, F_RMW = 16, F_LAUNCH = 32, F_ATOMIC = 64,
    F_UNINIT = 128, F_SAME_BLOCK = 256, F_XWARP = 512, F_VWARP = 1024, F_COOP = 2048, F_NARROW = 4096,
    F_ABAR = 8192 /* the launch uses asynchronous barriers (a pipeline) */
};

struct rgroup {
    uintptr_t site_a, site_b;
    int kind_a, kind_b;
    unsigned long long block_a, block_b;
    unsigned thread_a, thread_b;
    unsigned flags;
    unsigned obj;
    std::string mem;           /* "shared array s (declared at line 9)", "d_out (4096 bytes from cudaMalloc at line 30)" */
    std::string index;         /* "17", "[2][3]" */
    std::string name;          /* shared: the array's name ("" otherwise) */
    std::string other_kernel;  /* an earlier launch's kernel */
    unsigned long long hits, threads, blocks, last_block;
    uint64_t seen[SIM_MAX_THREADS / 64];
};

struct gkey {
    int what;
    uintptr_t a, b;
    unsigned obj;
    bool operator==(const gkey &o) const { return what == o.what && a == o.a && b == o.b && obj == o.obj; }
};
struct gkey_hash {
    size_t operator()(const gkey &k) const
    {
        size_t h = (size_t)k.what * 0x9e3779b97f4a7c15ull;
        h ^= k.a + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        h ^= k.b + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        h ^= k.obj + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        return h;
    }
};

/* An allocation's granules: zeroed memory (empty granules). A big shadow is
 * anonymous memory whose pages the kernel gives only when an access touches
 * them, so a big allocation of which a launch touches a little costs
 * little; a small one comes from calloc (a mapping each would run into the
 * kernel's limit on mappings in a program of many small allocations). */
struct granbuf {
    enum : size_t { MAP_MIN = 1u << 20 };
    rrec *p = nullptr;
    uint8_t *wmap = nullptr;
    size_t n = 0;
    granbuf() = default;
    granbuf(const granbuf &) = delete;
    granbuf &operator=(const granbuf &) = delete;
    granbuf(granbuf &&o) noexcept : p(o.p), wmap(o.wmap), n(o.n) { o.p = nullptr, o.wmap = nullptr, o.n = 0; }
    ~granbuf()
    {
        free(wmap);
        if (!p) return;
        if (n * GRAN_BYTES >= MAP_MIN) munmap(p, n * GRAN_BYTES);
        else free(p);
    }
    bool alloc(size_t k)
    {
        if (!k) return true;
        wmap = (uint8_t *)calloc((k >> WCHUNK_BITS) + 1, 1);
        if (!wmap) return false;
        if (k * GRAN_BYTES < MAP_MIN) {
            p = (rrec *)calloc(k, GRAN_BYTES);
            if (!p) return false;
            n = k;
            return true;
        }
        void *m = mmap(nullptr, k * GRAN_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                       -1, 0);
        if (m == MAP_FAILED) return false;
        /* huge pages where the kernel gives them on request: fewer faults
         * and TLB misses for the shadow of a buffer that a launch sweeps */
        madvise(m, k * GRAN_BYTES, MADV_HUGEPAGE);
        p = (rrec *)m;
        n = k;
        return true;
    }
    size_t size() const { return n; }
    planes all() const { return {p, 1, n, wmap}; }
};

/* The shared arena's granules and their owners: zeroed memory, whose pages
 * the kernel gives as a block first touches them (a block uses a little
 * of the arena's 264 KiB) */
struct shshadow {
    rrec *g = nullptr; /* n granules, each one's three records together */
    uint64_t *own = nullptr;
    size_t n = 0;
    shshadow() = default;
    shshadow(const shshadow &) = delete;
    shshadow &operator=(const shshadow &) = delete;
    ~shshadow() { release(); }
    void release()
    {
        free(g);
        free(own);
        g = nullptr;
        own = nullptr;
        n = 0;
    }
    void make(size_t k)
    {
        release();
        g = (rrec *)calloc(k, GRAN_BYTES);
        own = (uint64_t *)calloc(k, sizeof(uint64_t));
        if (k && (!g || !own)) abort();
        n = k;
    }
    size_t size() const { return n; }
    planes all() const { return {g, GRAN_RECS, 1}; }
};

struct gshadow {
    uintptr_t base;
    size_t bytes;              /* the allocation's bytes the shadow covers (all, or its first part) */
    granbuf g;
};

/* launches and streams */
struct vclock {
    std::vector<uint32_t> v;
    void merge(const vclock &o)
    {
        if (o.v.size() > v.size()) v.resize(o.v.size(), 0);
        for (size_t i = 0; i < o.v.size(); i++) v[i] = std::max(v[i], o.v[i]);
    }
    uint32_t at(size_t i) const { return i < v.size() ? v[i] : 0; }
    void set(size_t i, uint32_t x)
    {
        if (i >= v.size()) v.resize(i + 1, 0);
        v[i] = x;
    }
};
struct stream_s {
    const void *h;
    int blocking;
    uint32_t last;             /* its last launch */
    vclock vc;                 /* launches known to come before its next one */
};
struct launch_s {
    unsigned stream;
    vclock vc;
    std::string kernel;
    uint64_t base;             /* the serial of its block 0 */
};

struct race_state {
    int on, attached;
    sim_checker checker;
    uint32_t launch;           /* the running launch (from 1) */
    uint64_t base;             /* the serial of its block 0 (from 1) */
    uint64_t next_base;        /* the next launch's */
    uint64_t cur_serial;       /* the running block's */
    uint32_t clk;
    uint32_t grid_clk;
    unsigned long long grid_arrived, nblocks;
    unsigned nthreads, nwarps;
    int coop;
    bstate *cur;
    unsigned long long cur_block;
    bstate one;
    std::unordered_map<unsigned long long, bstate> parked;
    /* shadow */
    shshadow sh;               /* the shared arena */
    uintptr_t sh_lo, sh_span;
    std::unordered_map<unsigned, gshadow> glob;
    size_t shadow_bytes;       /* what the shadows of glob take */
    /* the shadows of the last allocations touched (a kernel reads two
     * matrices in turn): ids and shadows, 0 empty */
    enum { GCACHE = 4 };
    unsigned gc_id[GCACHE];
    gshadow *gc[GCACHE];
    unsigned gc_next;
    /* releases made by stores after a fence: granule address -> releases */
    std::unordered_map<uintptr_t, std::vector<rel>> rels;
    /* asynchronous barriers (a block's own: keyed with the block): the
     * arrivals of the running phase, and of the phases completed */
    std::unordered_map<uintptr_t, std::vector<rel>> arrived, completed;
    /* reports */
    std::unordered_map<gkey, unsigned, gkey_hash> index;
    std::vector<rgroup> groups;
    unsigned long long dropped;
    int only;
    /* streams */
    std::vector<stream_s> streams;
    std::vector<launch_s> launches;   /* [0] unused */
    vclock host;
    std::unordered_map<const void *, vclock> events;
    unsigned next_stream;
    /* blocks on several workers (below): launches counted for the
     * workers' tables, and the log being replayed (NULL: none) with the
     * shared array of its access being replayed */
    uint32_t serial;
    const gpulab_sim::sim_race_log *rp;
    int rp_k;
};

race_state *the_state;
/* a worker's own state while its block runs beside earlier ones: it checks
 * the block's shared memory itself (below) */
__thread race_state *tl_state;

} /* namespace */

namespace gpulab_sim {

/* ------------------------------------------ blocks on several workers
 *
 * A block that runs beside earlier ones (par.cpp: sim_par_unordered)
 * checks its shared memory itself, with a state of its own (tl_state: the
 * shadow of its arena, its syncs), and writes into its log what the
 * launch's checker must be given: its global accesses, its syncs, atomics'
 * syncs, the races found in its shared memory, its start and end. The log
 * is replayed into the checker when the block is committed, in block order
 * (sim_race_log_replay), or when the block becomes the oldest running one
 * (sim_race_log_deliver: its shared memory's shadow is handed over too, and
 * it checks as it goes). So the checker is given what the one-worker run
 * gives it, in the same order, and its reports are that run's. What the
 * shared-memory check needs of the rest is only the block's syncs: clocks
 * count per block (every comparison is between two clocks of one block), a
 * block's own releases are the only ones that order its shared memory, and
 * a fence or an asynchronous barrier (which release) makes the block the
 * oldest first. A log names shared memory by its offset in the launching
 * thread's arena (every worker has its own arena), the block's shared
 * arrays by their index in the block with their declaration and place
 * (describe), sites and allocations by their index in the worker's
 * tables. */
enum { LG_ACCESS = 0, LG_SYNC, LG_BEGIN, LG_END, LG_FENCE, LG_ATOMIC, LG_ARRIVE, LG_PHASE, LG_WAIT, LG_HIT };

/* one record: a (the address, or what the kind carries), x (the site's
 * index, a warp's mask), m: kind 4 bits, thread 10, size 5, access kind 2,
 * volatile 1, space 1, object 9 (0: none; an allocation's index + 1 in the
 * worker's table, a shared array's index in the block + 1) */
struct lrec {
    uintptr_t a;
    uint32_t x, m;
};
inline uint32_t lmeta(unsigned type, unsigned t, unsigned size, unsigned kind, unsigned vol, unsigned space,
                      unsigned obj)
{
    return type | t << 4 | size << 14 | kind << 19 | vol << 21 | space << 22 | obj << 23;
}

/* a worker's sites and allocations for the logs of one launch: filled by
 * the worker only, read by whoever replays its logs (entries are written
 * before the log that names them is handed over, and never move) */
struct wtab {
    enum { SITES = 1 << 16, OBJS = 511, CACHE = 1024 };
    uint32_t serial = 0;
    uintptr_t *sites = nullptr;
    unsigned nsites = 0;
    const sim_rec_object *objs[OBJS];
    unsigned nobjs = 0;
    const sim_rec_object *last_obj = nullptr;
    unsigned last_idx = 0;
    struct {
        uintptr_t pc;
        uint32_t idx;
    } cache[CACHE];
};

/* a shared array of the block as describe names it */
struct shdesc {
    const sim_shared_site *ss;
    uintptr_t off;             /* its place in the arena */
    size_t bytes;
};

/* The log: 64-bit words. Most accesses take one (a short record, bit 0
 * set): bits 1-3 the size's log2, 4-5 the access kind, 6 volatile, 7
 * shared, 8-17 the thread, 18-26 the object, 27-38 the site's index, 39-63
 * the offset in the arena (shared) or in the allocation. Anything else
 * takes three: a zero word, then an lrec. */
struct sim_race_log {
    unsigned long long block;
    const wtab *tab;
    uint64_t *w = nullptr;
    size_t n = 0, cap = 0;
    std::vector<shdesc> sh;
    size_t bytes() const { return n * sizeof(uint64_t) + sh.size() * sizeof(shdesc); }
    ~sim_race_log() { free(w); }
};

} /* namespace gpulab_sim */

namespace {

using gpulab_sim::sim_race_log;

__attribute__((noinline, cold)) race_state *state_new()
{
    if (!the_state) the_state = new race_state();
    return the_state;
}

inline race_state &R()
{
    race_state *s = tl_state;
    if (!s) s = the_state;
    if (__builtin_expect(!s, 0)) s = state_new();
    return *s;
}

/* the running block's log (NULL: it checks as it goes), the worker's
 * tables and its arena */
__thread sim_race_log *tl_log;
__thread wtab *tl_tab;
__thread uintptr_t tl_sh_lo;
/* where the shared addresses the checker is given now lie: this thread's
 * arena, or the launching thread's while a log is replayed (a log's
 * addresses are in that arena) */
__thread uintptr_t race_here;

/* a shared address in the launching thread's arena, the one every log
 * uses (releases and asynchronous barriers are keyed by it) */
inline uintptr_t canon(uintptr_t a)
{
    race_state &s = R();
    return a - race_here < s.sh_span ? a - race_here + s.sh_lo : a;
}

/* the key of the releases stored at a by a thread of block blk: a word of
 * shared memory is its block's (another block's shared memory is not the
 * same memory, whatever its address) */
inline uintptr_t rel_key(uintptr_t a, unsigned long long blk)
{
    race_state &s = R();
    const uintptr_t c = canon(a) & ~(uintptr_t)3;
    return c - s.sh_lo < s.sh_span ? c ^ (uintptr_t)(blk + 1) << 48 : c;
}

/* ------------------------------------------------ __device__ variables */

const char DEVVAR_CALL[] = "__device__";

struct devvars {
    std::vector<sim_gobj *> v; /* by address once sorted */
    bool sorted = true;
};

devvars &DV()
{
    static devvars *d = new devvars();
    return *d;
}

/* The section the source pass puts them in (translate.c): besides them it
 * holds only the red zones it puts around each array and the linker's
 * padding, so the bytes from a variable's end to the next one's start (to
 * the section's end, for the last) are that variable's red zone. Weak: a
 * program without __device__ variables has no such section. */
extern "C" char __start_gpulab_devvars[] __attribute__((weak));
extern "C" char __stop_gpulab_devvars[] __attribute__((weak));

void devvar_sort(void)
{
    devvars &d = DV();
    if (d.sorted) return;
    std::sort(d.v.begin(), d.v.end(), [](const sim_gobj *a, const sim_gobj *b) { return a->o.base < b->o.base; });
    uintptr_t lo = (uintptr_t)__start_gpulab_devvars, hi = (uintptr_t)__stop_gpulab_devvars;
    for (size_t i = 0; i < d.v.size(); i++) {
        sim_gobj *g = d.v[i];
        g->zone_end = g->o.base + g->o.bytes;
        if (!lo || g->o.base < lo || g->zone_end > hi) continue; /* not in the section */
        uintptr_t next = i + 1 < d.v.size() ? d.v[i + 1]->o.base : hi;
        if (next > g->zone_end && next <= hi) g->zone_end = next;
    }
    d.sorted = true;
}

const unsigned MAX_GROUPS = 4096;
const size_t REL_MAX = 4096;

/* ------------------------------------------------------------ streams */

/* The host's clock, the streams' and the events' are shared by a program's
 * host threads (two OpenMP threads copying at once both advance the host's
 * clock): each host entry below, and a launch's start, reach them under this
 * lock (never destroyed: a launch may start from a destructor at exit). */
std::recursive_mutex &streams_mu()
{
    static std::recursive_mutex *m = new std::recursive_mutex();
    return *m;
}

unsigned stream_at(const void *h, int blocking)
{
    race_state &s = R();
    if (s.streams.empty()) s.streams.push_back(stream_s{nullptr, 1, 0, {}});
    if (!h) return 0;
    for (unsigned i = 1; i < s.streams.size(); i++)
        if (s.streams[i].h == h) return i;
    s.streams.push_back(stream_s{h, blocking, 0, {}});
    return (unsigned)s.streams.size() - 1;
}

/* Does launch a (earlier) happen before launch b? */
bool launch_ordered(uint32_t a, uint32_t b)
{
    race_state &s = R();
    if (a == b) return false;
    if (a >= s.launches.size() || b >= s.launches.size()) return true;
    const launch_s &la = s.launches[a];
    return a <= s.launches[b].vc.at(la.stream);
}

/* The launch of the block with that serial (0: none known) */
uint32_t launch_of(uint64_t serial)
{
    race_state &s = R();
    if (serial >= s.base) return s.launch;
    /* the last launch whose first serial is at most serial (one of no
     * blocks shares its first serial with the next, and made no access) */
    size_t lo = 1, hi = s.launches.size();
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s.launches[mid].base <= serial) lo = mid + 1;
        else hi = mid;
    }
    return (uint32_t)(lo - 1);
}

/* the block's index in its launch, as a record keeps it (32 bits) */
uint32_t block_of(uint64_t serial)
{
    race_state &s = R();
    const uint32_t l = launch_of(serial);
    return (uint32_t)(serial - (l == s.launch ? s.base : l < s.launches.size() ? s.launches[l].base : 0));
}

/* the serial of block blk of the running launch */
inline uint64_t serial_of(const race_state &s, unsigned long long blk) { return s.base + (uint32_t)blk; }

/* ------------------------------------------------------- block states */

void bstate_reset(bstate &b)
{
    race_state &s = R();
    b.bar = 0;
    b.wfull.assign(s.nwarps, 0);
    b.wpair.assign(s.nwarps, std::vector<uint32_t>());
    memset(b.tile, 0, sizeof b.tile);
    b.fence_own.assign(s.nthreads, 0);
    b.fence_blk.assign(s.nthreads, 0);
    b.fence_pend.assign(s.nthreads, 0);
    if (b.any_acq || b.acq.size() != s.nthreads) b.acq.assign(s.nthreads, std::vector<rel>());
    b.acq_blk.clear();
    b.any_acq = false;
    if (b.any_narrow || b.narrow.size() != s.nthreads) b.narrow.assign(s.nthreads, std::vector<rel>());
    b.any_narrow = false;
}

/* r into v: one entry per thread, which covers the most */
void add_rel(std::vector<rel> &v, const rel &r)
{
    for (rel &x : v)
        if (x.block == r.block && x.thread == r.thread && x.scope == r.scope) {
            x.own = std::max(x.own, r.own);
            x.blk = std::max(x.blk, r.blk);
            return;
        }
    if (v.size() < REL_MAX) v.push_back(r);
}

/* Thread t of block blk reads a flag that the releases v stored: what a
 * release's fence covers happens before what t does next, when the fence's
 * scope holds t (a block fence: its own block only). */
/* The releases of src that pass keep(r) into dst, as add_rel would put them
 * one by one. Many into many (every thread of a block of 1024 waiting for a
 * phase that all of them arrived at) goes through an open-addressed index of
 * dst (kept from call to call): add_rel's search of dst for each would cost
 * their product, for each waiter. */
template <class Keep> void merge_rels(std::vector<rel> &dst, const std::vector<rel> &src, Keep keep)
{
    if (src.size() <= 32) {
        for (const rel &r : src)
            if (keep(r)) add_rel(dst, r);
        return;
    }
    static thread_local std::vector<uint64_t> keys;
    static thread_local std::vector<uint32_t> slot;
    size_t cap = 64;
    while (cap < 2 * (dst.size() + src.size())) cap *= 2;
    keys.assign(cap, 0);
    slot.resize(cap);
    const size_t mask = cap - 1;
    auto key = [](const rel &r) { return ((uint64_t)r.block << 24 | (uint64_t)r.thread << 8 | r.scope) + 1; };
    auto find = [&](uint64_t k) {
        size_t h = (size_t)((k * 0x9E3779B97F4A7C15ull) >> 20) & mask;
        while (keys[h] && keys[h] != k) h = (h + 1) & mask;
        return h;
    };
    for (size_t i = 0; i < dst.size(); i++) {
        size_t h = find(key(dst[i]));
        if (!keys[h]) {
            keys[h] = key(dst[i]);
            slot[h] = (uint32_t)i;
        }
    }
    dst.reserve(std::min(dst.size() + src.size(), REL_MAX));
    for (const rel &r : src) {
        if (!keep(r)) continue;
        size_t h = find(key(r));
        if (keys[h]) {
            rel &x = dst[slot[h]];
            x.own = std::max(x.own, r.own);
            x.blk = std::max(x.blk, r.blk);
        } else if (dst.size() < REL_MAX) {
            keys[h] = key(r);
            slot[h] = (uint32_t)dst.size();
            dst.push_back(r);
        }
    }
}

void acquire(bstate &b, unsigned t, uint32_t blk, const std::vector<rel> &v)
{
    merge_rels(b.acq[t], v, [&](const rel &r) {
        if (r.scope == 0 && r.block != blk) {
            if (b.narrow[t].size() < REL_MAX) b.narrow[t].push_back(r);
            b.any_narrow = true;
            return false;
        }
        b.any_acq = true;
        return true;
    });
}

/* p: an access of the running launch */
inline bool in_acq(const std::vector<rel> &v, const rrec &p)
{
    const uint32_t blk = (uint32_t)(rr_serial(p) - R().base);
    const unsigned th = rr_thread(p);
    for (const rel &r : v)
        if (r.block == blk && ((r.thread == th && p.clk < r.own) || p.clk < r.blk)) return true;
    return false;
}

/* Does the recorded access p happen before thread t's access now? */
inline __attribute__((always_inline)) bool ordered_in(race_state &s, const rrec &p, unsigned t)
{
    const uint64_t ser = rr_serial(p);
    if (ser < s.base) return launch_ordered(launch_of(ser), s.launch);
    const bstate &b = *s.cur;
    if (ser == s.cur_serial) {
        const unsigned u = rr_thread(p);
        if (u == t) return true;
        if (p.clk < b.bar) return true;
        if ((u >> 5) == (t >> 5)) {
            unsigned w = t >> 5;
            if (p.clk < b.wfull[w]) return true;
            if (!b.wpair[w].empty() && p.clk < b.wpair[w][(t & 31) * 32 + (u & 31)]) return true;
        }
        for (unsigned k = 0; k < SIM_TILE_LEVELS; k++) {
            unsigned sh = 6 + k;
            if ((u >> sh) == (t >> sh) && p.clk < b.tile[k][t >> sh]) return true;
        }
    }
    if (p.clk < s.grid_clk) return true;
    if (b.any_acq && (in_acq(b.acq[t], p) || in_acq(b.acq_blk, p))) return true;
    return false;
}

inline __attribute__((always_inline)) bool ordered(const rrec &p, unsigned t) { return ordered_in(R(), p, t); }

/* the same, with its common case (an earlier access of the thread, or of
 * its block before the last barrier) inline and the rest called */
__attribute__((noinline)) bool ordered_rest(race_state &s, const rrec &p, unsigned t) { return ordered_in(s, p, t); }
/* the common case alone: an earlier access of the thread, or of its block
 * before the last barrier */
inline __attribute__((always_inline)) bool ordered_here(const race_state &s, const rrec &p, unsigned t)
{
    return rr_serial(p) == s.cur_serial && (rr_thread(p) == t || p.clk < s.cur->bar);
}
inline __attribute__((always_inline)) bool ordered_quick(race_state &s, const rrec &p, unsigned t)
{
    return ordered_here(s, p, t) || ordered_rest(s, p, t);
}

/* ------------------------------------------------------------ reports */

const char *verb(int k)
{
    k &= 3;
    return k == K_WRITE ? "writes" : k == K_ATOMIC ? "atomically updates" : k == K_FLAG ? "writes" : "reads";
}

void describe(const sim_access *a, rgroup &g)
{
    char buf[320];
    if (a->space == SIM_REC_SHARED) {
        race_state &s = R();
        int k;
        const sim_shared_site *ss;
        uintptr_t base = 0;
        if (s.rp) {
            /* a replayed access: the block's arrays as its log names them */
            k = s.rp_k;
            ss = k >= 0 && (size_t)k < s.rp->sh.size() ? s.rp->sh[k].ss : nullptr;
            if (ss) base = s.sh_lo + s.rp->sh[k].off;
        } else {
            k = sim_shared_find(a->addr);
            ss = sim_shared_site_at(k);
            const sim_rec_object *o = sim_shared_object_at(k);
            if (o) base = o->base;
            else ss = nullptr;
        }
        if (ss) {
            char decl[96];
            sim_where(decl, sizeof decl, ss->line, ss->file);
            snprintf(buf, sizeof buf, "%sshared array %s (declared at %s)", ss->dynamic ? "the dynamic " : "", ss->name,
                     decl);
            g.mem = buf;
            size_t e = ss->elem ? (size_t)(a->addr - base) / ss->elem : 0;
            if (ss->cols > 1 && !ss->dynamic)
                snprintf(buf, sizeof buf, "[%zu][%zu]", e / ss->cols, e % ss->cols);
            else
                snprintf(buf, sizeof buf, "%zu", e);
            g.index = buf;
            g.obj = 0x80000000u | (unsigned)k;
            g.name = ss->name;
            return;
        }
        uintptr_t lo, span;
        sim_shared_span(&lo, &span);
        if (s.rp) lo = s.sh_lo;
        g.mem = "shared memory";
        snprintf(buf, sizeof buf, "byte %llu", (unsigned long long)(a->addr - lo));
        g.index = buf;
        g.obj = 0x8fffffffu;
        return;
    }
    const sim_gobj *go = (const sim_gobj *)a->obj; /* the hook's obj is &sim_gobj::o */
    if (go && go->call == DEVVAR_CALL) {
        char decl[96];
        sim_where(decl, sizeof decl, go->line, nullptr);
        snprintf(buf, sizeof buf, "the __device__ variable %s (declared at %s)", go->var, decl);
        g.mem = buf;
        unsigned long long off = a->addr - go->o.base;
        if (go->o.bytes <= a->size) snprintf(buf, sizeof buf, "0");
        else snprintf(buf, sizeof buf, "%llu (bytes %llu-%llu)", off / a->size, off / a->size * a->size,
                      off / a->size * a->size + a->size - 1);
        g.index = buf;
        g.obj = go->o.id;
    } else if (go) {
        sim_mem_describe(go, buf, sizeof buf);
        g.mem = buf;
        unsigned long long off = a->addr - go->o.base;
        snprintf(buf, sizeof buf, "%llu (bytes %llu-%llu)", off / a->size, off / a->size * a->size,
                 off / a->size * a->size + a->size - 1);
        g.index = buf;
        g.obj = go->o.id;
    } else {
        g.mem = "global memory";
        g.index = "?";
        g.obj = 0;
    }
}

/* The pair a group shows as its example: the recorded access p and a. */
static void set_example(rgroup &g, const rrec &p, const sim_access *a, int kind)
{
    g.site_a = site_pc(p.site);
    g.site_b = a->site;
    g.kind_a = (int)rr_kind(p);
    g.kind_b = kind;
    g.block_a = block_of(rr_serial(p));
    g.block_b = a->block;
    g.thread_a = rr_thread(p);
    g.thread_b = a->thread;
    describe(a, g);
}

void log_hit(const rrec &p, const sim_access *a, int kind, unsigned flags);

/* A race: the recorded access p and the access a now. */
void hit(const rrec &p, const sim_access *a, int kind, unsigned flags)
{
    if (tl_state) return log_hit(p, a, kind, flags); /* found beside earlier blocks: to the log */
    race_state &s = R();
    unsigned obj = a->space == SIM_REC_SHARED ? 0x80000000u | (unsigned)(a->obj ? a->obj->id : 0)
                                              : (a->obj ? a->obj->id : 0);
    if (a->space == SIM_REC_SHARED && a->obj)
        obj = 0x80000000u | (unsigned)(s.rp ? s.rp_k : (int)(a->obj - sim_shared_object_at(0)));
    uintptr_t x = site_pc(p.site), y = a->site;
    gkey k = {flags & F_UNINIT ? 1 : flags & F_VWARP ? 2 : 0, std::min(x, y), std::max(x, y), obj};
    auto it = s.index.find(k);
    rgroup *g;
    if (it == s.index.end()) {
        if (s.groups.size() >= MAX_GROUPS) {
            s.dropped++;
            return;
        }
        s.groups.emplace_back();
        g = &s.groups.back();
        g->flags = 0;
        g->hits = g->threads = g->blocks = 0;
        g->last_block = ~0ull;
        memset(g->seen, 0, sizeof g->seen);
        set_example(*g, p, a, kind);
        const uint32_t pl = launch_of(rr_serial(p));
        if (pl != s.launch && pl < s.launches.size()) g->other_kernel = s.launches[pl].kernel;
        s.index.emplace(k, (unsigned)s.groups.size() - 1);
    } else {
        g = &s.groups[it->second];
        if ((flags & F_CROSS_BLOCK) && !(g->flags & F_CROSS_BLOCK)) {
            /* a race between blocks is the example to show */
            set_example(*g, p, a, kind);
        }
    }
    g->flags |= flags;
    if (!s.completed.empty() || !s.arrived.empty()) g->flags |= F_ABAR;
    g->hits++;
    if (g->last_block != a->block) {
        g->last_block = a->block;
        g->blocks++;
        memset(g->seen, 0, sizeof g->seen);
    }
    unsigned t = a->thread;
    if (t < SIM_MAX_THREADS && !(g->seen[t >> 6] >> (t & 63) & 1)) {
        g->seen[t >> 6] |= 1ull << (t & 63);
        g->threads++;
    }
}

/* ------------------------------------------------------------- access */

/* The most the shadows of allocations may take: a quarter of the
 * program's address-space limit (the sandbox sets one; else a quarter of
 * the machine's memory), at most 8 GiB. */
size_t shadow_budget(bool *of_limit)
{
    static size_t budget;
    static bool limited;
    if (budget) {
        *of_limit = limited;
        return budget;
    }
    unsigned long long lim = 0;
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) lim = rl.rlim_cur;
    *of_limit = limited = lim != 0;
    if (!lim) {
        long pages = sysconf(_SC_PHYS_PAGES), pg = sysconf(_SC_PAGESIZE);
        lim = pages > 0 && pg > 0 ? (unsigned long long)pages * pg : 8ull << 30;
    }
    budget = (size_t)std::min(lim / 4, 8ull << 30);
    return budget;
}

std::string size_text(unsigned long long b)
{
    char buf[48];
    if (b >= 1ull << 30) snprintf(buf, sizeof buf, "%.1f GiB", b / (double)(1ull << 30));
    else if (b >= 1ull << 20) snprintf(buf, sizeof buf, "%.1f MiB", b / (double)(1ull << 20));
    else snprintf(buf, sizeof buf, "%llu bytes", b);
    return buf;
}

/* A new allocation's shadow: all of it when it fits in what is left of the
 * budget (and in memory), else its first part, said once on stderr. */
void shadow_make(gshadow &n, const sim_rec_object *o)
{
    race_state &s = R();
    bool of_limit;
    const size_t want = (o->bytes + 3) / 4 + 4, budget = shadow_budget(&of_limit);
    size_t left = budget > s.shadow_bytes ? (budget - s.shadow_bytes) / GRAN_BYTES : 0, have = std::min(want, left);
    const bool no_memory = !n.g.alloc(have);
    if (no_memory) have = 0;
    n.bytes = have >= want ? o->bytes : have > 4 ? (have - 4) * 4 : 0;
    const size_t before = s.shadow_bytes;
    s.shadow_bytes += n.g.size() * GRAN_BYTES;
    if (n.bytes == o->bytes) return;
    char what[320];
    sim_mem_describe((const sim_gobj *)o, what, sizeof what); /* the hook's obj is &sim_gobj::o */
    std::string all = size_text((unsigned long long)want * GRAN_BYTES), why;
    if (no_memory) {
        why = "there was no memory left for it";
    } else {
        why = "more than the " + size_text(budget) +
              " the race check's shadows may take (a quarter of " +
              (of_limit ? "the program's memory limit" : "this machine's memory") + ", at most 8 GiB";
        if (before) why += "; " + size_text(before) + " were in use";
        why += ")";
    }
    if (n.bytes)
        fprintf(stderr, "simulator: the race check covers only the first %s of %s: its shadow would take %s for all "
                "of it (%zu bytes for every 4 bytes), %s; races in the rest of it are not reported\n",
                size_text(n.bytes).c_str(), what, all.c_str(), (size_t)GRAN_BYTES, why.c_str());
    else
        fprintf(stderr, "simulator: the race check does not check %s: its shadow would take %s (%zu bytes for every "
                "4 bytes), %s; races in it are not reported\n",
                what, all.c_str(), (size_t)GRAN_BYTES, why.c_str());
}

/* the granules of a's memory, from the first one a touches; owners: the
 * shared granules' owner words (NULL for global memory) */
planes granules(const sim_access *a, size_t *first, uint64_t **owners)
{
    race_state &s = R();
    *owners = nullptr;
    if (a->space == SIM_REC_SHARED) {
        uintptr_t off = a->addr - race_here;
        if (off >= s.sh_span) return {};
        *first = off >> 2;
        *owners = s.sh.own;
        return s.sh.all();
    }
    const sim_rec_object *o = a->obj;
    if (!o) return {};
    gshadow *gs = nullptr;
    for (unsigned i = 0; i < race_state::GCACHE; i++)
        if (s.gc_id[i] == o->id) gs = s.gc[i];
    if (!gs) {
        auto it = s.glob.find(o->id);
        if (it == s.glob.end()) {
            gshadow n;
            n.base = o->base;
            shadow_make(n, o);
            it = s.glob.emplace(o->id, std::move(n)).first;
        }
        gs = &it->second;
        unsigned i = s.gc_next++ % race_state::GCACHE;
        s.gc_id[i] = o->id;
        s.gc[i] = gs;
    }
    /* allocations start at 256-byte boundaries: granules are the object's words */
    *first = (a->addr - gs->base) >> 2;
    if (*first + (a->size + 3) / 4 > gs->g.size()) return {};
    return gs->g.all();
}

/* who: the serial of the access's block << 10 | its thread */
inline bool same_thread(const rrec &p, uint64_t who) { return rr_who(p) == who; }

/* ------------------------------------------------- writing a block's log */

/* a block's log past this many records: the block becomes the oldest
 * (its log is replayed) and checks as it goes, rather than memory growing
 * with it */
const size_t LOG_RECS_MAX = ((size_t)64 << 20) / sizeof(uint64_t);

/* logs kept for the next blocks (their vectors keep their room) */
std::mutex log_spare_lock;
std::vector<sim_race_log *> log_spare;

/* the worker's tables, empty at each launch */
wtab &tab_here(void)
{
    race_state &s = R();
    wtab *t = tl_tab;
    if (!t) {
        t = tl_tab = new wtab(); /* kept: its thread lives as long as the process */
        t->sites = (uintptr_t *)malloc(sizeof(uintptr_t) * wtab::SITES);
        t->serial = s.serial - 1;
    }
    if (t->serial != s.serial) {
        t->serial = s.serial;
        t->nsites = t->nobjs = 0;
        t->last_obj = nullptr;
        memset(t->cache, 0, sizeof t->cache);
    }
    return *t;
}

sim_race_log *log_new(void)
{
    sim_race_log *L = nullptr;
    {
        std::lock_guard<std::mutex> lk(log_spare_lock);
        if (!log_spare.empty()) {
            L = log_spare.back();
            log_spare.pop_back();
        }
    }
    if (!L) L = new sim_race_log();
    L->n = 0;
    L->sh.clear();
    return L;
}

/* The log cannot take the access (it is full, or a table is): the block
 * becomes the oldest (par.cpp replays its log, sim_race_log_deliver) and
 * checks from here on. False when it could not (not in a fiber). */
bool log_give_up(void)
{
    sim_par_order(nullptr);
    return tl_log == nullptr;
}

/* each field stored into its place: a record built aside and copied whole
 * would wait for its narrower stores (no store forwarding) */
__attribute__((noinline)) void log_grow(sim_race_log &L, size_t k)
{
    size_t cap = L.cap < 8192 ? 8192 : 2 * L.cap;
    while (cap < L.n + k) cap *= 2;
    uint64_t *w = (uint64_t *)realloc(L.w, cap * sizeof(uint64_t));
    if (!w) abort();
    L.w = w;
    L.cap = cap;
}

inline void log_put(uintptr_t a, uint32_t x, uint32_t m)
{
    sim_race_log &L = *tl_log;
    if (__builtin_expect(L.n + 3 > L.cap, 0)) log_grow(L, 3);
    L.w[L.n] = 0;
    L.w[L.n + 1] = a;
    L.w[L.n + 2] = (uint64_t)x | (uint64_t)m << 32;
    L.n += 3;
}

inline void log_short(uint64_t word)
{
    sim_race_log &L = *tl_log;
    if (__builtin_expect(L.n + 1 > L.cap, 0)) log_grow(L, 1);
    L.w[L.n++] = word;
}

/* What a block beside earlier ones reads must be what the one-worker run
 * reads there, or its accesses (and so the reports) could differ. Such a
 * block writes no global memory until every block before it has ended:
 * its first global store or atomic waits for that (par.cpp,
 * sim_par_first), and the block goes on with its log, replayed at its
 * commit; a fence makes it the oldest. Its reads mark the allocation (the
 * latest block that read it beside earlier ones), and a write to an
 * allocation (by a block all earlier ones have ended before) marks it
 * written: a read of a written allocation waits for the earlier blocks to
 * end too, and a write to an allocation that a later block has read
 * makes par.cpp run those later blocks again, as the oldest (sim_par_doom:
 * their logs, output and counters are dropped; nothing they did reached
 * global memory). Each side marks first and looks second, so one of the
 * two sees the other. Per allocation of the launch: a slot (its sim_gobj's
 * object as key; val: WRITTEN and the latest reader's block + 1). */
struct cslot {
    uintptr_t key;
    uint64_t val;
};
enum : unsigned { CSLOTS = 4096 };
const uint64_t C_WRITTEN = 1ull << 63;
cslot ctab[CSLOTS];
int par_on;                    /* the launch runs on several workers */
__thread uint32_t tl_cserial;  /* the launch the cache below is of */
__thread const sim_rec_object *tl_cobj;
__thread cslot *tl_cslot;

/* the slot of allocation o; NULL when the table is full */
cslot *cslot_of(const sim_rec_object *o)
{
    if (tl_cserial == R().serial && tl_cobj == o) return tl_cslot;
    const uintptr_t k = (uintptr_t)o;
    unsigned h = (unsigned)((k >> 4) ^ (k >> 16)) & (CSLOTS - 1);
    for (unsigned n = 0; n < CSLOTS; n++, h = (h + 1) & (CSLOTS - 1)) {
        uintptr_t cur = __atomic_load_n(&ctab[h].key, __ATOMIC_ACQUIRE);
        if (cur == 0) {
            uintptr_t zero = 0;
            if (__atomic_compare_exchange_n(&ctab[h].key, &zero, k, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
                cur = k;
            else
                cur = zero;
        }
        if (cur == k) {
            tl_cserial = R().serial;
            tl_cobj = o;
            tl_cslot = &ctab[h];
            return &ctab[h];
        }
    }
    return nullptr;
}

/* a block beside earlier ones reads allocation o: false when it must be
 * the oldest first (o was written in this launch, or the table is full) */
bool cread(const sim_rec_object *o, unsigned long long block)
{
    cslot *c = cslot_of(o);
    if (!c) return false;
    const uint64_t me = block + 1;
    uint64_t v = __atomic_load_n(&c->val, __ATOMIC_SEQ_CST);
    while ((v & ~C_WRITTEN) < me &&
           !__atomic_compare_exchange_n(&c->val, &v, (v & C_WRITTEN) | me, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
    }
    return !(__atomic_load_n(&c->val, __ATOMIC_SEQ_CST) & C_WRITTEN);
}

/* a block that every earlier block has ended before writes allocation o
 * (NULL: memory the table does not know): later blocks that read it beside
 * earlier ones run again */
void cwrite(const sim_rec_object *o, unsigned long long block)
{
    cslot *c = o ? cslot_of(o) : nullptr;
    uint64_t v;
    if (!c) {
        v = ~0ull; /* any later block may have read it */
    } else {
        v = __atomic_load_n(&c->val, __ATOMIC_SEQ_CST);
        if (!(v & C_WRITTEN)) __atomic_fetch_or(&c->val, C_WRITTEN, __ATOMIC_SEQ_CST);
        v = __atomic_load_n(&c->val, __ATOMIC_SEQ_CST) & ~C_WRITTEN;
    }
    if (v > block + 1) sim_par_doom(block + 1, v - 1);
}

/* an access into the log; false: the block checks it itself (log_give_up) */
bool log_access(const sim_access *a)
{
    if (a->space == SIM_REC_SHARED) return false; /* checked here (tl_state) */
    sim_race_log &L = *tl_log;
    wtab &T = *tl_tab;
    if (__builtin_expect(L.n >= LOG_RECS_MAX, 0) && log_give_up()) return false;
    if (!a->obj) {
        /* memory the table does not know */
        if (log_give_up()) return false;
    } else if (a->kind != SIM_REC_LOAD) {
        /* a write or an atomic, once every earlier block has ended; later
         * blocks that read the allocation run again */
        if (!sim_par_first() && log_give_up()) return false;
        cwrite(a->obj, a->block);
    } else if (!cread(a->obj, a->block) && !sim_par_first() && log_give_up()) {
        return false;
    }
    unsigned h = (unsigned)((a->site >> 1) ^ (a->site >> 11)) & (wtab::CACHE - 1);
    uint32_t si;
    if (T.cache[h].pc == a->site) {
        si = T.cache[h].idx;
    } else {
        if (T.nsites >= wtab::SITES && log_give_up()) return false;
        if (T.nsites >= wtab::SITES) return true; /* not in a fiber: nothing to check */
        si = T.nsites;
        T.sites[T.nsites++] = a->site;
        T.cache[h].pc = a->site;
        T.cache[h].idx = si;
    }
    unsigned obj = 0, shared = a->space == SIM_REC_SHARED;
    if (shared) {
        if (a->obj) {
            unsigned k = (unsigned)(a->obj - sim_shared_object_at(0));
            if (k >= L.sh.size() || !L.sh[k].ss) {
                if (k >= L.sh.size()) L.sh.resize(k + 1, shdesc{nullptr, 0, 0});
                L.sh[k] = shdesc{sim_shared_site_at((int)k), a->obj->base - tl_sh_lo, a->obj->bytes};
            }
            obj = k + 1;
        }
    } else if (a->obj) {
        if (a->obj == T.last_obj) {
            obj = T.last_idx;
        } else {
            unsigned i = 0;
            while (i < T.nobjs && T.objs[i] != a->obj) i++;
            if (i == T.nobjs) {
                if (T.nobjs >= wtab::OBJS) return !log_give_up();
                T.objs[T.nobjs++] = a->obj;
            }
            obj = i + 1;
            T.last_obj = a->obj;
            T.last_idx = obj;
        }
    }
    const uintptr_t ca = canon(a->addr);
    const uint64_t off = shared ? ca - R().sh_lo : a->obj ? a->addr - a->obj->base : ~0ull;
    const unsigned sz = a->size;
    if (si < 4096 && off < (1ull << 25) && (sz & (sz - 1)) == 0 && sz <= 16 && (obj || shared)) {
        log_short(1 | (uint64_t)__builtin_ctz(sz) << 1 | (uint64_t)(a->kind & 3) << 4 | (uint64_t)(a->vol ? 1 : 0) << 6 |
                  (uint64_t)shared << 7 | (uint64_t)a->thread << 8 | (uint64_t)obj << 18 | (uint64_t)si << 27 |
                  off << 39);
        return true;
    }
    log_put(ca, si, lmeta(LG_ACCESS, a->thread, a->size, (unsigned)a->kind, a->vol ? 1 : 0, shared, obj));
    return true;
}

/* the shared array of a (its index in the block + 1, 0: none), named in
 * the log for describe */
unsigned log_shared_obj(const sim_access *a)
{
    if (!a->obj) return 0;
    sim_race_log &L = *tl_log;
    unsigned k = (unsigned)(a->obj - sim_shared_object_at(0));
    if (k >= L.sh.size() || !L.sh[k].ss) {
        if (k >= L.sh.size()) L.sh.resize(k + 1, shdesc{nullptr, 0, 0});
        L.sh[k] = shdesc{sim_shared_site_at((int)k), a->obj->base - tl_sh_lo, a->obj->bytes};
    }
    return k + 1;
}

/* A race the block found in its shared memory (hit), for the launch's
 * checker in its order: a word 2, then the access's address and site, the
 * recorded access's site, and flags, kinds, size, threads, array. */
void log_hit(const rrec &p, const sim_access *a, int kind, unsigned flags)
{
    sim_race_log &L = *tl_log;
    const uint64_t obj = log_shared_obj(a);
    if (L.n + 5 > L.cap) log_grow(L, 5);
    uint64_t *w = L.w + L.n;
    w[0] = 2;
    w[1] = canon(a->addr);
    w[2] = a->site;
    w[3] = site_pc(p.site);
    w[4] = (uint64_t)(flags & 0xffff) | (uint64_t)(kind & 3) << 16 | (uint64_t)rr_kind(p) << 20 |
           (uint64_t)(a->size & 31) << 28 | (uint64_t)(a->thread & 1023) << 33 | (uint64_t)(rr_thread(p) & 1023) << 43 |
           obj << 53;
    L.n += 5;
}

void access_any(const sim_access *a);

/* The access of most kernels' inner loops: a plain aligned 4-byte read of
 * one granule that this block wrote, whose last write is ordered before it
 * (program order or a barrier), with no release pending anywhere. It only
 * records the read; everything else takes the whole path (access_any). */
void on_access(void *, const sim_access *a)
{
    /* the thread may give way here (schedule.cpp) */
    if ((sim_sched_kind == SIM_SCHED_RANDOM || sim_sched_kind == SIM_SCHED_ADVERSARIAL) && a->kind != SIM_REC_ATOMIC)
        sim_sched_access();
    if (tl_log && log_access(a)) return;
    race_state &s = R();
    if (par_on && !s.rp && a->space == SIM_REC_GLOBAL && a->kind != SIM_REC_LOAD) cwrite(a->obj, a->block);
    if (!s.on || !s.cur) return;
    if (a->kind != SIM_REC_LOAD || a->size != 4 || (a->addr & 3) || a->vol || !s.rels.empty()) return access_any(a);
    planes pl;
    size_t i;
    const uint64_t ser = serial_of(s, a->block);
    const unsigned t = a->thread;
    const uint64_t who = ser << 10 | t;
    if (a->space == SIM_REC_SHARED) {
        uintptr_t off = a->addr - race_here;
        if (off >= s.sh_span) return;
        if (s.sh.own[off >> 2] != (ser << 4 | 0xf)) return access_any(a);
        pl = s.sh.all();
        i = off >> 2;
    } else {
        if (!a->obj) return;
        gshadow *gs = nullptr;
        for (unsigned i = 0; i < race_state::GCACHE; i++)
            if (s.gc_id[i] == a->obj->id) gs = s.gc[i];
        if (!gs || a->addr - gs->base >= gs->bytes) return access_any(a);
        pl = gs->g.all();
        i = (a->addr - gs->base) >> 2;
    }
    const granref g = at(pl, i);
    const rrec &w = g.w;
    if (w.id && !same_thread(w, who) && ((rr_kind(w) & (3 | K_VOL)) != K_WRITE || !ordered_quick(s, w, t)))
        return access_any(a);
    if (!same_thread(g.r1, who) && g.r1.id) g.r2 = g.r1;
    g.r1 = rrec{rr_id(who, 0xf, K_READ), s.clk, site_code(a->site)};
}

/* on_plain's granules for a load: each one's last write must be ordered
 * before the read */
template <unsigned N>
inline __attribute__((always_inline)) int load_granules(race_state &s, planes pl, size_t at0, uint64_t who,
                                                        unsigned t, uintptr_t pc)
{
    for (unsigned i = 0; i < N; i++) {
        const rrec &w = at(pl, at0 + i).w;
        if (w.id && !same_thread(w, who) && (rr_kind(w) != K_WRITE || !ordered_quick(s, w, t))) return 0;
    }
    const rrec r = {rr_id(who, 0xf, K_READ), s.clk, site_code(pc)};
    for (unsigned i = 0; i < N; i++) {
        const granref g = at(pl, at0 + i);
        if (!same_thread(g.r1, who) && g.r1.id) g.r2 = g.r1;
        g.r1 = r;
    }
    return 1;
}

/* on_plain's granules for a plain store: each one's last write and reads,
 * where this block has written it, must be the thread's own or ordered
 * before the store (else it is a race, which access_any reports); then the
 * store is the granule's last write. A granule this block has not written
 * starts anew, as access_any starts it. */
template <unsigned N>
inline __attribute__((always_inline)) int store_granules(race_state &s, planes pl, size_t at0, uint64_t *own,
                                                         uint64_t ser, uint64_t who, unsigned t, uintptr_t pc)
{
    for (unsigned i = 0; i < N; i++) {
        if (own[i] >> 4 != ser) continue;
        const granref x = at(pl, at0 + i);
        if (x.w.id && !same_thread(x.w, who) && !ordered_quick(s, x.w, t)) return 0;
        if (x.r1.id && !same_thread(x.r1, who) && !ordered_quick(s, x.r1, t)) return 0;
        if (x.r2.id && !same_thread(x.r2, who) && !ordered_quick(s, x.r2, t)) return 0;
    }
    const rrec w = {rr_id(who, 0xf, K_WRITE), s.clk, site_code(pc)};
    for (unsigned i = 0; i < N; i++) {
        const granref g = at(pl, at0 + i);
        if (own[i] >> 4 != ser) {
            own[i] = ser << 4;
            g.r1.id = g.r2.id = 0;
        }
        wslot(pl, at0 + i) = w;
        own[i] |= 0xf;
    }
    return 1;
}

/* The same cases straight from the access hook or a shared element's proxy,
 * without a sim_access (the checker's plain: a plain load or store inside a
 * known object), for 4 or 8 aligned bytes: 1 when every granule it touches
 * passes on_access's test and the access is recorded, 0 (having changed
 * nothing) to be given it through on_access. A store takes this way in
 * shared memory only, and not as a release (a fence before it). */
__attribute__((noinline)) int plain_rest(uintptr_t addr, unsigned size, int kind, int space, const sim_rec_object *o,
                                           uintptr_t pc)
{
    race_state *sp = tl_state;
    if (!sp) sp = the_state;
    if (!sp || !sp->cur || !sp->on || (size != 4 && size != 8) || (addr & (size - 1))) return 0;
    if (sim_sched_kind == SIM_SCHED_RANDOM || sim_sched_kind == SIM_SCHED_ADVERSARIAL) return 0;
    race_state &s = *sp;
    const unsigned t = sim_cur->linear;
    const uint64_t ser = serial_of(s, sim_g.block_linear), who = ser << 10 | t;
    if (space == SIM_REC_SHARED) {
        const uintptr_t off = addr - race_here;
        if (off + size > s.sh_span) return 0;
        uint64_t *own = &s.sh.own[off >> 2];
        const planes pl = s.sh.all();
        const size_t i = off >> 2;
        if (kind == SIM_REC_STORE) {
            if (s.cur->fence_pend[t]) return 0; /* a release */
            return size == 4 ? store_granules<1>(s, pl, i, own, ser, who, t, pc)
                             : store_granules<2>(s, pl, i, own, ser, who, t, pc);
        }
        const uint64_t mine = ser << 4 | 0xf;
        if (own[0] != mine || (size == 8 && own[1] != mine) || !s.rels.empty()) return 0;
        return size == 4 ? load_granules<1>(s, pl, i, who, t, pc) : load_granules<2>(s, pl, i, who, t, pc);
    }
    /* global memory: loads only, and not into a block's log */
    if (kind == SIM_REC_STORE || tl_log || !o || !s.rels.empty()) return 0;
    gshadow *gs = nullptr;
    for (unsigned i = 0; i < race_state::GCACHE; i++)
        if (s.gc_id[i] == o->id) gs = s.gc[i];
    if (!gs || addr - gs->base >= gs->bytes || addr + size - gs->base > gs->bytes) return 0;
    const size_t i = (addr - gs->base) >> 2;
    return size == 4 ? load_granules<1>(s, gs->g.all(), i, who, t, pc)
                     : load_granules<2>(s, gs->g.all(), i, who, t, pc);
}

/* on_plain's commonest case, a plain aligned 4-byte read of shared memory
 * this block wrote, inline and with few registers (plain_rest's test,
 * load_granules<1>'s update): a third of the instructions of the whole
 * path, which a tiled multiply takes for every element of its tiles. */
inline __attribute__((always_inline)) int plain_fast(uintptr_t addr, unsigned size, int kind, int space,
                                                     const sim_rec_object *o, uintptr_t pc)
{
    race_state *sp = tl_state;
    if (!sp) sp = the_state;
    if (__builtin_expect(space != SIM_REC_SHARED || kind != SIM_REC_LOAD || size != 4 || (addr & 3) || !sp, 0))
        return plain_rest(addr, size, kind, space, o, pc);
    race_state &s = *sp;
    const uintptr_t off = addr - race_here;
    if (!s.cur || !s.on || off + 4 > s.sh_span || !s.rels.empty() || sim_sched_kind == SIM_SCHED_RANDOM ||
        sim_sched_kind == SIM_SCHED_ADVERSARIAL)
        return plain_rest(addr, size, kind, space, o, pc);
    const uint64_t ser = serial_of(s, sim_g.block_linear);
    if (s.sh.own[off >> 2] != (ser << 4 | 0xf)) return plain_rest(addr, size, kind, space, o, pc);
    const granref g = at(s.sh.all(), off >> 2);
    const unsigned t = sim_cur->linear;
    const uint64_t who = ser << 10 | t;
    const rrec &w = g.w;
    /* ordered_quick without its call (plain_rest makes it) */
    if (w.id && !same_thread(w, who) && (rr_kind(w) != K_WRITE || !ordered_here(s, w, t)))
        return plain_rest(addr, size, kind, space, o, pc);
    if (!same_thread(g.r1, who) && g.r1.id) g.r2 = g.r1;
    g.r1 = rrec{rr_id(who, 0xf, K_READ), s.clk, site_code(pc)};
    return 1;
}

int on_plain(void *, uintptr_t addr, unsigned size, int kind, int space, const sim_rec_object *o, uintptr_t pc)
{
    return plain_fast(addr, size, kind, space, o, pc);
}

__attribute__((noinline)) void access_any(const sim_access *a)
{
    race_state &s = R();
    int kind = a->kind == SIM_REC_LOAD ? K_READ : a->kind == SIM_REC_STORE ? K_WRITE : K_ATOMIC;
    const unsigned t = a->thread;
    bstate &b = *s.cur;
    const uint8_t fenced = kind != K_READ ? b.fence_pend[t] : 0;
    const bool release = fenced != 0;
    if (release) b.fence_pend[t] = 0;
    if (kind == K_WRITE && release) kind = K_FLAG;
    /* volatile: a relaxed access (strong), which does not race with another
     * strong one: volatile, atomic, or a flag */
    const bool vol = a->vol && kind != K_ATOMIC;
    const bool strong = vol || kind == K_ATOMIC || kind == K_FLAG;
    const unsigned rkind = (unsigned)(kind | (vol ? K_VOL : 0));
    size_t first;
    uint64_t *owners;
    const planes gv = granules(a, &first, &owners);
    if (!gv) return;
    const uint64_t ser = serial_of(s, a->block);
    const uint64_t who = ser << 10 | t;
    const uint32_t site = site_code(a->site);
    const bool shared = a->space == SIM_REC_SHARED;
    uintptr_t addr = a->addr;
    unsigned left = a->size;
    size_t gi = first;
    while (left) {
        unsigned off = (unsigned)(addr & 3);
        unsigned n = 4 - off < left ? 4 - off : left;
        uint8_t m = (uint8_t)(((1u << n) - 1) << off);
        const granref g = at(gv, gi);
        uint64_t dummy = 0, &own = shared ? owners[gi] : dummy;
        if (shared && own >> 4 != ser) {
            /* another block's (or launch's) bytes: this block has written none */
            own = ser << 4;
            wslot(gv, gi).id = g.r1.id = g.r2.id = 0;
        }
        if (!s.rels.empty() && kind == K_READ) {
            auto it = s.rels.find(rel_key(addr, a->block));
            if (it != s.rels.end()) acquire(b, t, (uint32_t)a->block, it->second); /* an acquire */
        }
        if (shared && kind != K_WRITE && kind != K_FLAG && (own & m) != m) {
            rrec none = {rr_id(who, m, rkind), s.clk, site};
            hit(none, a, kind, F_UNINIT | F_SAME_BLOCK);
        }
        /* t read this granule and now writes it back, with no sync in
         * between: a read-modify-write */
        bool rmw = kind != K_READ &&
                   ((same_thread(g.r1, who) && g.r1.clk == s.clk) || (same_thread(g.r2, who) && g.r2.clk == s.clk));
        /* the recorded write (or atomic) against this access */
        const rrec &w = g.w;
        if (w.id && (rr_mask(w) & m) && !same_thread(w, who)) {
            const unsigned wk = rr_kind(w) & 3;
            const uint64_t wser = rr_serial(w);
            const unsigned wt = rr_thread(w);
            bool sync_pair = (wk == K_ATOMIC || wk == K_FLAG) && (kind == K_ATOMIC || kind == K_FLAG);
            bool flag_read = (wk == K_FLAG || (!shared && wk == K_ATOMIC)) && kind == K_READ;
            /* two strong accesses are not a data race; two volatile ones of
             * lanes of one warp with nothing between them are still an
             * order the lanes need not keep (vwarp) */
            bool both_strong = strong && (wk != K_WRITE || (rr_kind(w) & K_VOL));
            bool vwarp = both_strong && vol && (rr_kind(w) & K_VOL) && wser == ser && (wt >> 5) == (t >> 5);
            if (!sync_pair && !flag_read && (!both_strong || vwarp) && !ordered(w, t)) {
                unsigned f = kind == K_READ ? F_RW : F_WW;
                if (vwarp) f |= F_VWARP;
                if (wk == K_ATOMIC || kind == K_ATOMIC) f |= F_ATOMIC;
                /* the reader read a flag after the writer's block fence */
                if (b.any_narrow && wser >= s.base && wser != ser && in_acq(b.narrow[t], w)) f |= F_NARROW;
                if (wser < s.base) f |= F_LAUNCH;
                else if (wser != ser) f |= F_CROSS_BLOCK | (s.coop ? F_COOP : 0);
                else {
                    f |= F_SAME_BLOCK;
                    f |= (wt >> 5) == (t >> 5) ? F_SAME_WARP : F_XWARP;
                }
                /* several threads each read it and write it back */
                if (rmw && kind != K_READ) f |= F_RMW;
                hit(w, a, kind, f);
            }
        }
        if (kind != K_READ) {
            /* t's own atomic is the last update of the granule: the other
             * threads' atomics come before it in the location's order (the
             * last block of a count resetting it to 0) */
            const bool own_atomic = (rr_kind(g.w) & 3) == K_ATOMIC && same_thread(g.w, who);
            /* the recorded reads against this write */
            for (int r = 0; r < 2; r++) {
                const rrec &p = r ? g.r2 : g.r1;
                if (!p.id || !(rr_mask(p) & m)) continue;
                if (same_thread(p, who)) continue;
                const unsigned pk = rr_kind(p);
                if (((pk & 3) == K_ATOMIC) && (kind == K_ATOMIC || kind == K_FLAG || own_atomic)) continue;
                /* strong against strong: volatile or atomic reads, a volatile,
                 * atomic or flag write (vwarp: see above) */
                const uint64_t pser = rr_serial(p);
                const unsigned pt = rr_thread(p);
                bool pv = (pk & K_VOL) != 0, both_strong = strong && (pv || (pk & 3) == K_ATOMIC);
                bool vwarp = both_strong && vol && pv && pser == ser && (pt >> 5) == (t >> 5);
                if (both_strong && !vwarp) continue;
                /* global memory: a plain load next to atomics is the first
                 * load of a compare-and-swap loop, which the CAS checks */
                if (!shared && kind == K_ATOMIC) continue;
                if (ordered(p, t)) continue;
                unsigned f = F_RW;
                if (vwarp) f |= F_VWARP;
                if (kind == K_ATOMIC) f |= F_ATOMIC;
                if (pser < s.base) f |= F_LAUNCH;
                else if (pser != ser) f |= F_CROSS_BLOCK | (s.coop ? F_COOP : 0);
                else {
                    f |= F_SAME_BLOCK;
                    f |= (pt >> 5) == (t >> 5) ? F_SAME_WARP : F_XWARP;
                }
                hit(p, a, kind, f);
            }
            wslot(gv, gi) = rrec{rr_id(who, m, rkind), s.clk, site};
            own |= m;
            if (kind == K_FLAG) {
                std::vector<rel> &v = s.rels[rel_key(addr, a->block)];
                v.clear();
                rel r = {(uint32_t)a->block, (uint16_t)t, (uint8_t)(fenced - 1), b.fence_own[t], b.fence_blk[t]};
                if (v.size() < REL_MAX) v.push_back(r);
            }
        }
        if (kind == K_READ || kind == K_ATOMIC) {
            rrec cur = {rr_id(who, m, rkind), s.clk, site};
            if (!same_thread(g.r1, who) && g.r1.id) g.r2 = g.r1;
            g.r1 = cur;
        }
        addr += n;
        left -= n;
        gi++;
    }
}

/* ------------------------------------------------------------- syncs */

/* A sync of the running block: kind, threads [first, end), a warp's lanes
 * (full: all of them that exist) */
void sync_apply(int kind, unsigned first, unsigned end, unsigned warp, uint32_t mask, bool full)
{
    race_state &s = R();
    if (!s.cur) return;
    bstate &b = *s.cur;
    switch (kind) {
    case SIM_SYNC_BARRIER:
        b.bar = ++s.clk;
        if (b.any_acq) {
            /* what each thread acquired is the block's now; a phase every
             * thread waited for gives each the same releases: kept once */
            for (auto &v : b.acq) {
                merge_rels(b.acq_blk, v, [](const rel &) { return true; });
                std::vector<rel>().swap(v);
            }
        }
        break;
    case SIM_SYNC_TILE: {
        uint32_t c = ++s.clk;
        unsigned n = 64, k = 0;
        while (n < end - first && k + 1 < SIM_TILE_LEVELS) {
            n <<= 1;
            k++;
        }
        b.tile[k][first / n] = c;
        break;
    }
    case SIM_SYNC_WARP: {
        uint32_t c = ++s.clk;
        unsigned w = warp;
        if (w >= b.wfull.size()) break;
        if (full) {
            b.wfull[w] = c;
        } else {
            std::vector<uint32_t> &pm = b.wpair[w];
            if (pm.empty()) pm.assign(32 * 32, 0);
            for (uint32_t x = mask; x; x &= x - 1)
                for (uint32_t y = mask; y; y &= y - 1) pm[__builtin_ctz(x) * 32 + __builtin_ctz(y)] = c;
        }
        break;
    }
    case SIM_SYNC_GRID:
        b.bar = ++s.clk; /* a barrier of the block too */
        /* the block runs again only after the whole grid arrived: by then
         * grid_clk orders everything its releases did (ordered) */
        if (b.any_acq || b.any_narrow) {
            for (auto &v : b.acq) std::vector<rel>().swap(v);
            for (auto &v : b.narrow) std::vector<rel>().swap(v);
            std::vector<rel>().swap(b.acq_blk);
            b.any_acq = b.any_narrow = false;
        }
        if (++s.grid_arrived >= s.nblocks) {
            s.grid_clk = ++s.clk;
            s.grid_arrived = 0;
        }
        break;
    default: break;
    }
}

void on_sync(void *, const sim_sync_event *e)
{
    race_state &s = R();
    if (!s.on) return;
    const bool full = e->kind == SIM_SYNC_WARP && e->warp < SIM_MAX_WARPS &&
                      (e->mask & sim_g.warps[e->warp].exists) == sim_g.warps[e->warp].exists;
    if (tl_log) /* for the launch's checker; the worker's state below */
        log_put((uintptr_t)e->first | (uintptr_t)e->end << 16 | (uintptr_t)e->warp << 32 | (uintptr_t)full << 40,
                e->mask, lmeta(LG_SYNC, 0, 0, (unsigned)e->kind & 3, 0, 0, 0));
    sync_apply(e->kind, e->first, e->end, e->warp, e->mask, full);
}

/* ------------------------------------------------------ launch, block */

void on_launch_begin(void *, const sim_rec_launch *l)
{
    race_state &s = R();
    if (!s.on) return;
    s.nthreads = (unsigned)(l->block[0] * l->block[1] * l->block[2]);
    s.nwarps = (s.nthreads + 31) / 32;
    s.nblocks = (unsigned long long)l->grid[0] * l->grid[1] * l->grid[2];
    s.coop = sim_g.coop;
    s.grid_arrived = 0;
    s.grid_clk = 0;
    s.clk = 1;
    s.only = 0;
    s.index.clear();
    s.groups.clear();
    s.dropped = 0;
    s.rels.clear();
    s.arrived.clear();
    s.completed.clear();
    s.parked.clear();
    s.cur = nullptr;
    sim_shared_span(&s.sh_lo, &s.sh_span);
    race_here = s.sh_lo;
    s.serial++;
    s.rp = nullptr;
    if (s.sh.size() != (s.sh_span + 3) / 4) s.sh.make((s.sh_span + 3) / 4);
    /* the launch: its stream's order */
    {
        sim_host_lock lk(streams_mu());
        stream_at(nullptr, 1);
        unsigned st = s.next_stream;
        s.next_stream = 0;
        stream_s &ss = s.streams[st];
        ss.vc.merge(s.host);
        if (st == 0) {
            for (unsigned i = 1; i < s.streams.size(); i++)
                if (s.streams[i].blocking) {
                    ss.vc.merge(s.streams[i].vc);
                    ss.vc.set(i, s.streams[i].last);
                }
        } else if (ss.blocking) {
            ss.vc.merge(s.streams[0].vc);
            ss.vc.set(0, s.streams[0].last);
        }
        if (s.launches.empty()) s.launches.emplace_back();
        s.launch = (uint32_t)s.launches.size();
        /* its blocks' serials: block b is base + (uint32_t)b, as a record
         * keeps 32 bits of the block */
        if (!s.next_base) s.next_base = 1;
        s.base = s.next_base;
        s.next_base += std::min(s.nblocks, 1ull << 32);
        launch_s ls;
        ls.stream = st;
        ls.vc = ss.vc;
        ls.kernel = l->kernel ? l->kernel : "";
        ls.base = s.base;
        s.launches.push_back(std::move(ls));
        ss.last = s.launch;
        ss.vc.set(st, s.launch);
    }
    /* shadows of allocations that are gone */
    for (auto it = s.glob.begin(); it != s.glob.end();) {
        const sim_gobj *g = sim_mem_lookup(it->second.base);
        if (!g) g = sim_devvar_lookup(it->second.base);
        if (!g || g->o.id != it->first) {
            s.shadow_bytes -= it->second.g.size() * GRAN_BYTES;
            it = s.glob.erase(it);
        } else {
            ++it;
        }
    }
    memset(s.gc_id, 0, sizeof s.gc_id);
    s.gc_next = 0;
}

void block_begin_apply(unsigned long long block)
{
    race_state &s = R();
    s.cur_block = block;
    if (s.coop) {
        /* a block of a cooperative launch starts, or resumes after a grid
         * barrier with what it knew and its shared memory's shadow */
        auto it = s.parked.find(block);
        if (it == s.parked.end()) {
            it = s.parked.emplace(block, bstate()).first;
            it->second.any_acq = true;
            bstate_reset(it->second);
        } else {
            const std::vector<rrec> &v = it->second.shsave;
            std::copy(v.begin(), v.begin() + std::min(v.size(), GRAN_RECS * s.sh.size()), s.sh.g);
            const std::vector<uint64_t> &o = it->second.shosave;
            std::copy(o.begin(), o.begin() + std::min(o.size(), s.sh.size()), s.sh.own);
        }
        s.cur = &it->second;
        s.cur_serial = serial_of(s, block);
        return;
    }
    bstate_reset(s.one);
    s.cur = &s.one;
    s.cur_serial = serial_of(s, block);
    s.clk = 1; /* clocks count per block (see above) */
}

void on_block_begin(void *, unsigned long long block)
{
    tl_state = nullptr;
    race_state &s = R();
    if (!s.on) return;
    uintptr_t span;
    sim_shared_span(&tl_sh_lo, &span);
    race_here = tl_sh_lo;
    if (sim_par_unordered && !s.coop) {
        /* beside earlier blocks (par.cpp): into the block's log, its
         * shared memory checked here */
        tab_here();
        tl_log = log_new();
        tl_log->block = block;
        tl_log->tab = tl_tab;
        log_put(0, 0, LG_BEGIN);
        static __thread race_state *own;
        if (!own) own = new race_state(); /* kept: its thread lives as long as the process */
        race_state &w = *own;
        w.on = 1;
        w.launch = s.launch;
        w.base = s.base;
        w.serial = s.serial;
        w.nthreads = s.nthreads;
        w.nwarps = s.nwarps;
        w.nblocks = s.nblocks;
        w.coop = 0;
        w.grid_clk = 0;
        w.sh_lo = s.sh_lo;
        w.sh_span = s.sh_span;
        if (w.sh.size() != s.sh.size()) w.sh.make(s.sh.size());
        w.rp = nullptr;
        tl_state = &w;
        block_begin_apply(block);
        return;
    }
    block_begin_apply(block);
}

void block_end_apply(unsigned long long block)
{
    race_state &s = R();
    if (s.coop) {
        /* parked at a grid barrier, or ended: the shadow of its shared
         * memory is kept until the launch ends */
        auto it = s.parked.find(block);
        if (it != s.parked.end()) {
            size_t n = std::min(s.sh.size(), (sim_shared_used() + 3) / 4);
            it->second.shsave.assign(s.sh.g, s.sh.g + GRAN_RECS * n);
            it->second.shosave.assign(s.sh.own, s.sh.own + n);
        }
    }
    s.cur = nullptr;
}

void on_block_end(void *, unsigned long long block)
{
    if (tl_log) {
        log_put(0, 0, LG_END);
        tl_state = nullptr;
        return;
    }
    block_end_apply(block);
}

void on_launch_end(void *, const sim_rec_launch *, int)
{
    race_state &s = R();
    s.cur = nullptr;
    s.parked.clear();
}

int line_of(uintptr_t site, char *file, size_t len)
{
    int line = 0;
    file[0] = 0;
    if (sim_check_where(site, file, len, &line) != 0) return 0;
    return line;
}

std::string at_line(int line, const char *file)
{
    if (line <= 0) return "";
    char buf[160];
    sim_where(buf, sizeof buf, line, file);
    return std::string(" at ") + buf;
}

} /* namespace */

/* ------------------------------------------------------------- report */

namespace gpulab_sim {

static void race_text(char *buf, size_t len, const void *arg) { snprintf(buf, len, "%s", (const char *)arg); }

void sim_race_flush(int stopped)
{
    race_state &s = R();
    s.only = 0;
    if (!s.on || (s.groups.empty() && !s.dropped)) return;
    /* the launch failed for the races alone: nothing stopped it, and
     * memcheck found nothing */
    s.only = !stopped && sim_report_pending() == 0;
    /* merge the groups whose two accesses are on the same two lines */
    struct merged {
        int la, lb;
        std::string fa, fb;
        unsigned obj;
        rgroup g;
    };
    std::vector<merged> out;
    for (rgroup &g : s.groups) {
        char fa[256], fb[256];
        int la = line_of(g.site_a, fa, sizeof fa), lb = line_of(g.site_b, fb, sizeof fb);
        bool uninit = g.flags & F_UNINIT;
        merged *m = nullptr;
        for (merged &x : out) {
            bool same = (x.g.flags & (F_UNINIT | F_VWARP)) == (g.flags & (F_UNINIT | F_VWARP)) && x.obj == g.obj &&
                        ((x.la == la && x.lb == lb && x.fa == fa && x.fb == fb) ||
                         (x.la == lb && x.lb == la && x.fa == fb && x.fb == fa));
            if (same && la > 0 && lb > 0) {
                m = &x;
                break;
            }
        }
        if (!m) {
            out.push_back(merged{la, lb, fa, fb, g.obj, g});
            continue;
        }
        if ((g.flags & F_CROSS_BLOCK) && !(m->g.flags & F_CROSS_BLOCK)) {
            /* a race between blocks is the one to show */
            unsigned keep = m->g.flags;
            unsigned long long h = m->g.hits, th = m->g.threads, bl = m->g.blocks;
            m->g = g;
            m->la = la;
            m->lb = lb;
            m->fa = fa;
            m->fb = fb;
            m->g.flags |= keep;
            m->g.hits = h;
            m->g.threads = th;
            m->g.blocks = bl;
        }
        m->g.flags |= g.flags;
        m->g.hits += g.hits;
        m->g.threads = std::max(m->g.threads, g.threads);
        m->g.blocks = std::max(m->g.blocks, g.blocks);
        (void)uninit;
    }
    for (merged &m : out) {
        rgroup &g = m.g;
        std::string msg = sim_g.kernel;
        char b1[64], b2[64], t1[96], t2[96];
        if (g.flags & F_UNINIT) {
            snprintf(b1, sizeof b1, "block %llu", g.block_b);
            sim_thread_name(t2, sizeof t2, g.thread_b);
            std::string what = g.name.empty() ? g.mem + " at " + g.index
                               : g.name + (g.index[0] == '[' ? g.index : "[" + g.index + "]") + " (" +
                                     g.mem.substr(g.mem.compare(0, 4, "the ") == 0 ? 4 : 0);
            size_t p = what.find(" (declared at ");
            if (p != std::string::npos && !g.name.empty()) what.replace(p, 14, ", declared at ");
            msg += ": " + std::string(b1) + ", " + t2 + "," + at_line(m.lb, m.fb.c_str()) + ", " + verb(g.kind_b) + " " +
                   what + " before any thread of the block wrote it: shared memory starts undefined in every "
                   "block, so write it (and __syncthreads()) before reading it";
        } else if (g.flags & F_VWARP) {
            /* volatile against volatile in one warp: no data race, but an
             * order the lanes do not keep */
            sim_thread_name(t1, sizeof t1, g.thread_a);
            sim_thread_name(t2, sizeof t2, g.thread_b);
            char cnt[160];
            snprintf(cnt, sizeof cnt, " (%llu conflicting pair%s, %llu thread%s in %llu block%s)", g.hits,
                     g.hits == 1 ? "" : "s", g.threads, g.threads == 1 ? "" : "s", g.blocks, g.blocks == 1 ? "" : "s");
            msg += ": block " + std::to_string(g.block_b) + ": lanes of warp " + std::to_string(g.thread_b >> 5) +
                   " depend on their order at " + g.mem + ", element " + g.index + ": " + t1 + " " + verb(g.kind_a) +
                   " it" + at_line(m.la, m.fa.c_str()) + " and " + t2 + " " + verb(g.kind_b) + " it" +
                   at_line(m.lb, m.fb.c_str()) + ", both through volatile, and nothing orders the two" + cnt +
                   ": volatile accesses do not race with each other (PTX treats them as relaxed), but the lanes of a "
                   "warp do not run in lockstep (independent thread scheduling), so whether the read sees the write "
                   "depends on the order they run: put __syncwarp() between the two accesses, or pass the value "
                   "with a shuffle (__shfl_sync)";
        } else {
            bool cross = g.block_a != g.block_b && !(g.flags & F_LAUNCH), launch = g.flags & F_LAUNCH;
            sim_thread_name(t1, sizeof t1, g.thread_a);
            sim_thread_name(t2, sizeof t2, g.thread_b);
            if (launch) {
                msg += ": data race on " + g.mem + ", element " + g.index + ": " + g.other_kernel + " (an earlier launch) " +
                       verb(g.kind_a) + " it" + at_line(m.la, m.fa.c_str()) + " and " + sim_g.kernel + ", block " +
                       std::to_string(g.block_b) + ", " + t2 + " " + verb(g.kind_b) + " it" +
                       at_line(m.lb, m.fb.c_str());
            } else if (cross) {
                snprintf(b1, sizeof b1, "block %llu", g.block_a);
                snprintf(b2, sizeof b2, "block %llu", g.block_b);
                msg += ": blocks " + std::to_string(g.block_a) + " and " + std::to_string(g.block_b) +
                       ": data race on " + g.mem + ", element " + g.index + ": " + b1 + ", " + t1 + " " +
                       verb(g.kind_a) + " it" + at_line(m.la, m.fa.c_str()) + " and " + b2 + ", " + t2 + " " +
                       verb(g.kind_b) + " it" + at_line(m.lb, m.fb.c_str());
            } else {
                snprintf(b1, sizeof b1, "block %llu", g.block_b);
                msg += ": " + std::string(b1) + ": data race on " + g.mem + ", element " + g.index + ": " + t1 + " " +
                       verb(g.kind_a) + " it" + at_line(m.la, m.fa.c_str()) + " and " + t2 + " " + verb(g.kind_b) +
                       " it" + at_line(m.lb, m.fb.c_str());
            }
            msg += ", and nothing orders the two";
            char cnt[160];
            snprintf(cnt, sizeof cnt, " (%llu conflicting pair%s, %llu thread%s in %llu block%s)", g.hits,
                     g.hits == 1 ? "" : "s", g.threads, g.threads == 1 ? "" : "s", g.blocks, g.blocks == 1 ? "" : "s");
            msg += cnt;
            /* advice that fits the pattern */
            std::string lw = at_line(m.la, m.fa.c_str()), lr = at_line(m.lb, m.fb.c_str());
            bool rmw = g.flags & F_RMW;
            if (launch) {
                msg += ": the two launches are in different streams and nothing orders them: record an event after "
                       "the first (cudaEventRecord) and make the second's stream wait for it (cudaStreamWaitEvent), "
                       "or synchronise (cudaStreamSynchronize) before the second launch";
            } else if (rmw) {
                msg += ": many threads read, change and write back one element (a read-modify-write such as "
                       "`x += v`), so updates get lost in whatever order they run, and no barrier between the two "
                       "lines fixes that: make the update atomic (atomicAdd, atomicMax, ...) or give each thread its "
                       "own element and combine them with a reduction";
            } else if (cross && (g.flags & F_WW) && !(g.flags & F_RW)) {
                msg += ": two blocks write one element, and the threads of different blocks are never ordered "
                       "within a launch: give every element one owner (index it by the global thread index) or "
                       "update it with an atomic";
            } else if (cross && (g.flags & F_NARROW)) {
                msg += ": block " + std::to_string(g.block_a) + "'s thread made __threadfence_block() after the write "
                       "and then set the flag this thread read first, but __threadfence_block() orders memory only as "
                       "the threads of its own block see it: another block may see the flag before the data. Use "
                       "__threadfence() (the whole device) between the write and the flag";
            } else if (cross && (g.flags & F_COOP)) {
                msg += ": one block reads what another block writes in the same launch: the launch is cooperative, "
                       "so put this_grid().sync() between the write and the read (every thread of the grid must "
                       "reach it), or have the writer call __threadfence() and then set a flag (an atomic) that the "
                       "reader checks before it reads";
            } else if (cross) {
                msg += ": one block reads what another block writes in the same launch; blocks run in any order and "
                       "cannot wait for each other with __syncthreads(): split the work into two launches, or have "
                       "the writer call __threadfence() and then set a flag (an atomic) that the reader checks before "
                       "it reads";
            } else if ((g.flags & F_ATOMIC) && (g.flags & F_RW) && !(g.flags & F_WW)) {
                msg += ": one thread updates it with an atomic and another reads it with a plain load; an atomic "
                       "is atomic only against other atomics, so the plain read races with the update and may see "
                       "the value from before or after any of the updates: read it with an atomic too "
                       "(atomicAdd(&x, 0), or a cuda::atomic_ref load), or put __syncthreads() between the updates "
                       "and the read";
            } else if ((g.flags & F_SAME_WARP) && !(g.flags & F_XWARP)) {
                char w[200];
                snprintf(w, sizeof w,
                         ": both in warp %u, and the lanes of a warp do not run in lockstep (independent thread "
                         "scheduling): order them with __syncwarp() between the two accesses, or pass the value "
                         "with a shuffle (__shfl_sync)",
                         g.thread_b >> 5);
                msg += w;
            } else if ((g.flags & F_WW) && !(g.flags & F_RW)) {
                msg += ": two threads write one element: give every element one owner, or use an atomic";
            } else {
                msg += ": one thread writes what another reads (a producer and a consumer): put __syncthreads() "
                       "between the write and the read (every thread of the block must reach it), or have the "
                       "writer call __threadfence_block() and then set a flag that the reader checks first";
                if (g.flags & F_ABAR)
                    msg += "; with a pipeline or a cuda::barrier, read only after waiting for the phase the writer "
                           "arrived at (consumer_wait after the producers' producer_commit, or the barrier's wait)";
            }
        }
        sim_report_key k = {0x5200 + (g.flags & F_UNINIT ? 1 : g.flags & F_VWARP ? 3 : 0), g.site_a, g.site_b, g.obj};
        sim_report_hit(&k, (int)cudaErrorLaunchFailure, g.block_b, g.thread_b, race_text, msg.c_str());
    }
    if (s.dropped) {
        char buf[200];
        snprintf(buf, sizeof buf, "%s: %llu more races were not kept (the race check keeps %u groups per launch)",
                 sim_g.kernel, s.dropped, MAX_GROUPS);
        sim_report_key k = {0x5202, 0, 0, 0};
        sim_report_hit(&k, (int)cudaErrorLaunchFailure, 0, 0, race_text, buf);
    }
    s.groups.clear();
    s.index.clear();
}

} /* namespace gpulab_sim */

/* ------------------------------------------------------------- C API */

extern "C" int sim_race_enable(int on)
{
    race_state &s = R();
    if (!s.checker.access) {
        s.checker.ctx = nullptr;
        s.checker.launch_begin = on_launch_begin;
        s.checker.block_begin = on_block_begin;
        s.checker.access = on_access;
        s.checker.sync = on_sync;
        s.checker.block_end = on_block_end;
        s.checker.launch_end = on_launch_end;
        s.checker.plain = on_plain;
    }
    /* attached for the race check, or for a schedule whose threads give
     * way at accesses (schedule.cpp) */
    int want = on || sim_sched_kind == SIM_SCHED_RANDOM || sim_sched_kind == SIM_SCHED_ADVERSARIAL;
    if (want && !s.attached) {
        if (sim_check_attach(&s.checker) != 0) return -1;
        s.attached = 1;
    } else if (!want && s.attached) {
        sim_check_detach(&s.checker);
        s.attached = 0;
    }
    if (!on && s.on) {
        s.glob.clear();
        s.shadow_bytes = 0;
        s.sh.release();
    }
    s.on = on;
    return 0;
}

extern "C" int sim_race_enabled(void) { return R().on; }

extern "C" int sim_race_only(void) { return R().only; }

extern "C" void sim_race_next_stream(const void *stream, int blocking)
{
    sim_host_lock lk(streams_mu());
    R().next_stream = stream_at(stream, blocking);
}

extern "C" void sim_race_event_record(const void *event, const void *stream)
{
    sim_host_lock lk(streams_mu());
    race_state &s = R();
    unsigned st = stream_at(stream, 1);
    vclock v = s.streams[st].vc;
    v.set(st, s.streams[st].last);
    s.events[event] = v;
}

extern "C" void sim_race_stream_wait(const void *stream, const void *event)
{
    sim_host_lock lk(streams_mu());
    race_state &s = R();
    unsigned st = stream_at(stream, 1);
    auto it = s.events.find(event);
    if (it != s.events.end()) s.streams[st].vc.merge(it->second);
}

extern "C" void sim_race_event_sync(const void *event)
{
    sim_host_lock lk(streams_mu());
    race_state &s = R();
    auto it = s.events.find(event);
    if (it != s.events.end()) s.host.merge(it->second);
}

extern "C" void sim_race_stream_sync(const void *stream)
{
    sim_host_lock lk(streams_mu());
    race_state &s = R();
    unsigned st = stream_at(stream, 1);
    s.host.merge(s.streams[st].vc);
    s.host.set(st, std::max(s.host.at(st), s.streams[st].last));
    if (st == 0)
        for (unsigned i = 1; i < s.streams.size(); i++)
            if (s.streams[i].blocking) {
                s.host.merge(s.streams[i].vc);
                s.host.set(i, std::max(s.host.at(i), s.streams[i].last));
            }
}

extern "C" void sim_race_device_sync(void)
{
    sim_host_lock lk(streams_mu());
    race_state &s = R();
    stream_at(nullptr, 1);
    for (unsigned i = 0; i < s.streams.size(); i++) {
        s.host.merge(s.streams[i].vc);
        s.host.set(i, std::max(s.host.at(i), s.streams[i].last));
    }
}

/* The running thread of a block that checks as it goes (0), writes its
 * log (1), or neither (-1: the race check is off, or not in a block's
 * thread) */
static int api_mode(void)
{
    race_state &s = R();
    if (!s.on || !sim_in_fiber()) return -1;
    if (tl_log) return 1;
    return s.cur ? 0 : -1;
}

/* a release (a fence, an asynchronous barrier) in a block beside earlier
 * ones: the block becomes the oldest first (its shared memory's check
 * needs no releases, see above); 0 then, -1 when it could not */
static int api_ordered(void)
{
    int m = api_mode();
    if (m == 1) m = log_give_up() ? api_mode() : -1;
    return m;
}

/* what the calls below do, for thread t of block blk (the running one, or
 * the replayed one); key: a location, or an asynchronous barrier (abar_key) */
static void atomic_sync_apply(unsigned t, uint32_t blk, uintptr_t key)
{
    race_state &s = R();
    bstate &b = *s.cur;
    if (t >= b.fence_pend.size()) return;
    if (!s.rels.empty()) {
        auto it = s.rels.find(key);
        if (it != s.rels.end()) acquire(b, t, blk, it->second);
    }
    if (b.fence_pend[t]) {
        uint8_t scope = (uint8_t)(b.fence_pend[t] - 1);
        b.fence_pend[t] = 0;
        std::vector<rel> &v = s.rels[key];
        rel r = {blk, (uint16_t)t, scope, b.fence_own[t], b.fence_blk[t]};
        if (v.size() < REL_MAX) v.push_back(r);
    }
}

static void arrive_apply(unsigned t, uint32_t blk, uintptr_t key, bool last)
{
    race_state &s = R();
    rel r = {blk, (uint16_t)t, 1, ++s.clk, s.cur->bar};
    std::vector<rel> &v = s.arrived[key];
    add_rel(v, r);
    /* the last arrival completes the phase: its thread runs the completion
     * function (if any), after every arrival of the phase */
    if (last) acquire(*s.cur, t, blk, v);
}

/* t: the completing thread (-1: none) */
static void phase_apply(uintptr_t key, int t, uint32_t blk)
{
    race_state &s = R();
    auto it = s.arrived.find(key);
    if (it == s.arrived.end()) return;
    /* what the completing thread did (the completion function) comes
     * before every wait for the phase */
    if (s.cur && t >= 0) {
        rel r = {blk, (uint16_t)t, 1, ++s.clk, s.cur->bar};
        add_rel(it->second, r);
    }
    std::vector<rel> &done = s.completed[it->first];
    for (const rel &r : it->second) add_rel(done, r);
    s.arrived.erase(it);
}

static void wait_apply(unsigned t, uint32_t blk, uintptr_t key)
{
    race_state &s = R();
    auto it = s.completed.find(key);
    if (it == s.completed.end()) return;
    acquire(*s.cur, t, blk, it->second);
}

static void fence_apply(unsigned t, int scope)
{
    race_state &s = R();
    if (t >= s.cur->fence_own.size()) return;
    s.cur->fence_own[t] = ++s.clk;
    s.cur->fence_blk[t] = s.cur->bar;
    /* two fences before one store: the wider scope */
    uint8_t sc = (uint8_t)(1 + (scope < 0 ? 0 : scope > 2 ? 2 : scope));
    if (sc > s.cur->fence_pend[t]) s.cur->fence_pend[t] = sc;
}

extern "C" void sim_race_atomic_sync(const void *p)
{
    int m = api_mode();
    if (m < 0) return;
    uintptr_t key = rel_key((uintptr_t)p, sim_g.block_linear);
    if (m) log_put(key, 0, lmeta(LG_ATOMIC, sim_cur->linear, 0, 0, 0, 0, 0));
    else atomic_sync_apply(sim_cur->linear, (uint32_t)sim_g.block_linear, key);
}

/* the key of an asynchronous barrier: one in shared memory is its block's */
static uintptr_t abar_key(const void *bar)
{
    race_state &s = R();
    uintptr_t a = canon((uintptr_t)bar);
    if (a - s.sh_lo < s.sh_span) a ^= (uintptr_t)(sim_g.block_linear + 1) << 48;
    return a;
}

extern "C" void sim_race_arrive(const void *bar, int last)
{
    if (api_ordered() != 0) return;
    arrive_apply(sim_cur->linear, (uint32_t)sim_g.block_linear, abar_key(bar), last != 0);
}

extern "C" void sim_race_phase(const void *bar)
{
    race_state &s = R();
    if (!s.on) return;
    const bool fiber = sim_in_fiber();
    if (tl_log && !(fiber && log_give_up())) {
        log_put(abar_key(bar), fiber, lmeta(LG_PHASE, fiber ? sim_cur->linear : 0, 0, 0, 0, 0, 0));
        return;
    }
    phase_apply(abar_key(bar), fiber ? (int)sim_cur->linear : -1, (uint32_t)sim_g.block_linear);
}

extern "C" void sim_race_phase_wait(const void *bar)
{
    if (api_ordered() != 0) return;
    wait_apply(sim_cur->linear, (uint32_t)sim_g.block_linear, abar_key(bar));
}

extern "C" void sim_threadfence(int scope)
{
    if (api_ordered() != 0) return;
    fence_apply(sim_cur->linear, scope);
}

/* ------------------------------------------------ __device__ variables */

extern "C" int sim_devvar_register(const void *p, size_t bytes, const char *name, int line)
{
    devvars &d = DV();
    if (!p || !bytes) return 0;
    for (const sim_gobj *g : d.v)
        if (g->o.base == (uintptr_t)p) return 0;
    sim_gobj *g = new sim_gobj();
    memset(g, 0, sizeof *g);
    char *nm = strdup(name ? name : "?");
    g->o.base = (uintptr_t)p;
    g->o.bytes = bytes;
    g->o.space = SIM_REC_GLOBAL;
    g->o.id = 0x40000000u + (unsigned)d.v.size();
    g->o.name = nm;
    g->zone_end = (uintptr_t)p + bytes;
    g->call = DEVVAR_CALL;
    g->var = nm;
    g->line = line;
    d.v.push_back(g);
    d.sorted = false;
    return 0;
}

namespace gpulab_sim {

const sim_gobj *sim_devvar_lookup(uintptr_t a)
{
    devvars &d = DV();
    if (d.v.empty()) return nullptr;
    devvar_sort();
    size_t lo = 0, hi = d.v.size();
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (d.v[mid]->o.base <= a) lo = mid;
        else hi = mid;
    }
    const sim_gobj *g = d.v[lo];
    return a - g->o.base < g->zone_end - g->o.base ? g : nullptr;
}

void sim_devvar_span(uintptr_t *lo, uintptr_t *hi)
{
    devvars &d = DV();
    *lo = *hi = 0;
    if (d.v.empty()) return;
    devvar_sort();
    *lo = d.v.front()->o.base;
    for (const sim_gobj *g : d.v) *hi = std::max(*hi, g->zone_end);
}

} /* namespace gpulab_sim */

/* ------------------------------------------------ replaying a block's log */

namespace gpulab_sim {

int sim_race_parallel(const void *c)
{
    race_state &s = R();
    return c == &s.checker && s.on && sim_sched_kind == SIM_SCHED_FIXED && !(sim_mc_mode & SIM_CHECK_INITCHECK);
}

/* The log into the checker, as the one-worker run gives it the block. */
static void replay(const sim_race_log &L)
{
    race_state &s = R();
    const uintptr_t here = race_here;
    race_here = s.sh_lo;
    s.rp = &L;
    static const sim_rec_object shared_obj = {};
    const uint32_t blk = (uint32_t)L.block;
    sim_access a;
    a.block = L.block;
    for (size_t i = 0; i < L.n;) {
        const uint64_t w0 = L.w[i];
        if (w0 & 1) {
            /* a short record: an access */
            i++;
            const unsigned t = (unsigned)(w0 >> 8 & 1023), obj = (unsigned)(w0 >> 18 & 511);
            const uint64_t off = w0 >> 39;
            /* size and kind in one store, as the hook gives them (record.cpp) */
            const uint64_t sk = (uint64_t)(1u << (w0 >> 1 & 7)) | (uint64_t)(w0 >> 4 & 3) << 32;
            memcpy(&a.size, &sk, sizeof sk);
            a.vol = (int)(w0 >> 6 & 1);
            a.site = L.tab->sites[w0 >> 27 & 4095];
            a.thread = t;
            a.warp = t >> 5;
            a.lane = t & 31;
            if (w0 >> 7 & 1) {
                a.space = SIM_REC_SHARED;
                a.addr = s.sh_lo + off;
                s.rp_k = (int)obj - 1;
                a.obj = obj ? &shared_obj : nullptr;
            } else {
                a.space = SIM_REC_GLOBAL;
                a.obj = L.tab->objs[obj - 1];
                a.addr = a.obj->base + off;
            }
            on_access(nullptr, &a);
            continue;
        }
        if (w0 == 2) {
            /* a race found in the block's shared memory */
            const uint64_t f = L.w[i + 4];
            const unsigned obj = (unsigned)(f >> 53 & 511);
            rrec p = {rr_id(serial_of(s, blk) << 10 | (f >> 43 & 1023), 0, (unsigned)(f >> 20 & 7)), 0,
                      site_code((uintptr_t)L.w[i + 3])};
            a.addr = L.w[i + 1];
            const uint64_t sk = (uint64_t)(f >> 28 & 31) | (uint64_t)SIM_REC_LOAD << 32;
            memcpy(&a.size, &sk, sizeof sk);
            a.vol = 0;
            a.space = SIM_REC_SHARED;
            a.site = L.w[i + 2];
            a.thread = (unsigned)(f >> 33 & 1023);
            a.warp = a.thread >> 5;
            a.lane = a.thread & 31;
            s.rp_k = (int)obj - 1;
            a.obj = obj ? &shared_obj : nullptr;
            i += 5;
            hit(p, &a, (int)(f >> 16 & 3), (unsigned)(f & 0xffff));
            continue;
        }
        lrec r;
        r.a = L.w[i + 1];
        r.x = (uint32_t)L.w[i + 2];
        r.m = (uint32_t)(L.w[i + 2] >> 32);
        i += 3;
        const unsigned t = r.m >> 4 & 1023;
        switch (r.m & 15) {
        case LG_ACCESS: {
            a.addr = r.a;
            const uint64_t sk = (uint64_t)(r.m >> 14 & 31) | (uint64_t)(r.m >> 19 & 3) << 32;
            memcpy(&a.size, &sk, sizeof sk);
            a.vol = (int)(r.m >> 21 & 1);
            a.space = r.m >> 22 & 1 ? SIM_REC_SHARED : SIM_REC_GLOBAL;
            a.site = L.tab->sites[r.x];
            a.thread = t;
            a.warp = t >> 5;
            a.lane = t & 31;
            const unsigned obj = r.m >> 23;
            if (a.space == SIM_REC_SHARED) {
                s.rp_k = (int)obj - 1;
                a.obj = obj ? &shared_obj : nullptr;
            } else {
                a.obj = obj ? L.tab->objs[obj - 1] : nullptr;
            }
            on_access(nullptr, &a);
            break;
        }
        case LG_SYNC:
            sync_apply((int)(r.m >> 19 & 3), (unsigned)(r.a & 0xffff), (unsigned)(r.a >> 16 & 0xffff),
                       (unsigned)(r.a >> 32 & 0xff), r.x, (r.a >> 40 & 1) != 0);
            break;
        case LG_BEGIN: block_begin_apply(L.block); break;
        case LG_END: block_end_apply(L.block); break;
        case LG_FENCE:
            if (s.cur) fence_apply(t, (int)(intptr_t)r.a);
            break;
        case LG_ATOMIC:
            if (s.cur) atomic_sync_apply(t, blk, r.a);
            break;
        case LG_ARRIVE:
            if (s.cur) arrive_apply(t, blk, r.a, r.x != 0);
            break;
        case LG_PHASE: phase_apply(r.a, r.x ? (int)t : -1, blk); break;
        case LG_WAIT:
            if (s.cur) wait_apply(t, blk, r.a);
            break;
        default: break;
        }
    }
    s.rp = nullptr;
    race_here = here;
}

int sim_race_logging(void) { return tl_log != nullptr; }

int sim_race_shared_plain(uintptr_t addr, unsigned size, int kind, uintptr_t pc)
{
    return plain_fast(addr, size, kind, SIM_REC_SHARED, nullptr, pc);
}

sim_race_log *sim_race_log_take(void)
{
    sim_race_log *L = tl_log;
    tl_log = nullptr;
    return L;
}

void sim_race_log_deliver(void)
{
    sim_race_log *L = tl_log;
    if (!L) return;
    race_state *w = tl_state;
    tl_log = nullptr;
    tl_state = nullptr;
    replay(*L);
    sim_race_log_free(L);
    race_here = tl_sh_lo; /* from here on the block's own addresses */
    if (w) {
        /* its shared memory as the block checked it so far; the clocks of
         * the two states agree (the same syncs, counted per block) */
        race_state &s = R();
        size_t n = std::min(std::min(w->sh.size(), s.sh.size()), (sim_shared_used() + 3) / 4);
        std::copy(w->sh.g, w->sh.g + GRAN_RECS * n, s.sh.g);
        std::copy(w->sh.own, w->sh.own + n, s.sh.own);
        s.clk = w->clk;
    }
}

void sim_race_log_replay(sim_race_log *L)
{
    if (L) replay(*L);
}

/* a log with more room than this is freed, not kept for reuse */
static const size_t LOG_SPARE_MAX = (size_t)32 << 20;

void sim_race_log_free(sim_race_log *L)
{
    if (!L) return;
    const size_t held = L->cap * sizeof(uint64_t);
    L->n = 0;
    L->sh.clear();
    std::lock_guard<std::mutex> lk(log_spare_lock);
    if (log_spare.size() < 2 * SIM_WORKERS_MAX && held <= LOG_SPARE_MAX) log_spare.push_back(L);
    else delete L;
}

size_t sim_race_log_bytes(const sim_race_log *L) { return L ? L->bytes() : 0; }

void sim_race_par_launch(int on)
{
    if (on) memset(ctab, 0, sizeof ctab);
    par_on = on;
}

} /* namespace gpulab_sim */
