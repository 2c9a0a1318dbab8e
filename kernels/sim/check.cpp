/* check.cpp - memcheck (check.h): byte-exact bounds, alignment, use after
 * free and initialisation of every access the hook (record.cpp) sees, and
 * the grouped error reporter that memcheck and the race check share.
 *
 * Global memory: every allocation is followed by a red zone (memory.cpp);
 * an access that touches a byte past what was asked for, or before it, is
 * an error. Shared memory: the block's arrays are separated by red zones of
 * their own (shared.cpp); an access through any pointer that leaves its
 * array lands in one. Local arrays: g++'s -fsanitize=bounds calls
 * __ubsan_handle_out_of_bounds for an index past a local (or __device__)
 * array, which is defined here. An error does not stop the thread: the
 * launch goes on, every distinct error is grouped (one line per site and
 * memory, how many threads and blocks hit it, the first few), and at its
 * end the launch fails with the first error's code, as it does under
 * compute-sanitizer. */
#include "kernels/sim/internal.h"
#include "kernels/sim/race.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <unordered_map>
#include <vector>

namespace gpulab_sim {

int sim_mc_mode = SIM_CHECK_DEFAULT;


/* ------------------------------------------------------ site -> line */

static int (*sim_where_fn)(uintptr_t, char *, size_t, int *);

} /* namespace gpulab_sim */

using namespace gpulab_sim;

extern "C" void sim_check_set_where(int (*fn)(uintptr_t site, char *file, size_t filelen, int *line))
{
    sim_where_fn = fn;
}

extern "C" int sim_check_where(uintptr_t site, char *file, size_t filelen, int *line)
{
    if (!site) return -1;
    if (sim_where_fn) return sim_where_fn(site, file, filelen, line);
    return sim_rec_site_where(site, file, filelen, line);
}

extern "C" void sim_check_set_mode(int mode) { sim_mc_mode = mode & 7; }
extern "C" int sim_check_mode(void) { return sim_mc_mode; }

static const struct {
    const char *name;
    int mode;
} sim_modes[] = {
    {"off", 0},
    {"memcheck", SIM_CHECK_MEMCHECK},
    {"initcheck", SIM_CHECK_MEMCHECK | SIM_CHECK_INITCHECK},
    {"leaks", SIM_CHECK_MEMCHECK | SIM_CHECK_LEAKS},
    {"all", SIM_CHECK_MEMCHECK | SIM_CHECK_INITCHECK | SIM_CHECK_LEAKS},
};

extern "C" int sim_check_parse(const char *name)
{
    for (const auto &m : sim_modes)
        if (name && strcmp(name, m.name) == 0) return m.mode;
    return -1;
}

extern "C" const char *sim_check_name(int mode)
{
    for (const auto &m : sim_modes)
        if (m.mode == (mode & 7)) return m.name;
    return (mode & 7) == SIM_CHECK_LEAKS ? "leaks" : "memcheck";
}

extern "C" unsigned sim_check_leaks(char *buf, size_t len) { return sim_mem_leaks(buf, len); }

/* "line 12" (or "file.cuh:12") of a site, or "" */
static void sim_site_line(uintptr_t site, char *buf, size_t len)
{
    char file[256];
    int line = 0;
    buf[0] = 0;
    if (sim_check_where(site, file, sizeof file, &line) == 0 && line > 0) gpulab_sim::sim_where(buf, len, line, file);
}

/* ------------------------------------------------- the grouped reporter */

namespace {

struct key_hash {
    size_t operator()(const sim_report_key &k) const
    {
        size_t h = (size_t)k.what * 0x9e3779b97f4a7c15ull;
        h ^= k.site1 + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        h ^= k.site2 + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        h ^= k.obj + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        return h;
    }
};
struct key_eq {
    bool operator()(const sim_report_key &a, const sim_report_key &b) const
    {
        return a.what == b.what && a.site1 == b.site1 && a.site2 == b.site2 && a.obj == b.obj;
    }
};

enum { FIRST_FEW = 4 };

struct group {
    std::string msg;
    uintptr_t site;            /* where SIM_REPORT_AT in msg names its line */
    int code;
    unsigned long long hits, threads, blocks;
    unsigned long long last_block;
    uint64_t seen[SIM_MAX_THREADS / 64]; /* threads of last_block that hit it */
    unsigned nfirst;
    unsigned long long first_block[FIRST_FEW];
    unsigned first_thread[FIRST_FEW];
};

struct reporter {
    std::unordered_map<sim_report_key, unsigned, key_hash, key_eq> index;
    std::vector<group> groups;
    unsigned limit = SIM_CHECK_LIMIT_DEFAULT;
    unsigned long long more;       /* distinct errors past the limit */
    unsigned long long hits;
};

reporter &rp()
{
    static reporter *r = new reporter();
    return *r;
}

/* a launch stops when this many errors were hit (a kernel that misses its
 * bounds in every thread of a large grid has said enough) */
const unsigned long long SIM_REPORT_STOP = 1ull << 22;

} /* namespace */

