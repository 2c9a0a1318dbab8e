/* record.cpp - automatic access recording (see record.h): the sanitizer
 * entry points the instrumented kernels call, the tracked objects, and the
 * grouping of lanes' accesses into warp requests (an access site's source
 * line: record_where.cpp).
 *
 * Grouping: each warp keeps, per access site, how many times each lane has
 * executed it since the last barrier; lane L's k-th execution goes into the
 * site's k-th request. The fibers of a block run lane after lane between two
 * barriers, so a request collects its lanes one by one and is complete when
 * the block passes a barrier or ends.
 *
 * Blocks on several worker threads (par.cpp): each worker groups its own
 * block's accesses (rec_worker, thread-local) into a log of what the readers
 * are to be given (rec_log: requests, warp operations, barriers, in the
 * order one worker would give them). A block that runs beside earlier ones
 * keeps its log; par.cpp hands the log to the readers when it commits the
 * block, in block order, and a block that becomes the oldest running one
 * gives its log at once and from then on delivers as one worker does. So
 * the readers see the same calls, in the same order, with 1 or N workers. */
#include "kernels/sim/internal.h"
#include "kernels/sim/record.h"
#include "kernels/sim/check.h"
#include "kernels/sim/race.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

using namespace gpulab_sim;

extern "C" __thread int sim_rec_on;
__thread int sim_rec_on;

namespace {

/* A warp request being collected. Its lanes' addr (and their values, in
 * rec_vals at the same index, when a reader wants them) are written as they
 * arrive and read only where mask has the lane (record.h), so a new bucket
 * is not cleared: the constructor leaves its lanes as they are (zeroing
 * them was 7% of a recorded reduction's time). */
struct rec_bucket {
    uintptr_t site;
    uint32_t mask;
    uint32_t epoch;
    uint8_t kind, space, width;
    uintptr_t addr[32];
    rec_bucket() {}
};
struct rec_vals {
    uint64_t v[32];
    rec_vals() {}
};

/* A warp collective or a tile barrier, held with the requests: the warp's
 * order list names it by its index with WOP_BIT set. */
struct rec_wop {
    sim_rec_warpop w; /* its pointers and block are set when it is delivered */
    unsigned char src[32];
    uint64_t val[32], res[32];
};
const uint32_t WOP_BIT = 0x80000000u;
static_assert((int)SIM_W_SHFL_IDX == (int)SIM_REC_SHFL_IDX && (int)SIM_W_SHFL_XOR == (int)SIM_REC_SHFL_XOR &&
                  (int)SIM_W_BALLOT == (int)SIM_REC_BALLOT && (int)SIM_W_MATCH_ALL == (int)SIM_REC_MATCH_ALL &&
                  (int)SIM_W_SYNC == (int)SIM_REC_SYNCWARP,
              "record.h's warp operations follow the shim's");

struct rec_site {
    uintptr_t pc = 0;
    uint32_t slot = 0;          /* its entry in rec_warp::index */
    uint32_t count[32] = {};
    std::vector<uint32_t> inst; /* pool index of the site's k-th request */
};

/* A warp's access sites of the running epoch: the first `used` of `sites`,
 * found by pc through an open-addressed index (site number + 1, 0 empty).
 * Sites, their vectors and the index are kept from epoch to epoch and
 * block to block, so grouping an access allocates nothing once the
 * kernel's sites have been seen (a hash map's nodes were allocated and
 * freed at every barrier). */
struct rec_warp {
    std::vector<rec_site> sites;
    unsigned used = 0;
    std::vector<uint32_t> index; /* a power of two entries, at most half full */
    std::vector<uint32_t> order; /* pool indices in the order the requests began */
    uintptr_t last_pc = 0;
    rec_site *last = nullptr;

    static uint32_t hash(uintptr_t pc, size_t n)
    {
        return (uint32_t)(((uint64_t)pc * 0x9E3779B97F4A7C15ull) >> 32) & (uint32_t)(n - 1);
    }
    rec_site &find(uintptr_t pc)
    {
        if (index.empty()) index.assign(64, 0);
        uint32_t h = hash(pc, index.size());
        for (;; h = (h + 1) & (uint32_t)(index.size() - 1)) {
            uint32_t e = index[h];
            if (!e) break;
            if (sites[e - 1].pc == pc) return sites[e - 1];
        }
        if (2 * (used + 1) > index.size()) {
            /* grow: the used sites go into an index twice as large */
            index.assign(2 * index.size(), 0);
            for (unsigned i = 0; i < used; i++) {
                uint32_t g = hash(sites[i].pc, index.size());
                while (index[g]) g = (g + 1) & (uint32_t)(index.size() - 1);
                index[g] = i + 1;
                sites[i].slot = g;
            }
            h = hash(pc, index.size());
            while (index[h]) h = (h + 1) & (uint32_t)(index.size() - 1);
        }
        if (used == sites.size()) sites.emplace_back();
        rec_site &st = sites[used++];
        st.pc = pc;
        st.slot = h;
        memset(st.count, 0, sizeof st.count);
        st.inst.clear();
        index[h] = used;
        return st;
    }
    /* the epoch ends: no site used (every index entry emptied) */
    void clear_sites()
    {
        for (unsigned i = 0; i < used; i++) index[sites[i].slot] = 0;
        used = 0;
        last = nullptr;
        last_pc = 0;
    }
};

/* One thing a reader is given: a request (pool index), a warp operation
 * (wops index), a barrier's sync record (syncs index), its barrier call, or
 * the block's start (idx: whether it is recorded). */
enum { EV_REQ, EV_WOP, EV_SYNC, EV_BARRIER, EV_BLOCK };
struct rec_ev {
    uint32_t idx;
    uint16_t warp;
    uint8_t kind;
};

} /* namespace */

/* A block's records, in the order the readers are to get them. */
struct sim_rec_log {
    unsigned long long block;
    std::vector<rec_bucket> pool;
    std::vector<rec_vals> vals; /* the requests' values, beside pool (empty when no reader reads them) */
    std::vector<rec_wop> wops;
    std::vector<sim_rec_sync> syncs;
    std::vector<rec_ev> evs;
    /* the block's shared arrays, in the order they were placed; the first
     * `named` have their id (given in block order, when delivered) */
    std::vector<sim_rec_object> shared;
    size_t named;
    /* a log taken at the block's end (par.cpp delivers it, on any worker):
     * the arena it ran in and each array's offset as the GPU lays them out */
    int taken;
    uintptr_t sh_lo, sh_span;
    std::vector<size_t> packed;

    size_t bytes() const
    {
        return pool.size() * sizeof(rec_bucket) + vals.size() * sizeof(rec_vals) + wops.size() * sizeof(rec_wop) +
               evs.size() * sizeof(rec_ev) +
               syncs.size() * sizeof(sim_rec_sync);
    }
    void clear()
    {
        pool.clear();
        vals.clear();
        wops.clear();
        syncs.clear();
        evs.clear();
        shared.clear();
        named = 0;
        taken = 0;
        packed.clear();
    }
};

