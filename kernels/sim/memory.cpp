/* memory.cpp - the CUDA runtime's memory and error calls on the simulator.
 *
 * Device memory is host memory. Every allocation is remembered, so a copy or
 * a memset that misses an allocation, or runs past its end, is refused with
 * an explanation instead of corrupting the heap: the same mistakes that make
 * a GPU return cudaErrorInvalidValue (or crash later) are named here. Fresh
 * device memory is filled with SIM_POISON_GLOBAL so outputs a kernel never
 * wrote stand out; managed memory starts zeroed, as the driver's fresh pages
 * do (programs such as the samples' graphMemoryNodes count on it). */
#include "kernels/sim/internal.h"
#include "kernels/sim/record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

extern "C" void sim_huge_pages(void *p, size_t n)
{
    const uintptr_t h = 2u << 20;
    const uintptr_t lo = ((uintptr_t)p + h - 1) & ~(h - 1), hi = ((uintptr_t)p + n) & ~(h - 1);
    if (n >= (4u << 20) && hi > lo) madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
}

namespace gpulab_sim {

/* One allocation: what was asked for, by which call, and (for a student's
 * program, whose source pass passes them) the variable and the line. */
struct sim_alloc {
    size_t bytes;
    const char *call;
    char name[48];
    int line;
    char *map;          /* guarded allocations: the mapping (data pages, then the guard page) */
    size_t map_bytes;
    size_t reserved;    /* bytes from the start to the end of its red zone (and guard page) */
    unsigned char *init; /* initcheck: one bit per byte that something wrote (NULL: counts as written) */
    unsigned id;
    /* an allocation a library made for the program (thrust's device_vector):
     * the return addresses of the calls that led to it, until a message
     * needs its line in the student's source (sim_mem_origin_where) */
    uintptr_t origin[SIM_ORIGIN_PCS];
    unsigned norigin;
    int kept;            /* a graph's allocation: its address stays reserved when it is freed */
    int mapped;          /* mapped by the driver API (cuMemMap): its pages are the mapping's, not cudaFree's */
    int closed;          /* its data pages are unreadable while host code runs (sim_mem_close) */
};

/* start -> the allocation */
static std::map<uintptr_t, sim_alloc> &sim_allocs(void)
{
    /* never destroyed: the leak report runs at exit, after static destructors */
    static std::map<uintptr_t, sim_alloc> *m = new std::map<uintptr_t, sim_alloc>();
    return *m;
}
/* freed guarded allocations, kept unreadable so that a use after cudaFree
 * faults; the oldest are unmapped past a bound */
struct sim_freed {
    uintptr_t start;
    sim_alloc a;
    int free_line;
    const char *free_call;
};
enum { SIM_FREED_MAX = 256 };
static sim_freed sim_freed_ring[SIM_FREED_MAX];
static unsigned sim_nfreed;
static uintptr_t sim_freed_lo, sim_freed_hi; /* the addresses the ring's and the parked mappings span */
/* freed graph allocations (kept), by start: their addresses stay theirs, for
 * the next launch of the graph's allocation node (sim_mem_unpark) */
static std::map<uintptr_t, sim_freed> &sim_parked(void)
{
    static std::map<uintptr_t, sim_freed> *m = new std::map<uintptr_t, sim_freed>();
    return *m;
}
static int sim_guarded;           /* 1: every allocation ends at a guard page (programs) */
static size_t sim_alloc_total;    /* bytes live */
static unsigned sim_alloc_ids;       /* allocation numbers, never reused */
static int sim_table_dirty = 1;     /* the lookup table (sim_mem_table) is out of date */

/* A program's host threads (OpenMP tasks that allocate, copy and free at
 * once) reach the allocations one at a time: each entry below holds this
 * lock when called from host code. A launch's blocks read the table without
 * it: nothing allocates or frees while a launch runs (the program's runtime
 * serialises launches with allocation), and the launch builds the table
 * before its first block (sim_mem_span). */
static std::recursive_mutex &sim_mem_mu(void)
{
    static std::recursive_mutex *m = new std::recursive_mutex(); /* never destroyed: the leak report runs at exit */
    return *m;
}
struct sim_mem_guard : sim_host_lock {
    sim_mem_guard() : sim_host_lock(sim_mem_mu()) {}
};
static cudaError_t sim_last_err = cudaSuccess;
static cudaError_t sim_sticky_err = cudaSuccess;

void sim_set_last_error(cudaError_t e)
{
    if (e != cudaSuccess) sim_last_err = e;
}

void sim_set_sticky_error(cudaError_t e)
{
    sim_sticky_err = e;
    sim_set_last_error(e);
}

cudaError_t sim_sticky_error(void) { return sim_sticky_err; }

cudaError_t sim_cuda_last_error(int clear)
{
    cudaError_t e = sim_last_err;
    if (clear && sim_sticky_err == cudaSuccess) sim_last_err = cudaSuccess;
    return e;
}

static cudaError_t sim_err(cudaError_t e)
{
    sim_set_last_error(e);
    return e;
}

/* The allocation holding [p, p + bytes): 0 and its start and size, or -1. */
static int sim_find(const void *p, uintptr_t *start, size_t *size)
{
    std::map<uintptr_t, sim_alloc> &m = sim_allocs();
    uintptr_t a = (uintptr_t)p;
    auto it = m.upper_bound(a);
    if (it == m.begin()) return -1;
    --it;
    *start = it->first;
    *size = it->second.bytes;
    if (a >= it->first + (it->second.bytes ? it->second.bytes : 1)) return -1;
    return 0;
}

static int (*sim_origin_fn)(const uintptr_t *pcs, unsigned n, char *file, size_t flen, int *line);

/* The line in the student's source of the allocation a library made (its
 * origin's first frame there), found once and then kept. Host code only:
 * the lookup reads debug information, too much for a fiber's stack. */
static void sim_origin_resolve(sim_alloc &a)
{
    if (!a.norigin) return;
    char file[256];
    int line = 0;
    if (sim_origin_fn && sim_origin_fn(a.origin, a.norigin, file, sizeof file, &line) == 0 && line > 0)
        a.line = line;
    a.norigin = 0;
}

void sim_mem_set_origin_resolver(int (*fn)(const uintptr_t *pcs, unsigned n, char *file, size_t flen, int *line))
{
    sim_origin_fn = fn;
}

static void sim_alloc_name(char *buf, size_t len, const sim_alloc &a)
{
    if (!a.name[0] && a.line <= 0 && a.norigin && !sim_in_fiber()) sim_origin_resolve(const_cast<sim_alloc &>(a));
    if (!a.name[0] && a.line > 0)
        snprintf(buf, len, "an allocation of %zu bytes from %s at line %d", a.bytes, a.call, a.line);
    else if (a.name[0] && a.line > 0)
        snprintf(buf, len, "%s (%zu bytes from %s at line %d)", a.name, a.bytes, a.call, a.line);
    else if (a.name[0])
        snprintf(buf, len, "%s (%zu bytes from %s)", a.name, a.bytes, a.call);
    else
        snprintf(buf, len, "an allocation of %zu bytes from %s", a.bytes, a.call);
}

/* The freed allocation whose memory (data, red zone or guard page) holds a:
 * the ring of recent frees first, then the parked graph allocations. */
static const sim_freed *sim_freed_at(uintptr_t a)
{
    if (a < sim_freed_lo || a >= sim_freed_hi) return nullptr;
    for (unsigned i = 0; i < sim_nfreed && i < SIM_FREED_MAX; i++) {
        const sim_freed &f = sim_freed_ring[i];
        if (f.a.map && a >= (uintptr_t)f.a.map && a < (uintptr_t)f.a.map + f.a.map_bytes) return &f;
    }
    std::map<uintptr_t, sim_freed> &pk = sim_parked();
    auto it = pk.upper_bound(a);
    if (it == pk.begin()) return nullptr;
    --it;
    const sim_freed &f = it->second;
    uintptr_t lo = f.a.map ? (uintptr_t)f.a.map : f.start;
    size_t n = f.a.map ? f.a.map_bytes : f.a.reserved;
    return a >= lo && a < lo + n ? &f : nullptr;
}

/* address space the driver API reserved (progrt_drv.cpp): it says what an
 * address there is, or 0 */
static int (*sim_reserved_fn)(uintptr_t a, int is_write, char *buf, size_t len);
void sim_mem_set_reserved_explainer(int (*fn)(uintptr_t a, int is_write, char *buf, size_t len))
{
    sim_reserved_fn = fn;
}

/* A fault at addr in device memory: say which allocation it missed and how.
 * 1 with the explanation in buf, 0 when addr is not near device memory. */
static size_t sim_pagesize(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

/* a guarded allocation's data pages: all but its last, the guard page */
static size_t sim_data_pages(const sim_alloc &a) { return a.map_bytes - sim_pagesize(); }
/* kept unreadable while host code runs ("device memory the host cannot
 * touch" below): memory only kernels and copies may touch */
static int sim_segv_foreign;  /* the program put its own SIGSEGV handler in (sim_mem_foreign_check) */
static int sim_closing(void) { return sim_guarded && (sim_mc_mode & SIM_CHECK_MEMCHECK) && !sim_segv_foreign; }
/* (a fault on its pages may come after the closing was turned off, from
 * before: closable is what it is, closing what is done now) */
static bool sim_closable(const sim_alloc &a) { return a.init && a.map && !a.mapped; }

int sim_mem_explain(const void *addr, int is_write, char *buf, size_t len)
{
    sim_mem_guard guard;
    uintptr_t a = (uintptr_t)addr;
    const char *acc = is_write ? "writes" : "reads";
    char nm[160];
    std::map<uintptr_t, sim_alloc> &m = sim_allocs();
    auto it = m.upper_bound(a);
    if (it != m.begin()) {
        --it;
        const sim_alloc &al = it->second;
        if (sim_closable(al) && a >= (uintptr_t)al.map && a < (uintptr_t)al.map + sim_data_pages(al)) {
            /* host code (a launch opens what it touches) */
            sim_alloc_name(nm, sizeof nm, al);
            snprintf(buf, len,
                     "%s byte %zu of %s%s, device memory: host code cannot %s memory from %s through its "
                     "pointer (on a GPU the program dies here with a segmentation fault); copy it with "
                     "cudaMemcpy, or allocate it with cudaMallocManaged to use it on both sides",
                     acc, (size_t)(a - it->first), nm, a >= it->first + al.bytes ? ", past its end" : "",
                     is_write ? "write" : "read", al.call);
            return 1;
        }
        if (al.map && a >= it->first + al.bytes && a < (uintptr_t)al.map + al.map_bytes) {
            sim_alloc_name(nm, sizeof nm, al);
            snprintf(buf, len, "%s byte %zu of %s, past its end (cudaErrorIllegalAddress on a GPU)", acc,
                     (size_t)(a - it->first), nm);
            return 1;
        }
    }
    const sim_freed *f = sim_freed_at(a);
    if (!f) return sim_reserved_fn ? sim_reserved_fn(a, is_write, buf, len) : 0;
    sim_alloc_name(nm, sizeof nm, f->a);
    if (!f->free_call)
        snprintf(buf, len, "%s %s before its graph's allocation node ran (use before allocation)", acc, nm);
    else if (f->free_line > 0)
        snprintf(buf, len, "%s %s after %s at line %d freed it (use after free)", acc, nm, f->free_call,
                 f->free_line);
    else
        snprintf(buf, len, "%s %s after %s freed it (use after free)", acc, nm, f->free_call);
    return 1;
}

/* ------------------------------------------------- memcheck's view */

/* The live allocations sorted by address, for the lookups of a launch (the
 * map's nodes do not move, so al stays valid until the allocation is
 * freed, which no kernel can do). */
static std::vector<sim_gobj> sim_table;
static __thread const sim_gobj *sim_table_last; /* per worker thread (par.cpp) */
static unsigned sim_table_gen;                  /* sim_table_last is of this table */
static __thread unsigned sim_table_last_gen;

static void sim_table_build(void)
{
    sim_table.clear();
    sim_table_last = nullptr;
    sim_table_gen++;
    for (auto &kv : sim_allocs()) {
        sim_gobj g;
        memset(&g, 0, sizeof g);
        g.o.base = kv.first;
        g.o.bytes = kv.second.bytes;
        g.o.elem = 0;
        g.o.space = SIM_REC_GLOBAL;
        g.o.id = kv.second.id;
        g.o.name = kv.second.name[0] ? kv.second.name : kv.second.call;
        g.zone_end = kv.first + kv.second.reserved;
        g.init = kv.second.init;
        g.call = kv.second.call;
        g.var = kv.second.name;
        g.line = kv.second.line;
        g.origin = kv.second.norigin > 0;
        sim_table.push_back(g);
    }
    sim_table_dirty = 0;
}

/* The addresses device memory (live, or freed and still watched) spans: an
 * access outside it is a host variable (threadIdx's sim_cur...) or a local */
void sim_mem_span(uintptr_t *lo, uintptr_t *hi)
{
    sim_mem_guard guard;
    if (sim_table_dirty) sim_table_build();
    uintptr_t l = sim_table.empty() ? UINTPTR_MAX : sim_table.front().o.base;
    uintptr_t h = sim_table.empty() ? 0 : sim_table.back().zone_end;
    if (sim_freed_hi) {
        if (sim_freed_lo < l) l = sim_freed_lo;
        if (sim_freed_hi > h) h = sim_freed_hi;
    }
    *lo = l;
    *hi = h;
}

/* The allocation whose bytes or red zone hold a, or NULL. */
const sim_gobj *sim_mem_lookup(uintptr_t a)
{
    sim_mem_guard guard;
    const sim_gobj *l = sim_table_last_gen == sim_table_gen ? sim_table_last : nullptr;
    if (l && a - l->o.base < l->zone_end - l->o.base) return l;
    if (sim_table_dirty) sim_table_build();
    if (sim_table.empty() || a < sim_table.front().o.base || a >= sim_table.back().zone_end) return nullptr;
    size_t lo = 0, hi = sim_table.size();
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (sim_table[mid].o.base <= a) lo = mid;
        else hi = mid;
    }
    const sim_gobj *g = &sim_table[lo];
    if (a < g->o.base || a >= g->zone_end) return nullptr;
    sim_table_last = g;
    sim_table_last_gen = sim_table_gen;
    return g;
}

/* Something wrote [p, p + n) of device memory (a copy, a memset, a kernel's
 * store): initcheck counts those bytes as written. */
void sim_mem_mark(const sim_gobj *g, uintptr_t p, size_t n)
{
    if (!g->init || p >= g->o.base + g->o.bytes) return;
    size_t off = p - g->o.base, end = off + n;
    if (end > g->o.bytes) end = g->o.bytes;
    for (size_t i = off; i < end;) {
        if ((i & 7) == 0 && end - i >= 8) {
            size_t k = (end - i) / 8;
            memset(g->init + i / 8, 0xff, k);
            i += k * 8;
        } else {
            __atomic_or_fetch(&g->init[i / 8], (unsigned char)(1u << (i & 7)), __ATOMIC_RELAXED);
            i++;
        }
    }
}

void sim_mem_written(const void *p, size_t n)
{
    sim_mem_guard guard;
    if (sim_table_dirty) sim_table_build();
    const sim_gobj *g = sim_mem_lookup((uintptr_t)p);
    if (g) sim_mem_mark(g, (uintptr_t)p, n);
}

/* The freed allocation that held a (guarded memory only): its name and the
 * line of its cudaFree, for the report of a use after free. */
int sim_mem_freed(uintptr_t a, char *what, size_t len, int *free_line, const char **free_call)
{
    sim_mem_guard guard;
    /* most addresses that are not device memory are a thread's locals:
     * sim_freed_at looks at the span of freed memory first */
    const sim_freed *f = sim_freed_at(a);
    if (!f) return 0;
    sim_alloc_name(what, len, f->a);
    *free_line = f->free_line;
    *free_call = f->free_call;
    return 1;
}

void sim_mem_set_origin(const void *p, const uintptr_t *pcs, unsigned n)
{
    sim_mem_guard guard;
    auto it = sim_allocs().find((uintptr_t)p);
    if (it == sim_allocs().end()) return;
    sim_alloc &a = it->second;
    a.norigin = n < (unsigned)SIM_ORIGIN_PCS ? n : (unsigned)SIM_ORIGIN_PCS;
    memcpy(a.origin, pcs, a.norigin * sizeof *pcs);
    sim_table_dirty = 1;
}

int sim_mem_origin_where(unsigned id, char *buf, size_t len)
{
    sim_mem_guard guard;
    for (auto &kv : sim_allocs())
        if (kv.second.id == id) {
            sim_origin_resolve(kv.second);
            sim_table_dirty = 1;
            if (kv.second.line <= 0) return -1;
            snprintf(buf, len, "line %d", kv.second.line);
            return 0;
        }
    return -1;
}

void sim_mem_describe(const sim_gobj *g, char *buf, size_t len)
{
    sim_mem_guard guard;
    if (strcmp(g->call, "__device__") == 0 && g->line > 0) {
        /* a __device__ or __constant__ variable (race.cpp) */
        snprintf(buf, len, "%s (%zu bytes, declared at line %d)", g->var, g->o.bytes, g->line);
    } else if (!g->var[0] && g->line <= 0 && g->origin) {
        /* a library's allocation: its line is looked up outside the fibers
         * (the report replaces the mark, check.h) */
        if (sim_in_fiber())
            snprintf(buf, len, "an allocation of %zu bytes from %s%s%u%s", g->o.bytes, g->call, SIM_REPORT_ORIGIN,
                     g->o.id, SIM_REPORT_ORIGIN);
        else {
            char at[64];
            if (sim_mem_origin_where(g->o.id, at, sizeof at) == 0)
                snprintf(buf, len, "an allocation of %zu bytes from %s at %s", g->o.bytes, g->call, at);
            else
                snprintf(buf, len, "an allocation of %zu bytes from %s", g->o.bytes, g->call);
        }
    } else if (!g->var[0] && g->line > 0)
        snprintf(buf, len, "an allocation of %zu bytes from %s at line %d", g->o.bytes, g->call, g->line);
    else if (g->var[0] && g->line > 0)
        snprintf(buf, len, "%s (%zu bytes from %s at line %d)", g->var, g->o.bytes, g->call, g->line);
    else if (g->var[0])
        snprintf(buf, len, "%s (%zu bytes from %s)", g->var, g->o.bytes, g->call);
    else
        snprintf(buf, len, "an allocation of %zu bytes from %s", g->o.bytes, g->call);
}

unsigned sim_mem_leaks(char *buf, size_t len)
{
    sim_mem_guard guard;
    unsigned n = 0;
    size_t used = 0;
    if (len) buf[0] = 0;
    /* in the order they were made */
    std::vector<const sim_alloc *> live;
    for (auto &kv : sim_allocs()) live.push_back(&kv.second);
    std::sort(live.begin(), live.end(), [](const sim_alloc *x, const sim_alloc *y) { return x->id < y->id; });
    for (const sim_alloc *al : live) {
        /* host memory (cudaMallocHost) is not device memory */
        if (strcmp(al->call, "cudaMallocHost") == 0 || strcmp(al->call, "cudaHostAlloc") == 0) continue;
        char nm[160];
        sim_alloc_name(nm, sizeof nm, *al);
        if (used < len) {
            int k = snprintf(buf + used, len - used, "%s%s%s", n ? "\n" : "", nm,
                             al->mapped ? ", never unmapped (cuMemUnmap, then cuMemRelease and cuMemAddressFree)" : "");
            if (k > 0) used += (size_t)k < len - used ? (size_t)k : len - used - 1;
        }
        n++;
    }
    return n;
}

void sim_mem_guarded(int on) { sim_guarded = on; }
size_t sim_mem_in_use(void) { return sim_alloc_total; }

static int (*sim_caller_fn)(char *file, size_t flen, int *line);

/* the student's line of the library call about to run (the libraries'
 * headers say it: their code is not the student's, but its line tables may
 * name the student's file) */
static thread_local int sim_lib_line;
void sim_lib_at(int line) { sim_lib_line = line; }

/* A host call's bad range in a student's program (the resolver is set):
 * said at once with the call's line (given, or the caller's on the stack),
 * since the program sees only the error code, as on a GPU. */
static void sim_range_said(int line)
{
    char file[256];
    if (!sim_caller_fn || sim_in_fiber()) return;
    if (!line && sim_caller_fn(file, sizeof file, &line) != 0) line = 0;
    const char *why = sim_diag_take();
    if (!why) return;
    if (line > 0) fprintf(stderr, "simulator: line %d: %s\n", line, why);
    else fprintf(stderr, "simulator: %s\n", why);
}

/* Check that [p, p + bytes) is device memory; explain when not (line: the
 * call's, 0 to find it on the stack). */
static int sim_check_range(const char *call, const char *which, const void *p, size_t bytes, int line = 0)
{
    uintptr_t start;
    size_t size;
    if (sim_find(p, &start, &size) != 0) {
        /* a __device__ or __constant__ variable's address (cudaGetSymbolAddress) */
        const sim_gobj *v = sim_devvar_lookup((uintptr_t)p);
        if (v && (uintptr_t)p - v->o.base + bytes <= v->o.bytes) return 0;
        char why[320];
        if (sim_mem_explain(p, 0, why, sizeof why))
            sim_diag("%s: the %s %p %s", call, which, p, why);
        else if (sim_host_describe_fn && sim_host_describe_fn(p, why, sizeof why))
            sim_diag("%s: the %s %p is %s, not memory from cudaMalloc", call, which, p, why);
        else
            sim_diag("%s: the %s %p is not memory from cudaMalloc (a host pointer, a freed one, or never allocated)",
                     call, which, p);
        sim_range_said(line);
        return -1;
    }
    size_t off = (size_t)((uintptr_t)p - start);
    if (bytes > size - off) {
        const sim_alloc &al = sim_allocs()[start];
        char nm[160] = "";
        if (al.name[0]) {
            snprintf(nm, sizeof nm, " %s", al.name);
            if (al.line > 0) snprintf(nm + strlen(nm), sizeof nm - strlen(nm), " (from %s at line %d)", al.call, al.line);
        }
        sim_diag("%s: %zu bytes from the %s %p run past the end of its allocation%s: it holds %zu bytes from "
                 "there (%zu in all)",
                 call, bytes, which, p, nm, size - off, size);
        sim_range_said(line);
        return -1;
    }
    return 0;
}

/* ------------------------------------------- device memory the host cannot touch */

/* On a GPU, memory from cudaMalloc is not the host's: host code that reads
 * or writes it through the pointer crashes (a segmentation fault). Here it
 * is the process's own memory, so while host code runs the data pages of
 * every allocation that only kernels and copies may touch (those initcheck
 * watches: cudaMalloc, cudaMallocPitch, cudaMallocAsync, a graph's, the
 * driver API's cuMemAlloc) are unreadable (of a large one, its start and
 * its end: sim_closed_spans). The fault handlers (fiber.cpp,
 * the program's runtime) open an allocation at the first touch of a launch's
 * code or of the runtime's own (a copy), and the end of the launch or copy
 * closes it again; a touch by the student's own host code is the crash it is
 * on a GPU, explained. With the memory checks off, nothing is closed. */
static const unsigned SIM_OPEN_MAX = 1024;
static std::mutex sim_open_mu;                       /* a page's state and its flag change together */
static uintptr_t sim_opened[SIM_OPEN_MAX];          /* allocations opened since the last close */
static std::atomic<unsigned> sim_nopened;

/* What is closed: an allocation's data pages up to 1 MiB whole; of a larger
 * one its first 256 KiB and the pages of its last element, where host code
 * that walks or peeks at an array starts. Changing a page's protection costs
 * by the page (on this kind of machine about 0.1 us a page, 13 us a call),
 * and a loop of launches closes and opens again every time. */
static const size_t SIM_CLOSE_WHOLE = 1u << 20, SIM_CLOSE_HEAD = 256u << 10;
struct sim_span {
    uintptr_t lo;
    size_t bytes;
};
static unsigned sim_closed_spans(const sim_alloc &a, sim_span out[2])
{
    size_t data = sim_data_pages(a), pg = sim_pagesize();
    uintptr_t m = (uintptr_t)a.map;
    if (data <= SIM_CLOSE_WHOLE) {
        out[0] = {m, data};
        return 1;
    }
    uintptr_t last = (m + (a.bytes ? a.bytes - 1 : 0)) & ~(uintptr_t)(pg - 1);
    if (last < m + SIM_CLOSE_HEAD) last = m + SIM_CLOSE_HEAD;
    out[0] = {m, SIM_CLOSE_HEAD};
    out[1] = {last, m + data - last};
    return 2;
}
static int sim_protect(const sim_alloc &a, int prot)
{
    sim_span sp[2];
    unsigned n = sim_closed_spans(a, sp);
    for (unsigned i = 0; i < n; i++)
        if (sp[i].bytes && mprotect((void *)sp[i].lo, sp[i].bytes, prot) != 0) return -1;
    return 0;
}

static void sim_close_alloc(sim_alloc &a)
{
    if (!sim_closable(a) || !sim_closing()) return;
    std::lock_guard<std::mutex> lk(sim_open_mu);
    if (!a.closed && sim_protect(a, PROT_NONE) == 0) a.closed = 1;
}

/* The closable allocation whose data pages hold addr, closed now or not: a
 * fault there came from its closed pages, which another thread may have
 * opened since (no lock: called from the fault handlers, while a launch
 * runs or with the allocation table held). */
static sim_alloc *sim_closable_at(uintptr_t a)
{
    std::map<uintptr_t, sim_alloc> &m = sim_allocs();
    auto it = m.upper_bound(a);
    if (it == m.begin()) return nullptr;
    --it;
    sim_alloc &al = it->second;
    if (!sim_closable(al)) return nullptr;
    sim_span sp[2];
    unsigned n = sim_closed_spans(al, sp);
    for (unsigned i = 0; i < n; i++)
        if (a >= sp[i].lo && a < sp[i].lo + sp[i].bytes) return &al;
    return nullptr;
}

int sim_mem_closed(const void *addr)
{
    sim_mem_guard guard;
    return sim_closable_at((uintptr_t)addr) != nullptr;
}

/* From a fault handler. A launch's threads (fibers) take no allocation
 * lock: nothing allocates or frees while a launch runs. Another host thread
 * may close what this one opened between the fault and the retry: the retry
 * faults and opens it again. */
int sim_mem_open(const void *addr)
{
    sim_mem_guard guard;
    std::lock_guard<std::mutex> lk(sim_open_mu);
    sim_alloc *al = sim_closable_at((uintptr_t)addr);
    if (!al) return 0;
    if (!al->closed) return 1;
    if (sim_protect(*al, PROT_READ | PROT_WRITE) != 0) return 0;
    al->closed = 0;
    unsigned i = sim_nopened.fetch_add(1);
    if (i < SIM_OPEN_MAX) sim_opened[i] = (uintptr_t)al->map;
    return 1;
}

/* A program with its own SIGSEGV handler would get the faults that open
 * device memory for the runtime: from the first copy or launch's end after
 * it put one in, everything is opened and nothing closed again. */
static int (*sim_segv_ours_fn)(void);
void sim_mem_set_segv_check(int (*fn)(void)) { sim_segv_ours_fn = fn; }
void sim_mem_foreign_check(void)
{
    if (sim_segv_foreign || !sim_segv_ours_fn || !sim_guarded || sim_segv_ours_fn()) return;
    sim_mem_guard guard;
    std::lock_guard<std::mutex> lk(sim_open_mu);
    for (auto &kv : sim_allocs())
        if (kv.second.closed && sim_protect(kv.second, PROT_READ | PROT_WRITE) == 0) kv.second.closed = 0;
    sim_segv_foreign = 1;
}

void sim_mem_close(void)
{
    sim_mem_foreign_check();
    if (!sim_nopened.load(std::memory_order_acquire)) return;
    sim_mem_guard guard;
    unsigned n = sim_nopened.exchange(0);
    std::map<uintptr_t, sim_alloc> &m = sim_allocs();
    if (n > SIM_OPEN_MAX) {
        for (auto &kv : m) sim_close_alloc(kv.second);
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        auto it = m.find(sim_opened[i]);
        if (it != m.end()) sim_close_alloc(it->second);
    }
}

/* al, at m, among the live allocations: numbered, counted, and told to the
 * recording, which names it after its variable where the call said it */
static void sim_alloc_keep(void *m, sim_alloc &al)
{
    al.id = ++sim_alloc_ids;
    sim_alloc &kept = sim_allocs()[(uintptr_t)m] = al;
    sim_alloc_total += al.bytes;
    sim_table_dirty = 1;
    sim_rec_object_add(m, al.bytes, kept.name[0] ? kept.name : al.call);
}

cudaError_t sim_cuda_malloc_named(void **p, size_t bytes, const char *what, const char *name, int line)
{
    sim_mem_guard guard;
    sim_runtime_used(2);
    if (!p) {
        sim_diag("%s: the pointer to store the address in is NULL", what);
        return sim_err(cudaErrorInvalidValue);
    }
    if (sim_sticky_err) return sim_sticky_err;
    *p = nullptr;
    sim_alloc al;
    memset(&al, 0, sizeof al);
    al.bytes = bytes;
    al.call = what;
    if (name) {
        /* "&d_x" or "(void **)&d_x" -> "d_x" */
        const char *amp = strrchr(name, '&');
        const char *n = amp ? amp + 1 : name;
        while (*n == ' ' || *n == '(') n++;
        snprintf(al.name, sizeof al.name, "%s", n);
        size_t l = strlen(al.name);
        while (l && (al.name[l - 1] == ')' || al.name[l - 1] == ' ')) al.name[--l] = 0;
    }
    al.line = line;
    /* Aligned to 256 bytes as cudaMalloc's memory is (the CUDA Programming
     * Guide: at least 256), so a warp's coalesced load touches the sectors
     * it does on a GPU. After the bytes asked for comes a red zone of at
     * least SIM_REDZONE bytes that memcheck watches, byte for byte. */
    size_t reserved = (bytes + 255) / 256 * 256 + SIM_REDZONE;
    if (reserved < bytes) {
        sim_diag("%s: %zu bytes is more than any memory", what, bytes);
        return sim_err(cudaErrorMemoryAllocation);
    }
    void *m;
    /* the bytes asked for; the red zone is poison whatever they are */
    int fill = strcmp(what, "cudaMallocManaged") == 0 ? 0 : SIM_POISON_GLOBAL;
    if (sim_guarded) {
        /* the data starts a mapping and its red zone ends where an unreadable
         * page begins: a kernel that runs far past the end faults at once,
         * and the fault names the allocation */
        size_t pg = sim_pagesize();
        size_t data = (reserved + pg - 1) / pg * pg;
        if (data < reserved) {
            sim_diag("%s: %zu bytes is more than any memory", what, bytes);
            return sim_err(cudaErrorMemoryAllocation);
        }
        char *map = (char *)mmap(nullptr, data + pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (map == MAP_FAILED) {
            sim_diag("%s: could not allocate %zu bytes for the simulated device (the program's memory limit?)",
                     what, bytes);
            return sim_err(cudaErrorMemoryAllocation);
        }
        mprotect(map + data, pg, PROT_NONE);
        sim_huge_pages(map, data);
        al.map = map;
        al.map_bytes = data + pg;
        al.reserved = data + pg;
        m = map;
        memset(m, SIM_POISON_GLOBAL, data);
        memset(m, fill, bytes);
    } else {
        m = aligned_alloc(256, reserved);
        if (!m) {
            sim_diag("%s: could not allocate %zu bytes of host memory for the simulated device", what, bytes);
            return sim_err(cudaErrorMemoryAllocation);
        }
        al.reserved = reserved;
        sim_huge_pages(m, reserved);
        memset(m, SIM_POISON_GLOBAL, reserved);
        memset(m, fill, bytes);
    }
    /* initcheck watches device memory; managed and host memory are written
     * by host code too, which is not watched, so they count as written */
    if (strcmp(what, "cudaMalloc") == 0 || strcmp(what, "cudaMallocPitch") == 0 ||
        strcmp(what, "cudaMallocAsync") == 0 || strcmp(what, "cudaGraphAddMemAllocNode") == 0) {
        al.init = (unsigned char *)calloc(bytes / 8 + 1, 1);
        if (al.init) sim_huge_pages(al.init, bytes / 8 + 1);
        if (!al.init) {
            if (al.map) munmap(al.map, al.map_bytes);
            else free(m);
            sim_diag("%s: could not allocate %zu bytes of host memory for the simulated device", what, bytes);
            return sim_err(cudaErrorMemoryAllocation);
        }
    }
    sim_close_alloc(al);
    sim_alloc_keep(m, al);
    *p = m;
    return cudaSuccess;
}

cudaError_t sim_cuda_malloc(void **p, size_t bytes, const char *what)
{
    return sim_cuda_malloc_named(p, bytes, what, nullptr, 0);
}

cudaError_t sim_cuda_free_at(void *p, const char *what, int line)
{
    sim_mem_guard guard;
    sim_runtime_used(2);
    /* as on a GPU: after a kernel fault the context is broken and nothing
     * is freed any more (the leak check then lists what stayed) */
    if (sim_sticky_err) return sim_sticky_err;
    if (!p) return cudaSuccess;
    std::map<uintptr_t, sim_alloc> &m = sim_allocs();
    auto it = m.find((uintptr_t)p);
    if (it == m.end()) {
        char why[320];
        if (sim_mem_explain(p, 0, why, sizeof why) && strstr(why, "use after free"))
            sim_diag("%s: %p was freed already: freed twice (it %s)", what, p, why + 6);
        else
            sim_diag("%s: %p is not the start of a live allocation (freed twice, or not from cudaMalloc)", what, p);
        return sim_err(cudaErrorInvalidValue);
    }
    if (it->second.mapped) {
        sim_diag("%s: %p is memory mapped with cuMemMap, not from cudaMalloc: cuMemUnmap unmaps it", what, p);
        return sim_err(cudaErrorInvalidValue);
    }
    sim_alloc al = it->second;
    m.erase(it);
    /* freed memory is unreadable only where memcheck does not watch it (below) */
    if (al.closed) sim_protect(al, PROT_READ | PROT_WRITE);
    al.closed = 0;
    sim_rec_object_remove(p);
    sim_alloc_total -= al.bytes;
    sim_table_dirty = 1;
    free(al.init);
    al.init = nullptr;
    if (al.kept) {
        /* a graph's allocation: its bytes go, its address stays reserved for
         * the next run of the graph's allocation node; a use in between is a
         * use after free like any other */
        if (al.map) {
            if (sim_rec_available() && (sim_mc_mode & SIM_CHECK_MEMCHECK))
                madvise(al.map, al.map_bytes - sim_pagesize(), MADV_DONTNEED);
            else
                mprotect(al.map, al.map_bytes, PROT_NONE);
        }
        uintptr_t lo = al.map ? (uintptr_t)al.map : (uintptr_t)p;
        size_t n = al.map ? al.map_bytes : al.reserved;
        if (!sim_freed_lo || lo < sim_freed_lo) sim_freed_lo = lo;
        if (lo + n > sim_freed_hi) sim_freed_hi = lo + n;
        sim_parked()[(uintptr_t)p] = sim_freed{(uintptr_t)p, al, line, what};
        return cudaSuccess;
    }
    if (al.map) {
        /* memcheck sees every access and reports each use after free, so
         * the memory stays mapped (its bytes dropped) and the kernel goes on;
         * without it, freed memory is unreadable and the first use faults */
        if (sim_rec_available() && (sim_mc_mode & SIM_CHECK_MEMCHECK)) {
            madvise(al.map, al.map_bytes - sim_pagesize(), MADV_DONTNEED);
        } else {
            mprotect(al.map, al.map_bytes, PROT_NONE);
            madvise(al.map, al.map_bytes, MADV_DONTNEED);
        }
        sim_freed &slot = sim_freed_ring[sim_nfreed % SIM_FREED_MAX];
        if (sim_nfreed >= SIM_FREED_MAX && slot.a.map) munmap(slot.a.map, slot.a.map_bytes);
        slot.start = (uintptr_t)p;
        slot.a = al;
        if (!sim_freed_lo || (uintptr_t)al.map < sim_freed_lo) sim_freed_lo = (uintptr_t)al.map;
        if ((uintptr_t)al.map + al.map_bytes > sim_freed_hi) sim_freed_hi = (uintptr_t)al.map + al.map_bytes;
        slot.free_line = line;
        slot.free_call = what;
        sim_nfreed++;
    } else {
        free(p);
    }
    return cudaSuccess;
}

cudaError_t sim_cuda_free(void *p, const char *what) { return sim_cuda_free_at(p, what, 0); }

/* Device memory whose pages the driver API's virtual memory management
 * mapped (progrt_drv.cpp: cuMemMap, then cuMemSetAccess): from here on an
 * allocation like cudaMalloc's, watched by memcheck and initcheck, without a
 * red zone of its own (past its end lies unmapped address space). */
cudaError_t sim_mem_adopt(void *p, size_t bytes, const char *what)
{
    sim_mem_guard guard;
    sim_alloc al;
    memset(&al, 0, sizeof al);
    al.bytes = bytes;
    al.reserved = bytes;
    al.call = what;
    al.mapped = 1;
    al.init = (unsigned char *)calloc(bytes / 8 + 1, 1);
    if (!al.init) {
        sim_diag("%s: could not allocate %zu bytes of host memory for the simulated device", what, bytes);
        return sim_err(cudaErrorMemoryAllocation);
    }
    sim_alloc_keep(p, al);
    return cudaSuccess;
}

/* The mapping at p leaves device memory (cuMemUnmap): 1, or 0 where none
 * was adopted there. */
int sim_mem_disown(void *p)
{
    sim_mem_guard guard;
    std::map<uintptr_t, sim_alloc> &m = sim_allocs();
    auto it = m.find((uintptr_t)p);
    if (it == m.end() || !it->second.mapped) return 0;
    sim_rec_object_remove(p);
    sim_alloc_total -= it->second.bytes;
    free(it->second.init);
    m.erase(it);
    sim_table_dirty = 1;
    return 1;
}

/* how many times the host waited for the whole device (graph memory's
 * blocks freed in a stream are free for every stream after one) */
static std::atomic<unsigned long> sim_device_syncs;
void sim_mem_device_synced(void)
{
    sim_device_syncs++;
    sim_runtime_used(2);
}

/* How far the runtime has gone, for the driver API (progrt_drv.cpp): 1 once
 * a runtime call initialised the driver (cudaGetDeviceCount and the device's
 * properties), 2 once one made the device's primary context current
 * (cudaSetDevice, an allocation, a copy, a launch, a synchronisation). */
static std::atomic<int> sim_runtime_level;
void sim_runtime_used(int level)
{
    int l = sim_runtime_level.load(std::memory_order_relaxed);
    while (l < level && !sim_runtime_level.compare_exchange_weak(l, level)) {
    }
}
int sim_runtime_state(void) { return sim_runtime_level.load(std::memory_order_relaxed); }
unsigned long sim_mem_device_syncs(void) { return sim_device_syncs; }

/* A graph's allocation (CUDA's graph memory nodes): the address stays the
 * graph's for as long as the program runs, the bytes exist only between a
 * run of its allocation node and its free. */
cudaError_t sim_mem_keep(void *p)
{
    sim_mem_guard guard;
    auto it = sim_allocs().find((uintptr_t)p);
    if (it == sim_allocs().end()) return sim_err(cudaErrorInvalidValue);
    it->second.kept = 1;
    return cudaSuccess;
}

/* The allocation node runs again: the parked allocation at p is live once
 * more, at the same address, its bytes unwritten (initcheck watches them
 * like cudaMalloc's). cudaErrorInvalidValue, said, if it is still live (the
 * graph launched again before its allocation was freed) or not a graph's. */
cudaError_t sim_mem_unpark(void *p, const char *what)
{
    sim_mem_guard guard;
    std::map<uintptr_t, sim_freed> &pk = sim_parked();
    auto it = pk.find((uintptr_t)p);
    if (it == pk.end()) {
        auto live = sim_allocs().find((uintptr_t)p);
        char nm[160];
        if (live != sim_allocs().end()) {
            sim_alloc_name(nm, sizeof nm, live->second);
            sim_diag("%s: %s is still allocated: a graph's allocation must be freed (a free node, cudaFree or "
                     "cudaFreeAsync) before the graph that allocates it is launched again",
                     what, nm);
        } else
            sim_diag("%s: %p is not a graph's allocation", what, p);
        return sim_err(cudaErrorInvalidValue);
    }
    sim_alloc al = it->second.a;
    pk.erase(it);
    if (al.map) {
        size_t data = al.map_bytes - sim_pagesize();
        if (mprotect(al.map, data, PROT_READ | PROT_WRITE) != 0) {
            sim_diag("%s: could not map %zu bytes again for the simulated device", what, al.bytes);
            return sim_err(cudaErrorMemoryAllocation);
        }
        memset(al.map, SIM_POISON_GLOBAL, data);
    } else
        memset(p, SIM_POISON_GLOBAL, al.reserved);
    al.init = (unsigned char *)calloc(al.bytes / 8 + 1, 1);
    if (!al.init) {
        sim_diag("%s: could not allocate %zu bytes of host memory for the simulated device", what, al.bytes);
        return sim_err(cudaErrorMemoryAllocation);
    }
    al.id = ++sim_alloc_ids;
    sim_alloc &kept = sim_allocs()[(uintptr_t)p] = al;
    sim_close_alloc(kept);
    sim_alloc_total += al.bytes;
    sim_table_dirty = 1;
    sim_rec_object_add(p, al.bytes, kept.name[0] ? kept.name : what);
    return cudaSuccess;
}

static const char *sim_kind_name(cudaMemcpyKind k)
{
    switch (k) {
    case cudaMemcpyHostToHost: return "cudaMemcpyHostToHost";
    case cudaMemcpyHostToDevice: return "cudaMemcpyHostToDevice";
    case cudaMemcpyDeviceToHost: return "cudaMemcpyDeviceToHost";
    case cudaMemcpyDeviceToDevice: return "cudaMemcpyDeviceToDevice";
    default: return "cudaMemcpyDefault";
    }
}

void sim_mem_set_caller_resolver(int (*fn)(char *file, size_t flen, int *line)) { sim_caller_fn = fn; }

/* initcheck of a copy's source: bytes of device memory that nothing wrote
 * since cudaMalloc, copied out (compute-sanitizer's initcheck names such a
 * copy too). Said once per allocation and line; the copy itself goes on,
 * returning whatever the memory held, as on a GPU. */
static void sim_copy_initcheck(const char *call, const void *src, size_t bytes)
{
    /* kernels' stores mark bytes written only where their accesses are
     * instrumented (not in the sanitizer build) */
    if (!(sim_mc_mode & SIM_CHECK_INITCHECK) || sim_in_fiber() || !sim_rec_available()) return;
    if (sim_table_dirty) sim_table_build();
    const sim_gobj *g = sim_mem_lookup((uintptr_t)src);
    if (!g || !g->init || (uintptr_t)src >= g->o.base + g->o.bytes) return;
    size_t off = (uintptr_t)src - g->o.base, end = off + bytes, first = 0, last = 0, n = 0;
    if (end > g->o.bytes) end = g->o.bytes;
    for (size_t i = off; i < end; i++)
        if (!(g->init[i >> 3] >> (i & 7) & 1)) {
            if (!n++) first = i;
            last = i;
        }
    if (!n) return;
    char file[256];
    int line = 0;
    if (!sim_caller_fn || sim_caller_fn(file, sizeof file, &line) != 0) line = 0;
    static std::set<std::pair<unsigned, int>> said;
    if (!said.insert(std::make_pair(g->o.id, line)).second) return;
    char what[256];
    sim_mem_describe(g, what, sizeof what);
    char at[48] = "";
    if (line > 0) snprintf(at, sizeof at, " at line %d", line);
    fprintf(stderr,
            "simulator: %s%s copies %zu bytes of %s that nothing has written since it was allocated (bytes %zu "
            "to %zu); a GPU copies whatever the memory held: write them first (a kernel, cudaMemcpy or "
            "cudaMemset), or copy only what was written\n",
            call, at, n, what, first, last);
}

cudaError_t sim_cuda_memcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    sim_mem_guard guard;
    sim_mem_foreign_check();
    sim_runtime_used(2);
    if (sim_sticky_err) return sim_sticky_err;
    if ((int)kind < 0 || (int)kind > 4) {
        sim_diag("cudaMemcpy: %d is not a cudaMemcpyKind", (int)kind);
        return sim_err(cudaErrorInvalidMemcpyDirection);
    }
    if (bytes == 0) return cudaSuccess;
    char call[64];
    snprintf(call, sizeof call, "cudaMemcpy(%s)", sim_kind_name(kind));
    if (!dst || !src) {
        sim_diag("%s: the %s is NULL", call, dst ? "source" : "destination");
        return sim_err(cudaErrorInvalidValue);
    }
    bool dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    bool src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    /* the classic mix-up: source and destination, or the kind, swapped */
    uintptr_t s0;
    size_t sz;
    bool d_is_dev = sim_find(dst, &s0, &sz) == 0, s_is_dev = sim_find(src, &s0, &sz) == 0;
    if ((kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToHost) && dst_dev != d_is_dev &&
        src_dev != s_is_dev) {
        sim_diag("%s: the destination is %s memory and the source is %s memory: the arguments are "
                 "(destination, source, bytes, kind), and the kind names the direction",
                 call, d_is_dev ? "device" : "host", s_is_dev ? "device" : "host");
        return sim_err(cudaErrorInvalidValue);
    }
    if (dst_dev && sim_check_range(call, "destination", dst, bytes) != 0) return sim_err(cudaErrorInvalidValue);
    if (src_dev && sim_check_range(call, "source", src, bytes) != 0) return sim_err(cudaErrorInvalidValue);
    if (src_dev) sim_copy_initcheck(call, src, bytes);
    memmove(dst, src, bytes);
    if (dst_dev) sim_mem_written(dst, bytes);
    sim_mem_close();
    return cudaSuccess;
}

/* A library call on the host writes [p, p + bytes) of device memory (on the
 * simulator cuRAND's generators fill it from the host): checked like
 * cudaMemset's range before it writes, then counted as written. */
int sim_lib_output(const char *call, void *p, size_t bytes)
{
    sim_mem_guard guard;
    if (bytes == 0) return 0;
    if (sim_check_range(call, "output", p, bytes, sim_lib_line) != 0) return -1;
    sim_mem_written(p, bytes);
    return 0;
}

/* ... and one that reads [p, p + bytes) of device memory */
int sim_lib_input(const char *call, const void *p, size_t bytes)
{
    sim_mem_guard guard;
    if (bytes == 0) return 0;
    return sim_check_range(call, "input", p, bytes, sim_lib_line) != 0 ? -1 : 0;
}

cudaError_t sim_cuda_memset(void *p, int value, size_t bytes)
{
    sim_mem_guard guard;
    sim_mem_foreign_check();
    if (sim_sticky_err) return sim_sticky_err;
    if (bytes == 0) return cudaSuccess;
    if (sim_check_range("cudaMemset", "pointer", p, bytes) != 0) return sim_err(cudaErrorInvalidValue);
    memset(p, value, bytes);
    sim_mem_written(p, bytes);
    sim_mem_close();
    return cudaSuccess;
}

const char *sim_cuda_error_name(cudaError_t e)
{
    switch (e) {
#define SIM_NAME(x) case x: return #x;
        SIM_NAME(cudaSuccess)
        SIM_NAME(cudaErrorInvalidValue)
        SIM_NAME(cudaErrorMemoryAllocation)
        SIM_NAME(cudaErrorInitializationError)
        SIM_NAME(cudaErrorInvalidConfiguration)
        SIM_NAME(cudaErrorInvalidDeviceFunction)
        SIM_NAME(cudaErrorInvalidSymbol)
        SIM_NAME(cudaErrorInvalidHostPointer)
        SIM_NAME(cudaErrorInvalidDevicePointer)
        SIM_NAME(cudaErrorInvalidMemcpyDirection)
        SIM_NAME(cudaErrorInsufficientDriver)
        SIM_NAME(cudaErrorNoDevice)
        SIM_NAME(cudaErrorInvalidDevice)
        SIM_NAME(cudaErrorInvalidKernelImage)
        SIM_NAME(cudaErrorInvalidResourceHandle)
        SIM_NAME(cudaErrorNotReady)
        SIM_NAME(cudaErrorIllegalAddress)
        SIM_NAME(cudaErrorLaunchOutOfResources)
        SIM_NAME(cudaErrorLaunchTimeout)
        SIM_NAME(cudaErrorAssert)
        SIM_NAME(cudaErrorHardwareStackError)
        SIM_NAME(cudaErrorIllegalInstruction)
        SIM_NAME(cudaErrorMisalignedAddress)
        SIM_NAME(cudaErrorLaunchFailure)
        SIM_NAME(cudaErrorCooperativeLaunchTooLarge)
        SIM_NAME(cudaErrorNotSupported)
        SIM_NAME(cudaErrorStreamCaptureUnsupported)
        SIM_NAME(cudaErrorGraphExecUpdateFailure)
        SIM_NAME(cudaErrorUnknown)
#undef SIM_NAME
    }
    return "cudaErrorUnknown";
}

const char *sim_cuda_error_string(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidDeviceFunction: return "invalid device function";
    case cudaErrorInvalidSymbol: return "invalid device symbol";
    case cudaErrorInvalidHostPointer: return "invalid host pointer";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorInsufficientDriver: return "CUDA driver version is insufficient for CUDA runtime version";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidKernelImage: return "device kernel image is invalid";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
    case cudaErrorLaunchTimeout: return "the launch timed out and was terminated";
    case cudaErrorAssert: return "device-side assert triggered";
    case cudaErrorHardwareStackError: return "hardware stack error";
    case cudaErrorIllegalInstruction: return "an illegal instruction was encountered";
    case cudaErrorMisalignedAddress: return "misaligned address";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorCooperativeLaunchTooLarge: return "too many blocks in cooperative launch";
    case cudaErrorNotSupported: return "operation not supported";
    case cudaErrorStreamCaptureUnsupported: return "operation not permitted when stream is capturing";
    case cudaErrorGraphExecUpdateFailure: return "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update";
    case cudaErrorUnknown: return "unknown error";
    }
    return "unknown error";
}

void sim_job_fail_msg(lab_job *job, cudaError_t e, const char *expr, const char *file, int line)
{
    const char *why = sim_diag_take();
    snprintf(job->err, sizeof job->err, "%s failed (%s:%d): %s%s%s", expr, sim_basename(file), line,
             sim_cuda_error_string(e), why ? ": " : "", why ? why : "");
}

} /* namespace gpulab_sim */

using namespace gpulab_sim;

extern "C" int sim_owns(const void *p)
{
    sim_mem_guard guard;
    uintptr_t s;
    size_t n;
    return p && sim_find(p, &s, &n) == 0;
}

extern "C" const char *sim_owner(const void *p, void **base)
{
    sim_mem_guard guard;
    uintptr_t s;
    size_t n;
    if (!p || sim_find(p, &s, &n) != 0) return NULL;
    if (base) *base = (void *)s;
    return sim_allocs()[s].call;
}

extern "C" int sim_free(void *p)
{
    sim_mem_guard guard;
    if (!p) return 0;
    return sim_cuda_free(p, "sim_free") == cudaSuccess ? 0 : -1;
}