extern "C" void sim_report_set_limit(unsigned groups) { rp().limit = groups ? groups : SIM_CHECK_LIMIT_DEFAULT; }
extern "C" unsigned sim_report_limit(void) { return rp().limit; }
extern "C" unsigned sim_report_pending(void) { return (unsigned)rp().groups.size() + (rp().more ? 1 : 0); }

extern "C" int sim_report_hit(const sim_report_key *k, int code, unsigned long long block, unsigned thread,
                              void (*fmt)(char *buf, size_t len, const void *arg), const void *arg)
{
    /* par.cpp: the report is the launch's, filled in block order */
    if (sim_par_unordered) sim_par_order(nullptr);
    reporter &r = rp();
    r.hits++;
    auto it = r.index.find(*k);
    int fresh = 0;
    if (it == r.index.end()) {
        if (r.groups.size() >= r.limit) {
            /* counted, not kept: the key stays known so it counts once */
            r.index.emplace(*k, ~0u);
            r.more++;
            return r.hits >= SIM_REPORT_STOP ? -1 : 1;
        }
        char buf[LAB_ERR_MAX];
        buf[0] = 0;
        fmt(buf, sizeof buf, arg);
        group g;
        g.msg = buf;
        g.site = k->site1;
        g.code = code;
        g.hits = g.threads = g.blocks = 0;
        g.last_block = ~0ull;
        memset(g.seen, 0, sizeof g.seen);
        g.nfirst = 0;
        r.groups.push_back(g);
        it = r.index.emplace(*k, (unsigned)(r.groups.size() - 1)).first;
        fresh = 1;
    }
    if (it->second == ~0u) return r.hits >= SIM_REPORT_STOP ? -1 : 0;
    group &g = r.groups[it->second];
    g.hits++;
    if (g.last_block != block) {
        g.last_block = block;
        g.blocks++;
        memset(g.seen, 0, sizeof g.seen);
    }
    if (thread < SIM_MAX_THREADS && !(g.seen[thread >> 6] >> (thread & 63) & 1)) {
        g.seen[thread >> 6] |= 1ull << (thread & 63);
        g.threads++;
        if (g.nfirst < FIRST_FEW) {
            g.first_block[g.nfirst] = block;
            g.first_thread[g.nfirst] = thread;
            g.nfirst++;
        }
    }
    if (r.hits >= SIM_REPORT_STOP) return -1;
    return fresh;
}

namespace gpulab_sim {

static void sim_report_reset(void)
{
    reporter &r = rp();
    r.index.clear();
    r.groups.clear();
    r.more = 0;
    r.hits = 0;
}

/* The grouped report of the launch: one line per distinct error. */
static std::string sim_report_text(void)
{
    reporter &r = rp();
    std::string out;
    char buf[512];
    for (const group &g : r.groups) {
        if (!out.empty()) out += "\n";
        /* the access's line: looked up now, outside the fibers (their stacks
         * are small, and reading debug information is not) */
        std::string m = g.msg;
        size_t at = m.find(SIM_REPORT_AT);
        if (at != std::string::npos) {
            char loc[160] = "", where[200] = "";
            sim_site_line(g.site, loc, sizeof loc);
            if (loc[0]) snprintf(where, sizeof where, ", at %s", loc);
            m.replace(at, strlen(SIM_REPORT_AT), where);
        }
        for (size_t o = m.find(SIM_REPORT_ORIGIN); o != std::string::npos; o = m.find(SIM_REPORT_ORIGIN, o)) {
            size_t e = m.find(SIM_REPORT_ORIGIN, o + 1);
            if (e == std::string::npos) break;
            char line[64] = "", where[80] = "";
            if (gpulab_sim::sim_mem_origin_where((unsigned)strtoul(m.c_str() + o + 1, nullptr, 10), line,
                                                 sizeof line) == 0)
                snprintf(where, sizeof where, " at %s", line);
            m.replace(o, e + 1 - o, where);
        }
        out += m;
        if (g.threads > 1 || g.blocks > 1) {
            snprintf(buf, sizeof buf, " [the same error in %llu thread%s of %llu block%s:", g.threads,
                     g.threads == 1 ? "" : "s", g.blocks, g.blocks == 1 ? "" : "s");
            out += buf;
            for (unsigned i = 0; i < g.nfirst; i++) {
                snprintf(buf, sizeof buf, "%s block %llu thread %u", i ? "," : "", g.first_block[i],
                         g.first_thread[i]);
                out += buf;
            }
            out += g.threads > g.nfirst ? ", ...]" : "]";
        }
    }
    if (r.more) {
        snprintf(buf, sizeof buf,
                 "\n... and %llu more distinct error%s (the report shows %u per launch: `set check MODE,N` shows N)",
                 r.more, r.more == 1 ? "" : "s", r.limit);
        out += buf;
    }
    return out;
}

static std::string sim_report_last; /* the whole report of the last launch that had one */

int sim_report_close(int stopped)
{
    reporter &r = rp();
    sim_race_flush(stopped); /* the launch's races join the report */
    if (r.groups.empty() && !r.more) return 0;
    std::string text = sim_report_text();
    sim_report_last = text;
    int code = r.groups.empty() ? (int)cudaErrorIllegalAddress : r.groups.front().code;
    if (stopped && sim_g.diag[0]) {
        /* what stopped the launch comes after the errors it had made before */
        char tail[LAB_ERR_MAX];
        snprintf(tail, sizeof tail, "%s", sim_g.diag);
        if (!strstr(text.c_str(), tail)) text += "\n" + std::string(tail);
    }
    sim_diag("%s", text.c_str());
    if (!stopped || sim_g.fail_code == cudaSuccess) sim_g.fail_code = (cudaError_t)code;
    sim_report_reset();
    return 1;
}

} /* namespace gpulab_sim */