namespace {

/* The recording's state of one worker thread: its block's grouping and log. */
struct rec_worker {
    sim_rec_log log;
    uint32_t epoch = 0;
    rec_warp warps[SIM_MAX_WARPS];
    /* where the running epoch's requests and warp operations begin in the log */
    size_t epoch_pool = 0, epoch_wops = 0;
    /* a store (or atomic) whose value is read once it has happened: at the
     * next instrumented access of this worker (its fibers run one at a
     * time) or at the flush */
    uint32_t pend_idx = 0; /* pool index + 1; 0: none */
    uint32_t pend_lane = 0;
    uintptr_t pend_addr = 0;
    unsigned pend_size = 0;
    int skip_block = 0;    /* no reader wants the running block */
};

__thread rec_worker *rec_self;

inline rec_worker &rw()
{
    if (__builtin_expect(!rec_self, 0)) rec_self = new rec_worker(); /* kept: its thread lives as long as the process */
    return *rec_self;
}

struct rec_state {
    const sim_rec_reader *readers[SIM_REC_MAX_READERS];
    int nreaders;
    int values;                /* some reader reads the requests' values */
    int instrumented;
    int in_launch;
    sim_rec_launch launch;
    unsigned launches;
    unsigned nwarps;
    /* blocks parked at a grid barrier: the epoch they go on with, and
     * whether they are recorded */
    std::unordered_map<unsigned long long, std::pair<uint32_t, int>> parked;
    /* tracked objects: every live allocation, and a sorted copy for the
     * lookups of a launch */
    std::map<uintptr_t, sim_rec_object> objects;
    std::vector<sim_rec_object> flat;
    uintptr_t gmin, gmax;
    unsigned next_id;
    sim_rec_launch check_launch; /* the launch as the checkers see it */
    std::atomic<unsigned long long> dropped;
    /* readers' want_block, asked by the workers as their blocks start */
    std::mutex want_lock;
    /* logs kept for reuse (their vectors keep their capacity) */
    std::mutex spare_lock;
    std::vector<sim_rec_log *> spare;
};

rec_state &rs()
{
    static rec_state *s = new rec_state(); /* never destroyed: used by static destructors' frees */
    return *s;
}

/* The log being delivered on this thread (the readers' sim_rec_object_at
 * and sim_rec_shared_offset look in it). */
__thread const sim_rec_log *rec_delivering;

const sim_rec_object *find_global(uintptr_t a)
{
    rec_state &s = rs();
    auto it = std::upper_bound(s.flat.begin(), s.flat.end(), a,
                               [](uintptr_t v, const sim_rec_object &o) { return v < o.base; });
    if (it == s.flat.begin()) return nullptr;
    --it;
    return a < it->base + it->bytes ? &*it : nullptr;
}

uint64_t value_at(uintptr_t a, unsigned size)
{
    /* little-endian, as the GPU; the usual widths as one load each */
    switch (size) {
    case 4: { uint32_t v; memcpy(&v, (const void *)a, 4); return v; }
    case 8: { uint64_t v; memcpy(&v, (const void *)a, 8); return v; }
    case 1: return *(const uint8_t *)a;
    case 2: { uint16_t v; memcpy(&v, (const void *)a, 2); return v; }
    default: break;
    }
    uint64_t v = 0;
    if (size <= 8) memcpy(&v, (const void *)a, size);
    return v;
}

inline __attribute__((always_inline)) void settle_pending(rec_worker &w)
{
    if (!w.pend_idx) return;
    w.log.vals[w.pend_idx - 1].v[w.pend_lane] = value_at(w.pend_addr, w.pend_size);
    w.pend_idx = 0;
}

/* The recording's part of an access the hook (sim_access_hook) resolved. */
void record(uintptr_t a, unsigned size, int kind, uintptr_t pc, int space)
{
    rec_state &s = rs();
    rec_worker &wk = rw();
    settle_pending(wk);
    if (space == SIM_REC_GLOBAL && !(a >= s.gmin && a < s.gmax && find_global(a))) return;
    const unsigned lane = sim_cur->lane;
    rec_warp &w = wk.warps[sim_cur->warp];
    rec_site *site = w.last;
    if (!site || w.last_pc != pc) {
        site = &w.find(pc);
        w.last = site;
        w.last_pc = pc;
    }
    std::vector<rec_bucket> &pool = wk.log.pool;
    uint32_t k = site->count[lane];
    if (k >= site->inst.size()) {
        if (pool.size() - wk.epoch_pool >= SIM_REC_POOL_MAX) {
            s.dropped.fetch_add(1, std::memory_order_relaxed);
            return;
        }
        uint32_t idx = (uint32_t)pool.size();
        pool.emplace_back();
        if (s.values) wk.log.vals.emplace_back();
        rec_bucket &b = pool.back();
        b.site = pc;
        b.mask = 0;
        b.epoch = wk.epoch;
        b.kind = (uint8_t)kind;
        b.space = (uint8_t)space;
        b.width = (uint8_t)(size > 255 ? 255 : size);
        site->inst.push_back(idx);
        w.order.push_back(idx);
    }
    site->count[lane]++;
    uint32_t idx = site->inst[k];
    rec_bucket &b = pool[idx];
    b.mask |= 1u << lane;
    b.addr[lane] = a;
    if (!s.values) return; /* no reader reads them */
    uint64_t *val = wk.log.vals[idx].v;
    if (kind == SIM_REC_LOAD) {
        val[lane] = value_at(a, size);
    } else {
        val[lane] = 0;
        wk.pend_idx = idx + 1;
        wk.pend_lane = lane;
        wk.pend_addr = a;
        wk.pend_size = size;
    }
}

/* The checkers attached (check.h). */
const sim_checker *checkers[SIM_CHECK_MAX];
int nchecks;

} /* namespace */

unsigned char *gpulab_sim::sim_host_pages[SIM_HOST_GIBS];
void (*gpulab_sim::sim_host_access_fn)(uintptr_t a, unsigned size, int kind, uintptr_t pc);
int (*gpulab_sim::sim_host_describe_fn)(const void *p, char *buf, size_t len);

/* Any consumer of accesses: memcheck, a checker, the recording. */
extern "C" __thread int sim_acc_on;
__thread int sim_acc_on;
extern "C" __thread int sim_acc_direct;
__thread int sim_acc_direct;
extern "C" __thread int sim_acc_plain;
__thread int sim_acc_plain;