/* The whole grouped report of the last launch that failed with memory
 * errors (the diagnostic is cut at LAB_ERR_MAX bytes). */
extern "C" const char *sim_check_report_take(void)
{
    static std::string taken;
    taken.swap(sim_report_last);
    sim_report_last.clear();
    return taken.c_str();
}

namespace gpulab_sim {

/* ------------------------------------------------------------- memcheck */

enum {
    MC_GLOBAL_OOB = 1, MC_SHARED_OOB, MC_SHARED_INDEX, MC_MISALIGNED, MC_FREED, MC_UNINIT, MC_LOCAL_OOB, MC_LOCAL_RZ
};

static const char *sim_kind_verb(int kind)
{
    return kind == SIM_REC_STORE ? "writes" : kind == SIM_REC_ATOMIC ? "atomically updates" : "reads";
}

/* "kernel: block 3, thread 5, at line 12" (the line filled in by the report) */
static int sim_who(char *buf, size_t len)
{
    char blk[64], thr[96];
    sim_block_name(blk, sizeof blk);
    sim_thread_name(thr, sizeof thr, sim_cur->linear);
    return snprintf(buf, len, "%s: %s, %s%s", sim_g.kernel, blk, thr, SIM_REPORT_AT);
}

struct mc_case {
    const sim_access *a;
    const sim_gobj *g;
    const sim_shared_site *s;
    const sim_rec_object *so;
    uintptr_t near_end;     /* shared: the end of the array the access ran past */
    int what;
    char freed[192];
    int free_line;
    const char *free_call; /* cudaFree, cudaFreeAsync, a graph's free node */
};

static void sim_gpu_global(char *buf, size_t len, int kind)
{
    snprintf(buf, len,
             "on a GPU an address this close to the allocation is still mapped, so nothing stops it: the %s "
             "the allocation's padding or the next allocation%s",
             kind == SIM_REC_LOAD ? "read returns whatever lies in" : "write silently overwrites",
             kind == SIM_REC_LOAD ? "" : " (and a larger index ends the launch with cudaErrorIllegalAddress)");
}

/* What a GPU does with an access at `packed` (the simulator's layout
 * without red zones: the dynamic array first, then the static ones). A GPU
 * puts the static arrays first and the dynamic memory after them. */
static void sim_gpu_shared(char *buf, size_t len, const sim_shared_site *s, long long off, unsigned size, int kind)
{
    long long dyn = (long long)((sim_g.smem + 15) / 16 * 16);
    long long total = (long long)sim_shared_packed_used();
    long long statics = total - dyn;
    long long gpu = !s ? -1 : s->dynamic ? statics + off : (long long)s->packed - dyn + off;
    if (gpu >= 0 && gpu + size <= total)
        snprintf(buf, len,
                 "on a GPU these bytes belong to the block's other shared memory, so nothing stops it: the %s",
                 kind == SIM_REC_LOAD    ? "read returns another array's value"
                 : kind == SIM_REC_STORE ? "write silently overwrites another array"
                                         : "access reads or silently overwrites another array");
    else
        snprintf(buf, len,
                 "on a GPU this is past the %lld bytes of shared memory the block has: an out-of-range shared "
                 "address, which ends the launch with cudaErrorIllegalAddress unless it still falls in the block's "
                 "allocation, rounded up to the GPU's unit, where nothing stops it",
                 total);
}

static void sim_mc_format(char *buf, size_t len, const void *arg)
{
    const mc_case *c = (const mc_case *)arg;
    const sim_access *a = c->a;
    char who[320], what[256], gpu[320];
    sim_who(who, sizeof who);
    const char *verb = sim_kind_verb(a->kind);
    switch (c->what) {
    case MC_MISALIGNED: {
        const char *mem = a->space == SIM_REC_SHARED ? "shared memory" : "global memory";
        if (c->g) sim_mem_describe(c->g, what, sizeof what);
        else if (c->s) {
            char decl[96];
            sim_where(decl, sizeof decl, c->s->line, c->s->file);
            snprintf(what, sizeof what, "shared array %s (declared at %s)", c->s->name, decl);
        } else
            snprintf(what, sizeof what, "%s", mem);
        unsigned long long base = c->g ? c->g->o.base : c->so ? c->so->base : 0;
        snprintf(buf, len,
                 "%s %s %u bytes at byte %llu of %s, an address that is not a multiple of %u: on a GPU a %u-byte "
                 "access must be aligned to %u bytes, and the launch fails with cudaErrorMisalignedAddress",
                 who, verb, a->size, (unsigned long long)(a->addr - base), what, a->size, a->size, a->size);
        return;
    }
    case MC_FREED:
        if (!c->free_call)
            snprintf(buf, len,
                     "%s %s %s before its graph's allocation node ran: a graph's allocation exists only from a run "
                     "of that node to its free (cudaErrorIllegalAddress on a GPU)",
                     who, verb, c->freed);
        else if (c->free_line > 0)
            snprintf(buf, len,
                     "%s %s %s after %s at line %d freed it (use after free): on a GPU the memory may already "
                     "hold another allocation (silent corruption) or be unmapped (cudaErrorIllegalAddress)",
                     who, verb, c->freed, c->free_call, c->free_line);
        else
            snprintf(buf, len,
                     "%s %s %s after %s freed it (use after free): on a GPU the memory may already hold "
                     "another allocation (silent corruption) or be unmapped (cudaErrorIllegalAddress)",
                     who, verb, c->freed, c->free_call);
        return;
    case MC_UNINIT:
        sim_mem_describe(c->g, what, sizeof what);
        snprintf(buf, len,
                 "%s reads %u bytes at byte %llu of %s, which nothing has written since it was allocated (no "
                 "cudaMemcpy, cudaMemset or kernel store reached them): on a GPU the read returns whatever the "
                 "memory held before, with no error",
                 who, a->size, (unsigned long long)(a->addr - c->g->o.base), what);
        return;
    case MC_GLOBAL_OOB: {
        sim_mem_describe(c->g, what, sizeof what);
        unsigned long long off = a->addr - c->g->o.base, end = c->g->o.bytes;
        unsigned long long past = off >= end ? off - end : 0;
        sim_gpu_global(gpu, sizeof gpu, a->kind);
        snprintf(buf, len,
                 "%s %s %u bytes at byte %llu of %s: %llu byte%s past its end (valid bytes are 0 to %llu); %s", who,
                 verb, a->size, off, what, past, past == 1 ? "" : "s", end ? end - 1 : 0, gpu);
        return;
    }
    case MC_SHARED_OOB: {
        sim_gpu_shared(gpu, sizeof gpu, c->s, c->so ? (long long)(a->addr - c->so->base) : 0, a->size, a->kind);
        if (c->s) {
            char decl[96], shape[64];
            sim_where(decl, sizeof decl, c->s->line, c->s->file);
            size_t bytes = c->so->bytes;
            if (c->s->dynamic)
                snprintf(shape, sizeof shape, "the dynamic shared array %s", c->s->name);
            else if (c->s->dims)
                snprintf(shape, sizeof shape, "shared array %s%s", c->s->name, c->s->dims);
            else if (c->s->cols > 1)
                snprintf(shape, sizeof shape, "shared array %s[%zu][%zu]", c->s->name, c->s->rows, c->s->cols);
            else
                snprintf(shape, sizeof shape, "shared array %s[%zu]", c->s->name, c->s->count);
            unsigned long long past = a->addr >= c->near_end ? a->addr - c->near_end : 0;
            snprintf(buf, len,
                     "%s %s %u bytes %llu byte%s past the end of %s (%zu bytes, declared at %s), through a pointer; "
                     "%s",
                     who, verb, a->size, past, past == 1 ? "" : "s", shape, bytes, decl, gpu);
        } else {
            snprintf(buf, len, "%s %s %u bytes of shared memory outside every shared array of the block; %s", who,
                     verb, a->size, gpu);
        }
        return;
    }
    }
}

/* The shared array an address outside every array ran past: the one that
 * ends closest below it. */
static int sim_shared_below(uintptr_t a, uintptr_t *end)
{
    int best = -1;
    uintptr_t be = 0;
    for (unsigned k = 0; k < sim_shared_count(); k++) {
        const sim_rec_object *o = sim_shared_object_at((int)k);
        uintptr_t e = o->base + o->bytes;
        if (o->base <= a && e <= a + 4096 && e >= be && e <= a) {
            be = e;
            best = (int)k;
        }
    }
    *end = be;
    return best;
}

static void sim_mc_hit(mc_case *c, int code, uintptr_t obj)
{
    sim_report_key k = {c->what, c->a->site, 0, obj};
    if (sim_report_hit(&k, code, sim_g.block_linear, sim_cur->linear, sim_mc_format, c) < 0) {
        char blk[64];
        sim_block_name(blk, sizeof blk);
        sim_fail("%s: stopped in %s after %llu memory errors", sim_g.kernel, blk, rp().hits);
    }
}

/* One bad index into an array whose size g++ knows (a __device__ array
 * indexed directly) is seen three times: by -fsanitize=bounds, by
 * -fsanitize=object-size and by the access hook in the red zone after the
 * array. The first says it; the other two are the same error. The bounds
 * handler notes its place and thread here: the object-size report of the
 * same line, and the next access the hook's slow path sees from the thread
 * when it lands past a __device__ variable, are left out. */
static __thread const char *ub_said_file;
static __thread unsigned ub_said_line;
static __thread unsigned ub_said_thread;
static __thread int ub_said_pending;

int sim_mc_access(const sim_access *a, const sim_gobj *g, int shared_k, int aligned)
{
    int ub_said = ub_said_pending && ub_said_thread == sim_cur->linear;
    ub_said_pending = 0;
    mc_case c;
    c.a = a;
    c.g = g;
    c.s = nullptr;
    c.so = nullptr;
    c.near_end = 0;
    c.free_line = 0;
    if (a->space == SIM_REC_SHARED) {
        if (shared_k >= 0) {
            c.s = sim_shared_site_at(shared_k);
            c.so = sim_shared_object_at(shared_k);
        }
        if (shared_k < 0 || a->addr + a->size > c.so->base + c.so->bytes) {
            /* past its array (or in no array): name the one it ran past */
            uintptr_t end = 0;
            int k = shared_k >= 0 ? shared_k : sim_shared_below(a->addr, &end);
            if (k >= 0) {
                c.s = sim_shared_site_at(k);
                c.so = sim_shared_object_at(k);
                c.near_end = c.so->base + c.so->bytes;
            }
            c.what = MC_SHARED_OOB;
            sim_mc_hit(&c, cudaErrorIllegalAddress, c.so ? (uintptr_t)c.so->id : 0);
            return 1;
        }
    } else if (g) {
        if (a->addr < g->o.base || a->addr + a->size > g->o.base + g->o.bytes) {
            if (ub_said && strcmp(g->call, "__device__") == 0) return 1;
            c.what = MC_GLOBAL_OOB;
            sim_mc_hit(&c, cudaErrorIllegalAddress, (uintptr_t)g->o.id);
            return 1;
        }
    } else {
        /* not live device memory: freed? */
        if (sim_mem_freed(a->addr, c.freed, sizeof c.freed, &c.free_line, &c.free_call)) {
            c.what = MC_FREED;
            sim_mc_hit(&c, cudaErrorIllegalAddress, 0);
            return 1;
        }
        return 0;
    }
    /* A 16-byte access is held to 8 bytes: g++ copies a struct of 8-byte
     * members (two pointers, two doubles: alignment 8) with the same aligned
     * 16-byte access it gives a float4, and a GPU copies such a struct in
     * 8-byte pieces, so only an address that is not a multiple of 8 is
     * surely wrong (docs/simulator.md) */
    if (aligned && a->size > 1 && (a->addr & ((a->size > 8 ? 8 : a->size) - 1))) {
        c.what = MC_MISALIGNED;
        sim_mc_hit(&c, cudaErrorMisalignedAddress, g ? (uintptr_t)g->o.id : 0);
        return 1;
    }
    if (g && g->init) {
        if (a->kind == SIM_REC_STORE) {
            sim_mem_mark(g, a->addr, a->size);
        } else if (sim_mc_mode & SIM_CHECK_INITCHECK) {
            size_t off = a->addr - g->o.base;
            for (unsigned i = 0; i < a->size; i++)
                if (!(g->init[(off + i) >> 3] >> ((off + i) & 7) & 1)) {
                    c.what = MC_UNINIT;
                    sim_mc_hit(&c, cudaErrorIllegalAddress, (uintptr_t)g->o.id);
                    return 1;
                }
            if (a->kind == SIM_REC_ATOMIC) sim_mem_mark(g, a->addr, a->size);
        } else if (a->kind == SIM_REC_ATOMIC) {
            sim_mem_mark(g, a->addr, a->size);
        }
    }
    return 0;
}

/* ------------------------------------- local arrays between red zones */

__thread unsigned sim_loc_live;

void sim_local_enter(sim_local_guard *g, const void *obj, size_t objsize, const void *v, size_t vsize,
                     const char *decl, const char *file, int line)
{
    g->active = 0;
    /* host code calling a __host__ __device__ function: nothing watches it */
    if (!sim_in_fiber()) return;
    g->lo = (uintptr_t)obj;
    g->hi = g->lo + objsize;
    g->vlo = (uintptr_t)v;
    g->vhi = g->vlo + vsize;
    g->decl = decl;
    g->file = file;
    g->line = line;
    sim_fiber *f = sim_self();
    g->prev = f->loc_head;
    f->loc_head = g;
    g->active = 1;
    sim_loc_live++;
}

void sim_local_leave(sim_local_guard *g)
{
    if (!g->active) return;
    /* scopes end innermost first: its predecessor is the thread's last */
    sim_self()->loc_head = g->prev;
    if (sim_loc_live) sim_loc_live--;
}

namespace {
struct rz_case {
    const sim_local_guard *g;
    uintptr_t a;
    unsigned size;
    int kind;
};

void rz_format(char *buf, size_t len, const void *arg)
{
    const rz_case *c = (const rz_case *)arg;
    const sim_local_guard *g = c->g;
    char who[320], decl[96], where[160];
    sim_who(who, sizeof who);
    sim_where(decl, sizeof decl, g->line, g->file);
    size_t bytes = g->vhi - g->vlo;
    if (c->a >= g->vhi) {
        unsigned long long past = c->a - g->vhi;
        snprintf(where, sizeof where, "%llu byte%s past the end of", past, past == 1 ? "" : "s");
    } else {
        unsigned long long before = g->vlo - c->a;
        snprintf(where, sizeof where, "%llu byte%s before the start of", before, before == 1 ? "" : "s");
    }
    snprintf(buf, len,
             "%s %s %u bytes %s the local array %s (%zu bytes, declared at %s), through a pointer; on a GPU the "
             "array lies in the thread's local memory beside its other variables, so nothing stops it: the %s, with "
             "no error",
             who, sim_kind_verb(c->kind), c->size, where, g->decl, bytes, decl,
             c->kind == SIM_REC_LOAD ? "read returns one of them" : "write silently overwrites one of them");
}
} /* namespace */

int sim_mc_local(uintptr_t a, unsigned size, int kind, uintptr_t pc)
{
    if (!(sim_mc_mode & SIM_CHECK_MEMCHECK) || !sim_in_fiber()) return 0;
    for (const sim_local_guard *g = sim_self()->loc_head; g; g = g->prev) {
        if (a + size <= g->lo || a >= g->hi) continue;
        if (a >= g->vlo && a + size <= g->vhi) return 0;
        rz_case c = {g, a, size, kind};
        sim_report_key k = {MC_LOCAL_RZ, pc, 0, (uintptr_t)g->decl};
        if (sim_report_hit(&k, cudaErrorIllegalAddress, sim_g.block_linear, sim_cur->linear, rz_format, &c) < 0) {
            char blk[64];
            sim_block_name(blk, sizeof blk);
            sim_fail("%s: stopped in %s after %llu memory errors", sim_g.kernel, blk, rp().hits);
        }
        return 1;
    }
    return 0;
}

void sim_mc_launch_begin(void) { sim_report_reset(); }

/* ------------------------------------------- shared arrays by index */

struct oob_case {
    const sim_shared_site *s;
    long long i, j;
    int dims;
    uintptr_t site;
};

static void sim_oob_format(char *buf, size_t len, const void *arg)
{
    const oob_case *c = (const oob_case *)arg;
    const sim_shared_site *s = c->s;
    char blk[64], thr[96], decl[96], gpu[320];
    sim_block_name(blk, sizeof blk);
    sim_thread_name(thr, sizeof thr, sim_cur->linear);
    sim_where(decl, sizeof decl, s->line, s->file);
    const char *atl = SIM_REPORT_AT;
    long long elem = c->dims == 1 ? c->i : c->j < 0 ? c->i * (long long)s->cols : c->i * (long long)s->cols + c->j;
    sim_gpu_shared(gpu, sizeof gpu, s, elem * (long long)s->elem, (unsigned)s->elem, -1);
    if (s->dynamic) {
        if (sim_g.smem == 0)
            snprintf(buf, len,
                     "%s: %s, %s: index %lld of the dynamic shared array %s (declared at %s), but the launch gave "
                     "it no memory: the smem argument of LAUNCH is 0%s; %s",
                     sim_g.kernel, blk, thr, c->i, s->name, decl, atl, gpu);
        else
            snprintf(buf, len,
                     "%s: %s, %s: index %lld is outside the dynamic shared array %s (declared at %s), which holds "
                     "%zu elements: the launch gave %zu bytes of dynamic shared memory%s; %s",
                     sim_g.kernel, blk, thr, c->i, s->name, decl, s->count, sim_g.smem, atl, gpu);
    } else if (c->dims == 1) {
        snprintf(buf, len,
                 "%s: %s, %s: index %lld is outside shared array %s[%zu] (declared at %s); valid indices are 0 to "
                 "%zu%s; %s",
                 sim_g.kernel, blk, thr, c->i, s->name, s->count, decl, s->count - 1, atl, gpu);
    } else if (c->j < 0) {
        snprintf(buf, len,
                 "%s: %s, %s: row index %lld is outside shared array %s[%zu][%zu] (declared at %s); valid rows "
                 "are 0 to %zu%s; %s",
                 sim_g.kernel, blk, thr, c->i, s->name, s->rows, s->cols, decl, s->rows - 1, atl, gpu);
    } else {
        snprintf(buf, len,
                 "%s: %s, %s: index [%lld][%lld] is outside shared array %s[%zu][%zu] (declared at %s); valid "
                 "columns are 0 to %zu%s; %s",
                 sim_g.kernel, blk, thr, c->i, c->j, s->name, s->rows, s->cols, decl, s->cols - 1, atl, gpu);
    }
}

/* scratch where an access with a bad index goes, so the thread goes on */
static void *sim_oob_scratch(size_t bytes)
{
    static __thread void *buf; /* per worker thread (par.cpp) */
    static __thread size_t have;
    if (bytes > have) {
        void *p = nullptr;
        if (posix_memalign(&p, 256, bytes) != 0) return nullptr;
        free(buf);
        buf = p;
        have = bytes;
    }
    return buf;
}

} /* namespace gpulab_sim */