namespace {

/* memcheck's fast path: the last objects an access was found inside, with
 * no error (their valid bytes [lo, hi)). An access found there skips
 * memcheck's lookup and checks and goes to the checkers (with its object)
 * and to the recording, as the slow path would give it. Cleared at every
 * launch and block (the block's shared arrays may lie elsewhere). */
struct mc_slot {
    uintptr_t lo, hi;
    const sim_gobj *g;       /* NULL: a shared array */
    const sim_rec_object *o; /* the object (the checkers' sim_access::obj) */
};
enum { MC_SLOTS = 4 };
/* per worker thread (par.cpp): each has its own blocks and shared arena */
__thread mc_slot mc_cache[MC_SLOTS];
__thread unsigned mc_next;
__thread int mc_fast;
/* device memory spans [dev_lo, dev_lo + dev_span) and the shared arena
 * [sh_lo, sh_lo + sh_span) (set at launch begin) */
__thread uintptr_t dev_lo, dev_span, sh_lo, sh_span;
/* a program's __device__ variables [dv_lo, dv_lo + dv_span) (race.h): the
 * same for every worker */
uintptr_t dv_lo, dv_span;
/* an atomic's own load and store, not to be delivered again: the word
 * [acc_mute_addr, + acc_mute_len) while acc_mute is set (from
 * sim_rec_atomic to sim_rec_atomic_end) */
__thread uintptr_t acc_mute_addr, acc_mute_len;
__thread int acc_mute;
static inline __attribute__((always_inline)) bool acc_muted(uintptr_t a)
{
    return acc_mute && a - acc_mute_addr < acc_mute_len;
}

void mc_cache_clear(void)
{
    memset(mc_cache, 0, sizeof mc_cache);
    mc_next = 0;
}

/* initcheck's bits of an access that stays within one byte of the bitmap:
 * mark them (store) or test them; -1 when the access is not that simple */
inline int mc_init_fast(const sim_gobj *g, uintptr_t a, unsigned size, int store)
{
    size_t off = a - g->o.base;
    unsigned sh = (unsigned)(off & 7);
    if (sh + size > 8) return -1;
    unsigned char m = (unsigned char)(((1u << size) - 1) << sh);
    unsigned char *p = g->init + (off >> 3);
    if (store) {
        /* workers may share a byte, so the marking is atomic; but most
         * stores find their bits set already (a bit is never cleared: an
         * allocation starts with a fresh bitmap), and a plain load spares
         * them the locked instruction, which cost a store four times its
         * other work here (perf) */
        if ((__atomic_load_n(p, __ATOMIC_RELAXED) & m) != m) __atomic_or_fetch(p, m, __ATOMIC_RELAXED);
        return 1;
    }
    return (*p & m) == m;
}

/* sim_acc_on for the running launch and block */
void acc_update(void)
{
    sim_acc_on = sim_g.in_launch && (sim_mc_mode || nchecks || sim_rec_on);
    mc_fast = sim_mc_mode;
    sim_acc_direct = !nchecks && !sim_rec_on;
    sim_acc_plain = nchecks == 1 && checkers[0]->plain && !sim_rec_on;
}

/* size and kind in one 64-bit store: a checker that reads the two with one
 * load (the compiler merges the tests) would wait on two narrower stores,
 * which the processor cannot forward to it */
static_assert(offsetof(sim_access, kind) == offsetof(sim_access, size) + 4, "size and kind adjacent");
inline void acc_size_kind(sim_access &acc, unsigned size, int kind)
{
    uint64_t v = (uint64_t)size | (uint64_t)(uint32_t)kind << 32;
    memcpy(&acc.size, &v, sizeof v);
}

/* The access's own fields: where, how wide, what, from which line and thread. */
inline void acc_fill(sim_access &acc, uintptr_t a, unsigned size, int kind, uintptr_t pc, int vol)
{
    acc.addr = a;
    acc_size_kind(acc, size, kind);
    acc.site = pc;
    acc.block = sim_g.block_linear;
    acc.thread = sim_cur->linear;
    acc.warp = sim_cur->warp;
    acc.lane = sim_cur->lane;
    acc.vol = vol;
}

/* THE hook: every access of simulated device code (check.h). aligned: 1
 * when the compiler says the address is a multiple of size (a misaligned
 * one is a kernel's error); 0 for its unaligned forms and ranges; 2 (with
 * no alignment known) for a volatile access. */
__attribute__((noinline)) void sim_access_slow(uintptr_t a, unsigned size, int kind, uintptr_t pc, int aligned)
{
    const int vol = aligned >> 1;
    aligned &= 1;
    if (acc_muted(a)) return;
    if (!sim_in_fiber()) return;
    {
        /* the thread's own stack: its locals are not device memory */
        const sim_fiber *f = &sim_g.fibers[sim_cur->linear];
        if (a - (uintptr_t)f->stack < f->stack_size) return;
    }
    sim_access acc;
    const sim_gobj *g = nullptr;
    int k = -1;
    if (sim_is_shared((const void *)a)) {
        acc.space = SIM_REC_SHARED;
        k = sim_shared_find(a);
        acc.obj = sim_shared_object_at(k);
    } else {
        g = sim_mem_lookup(a);
        if (!g && a - dv_lo < dv_span) {
            /* a __device__ variable, or a host variable that lies among them */
            g = sim_devvar_lookup(a);
            if (!g) return;
        }
        if (!g && !sim_mc_mode) return; /* a local, a host variable: not device memory */
        acc.space = SIM_REC_GLOBAL;
        acc.obj = g && a - g->o.base < g->o.bytes ? &g->o : nullptr;
    }
    acc_fill(acc, a, size, kind, pc, vol);
    if (sim_mc_mode) {
        int bad = sim_mc_access(&acc, g, k, aligned);
        if (!g && acc.space == SIM_REC_GLOBAL) return;
        if (!bad && mc_fast && acc.obj) {
            mc_slot &c = mc_cache[mc_next++ % MC_SLOTS];
            c.lo = acc.obj->base;
            c.hi = acc.obj->base + acc.obj->bytes;
            c.g = g;
            c.o = acc.obj;
        }
    }
    for (int i = 0; i < nchecks; i++)
        if (checkers[i]->access) checkers[i]->access(checkers[i]->ctx, &acc);
    if (sim_rec_on && (acc.space == SIM_REC_SHARED || acc.obj)) record(a, size, kind, pc, acc.space);
}

/* An access memcheck's cache found inside the object of slot c, with no
 * error: to the checkers, as the slow path would give it. */
__attribute__((noinline)) void sim_access_checkers(uintptr_t a, unsigned size, int kind, uintptr_t pc, int aligned,
                                                   const mc_slot &c)
{
    if (!sim_in_fiber()) return;
    sim_access acc;
    acc.space = c.g ? SIM_REC_GLOBAL : SIM_REC_SHARED;
    acc.obj = c.o;
    acc_fill(acc, a, size, kind, pc, aligned >> 1);
    for (int i = 0; i < nchecks; i++)
        if (checkers[i]->access) checkers[i]->access(checkers[i]->ctx, &acc);
}

/* The path of most accesses: not device memory (threadIdx's host
 * variables, a thread's locals), or, with the recording off, inside an
 * object an earlier access was found in without an error (memcheck's
 * checks done; the attached checkers still see it). 1: done. */
inline __attribute__((always_inline)) bool sim_is_device(uintptr_t a)
{
    return a - dev_lo < dev_span || a - sh_lo < sh_span || a - dv_lo < dv_span;
}
/* in a 4 KiB block that one of the program's own host allocations touches
 * (progrt_host.cpp), which a kernel may not: two loads for every access
 * outside device memory, one where the program allocated nothing in a GiB */
inline __attribute__((always_inline)) bool sim_is_host(uintptr_t a)
{
    uintptr_t g = a >> 30;
    if (g >= SIM_HOST_GIBS) return false;
    const unsigned char *blocks = __atomic_load_n(&sim_host_pages[g], __ATOMIC_RELAXED);
    return blocks && __atomic_load_n(&blocks[(a >> SIM_HOST_BLOCK_SHIFT) & (SIM_HOST_BLOCKS - 1)], __ATOMIC_RELAXED);
}
inline __attribute__((always_inline)) int sim_access_object(uintptr_t a, unsigned size, int kind, int aligned,
                                                            uintptr_t pc);
inline __attribute__((always_inline)) int sim_access_fast(uintptr_t a, unsigned size, int kind, int aligned,
                                                          uintptr_t pc)
{
    if (!sim_is_device(a)) {
        /* a host variable or a local (an atomic's own load and store included) */
        if (__builtin_expect(sim_loc_live, 0) && !acc_muted(a)) sim_mc_local(a, size, kind, pc);
        if (__builtin_expect(sim_is_host(a), 0) && !acc_muted(a)) sim_host_access_fn(a, size, kind, pc);
        return 1;
    }
    return sim_access_object(a, size, kind, aligned, pc);
}
/* device memory: inside an object of memcheck's cache (1: done) */
inline __attribute__((always_inline)) int sim_access_object(uintptr_t a, unsigned size, int kind, int aligned,
                                                            uintptr_t pc)
{
    if (!mc_fast || acc_mute || ((aligned & 1) && (a & ((size > 8 ? 8 : size) - 1)))) return 0;
    for (unsigned i = 0; i < MC_SLOTS; i++) {
        const mc_slot &c = mc_cache[i];
        if (a >= c.lo && a + size <= c.hi) {
            int ok;
            if (!c.g || !c.g->init) ok = 1;
            else if (kind == SIM_REC_STORE) ok = mc_init_fast(c.g, a, size, 1) > 0;
            else if (kind == SIM_REC_LOAD)
                ok = !(sim_mc_mode & SIM_CHECK_INITCHECK) || mc_init_fast(c.g, a, size, 0) > 0;
            else ok = 0;
            if (ok && nchecks) {
                /* a plain load or store to the one checker's plain, when it takes it */
                const sim_checker *k = checkers[0];
                if (!(kind != SIM_REC_ATOMIC && !(aligned >> 1) && nchecks == 1 && k->plain && sim_in_fiber() &&
                      k->plain(k->ctx, a, size, kind, c.g ? SIM_REC_GLOBAL : SIM_REC_SHARED, c.o, pc)))
                    sim_access_checkers(a, size, kind, pc, aligned, c);
            }
            if (ok && sim_rec_on) record(a, size, kind, pc, c.g ? SIM_REC_GLOBAL : SIM_REC_SHARED);
            return ok;
        }
    }
    return 0;
}

inline __attribute__((always_inline)) void sim_access_hook(uintptr_t a, unsigned size, int kind, uintptr_t pc,
                                                           int aligned)
{
    if (!sim_access_fast(a, size, kind, aligned, pc)) sim_access_slow(a, size, kind, pc, aligned);
}

/* The hook's commonest cases, in a function that calls nothing, so that the
 * compiler keeps no registers and builds no frame for them: device memory
 * with no checker attached and nothing recording, inside an object of
 * memcheck's cache with its initcheck bits as they should be. 1: done; 0:
 * the hook's object part (sim_access_dev) takes it. A student's kernel that
 * reads shared memory through a pointer (a shared array passed to a device
 * function) spends most of its time here. */
inline __attribute__((always_inline)) int sim_access_quick(uintptr_t a, unsigned size, int kind, int aligned)
{
    if (nchecks | sim_rec_on | acc_mute | !mc_fast) return 0;
    if ((aligned & 1) && (a & ((size > 8 ? 8 : size) - 1))) return 0;
    for (unsigned i = 0; i < MC_SLOTS; i++) {
        const mc_slot &c = mc_cache[i];
        if (a >= c.lo && a + size <= c.hi) {
            if (!c.g || !c.g->init) return 1;
            if (kind == SIM_REC_STORE) return mc_init_fast(c.g, a, size, 1) > 0;
            if (kind == SIM_REC_LOAD) return !(sim_mc_mode & SIM_CHECK_INITCHECK) || mc_init_fast(c.g, a, size, 0) > 0;
            return 0;
        }
    }
    return 0;
}
/* the rest, out of line: one function for each entry point, so that its
 * size, kind and alignment stay constants (a generic one made the race
 * check's runs 1.27x slower); for device memory, and for a thread's locals
 * while it has arrays in red zones */
template <unsigned size, int kind, int aligned>
static __attribute__((noinline)) void sim_access_dev(uintptr_t a, uintptr_t pc)
{
    if (!sim_access_object(a, size, kind, aligned, pc)) sim_access_slow(a, size, kind, pc, aligned);
}
template <unsigned size, int kind, int aligned>
static __attribute__((noinline)) void sim_access_local(uintptr_t a, uintptr_t pc)
{
    if (!acc_muted(a)) sim_mc_local(a, size, kind, pc);
}

/* Accesses wider than 16 bytes (struct copies) go as 16-byte pieces, as the
 * GPU splits them into 16-byte instructions. */
void hook_range(uintptr_t a, size_t size, int kind, uintptr_t pc)
{
    while (size > 16) {
        sim_access_hook(a, 16, kind, pc, 0);
        a += 16;
        size -= 16;
    }
    if (size) sim_access_hook(a, (unsigned)size, kind, pc, 0);
}

/* The worker's log is kept for par.cpp (the block runs beside earlier ones)
 * rather than delivered now. */
inline int rec_deferred(void) { return sim_par_unordered; }

/* Every warp's complete requests and warp operations of the epoch go into
 * the log, warp after warp, each warp's in its program order. */
void collect(rec_worker &wk)
{
    rec_state &s = rs();
    settle_pending(wk);
    for (unsigned w = 0; w < s.nwarps; w++) {
        rec_warp &ws = wk.warps[w];
        for (uint32_t idx : ws.order)
            wk.log.evs.push_back({idx & ~WOP_BIT, (uint16_t)w, (uint8_t)(idx & WOP_BIT ? EV_WOP : EV_REQ)});
        ws.order.clear();
        ws.clear_sites();
    }
    wk.epoch_pool = wk.log.pool.size();
    wk.epoch_wops = wk.log.wops.size();
}

/* Hand the log's undelivered records to the readers, in order; the block's
 * shared arrays get their ids first (in block order, as one worker gives
 * them). Delivered records are dropped; requests of the running epoch stay
 * in the pool until the epoch is collected. */
void deliver(sim_rec_log &L)
{
    rec_state &s = rs();
    for (; L.named < L.shared.size(); L.named++) L.shared[L.named].id = ++s.next_id;
    if (L.evs.empty()) return;
    const sim_rec_log *was = rec_delivering;
    rec_delivering = &L;
    sim_rec_request r;
    for (const rec_ev &e : L.evs) {
        switch (e.kind) {
        case EV_REQ: {
            const rec_bucket &b = L.pool[e.idx];
            r.block = L.block;
            r.warp = e.warp;
            r.epoch = b.epoch;
            r.site = b.site;
            r.kind = b.kind;
            r.space = b.space;
            r.width = b.width;
            r.mask = b.mask;
            r.addr = b.addr;
            r.value = s.values ? L.vals[e.idx].v : nullptr;
            for (int i = 0; i < s.nreaders; i++)
                if (s.readers[i]->request) s.readers[i]->request(s.readers[i]->ctx, &r);
            break;
        }
        case EV_WOP: {
            rec_wop &o = L.wops[e.idx];
            o.w.block = L.block;
            o.w.warp = e.warp;
            o.w.src = o.src;
            o.w.value = o.val;
            o.w.result = o.res;
            for (int i = 0; i < s.nreaders; i++)
                if (s.readers[i]->warpop) s.readers[i]->warpop(s.readers[i]->ctx, &o.w);
            break;
        }
        case EV_SYNC:
            for (int i = 0; i < s.nreaders; i++)
                if (s.readers[i]->sync) s.readers[i]->sync(s.readers[i]->ctx, &L.syncs[e.idx]);
            break;
        case EV_BLOCK:
            for (int i = 0; i < s.nreaders; i++)
                if (s.readers[i]->block_begin) s.readers[i]->block_begin(s.readers[i]->ctx, L.block, (int)e.idx);
            break;
        default:
            for (int i = 0; i < s.nreaders; i++)
                if (s.readers[i]->barrier) s.readers[i]->barrier(s.readers[i]->ctx, L.block, s.nwarps);
        }
    }
    rec_delivering = was;
    L.evs.clear();
    L.syncs.clear();
}

/* After the epoch was collected: one worker's order delivers at once (and
 * the log starts again empty); a deferred block keeps it. */
void publish(rec_worker &wk)
{
    if (rec_deferred()) return;
    deliver(wk.log);
    wk.log.pool.clear();
    wk.log.vals.clear();
    wk.log.wops.clear();
    wk.epoch_pool = wk.epoch_wops = 0;
}

void flush_all(void)
{
    rec_worker &wk = rw();
    collect(wk);
    publish(wk);
}

/* A new warp operation of warp w, in its program order; NULL when the
 * bound is reached (counted). */
rec_wop *wop_new(rec_worker &wk, unsigned w)
{
    sim_rec_log &L = wk.log;
    if (L.wops.size() - wk.epoch_wops + L.pool.size() - wk.epoch_pool >= SIM_REC_POOL_MAX) {
        rs().dropped.fetch_add(1, std::memory_order_relaxed);
        return nullptr;
    }
    wk.warps[w].order.push_back((uint32_t)L.wops.size() | WOP_BIT);
    L.wops.emplace_back();
    rec_wop &o = L.wops.back();
    o.w.epoch = wk.epoch;
    return &o;
}

/* a block or grid barrier's sync record, after the epoch's requests */
void add_sync(rec_worker &wk, int kind, const char *name, int line, const char *file)
{
    sim_rec_sync y;
    y.block = wk.log.block;
    y.epoch = wk.epoch;
    y.kind = kind;
    y.name = name;
    y.line = line;
    y.file = file;
    y.threads = sim_g.nthreads;
    wk.log.evs.push_back({(uint32_t)wk.log.syncs.size(), 0, EV_SYNC});
    wk.log.syncs.push_back(y);
}

} /* namespace */