void *gpulab_sim::sim_shared_oob(const sim_shared_site *s, long long i, long long j, int dims)
{
    oob_case c = {s, i, j, dims, (uintptr_t)__builtin_return_address(0)};
    sim_report_key k = {MC_SHARED_INDEX, c.site, 0, (uintptr_t)s};
    size_t row = (s->cols ? s->cols : 1) * (s->elem ? s->elem : 1);
    void *scratch = sim_oob_scratch(row < 4096 ? 4096 : row);
    if (!sim_in_fiber() || !scratch) {
        char buf[LAB_ERR_MAX];
        sim_oob_format(buf, sizeof buf, &c);
        char *at = strchr(buf, SIM_REPORT_AT[0]);
        if (at) memmove(at, at + 1, strlen(at));
        sim_fail("%s", buf);
    }
    if (sim_report_hit(&k, cudaErrorIllegalAddress, sim_g.block_linear, sim_cur->linear, sim_oob_format, &c) < 0) {
        char blk[64];
        sim_block_name(blk, sizeof blk);
        sim_fail("%s: stopped in %s after %llu memory errors", sim_g.kernel, blk, rp().hits);
    }
    return scratch;
}

/* -------------------------------------------------------- local arrays */

/* g++'s -fsanitize=bounds (compile time only, like the recording's
 * instrumentation) checks every index into an array whose size it knows: a
 * kernel's local arrays, __device__ and __constant__ arrays, and shared
 * arrays of three or more dimensions. The layouts are those of the
 * compiler's own runtime interface (ubsan_handlers.h). The sanitizer build
 * links the real runtime instead. */