/* ------------------------------------------------------------- readers */

extern "C" int sim_rec_available(void) { return rs().instrumented; }

extern "C" int sim_rec_attach(const sim_rec_reader *r)
{
    rec_state &s = rs();
    if (!r || !s.instrumented || s.in_launch || s.nreaders == SIM_REC_MAX_READERS) return -1;
    for (int i = 0; i < s.nreaders; i++)
        if (s.readers[i] == r) return 0;
    if (s.nreaders == 0) {
        s.launches = 0;
        s.dropped = 0;
    }
    s.readers[s.nreaders++] = r;
    s.values |= r->values;
    return 0;
}

extern "C" void sim_rec_detach(const sim_rec_reader *r)
{
    rec_state &s = rs();
    for (int i = 0; i < s.nreaders; i++)
        if (s.readers[i] == r) {
            memmove(&s.readers[i], &s.readers[i + 1], sizeof s.readers[0] * (size_t)(s.nreaders - i - 1));
            s.nreaders--;
            break;
        }
    s.values = 0;
    for (int i = 0; i < s.nreaders; i++) s.values |= s.readers[i]->values;
    if (s.nreaders == 0) sim_rec_on = 0;
}

extern "C" unsigned long long sim_rec_dropped(void) { return rs().dropped.load(std::memory_order_relaxed); }

static const sim_rec_object *shared_in(const std::vector<sim_rec_object> &v, uintptr_t a)
{
    for (const sim_rec_object &o : v)
        if (a >= o.base && a < o.base + o.bytes) return &o;
    return nullptr;
}

extern "C" const sim_rec_object *sim_rec_object_at(uintptr_t a)
{
    rec_state &s = rs();
    const sim_rec_log *L = rec_delivering;
    if (L && L->taken) {
        /* a block that ran on another worker: its arena and arrays */
        if (a - L->sh_lo < L->sh_span) return shared_in(L->shared, a);
    } else if (sim_is_shared((const void *)a)) {
        return shared_in(rw().log.shared, a);
    }
    if (s.in_launch) return find_global(a);
    auto it = s.objects.upper_bound(a);
    if (it == s.objects.begin()) return nullptr;
    --it;
    return a < it->second.base + it->second.bytes ? &it->second : nullptr;
}

/* sim_rec_shared_offset of an address of a block whose log is delivered on
 * another worker: 1 with *off, 0 when the live arena answers */
int gpulab_sim::sim_rec_delivered_offset(const void *p, size_t *off)
{
    const sim_rec_log *L = rec_delivering;
    if (!L || !L->taken) return 0;
    uintptr_t a = (uintptr_t)p;
    *off = 0;
    if (a - L->sh_lo >= L->sh_span) return 1;
    /* as sim_shared_packed: the array that begins last at or before a */
    int k = -1;
    uintptr_t best = 0;
    for (size_t i = 0; i < L->shared.size(); i++)
        if (L->shared[i].base <= a && L->shared[i].base >= best) {
            best = L->shared[i].base;
            k = (int)i;
        }
    *off = k < 0 ? (size_t)(a - L->sh_lo) : L->packed[(size_t)k] + (size_t)(a - best);
    return 1;
}

/* --------------------------------------------------------------- hooks */

extern "C" void sim_rec_object_add(const void *p, size_t bytes, const char *what)
{
    rec_state &s = rs();
    sim_rec_object o;
    o.base = (uintptr_t)p;
    o.bytes = bytes ? bytes : 1;
    o.elem = 0;
    o.space = SIM_REC_GLOBAL;
    o.id = ++s.next_id;
    o.name = what;
    s.objects[o.base] = o;
}

extern "C" void sim_rec_object_remove(const void *p) { rs().objects.erase((uintptr_t)p); }

extern "C" void sim_rec_shared_array(const void *p, size_t bytes, size_t elem, const char *name)
{
    rec_state &s = rs();
    if (!s.in_launch) return;
    sim_rec_object o;
    o.base = (uintptr_t)p;
    o.bytes = bytes;
    o.elem = elem;
    o.space = SIM_REC_SHARED;
    o.id = 0; /* given when the block's records are delivered (deliver) */
    o.name = name;
    rw().log.shared.push_back(o);
}

static void check_launch_begin(const char *kernel, const char *file, int line, const unsigned grid[3],
                               const unsigned block[3], size_t dynamic_smem)
{
    rec_state &s = rs();
    acc_mute = 0;
    sim_loc_live = 0;
    mc_cache_clear();
    {
        uintptr_t hi;
        sim_mem_span(&dev_lo, &hi);
        dev_span = hi > dev_lo ? hi - dev_lo : 0;
        sim_shared_span(&sh_lo, &sh_span);
        sim_devvar_span(&dv_lo, &hi);
        dv_span = hi > dv_lo ? hi - dv_lo : 0;
    }
    sim_mc_launch_begin();
    if (nchecks) {
        sim_rec_launch l;
        l.index = 0;
        l.kernel = kernel;
        l.file = file;
        l.line = line;
        memcpy(l.grid, grid, sizeof l.grid);
        memcpy(l.block, block, sizeof l.block);
        l.dynamic_smem = dynamic_smem;
        s.check_launch = l;
        for (int i = 0; i < nchecks; i++)
            if (checkers[i]->launch_begin) checkers[i]->launch_begin(checkers[i]->ctx, &s.check_launch);
    }
    acc_update();
}

/* a worker's grouping starts again: nothing collected, nothing pending */
static void worker_reset(rec_worker &wk)
{
    for (unsigned w = 0; w < SIM_MAX_WARPS; w++) {
        rec_warp &ws = wk.warps[w];
        ws.order.clear();
        ws.clear_sites();
    }
    wk.log.clear();
    wk.epoch = 0;
    wk.epoch_pool = wk.epoch_wops = 0;
    wk.pend_idx = 0;
    wk.skip_block = 0;
}

extern "C" void sim_rec_launch_begin(const char *kernel, const char *file, int line, const unsigned grid[3],
                                     const unsigned block[3], size_t dynamic_smem)
{
    rec_state &s = rs();
    struct after {
        const char *k, *f;
        int l;
        const unsigned *g, *b;
        size_t d;
        ~after() { check_launch_begin(k, f, l, g, b, d); }
    } a_{kernel, file, line, grid, block, dynamic_smem};
    if (s.nreaders == 0) return;
    s.in_launch = 1;
    s.flat.clear();
    for (auto &kv : s.objects) s.flat.push_back(kv.second);
    s.gmin = s.flat.empty() ? 0 : s.flat.front().base;
    s.gmax = s.flat.empty() ? 0 : s.flat.back().base + s.flat.back().bytes;
    s.launch.index = s.launches++;
    s.launch.kernel = kernel;
    s.launch.file = file;
    s.launch.line = line;
    memcpy(s.launch.grid, grid, sizeof s.launch.grid);
    memcpy(s.launch.block, block, sizeof s.launch.block);
    s.launch.dynamic_smem = dynamic_smem;
    unsigned long long nt = (unsigned long long)block[0] * block[1] * block[2];
    s.nwarps = (unsigned)((nt + 31) / 32);
    acc_mute = 0;
    worker_reset(rw());
    s.parked.clear();
    for (int i = 0; i < s.nreaders; i++)
        if (s.readers[i]->launch_begin) s.readers[i]->launch_begin(s.readers[i]->ctx, &s.launch);
    sim_rec_on = 1;
}

extern "C" void sim_rec_launch_end(int rc)
{
    rec_state &s = rs();
    sim_acc_on = 0;
    for (int i = 0; i < nchecks; i++)
        if (checkers[i]->launch_end) checkers[i]->launch_end(checkers[i]->ctx, &s.check_launch, rc);
    if (!s.in_launch) return;
    flush_all();
    sim_rec_on = 0;
    s.in_launch = 0;
    rw().log.clear();
    for (int i = 0; i < s.nreaders; i++)
        if (s.readers[i]->launch_end) s.readers[i]->launch_end(s.readers[i]->ctx, &s.launch, rc);
}

namespace gpulab_sim {
extern "C" int sim_checkers_attached(void) { return nchecks; }

void sim_rec_worker_begin(void)
{
    acc_mute = 0;
    sim_loc_live = 0;
    mc_cache_clear();
    uintptr_t hi;
    sim_mem_span(&dev_lo, &hi);
    dev_span = hi > dev_lo ? hi - dev_lo : 0;
    sim_shared_span(&sh_lo, &sh_span);
    sim_rec_on = 0; /* until a block the readers want begins */
    if (rs().in_launch) worker_reset(rw());
    acc_update();
}

/* The readers are given each block's records in block order whatever the
 * workers (the logs); a checker needs the accesses of all blocks in one
 * order as they happen, unless it is the race check, which logs them the
 * same way (race.h). */
int sim_rec_parallel_ok(void)
{
    for (int i = 0; i < nchecks; i++)
        if (!sim_race_parallel(checkers[i])) return 0;
    return 1;
}

/* par.cpp: the running block's records so far, to the readers now (the
 * block has become the oldest running one: it delivers as one worker from
 * here on) */
void sim_rec_log_deliver(void)
{
    if (rs().in_launch) deliver(rw().log);
}

/* par.cpp, at a block's end on a worker: its records, when some wait to be
 * delivered (else NULL) */
sim_rec_log *sim_rec_log_take(void)
{
    rec_state &s = rs();
    if (!s.in_launch) return nullptr;
    rec_worker &wk = rw();
    sim_rec_log &L = wk.log;
    if (L.evs.empty() && L.named == L.shared.size()) {
        L.clear();
        return nullptr;
    }
    sim_rec_log *t = nullptr;
    {
        std::lock_guard<std::mutex> lk(s.spare_lock);
        if (!s.spare.empty()) {
            t = s.spare.back();
            s.spare.pop_back();
        }
    }
    if (!t) t = new sim_rec_log();
    t->clear();
    std::swap(*t, L);
    /* the arena's layout as the readers ask for it (sim_rec_shared_offset) */
    t->taken = 1;
    sim_shared_span(&t->sh_lo, &t->sh_span);
    t->packed.resize(t->shared.size());
    for (size_t i = 0; i < t->shared.size(); i++) t->packed[i] = sim_shared_packed(t->shared[i].base);
    wk.epoch_pool = wk.epoch_wops = 0;
    return t;
}

size_t sim_rec_log_bytes(const sim_rec_log *L) { return L ? L->bytes() : 0; }

/* a log with more room than this is freed, not kept for reuse */
static const size_t REC_SPARE_MAX = (size_t)4 << 20;

/* par.cpp, when it commits the block: its records to the readers */
void sim_rec_log_replay(sim_rec_log *L)
{
    if (L) deliver(*L);
}

void sim_rec_log_free(sim_rec_log *L)
{
    if (!L) return;
    rec_state &s = rs();
    /* kept for the next block unless it grew large (a long block's log
     * would otherwise stay allocated, once per spare) */
    const size_t held = L->pool.capacity() * sizeof(rec_bucket) + L->vals.capacity() * sizeof(rec_vals) +
                        L->wops.capacity() * sizeof(rec_wop) +
                        L->evs.capacity() * sizeof(rec_ev) + L->syncs.capacity() * sizeof(sim_rec_sync);
    L->clear();
    std::lock_guard<std::mutex> lk(s.spare_lock);
    if (s.spare.size() < SIM_WORKERS_MAX && held <= REC_SPARE_MAX) s.spare.push_back(L);
    else delete L;
}
} /* namespace gpulab_sim */