#if !defined(SIM_ASAN)
namespace {
struct ubsan_loc {
    const char *file;
    uint32_t line, column;
};
struct ubsan_type {
    uint16_t kind, info;
    char name[1];
};
struct ubsan_oob {
    ubsan_loc loc;
    const ubsan_type *array, *index;
};
struct local_case {
    const ubsan_oob *d;
    long long index;
    int negative;
};

void local_format(char *buf, size_t len, const void *arg)
{
    const local_case *c = (const local_case *)arg;
    char blk[64], thr[96], at[128];
    sim_block_name(blk, sizeof blk);
    sim_thread_name(thr, sizeof thr, sim_cur->linear);
    sim_where(at, sizeof at, (int)c->d->loc.line, c->d->loc.file);
    snprintf(buf, len,
             "%s: %s, %s, at %s: index %lld is outside the array of type %s indexed there (a local, __device__ "
             "or __constant__ array): on a GPU the access reads or overwrites whatever lies next to it (a local "
             "array: the thread's other variables), with no error",
             sim_g.kernel, blk, thr, at, c->index, c->d->array ? c->d->array->name : "?");
}

long long ubsan_value(const ubsan_type *t, uintptr_t v, int *negative)
{
    unsigned bits = t ? 1u << (t->info >> 1) : 64;
    int is_signed = t && (t->info & 1);
    *negative = 0;
    if (bits > 64) return (long long)v; /* passed by pointer: not expected for an index */
    if (is_signed) {
        long long x = bits == 64 ? (long long)v : (long long)(v << (64 - bits)) >> (64 - bits);
        *negative = x < 0;
        return x;
    }
    return (long long)v;
}

void local_oob(const ubsan_oob *d, uintptr_t index, uintptr_t site)
{
    local_case c;
    c.d = d;
    c.index = ubsan_value(d->index, index, &c.negative);
    if (!sim_in_fiber()) {
        /* host code: say it once per place, as UBSan would, and go on */
        static const void *said[64];
        static unsigned nsaid;
        for (unsigned i = 0; i < nsaid; i++)
            if (said[i] == d) return;
        if (nsaid < 64) said[nsaid++] = d;
        fprintf(stderr, "simulator: host code at %s:%u: index %lld is outside the array of type %s indexed there\n",
                sim_basename(d->loc.file), d->loc.line, c.index, d->array ? d->array->name : "?");
        return;
    }
    if (!(sim_mc_mode & SIM_CHECK_MEMCHECK)) return;
    ub_said_file = d->loc.file;
    ub_said_line = d->loc.line;
    ub_said_thread = sim_cur->linear;
    ub_said_pending = 1;
    sim_report_key k = {MC_LOCAL_OOB, site, 0, (uintptr_t)d};
    if (sim_report_hit(&k, cudaErrorIllegalAddress, sim_g.block_linear, sim_cur->linear, local_format, &c) < 0)
        sim_fail("%s: stopped after %llu memory errors", sim_g.kernel, rp().hits);
}
} /* namespace */

/* g++'s -fsanitize=object-size: an access through a pointer whose object
 * the compiler can trace (`int *p = loc + k; p[9]` of a local array) and
 * that does not fit in what is left of it */
namespace {
struct ubsan_mismatch {
    ubsan_loc loc;
    const ubsan_type *type;
    unsigned char log_align, kind;
};
struct size_case {
    const ubsan_mismatch *d;
    uintptr_t p;
};

void size_format(char *buf, size_t len, const void *arg)
{
    const size_case *c = (const size_case *)arg;
    char blk[64], thr[96], at[128];
    sim_block_name(blk, sizeof blk);
    sim_thread_name(thr, sizeof thr, sim_cur->linear);
    sim_where(at, sizeof at, (int)c->d->loc.line, c->d->loc.file);
    snprintf(buf, len,
             "%s: %s, %s, at %s: %s %s through a pointer past the end of the array it points into (a local, "
             "__device__ or __constant__ array, or a struct): on a GPU the access reads or overwrites whatever lies "
             "next to it (a local array: the thread's other variables), with no error",
             sim_g.kernel, blk, thr, at, c->d->kind == 1 ? "writes" : "reads",
             c->d->type ? c->d->type->name : "a value");
}

void size_oob(const ubsan_mismatch *d, uintptr_t p, uintptr_t site)
{
    if (!sim_in_fiber()) {
        static const void *said[64];
        static unsigned nsaid;
        for (unsigned i = 0; i < nsaid; i++)
            if (said[i] == d) return;
        if (nsaid < 64) said[nsaid++] = d;
        fprintf(stderr, "simulator: host code at %s:%u: an access of %s through a pointer past the end of its object\n",
                sim_basename(d->loc.file), d->loc.line, d->type ? d->type->name : "a value");
        return;
    }
    if (!(sim_mc_mode & SIM_CHECK_MEMCHECK)) return;
    /* the index check said it already (above) */
    if (ub_said_file == d->loc.file && ub_said_line == d->loc.line && ub_said_thread == sim_cur->linear) return;
    size_case c = {d, p};
    sim_report_key k = {MC_LOCAL_OOB, site, 0, (uintptr_t)d};
    if (sim_report_hit(&k, cudaErrorIllegalAddress, sim_g.block_linear, sim_cur->linear, size_format, &c) < 0)
        sim_fail("%s: stopped after %llu memory errors", sim_g.kernel, rp().hits);
}
} /* namespace */

extern "C" void __ubsan_handle_type_mismatch_v1(void *data, void *ptr)
{
    size_oob((const ubsan_mismatch *)data, (uintptr_t)ptr, (uintptr_t)__builtin_return_address(0));
}
extern "C" void __ubsan_handle_type_mismatch_v1_abort(void *data, void *ptr)
{
    size_oob((const ubsan_mismatch *)data, (uintptr_t)ptr, (uintptr_t)__builtin_return_address(0));
}
extern "C" void __ubsan_handle_out_of_bounds(void *data, void *index)
{
    local_oob((const ubsan_oob *)data, (uintptr_t)index, (uintptr_t)__builtin_return_address(0));
}
extern "C" void __ubsan_handle_out_of_bounds_abort(void *data, void *index)
{
    local_oob((const ubsan_oob *)data, (uintptr_t)index, (uintptr_t)__builtin_return_address(0));
}
#endif