extern "C" void sim_rec_block_begin(unsigned long long block)
{
    rec_state &s = rs();
    mc_cache_clear();
    for (int i = 0; i < nchecks; i++)
        if (checkers[i]->block_begin) checkers[i]->block_begin(checkers[i]->ctx, block);
    struct after {
        ~after() { acc_update(); }
    } a_;
    if (!s.in_launch) return;
    rec_worker &wk = rw();
    wk.log.block = block;
    wk.epoch = 0;
    wk.log.shared.clear();
    wk.log.named = 0;
    auto pk = s.parked.find(block);
    if (pk != s.parked.end()) {
        /* back from a grid barrier: the same block, its next epoch */
        wk.epoch = pk->second.first;
        wk.skip_block = !pk->second.second;
        sim_rec_on = pk->second.second;
        s.parked.erase(pk);
        return;
    }
    /* every reader is asked; the block runs recorded when any of them
     * wants it. Workers ask as their blocks start, one at a time. */
    int want = 0;
    {
        std::lock_guard<std::mutex> lk(s.want_lock);
        for (int i = 0; i < s.nreaders; i++)
            if (!s.readers[i]->want_block || s.readers[i]->want_block(s.readers[i]->ctx, block)) want = 1;
    }
    wk.skip_block = !want;
    sim_rec_on = want;
    wk.log.evs.push_back({(uint32_t)want, 0, EV_BLOCK});
}

extern "C" void sim_rec_block_end(void)
{
    if (rs().in_launch) flush_all();
    for (int i = 0; i < nchecks; i++)
        if (checkers[i]->block_end) checkers[i]->block_end(checkers[i]->ctx, sim_g.block_linear);
}

/* ------------------------------------------------------------ checkers */

extern "C" int sim_check_attach(const sim_checker *c)
{
    if (!c || !rs().instrumented || sim_g.in_launch || nchecks == SIM_CHECK_MAX) return -1;
    for (int i = 0; i < nchecks; i++)
        if (checkers[i] == c) return 0;
    checkers[nchecks++] = c;
    return 0;
}

extern "C" void sim_check_detach(const sim_checker *c)
{
    for (int i = 0; i < nchecks; i++)
        if (checkers[i] == c) {
            memmove(&checkers[i], &checkers[i + 1], sizeof checkers[0] * (size_t)(nchecks - i - 1));
            nchecks--;
            break;
        }
}

/* A sync completed: the checkers' happens-before edges. */
void gpulab_sim::sim_check_sync(const sim_sync_event *e)
{
    for (int i = 0; i < nchecks; i++)
        if (checkers[i]->sync) checkers[i]->sync(checkers[i]->ctx, e);
}

static const char *barrier_name(int kind)
{
    switch (kind) {
    case SIM_BAR_COUNT: return "__syncthreads_count";
    case SIM_BAR_AND: return "__syncthreads_and";
    case SIM_BAR_OR: return "__syncthreads_or";
    case SIM_BAR_CG: return "this_thread_block().sync";
    default: return "__syncthreads";
    }
}

/* A deferred block's log past this many bytes: the block waits to be the
 * oldest and delivers (par.cpp), rather than memory growing with it. */
size_t gpulab_sim::sim_rec_log_max = SIM_REC_LOG_MAX;

extern "C" void sim_rec_barrier(int kind, int line, const char *file)
{
    rec_state &s = rs();
    if (!s.in_launch) return;
    rec_worker &wk = rw();
    collect(wk);
    if (!wk.skip_block) add_sync(wk, SIM_REC_BAR_BLOCK, barrier_name(kind), line, file);
    wk.epoch++;
    if (!wk.skip_block) wk.log.evs.push_back({0, 0, EV_BARRIER});
    publish(wk);
    if (rec_deferred() && wk.log.bytes() > sim_rec_log_max) {
        sim_par_order(nullptr); /* delivers the log (sim_rec_log_deliver) */
        publish(wk);
    }
}

extern "C" void sim_rec_grid_sync(int line, const char *file)
{
    rec_state &s = rs();
    if (!s.in_launch) return;
    rec_worker &wk = rw();
    if (!wk.skip_block) {
        collect(wk);
        add_sync(wk, SIM_REC_BAR_GRID, "this_grid().sync", line, file);
        publish(wk);
    }
    wk.epoch++;
    /* the block parks; when it resumes it is the same block, not a new one */
    s.parked[wk.log.block] = std::make_pair(wk.epoch, wk.skip_block ? 0 : 1);
}

extern "C" void sim_rec_collective(unsigned warp, uint32_t need, const unsigned char *src)
{
    rec_state &s = rs();
    if (!s.in_launch || !sim_rec_on || !need) return;
    rec_worker &wk = rw();
    settle_pending(wk);
    const sim_fiber *base = &sim_g.fibers[warp * 32];
    const sim_fiber *f0 = base + __builtin_ctz(need);
    rec_wop *o = wop_new(wk, warp);
    if (!o) return;
    int op = f0->op;
    o->w.op = op <= (int)SIM_W_SYNC ? op : (int)SIM_REC_REDUCE; /* the first ten are in the same order */
    o->w.name = f0->op_name;
    o->w.file = f0->op_file;
    o->w.line = f0->op_line;
    o->w.arg = f0->op_arg;
    o->w.width = f0->op_width;
    o->w.mask = need;
    for (unsigned l = 0; l < 32; l++) {
        o->src[l] = src ? src[l] : (unsigned char)l;
        o->val[l] = base[l].op_val;
        o->res[l] = need >> l & 1 ? base[l].op_res : 0;
    }
}

extern "C" void sim_rec_tile_sync(unsigned first, unsigned end, unsigned n, int line, const char *file)
{
    rec_state &s = rs();
    if (!s.in_launch || !sim_rec_on) return;
    rec_worker &wk = rw();
    settle_pending(wk);
    for (unsigned w = first / 32; w * 32 < end; w++) {
        rec_wop *o = wop_new(wk, w);
        if (!o) return;
        o->w.op = SIM_REC_TILE_SYNC;
        o->w.name = "thread_block_tile::sync";
        o->w.file = file;
        o->w.line = line;
        o->w.arg = n;
        o->w.width = 0;
        uint32_t m = 0;
        for (unsigned l = 0; l < 32; l++) {
            unsigned t = w * 32 + l;
            if (t >= first && t < end) m |= 1u << l;
            o->src[l] = (unsigned char)l;
            o->val[l] = o->res[l] = 0;
        }
        o->w.mask = m;
    }
}

extern "C" void sim_rec_atomic(const void *p, unsigned bytes)
{
    if (!sim_acc_on) return;
    sim_race_atomic_sync(p); /* race.h: an atomic releases and acquires, in any memory */
    acc_mute = 0;
    sim_access_hook((uintptr_t)p, bytes, SIM_REC_ATOMIC, (uintptr_t)__builtin_return_address(0), 1);
    acc_mute_addr = (uintptr_t)p;
    acc_mute_len = bytes;
    acc_mute = 1;
}

/* A mute left on would hide the thread's next plain access to the word
 * from the checkers, and send every later access of the worker down the
 * hook's slow path (the fast path stays off while it is on). */
extern "C" void sim_rec_atomic_end(void) { acc_mute = 0; }

/* ------------------------------------------------------- the counts */

/* Distinct 32-byte sectors of the active lanes' bytes. */
extern "C" unsigned sim_rec_sectors(const sim_rec_request *r, uint64_t *out)
{
    unsigned n = 0;
    for (uint32_t m = r->mask; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        uint64_t a = r->addr[lane];
        uint64_t first = a >> 5, last = (a + r->width - 1) >> 5;
        for (uint64_t s = first; s <= last && n < 128; s++) out[n++] = s;
    }
    std::sort(out, out + n);
    return (unsigned)(std::unique(out, out + n) - out);
}

/* Shared-memory wavefronts: 32 banks of 4-byte words; accesses go in phases
 * of 128 bytes (all 32 lanes for widths up to 4 bytes, half warps for 8,
 * quarter warps for 16). In a phase, lanes on the same word share it
 * (broadcast); each bank serves one word per wavefront. Atomics serialise on
 * a word too, so for them every lane counts. */
extern "C" unsigned long long sim_rec_wavefronts(const sim_rec_request *r)
{
    const unsigned w = r->width < 4 ? 4 : r->width;
    const unsigned lanes_per_phase = w <= 4 ? 32 : 128 / w;
    const unsigned words = w / 4;
    const uint32_t phase = lanes_per_phase == 32 ? 0xffffffffu : (1u << lanes_per_phase) - 1;
    unsigned long long total = 0;
    for (unsigned ph = 0; ph < 32; ph += lanes_per_phase) {
        uint64_t word[128];
        unsigned n = 0;
        /* the active lanes of the phase, in order; whether their words rise */
        bool rising = true;
        for (uint32_t m = r->mask >> ph & phase; m; m &= m - 1) {
            uint64_t first = r->addr[ph + (unsigned)__builtin_ctz(m)] >> 2;
            if (n && first <= word[n - 1]) rising = false;
            for (unsigned k = 0; k < words; k++) word[n++] = first + k;
        }
        if (!n) continue;
        if (r->kind != SIM_REC_ATOMIC) {
            /* lanes on consecutive words (the common case) are already
             * sorted and distinct */
            if (rising && word[n - 1] - word[0] < 32) {
                /* distinct words within 32 of each other: each on its own bank */
                total += 1;
                continue;
            }
            if (!rising) {
                std::sort(word, word + n);
                n = (unsigned)(std::unique(word, word + n) - word);
            }
        }
        unsigned per_bank[32] = {0};
        unsigned most = 0;
        for (unsigned i = 0; i < n; i++) most = std::max(most, ++per_bank[word[i] & 31]);
        total += most;
    }
    return total;
}

/* ------------------------------------- the compiler's instrumentation */

/* g++ -fsanitize=thread (compile only) makes the kernels call these. Each
 * costs one flag test while nothing is recorded. */
#define REC_RET ((uintptr_t)__builtin_return_address(0))
#define REC_ACCESS(name, n, kind, aligned)                                                          \
    extern "C" void name(void *p)                                                                   \
    {                                                                                               \
        uintptr_t a = (uintptr_t)p;                                                                 \
        if (__builtin_expect(!sim_acc_on, 1)) return;                                               \
        if (!sim_is_device(a)) {                                                                    \
            if (__builtin_expect(sim_loc_live, 0)) sim_access_local<n, kind, aligned>(a, REC_RET);  \
            if (__builtin_expect(sim_is_host(a), 0)) sim_host_access_fn(a, n, kind, REC_RET);       \
        } else if (!sim_access_quick(a, n, kind, aligned)) {                                        \
            sim_access_dev<n, kind, aligned>(a, REC_RET);                                           \
        }                                                                                           \
    }
extern "C" {
void __tsan_init(void) { rs().instrumented = 1; }
void __tsan_func_entry(void *pc) { (void)pc; }
/* The signatures are g++'s own declarations of these built-ins (a build
 * with another sanitizer declares them too, and a different one is an
 * error there). */
void __tsan_func_exit(void *pc) { (void)pc; }
/* a constructor stores the object's virtual table pointer: a store (an
 * object placed in shared memory by placement new is written there) */
void __tsan_vptr_update(void *vptr, void *value)
{
    (void)value;
    if (__builtin_expect(sim_acc_on, 0)) sim_access_hook((uintptr_t)vptr, sizeof(void *), SIM_REC_STORE, REC_RET, 1);
}
void __tsan_vptr_read(void *vptr) { (void)vptr; }
/* a texel the texture unit read for the kernel at pc (shim_tex.h) */
void sim_acc_load_at(const void *p, unsigned long n, unsigned long pc)
{
    if (__builtin_expect(sim_acc_on, 0)) hook_range((uintptr_t)p, (size_t)n, SIM_REC_LOAD, (uintptr_t)pc);
}
void __tsan_read_range(void *p, long n)
{
    if (__builtin_expect(sim_acc_on, 0)) hook_range((uintptr_t)p, (size_t)n, SIM_REC_LOAD, REC_RET);
}
void __tsan_write_range(void *p, long n)
{
    if (__builtin_expect(sim_acc_on, 0)) hook_range((uintptr_t)p, (size_t)n, SIM_REC_STORE, REC_RET);
}
}
/* memcpy and memset called in a student's device code (the source pass
 * names these): the library's copy is not instrumented, so its bytes are
 * given to the hook here, at the call's line, before the copy */
void *gpulab_sim::sim_dev_memcpy_at(void *dst, const void *src, size_t n)
{
    if (__builtin_expect(sim_acc_on, 0) && n) {
        hook_range((uintptr_t)src, n, SIM_REC_LOAD, REC_RET);
        hook_range((uintptr_t)dst, n, SIM_REC_STORE, REC_RET);
    }
    return memcpy(dst, src, n);
}
void *gpulab_sim::sim_dev_memset_at(void *dst, int c, size_t n)
{
    if (__builtin_expect(sim_acc_on, 0) && n) hook_range((uintptr_t)dst, n, SIM_REC_STORE, REC_RET);
    return memset(dst, c, n);
}
/* A shared element that the proxy checked and reads or writes
 * (sim_acc_plain): to the one checker's plain, as the hook's fast path would
 * give it (memcheck's test would repeat the proxy's index test), or through
 * the hook. */
static __attribute__((noinline)) void acc_shared_hook(uintptr_t a, unsigned size, int kind, uintptr_t pc)
{
    sim_access_hook(a, size, kind, pc, 1);
}
/* the hook's inlined paths out of line: the frame of the checker's call
 * keeps three registers */
static inline __attribute__((always_inline)) void acc_shared_plain(uintptr_t a, unsigned size, int kind, uintptr_t pc)
{
    /* sim_acc_plain is set (the proxy looked): the race check, the one
     * checker with a plain, is the one checker; called directly, without
     * the checker's seven arguments (a fifth of the path, perf) */
    if (!acc_mute && nchecks == 1 && sim_in_fiber() && gpulab_sim::sim_race_shared_plain(a, size, kind, pc))
        return;
    acc_shared_hook(a, size, kind, pc);
}
extern "C" __attribute__((noinline)) void sim_acc_shared_load(const void *p, unsigned size)
{
    acc_shared_plain((uintptr_t)p, size, SIM_REC_LOAD, REC_RET);
}
extern "C" __attribute__((noinline)) void sim_acc_shared_store(const void *p, unsigned size)
{
    acc_shared_plain((uintptr_t)p, size, SIM_REC_STORE, REC_RET);
}

REC_ACCESS(__tsan_read1, 1, SIM_REC_LOAD, 1)
REC_ACCESS(__tsan_read2, 2, SIM_REC_LOAD, 1)
REC_ACCESS(__tsan_read4, 4, SIM_REC_LOAD, 1)
REC_ACCESS(__tsan_read8, 8, SIM_REC_LOAD, 1)
REC_ACCESS(__tsan_read16, 16, SIM_REC_LOAD, 1)
REC_ACCESS(__tsan_write1, 1, SIM_REC_STORE, 1)
REC_ACCESS(__tsan_write2, 2, SIM_REC_STORE, 1)
REC_ACCESS(__tsan_write4, 4, SIM_REC_STORE, 1)
REC_ACCESS(__tsan_write8, 8, SIM_REC_STORE, 1)
REC_ACCESS(__tsan_write16, 16, SIM_REC_STORE, 1)
REC_ACCESS(__tsan_unaligned_read2, 2, SIM_REC_LOAD, 0)
REC_ACCESS(__tsan_unaligned_read4, 4, SIM_REC_LOAD, 0)
REC_ACCESS(__tsan_unaligned_read8, 8, SIM_REC_LOAD, 0)
REC_ACCESS(__tsan_unaligned_read16, 16, SIM_REC_LOAD, 0)
REC_ACCESS(__tsan_unaligned_write2, 2, SIM_REC_STORE, 0)
REC_ACCESS(__tsan_unaligned_write4, 4, SIM_REC_STORE, 0)
REC_ACCESS(__tsan_unaligned_write8, 8, SIM_REC_STORE, 0)
REC_ACCESS(__tsan_unaligned_write16, 16, SIM_REC_STORE, 0)
REC_ACCESS(__tsan_volatile_read1, 1, SIM_REC_LOAD, 2)
REC_ACCESS(__tsan_volatile_read2, 2, SIM_REC_LOAD, 2)
REC_ACCESS(__tsan_volatile_read4, 4, SIM_REC_LOAD, 2)
REC_ACCESS(__tsan_volatile_read8, 8, SIM_REC_LOAD, 2)
REC_ACCESS(__tsan_volatile_read16, 16, SIM_REC_LOAD, 2)
REC_ACCESS(__tsan_volatile_write1, 1, SIM_REC_STORE, 2)
REC_ACCESS(__tsan_volatile_write2, 2, SIM_REC_STORE, 2)
REC_ACCESS(__tsan_volatile_write4, 4, SIM_REC_STORE, 2)
REC_ACCESS(__tsan_volatile_write8, 8, SIM_REC_STORE, 2)
REC_ACCESS(__tsan_volatile_write16, 16, SIM_REC_STORE, 2)
#undef REC_ACCESS
#undef REC_RET

/* Atomics of the instrumented code's host side (std::atomic, OpenMP's
 * reductions and atomics in a student's main) call these: each does the
 * operation, sequentially consistent whatever order was asked for (never
 * weaker), and records nothing (device atomics go through the shim's
 * sim_rmw). The types are g++'s own for these built-ins. 16-byte atomics
 * take a lock: the machine's 16-byte compare-and-swap needs libatomic. */
namespace {
std::atomic_flag rec_lock128 = ATOMIC_FLAG_INIT;
struct rec_guard128 {
    rec_guard128() { while (rec_lock128.test_and_set(std::memory_order_acquire)) {} }
    ~rec_guard128() { rec_lock128.clear(std::memory_order_release); }
};
} /* namespace */

#define REC_SC __ATOMIC_SEQ_CST
#define REC_ATOMIC_RMW(N, T, op)                                                       \
    extern "C" T __tsan_atomic##N##_##op(volatile void *a, T v, int mo)                \
    {                                                                                  \
        (void)mo;                                                                      \
        return __atomic_##op((volatile T *)a, v, REC_SC);                              \
    }
#define REC_ATOMIC(N, T)                                                               \
    extern "C" T __tsan_atomic##N##_load(const volatile void *a, int mo)               \
    {                                                                                  \
        (void)mo;                                                                      \
        return __atomic_load_n((const volatile T *)a, REC_SC);                         \
    }                                                                                  \
    extern "C" void __tsan_atomic##N##_store(volatile void *a, T v, int mo)            \
    {                                                                                  \
        (void)mo;                                                                      \
        __atomic_store_n((volatile T *)a, v, REC_SC);                                  \
    }                                                                                  \
    extern "C" T __tsan_atomic##N##_exchange(volatile void *a, T v, int mo)            \
    {                                                                                  \
        (void)mo;                                                                      \
        return __atomic_exchange_n((volatile T *)a, v, REC_SC);                        \
    }                                                                                  \
    REC_ATOMIC_RMW(N, T, fetch_add)                                                    \
    REC_ATOMIC_RMW(N, T, fetch_sub)                                                    \
    REC_ATOMIC_RMW(N, T, fetch_and)                                                    \
    REC_ATOMIC_RMW(N, T, fetch_or)                                                     \
    REC_ATOMIC_RMW(N, T, fetch_xor)                                                    \
    REC_ATOMIC_RMW(N, T, fetch_nand)                                                   \
    extern "C" bool __tsan_atomic##N##_compare_exchange_strong(volatile void *a, void *c, T v, int mo, int fmo) \
    {                                                                                  \
        (void)mo;                                                                      \
        (void)fmo;                                                                     \
        return __atomic_compare_exchange_n((volatile T *)a, (T *)c, v, false, REC_SC, REC_SC); \
    }                                                                                  \
    extern "C" bool __tsan_atomic##N##_compare_exchange_weak(volatile void *a, void *c, T v, int mo, int fmo) \
    {                                                                                  \
        (void)mo;                                                                      \
        (void)fmo;                                                                     \
        return __atomic_compare_exchange_n((volatile T *)a, (T *)c, v, true, REC_SC, REC_SC); \
    }
REC_ATOMIC(8, unsigned char)
REC_ATOMIC(16, unsigned short)
REC_ATOMIC(32, unsigned int)
REC_ATOMIC(64, unsigned long)
#undef REC_ATOMIC
#undef REC_ATOMIC_RMW

typedef unsigned __int128 rec_u128;
extern "C" rec_u128 __tsan_atomic128_load(const volatile void *a, int mo)
{
    (void)mo;
    rec_guard128 g;
    return *(const volatile rec_u128 *)a;
}
extern "C" void __tsan_atomic128_store(volatile void *a, rec_u128 v, int mo)
{
    (void)mo;
    rec_guard128 g;
    *(volatile rec_u128 *)a = v;
}
extern "C" rec_u128 __tsan_atomic128_exchange(volatile void *a, rec_u128 v, int mo)
{
    (void)mo;
    rec_guard128 g;
    rec_u128 old = *(volatile rec_u128 *)a;
    *(volatile rec_u128 *)a = v;
    return old;
}
#define REC_ATOMIC128_RMW(op, expr)                                                    \
    extern "C" rec_u128 __tsan_atomic128_##op(volatile void *a, rec_u128 v, int mo)    \
    {                                                                                  \
        (void)mo;                                                                      \
        rec_guard128 g;                                                                \
        rec_u128 old = *(volatile rec_u128 *)a;                                        \
        *(volatile rec_u128 *)a = (expr);                                              \
        return old;                                                                    \
    }
REC_ATOMIC128_RMW(fetch_add, old + v)
REC_ATOMIC128_RMW(fetch_sub, old - v)
REC_ATOMIC128_RMW(fetch_and, old & v)
REC_ATOMIC128_RMW(fetch_or, old | v)
REC_ATOMIC128_RMW(fetch_xor, old ^ v)
REC_ATOMIC128_RMW(fetch_nand, ~(old & v))
#undef REC_ATOMIC128_RMW
static bool rec_cas128(volatile void *a, void *c, rec_u128 v)
{
    rec_guard128 g;
    rec_u128 cur = *(volatile rec_u128 *)a;
    if (cur == *(rec_u128 *)c) {
        *(volatile rec_u128 *)a = v;
        return true;
    }
    *(rec_u128 *)c = cur;
    return false;
}
extern "C" bool __tsan_atomic128_compare_exchange_strong(volatile void *a, void *c, rec_u128 v, int mo, int fmo)
{
    (void)mo;
    (void)fmo;
    return rec_cas128(a, c, v);
}
extern "C" bool __tsan_atomic128_compare_exchange_weak(volatile void *a, void *c, rec_u128 v, int mo, int fmo)
{
    (void)mo;
    (void)fmo;
    return rec_cas128(a, c, v);
}
extern "C" void __tsan_atomic_thread_fence(int mo)
{
    (void)mo;
    __atomic_thread_fence(REC_SC);
}
extern "C" void __tsan_atomic_signal_fence(int mo)
{
    (void)mo;
    __atomic_signal_fence(REC_SC);
}
#undef REC_SC
