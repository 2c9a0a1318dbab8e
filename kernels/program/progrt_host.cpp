/* progrt_host.cpp - the host memory a student's program has, so that a
 * kernel that touches it fails as it does on the GPU.
 *
 * A kernel may not read or write the host's own memory on a GPU whose
 * pageableMemoryAccess is 0, as on the GPUs this project measures on: the
 * launch ends with cudaErrorIllegalAddress. On the simulator that memory is
 * the same process's, so nothing would stop the kernel. Known here: what the
 * program's malloc, calloc, realloc, aligned_alloc and new in host code
 * return (the source pass, translate.c, sends them here with their file and
 * line; delete reaches them through the replaced global operator delete),
 * host code's arrays at file scope (registered by the source pass), and
 * the launching thread's stack while its kernel runs. The access hook
 * (record.cpp) asks about any address of kernel code in a 4 KiB block one
 * of them touches (sim_host_pages), and a hit ends the launch naming it.
 * Memory the program pinned and mapped with cudaHostRegister is the
 * kernels' to use. Memory of the library's containers (a std::vector's)
 * comes from the replaced global operator new, remembered without a line:
 * it becomes known when a launch hands a pointer into it to a kernel
 * (sim_host_arg). */
#include "kernels/sim/internal.h"
#include "kernels/program/include/gpulab_host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <map>
#include <mutex>
#include <new>

#include <pthread.h>

using namespace gpulab_sim;

namespace {

struct host_alloc {
    size_t bytes;
    const char *call; /* "malloc", "new[]"... */
    const char *file;
    int line;
    int registered; /* cudaHostRegister'd: the kernels' to use */
    int global;     /* a host array at file scope, call its name */
    int lib;        /* a library container's block (operator new), given to a kernel at file:line */
};

/* never destroyed: a delete may come after the program's static objects
 * are gone */
std::mutex &host_mu()
{
    static std::mutex *m = new std::mutex;
    return *m;
}
std::map<uintptr_t, host_alloc> &host_allocs()
{
    static std::map<uintptr_t, host_alloc> *m = new std::map<uintptr_t, host_alloc>;
    return *m;
}
/* set while this thread holds host_mu: the map's own nodes are deleted
 * through the replaced operator delete, which must not take it again */
__thread int host_locked;
struct host_lock {
    std::lock_guard<std::mutex> l{host_mu()};
    host_lock() { host_locked = 1; }
    ~host_lock() { host_locked = 0; }
};
/* allocations known, read without the lock by operator delete */
unsigned long host_count;
/* changes with every allocation, free and registration: the hook's cached
 * ranges of another generation are stale */
unsigned host_gen;

/* the blocks the hook watches: each block's count of the allocations
 * that touch it (255 stays: a block counted that often is watched for
 * good, which costs only time) */
void host_blocks(uintptr_t a, size_t bytes, int add)
{
    for (uintptr_t b = a >> SIM_HOST_BLOCK_SHIFT, e = (a + bytes - 1) >> SIM_HOST_BLOCK_SHIFT; b <= e; b++) {
        uintptr_t g = b >> (30 - SIM_HOST_BLOCK_SHIFT);
        if (g >= SIM_HOST_GIBS) return;
        unsigned char *blocks = sim_host_pages[g];
        if (!blocks) {
            if (!add) continue;
            blocks = (unsigned char *)calloc(SIM_HOST_BLOCKS, 1);
            if (!blocks) return;
            __atomic_store_n(&sim_host_pages[g], blocks, __ATOMIC_RELEASE);
        }
        unsigned char &c = blocks[b & (SIM_HOST_BLOCKS - 1)];
        if (c != 255) __atomic_store_n(&c, (unsigned char)(add ? c + 1 : c ? c - 1 : 0), __ATOMIC_RELAXED);
    }
}

void host_changed(void)
{
    __atomic_store_n(&host_count, (unsigned long)host_allocs().size(), __ATOMIC_RELAXED);
    __atomic_add_fetch(&host_gen, 1, __ATOMIC_RELAXED);
}

/* p's bytes are the program's from here on (global: an array at file
 * scope, call its name; no file: the stack) */
void host_note(void *p, size_t bytes, const char *call, const char *file, int line, int global = 0, int lib = 0)
{
    if (!p || host_locked) return;
    host_lock l;
    std::map<uintptr_t, host_alloc> &m = host_allocs();
    /* entries the new block overlaps were freed where the program's free
     * was not called (the C library's own realloc of its buffer) */
    uintptr_t a = (uintptr_t)p, e = a + (bytes ? bytes : 1);
    auto it = m.lower_bound(a);
    if (it != m.begin() && std::prev(it)->first + std::prev(it)->second.bytes > a) --it;
    while (it != m.end() && it->first < e) {
        host_blocks(it->first, it->second.bytes, 0);
        it = m.erase(it);
    }
    m[a] = host_alloc{e - a, call, file, line, 0, global, lib};
    host_blocks(a, e - a, 1);
    host_changed();
}

void host_forget(uintptr_t p)
{
    if (!p || host_locked || !__atomic_load_n(&host_count, __ATOMIC_RELAXED)) return;
    host_lock l;
    std::map<uintptr_t, host_alloc> &m = host_allocs();
    auto it = m.find(p);
    if (it == m.end()) return;
    host_blocks(it->first, it->second.bytes, 0);
    m.erase(it);
    host_changed();
}

/* the allocation holding a (the lock held), or end() */
std::map<uintptr_t, host_alloc>::iterator host_find(uintptr_t a)
{
    std::map<uintptr_t, host_alloc> &m = host_allocs();
    auto it = m.upper_bound(a);
    if (it == m.begin()) return m.end();
    --it;
    return a - it->first < it->second.bytes ? it : m.end();
}

/* The hook's answers per worker thread: ranges of the watched blocks that hold no
 * allocation of the program's (a thread's stack, threadIdx, the simulator's
 * own memory) or a registered one, valid while host_gen is theirs. */
struct host_free_range {
    uintptr_t lo, span;
};
enum { HOST_RANGES = 4 };
__thread host_free_range host_ranges[HOST_RANGES];
__thread unsigned host_ranges_gen, host_ranges_next;

/* An access of kernel code at a in a watched block (record.cpp): nothing when a
 * lies in no allocation of the program's; otherwise the launch ends as the
 * GPU ends it. */
void host_access(uintptr_t a, unsigned size, int kind, uintptr_t pc)
{
    if (!sim_in_fiber()) return;
    unsigned gen = __atomic_load_n(&host_gen, __ATOMIC_RELAXED);
    if (host_ranges_gen == gen) {
        for (unsigned i = 0; i < HOST_RANGES; i++)
            if (a - host_ranges[i].lo < host_ranges[i].span) return;
    } else {
        memset(host_ranges, 0, sizeof host_ranges);
        host_ranges_gen = gen;
    }
    char why[512];
    {
        host_lock l;
        std::map<uintptr_t, host_alloc> &m = host_allocs();
        auto it = host_find(a);
        if (it == m.end() || it->second.registered) {
            /* the stretch between the program's allocations around a */
            uintptr_t lo = 0, hi = UINTPTR_MAX;
            if (it != m.end()) {
                lo = it->first;
                hi = it->first + it->second.bytes;
            } else {
                auto nx = m.upper_bound(a);
                if (nx != m.end()) hi = nx->first;
                if (nx != m.begin()) {
                    auto pv = std::prev(nx);
                    lo = pv->first + pv->second.bytes;
                }
            }
            host_free_range &r = host_ranges[host_ranges_next++ % HOST_RANGES];
            r.lo = lo;
            r.span = hi - lo;
            return;
        }
        const host_alloc &h = it->second;
        const size_t off = (size_t)(a - it->first);
        char at[160], what[320], fix[96];
        sim_where(at, sizeof at, h.line, h.file);
        if (h.global) {
            snprintf(what, sizeof what, "byte %zu of the host array %s (%zu bytes, declared at %s): that is",
                     off, h.call, h.bytes, at);
            snprintf(fix, sizeof fix, "a __device__ array, or cudaMalloc and cudaMemcpy");
        } else if (h.lib) {
            snprintf(what, sizeof what,
                     "byte %zu of the %zu bytes a library container (a std::vector's data, say) allocated with "
                     "operator new, given to the kernel at %s: that is",
                     off, h.bytes, at);
            snprintf(fix, sizeof fix, "cudaMalloc and cudaMemcpy, or thrust::device_vector for a vector");
        } else if (!h.file) {
            snprintf(what, sizeof what, "on the stack of the host thread that launched the kernel: a local "
                                        "variable of host code (an array declared in main, say),");
            snprintf(fix, sizeof fix, "cudaMalloc and cudaMemcpy, or cudaMallocManaged");
        } else {
            snprintf(what, sizeof what, "byte %zu of the %zu bytes from %s at %s: that is", off, h.bytes, h.call,
                     at);
            snprintf(fix, sizeof fix, "cudaMalloc and cudaMemcpy, or cudaMallocManaged in place of %s", h.call);
        }
        snprintf(why, sizeof why,
                 "%s %u byte%s at %p, %s host memory, which kernels cannot reach on this GPU (its "
                 "pageableMemoryAccess is 0), so the launch fails with cudaErrorIllegalAddress; give the kernel "
                 "device memory: %s",
                 kind == SIM_REC_STORE ? "writes" : kind == SIM_REC_ATOMIC ? "updates" : "reads", size,
                 size == 1 ? "" : "s", (void *)a, what, fix);
    }
    sim_illegal_access(why, (void *)pc);
}

/* the top of this thread's stack (0: unknown) */
uintptr_t host_stack_top(void)
{
    static __thread uintptr_t top;
    if (!top) {
        pthread_attr_t at;
        if (pthread_getattr_np(pthread_self(), &at) == 0) {
            void *lo;
            size_t size;
            if (pthread_attr_getstack(&at, &lo, &size) == 0) top = (uintptr_t)lo + size;
            pthread_attr_destroy(&at);
        }
    }
    return top;
}

/* what p is, when it is the program's host memory (a copy's message) */
int host_describe(const void *p, char *buf, size_t len)
{
    if (!p || !__atomic_load_n(&host_count, __ATOMIC_RELAXED)) return 0;
    host_lock l;
    auto it = host_find((uintptr_t)p);
    if (it == host_allocs().end() || !it->second.file) return 0;
    char at[160];
    sim_where(at, sizeof at, it->second.line, it->second.file);
    if (it->second.global)
        snprintf(buf, len, "host memory (the host array %s, declared at %s)", it->second.call, at);
    else
        snprintf(buf, len, "host memory (%zu bytes from %s at %s)", it->second.bytes, it->second.call, at);
    return 1;
}

struct host_hooks_install {
    host_hooks_install()
    {
        sim_host_access_fn = host_access;
        sim_host_describe_fn = host_describe;
    }
} host_hooks_installed;

} /* namespace */

namespace gpulab_sim {

/* A launch from host code: the launching thread's stack from the launch's
 * frame up (host code's locals, main's arrays) is the host's while the
 * kernel runs, watched like its allocations (no file: the stack). The
 * token for sim_host_stack_end. */
uintptr_t sim_host_stack_begin(const void *frame)
{
    uintptr_t lo = (uintptr_t)frame, top = host_stack_top();
    if (!top || lo >= top || top - lo > ((uintptr_t)1 << 30)) return 0;
    host_note((void *)lo, top - lo, "the stack", nullptr, 0);
    return lo;
}

void sim_host_stack_end(uintptr_t token) { host_forget(token); }

/* cudaHostRegister and cudaHostUnregister: the allocations in [p, p + bytes)
 * become the kernels' (or stop being) */
void sim_host_register(const void *p, size_t bytes, int on)
{
    if (!p) return;
    static const char placeholder[] = "cudaHostRegister";
    {
        host_lock l;
        std::map<uintptr_t, host_alloc> &m = host_allocs();
        uintptr_t a = (uintptr_t)p, end = a + (on ? bytes : 1);
        auto it = host_find(a);
        /* memory not known here (a std::vector's): kept as registered, so
         * that handing it to a kernel is not taken for the host's */
        if (on && it == m.end() && bytes) {
            auto nx = m.lower_bound(a);
            if (nx == m.end() || nx->first >= end) {
                m[a] = host_alloc{bytes, placeholder, nullptr, 0, 1, 0, 0};
                host_blocks(a, bytes, 1);
                host_changed();
                return;
            }
        }
        if (!on && it != m.end() && it->second.call == placeholder) {
            host_blocks(it->first, it->second.bytes, 0);
            m.erase(it);
            host_changed();
            return;
        }
        if (it == m.end()) it = m.lower_bound(a);
        for (; it != m.end() && it->first < end; ++it) it->second.registered = on;
    }
    __atomic_add_fetch(&host_gen, 1, __ATOMIC_RELAXED);
}

} /* namespace gpulab_sim */

/* ------------------------------------------ what the source pass calls */

extern "C" {
void *gpulab_host_malloc(const char *file, int line, size_t n)
{
    void *p = malloc(n);
    host_note(p, n, "malloc", file, line);
    return p;
}
void *gpulab_host_calloc(const char *file, int line, size_t n, size_t size)
{
    void *p = calloc(n, size);
    host_note(p, n * size, "calloc", file, line);
    return p;
}
void *gpulab_host_realloc(const char *file, int line, void *old, size_t n)
{
    /* forgotten first: old may not be looked at once realloc has it (when
     * it fails, old stays, known from here on as this call's) */
    size_t had = 0;
    if (old && __atomic_load_n(&host_count, __ATOMIC_RELAXED)) {
        host_lock l;
        auto it = host_find((uintptr_t)old);
        if (it != host_allocs().end() && it->first == (uintptr_t)old) had = it->second.bytes;
    }
    host_forget((uintptr_t)old);
    void *p = realloc(old, n);
    if (!p && n && had) host_note(old, had, "realloc", file, line);
    else host_note(p, n, "realloc", file, line);
    return p;
}
void *gpulab_host_aligned_alloc(const char *file, int line, size_t align, size_t n)
{
    void *p = aligned_alloc(align, n);
    host_note(p, n, "aligned_alloc", file, line);
    return p;
}
/* host code's array at file scope, named when the program starts */
int gpulab_host_global(const void *p, size_t bytes, const char *name, const char *file, int line)
{
    host_note((void *)p, bytes, name, file, line, 1);
    return 0;
}
void gpulab_host_free(void *p)
{
    host_forget((uintptr_t)p);
    free(p);
}
}

/* new in the program's host code, as `::new (gpulab_host_at{...}) T` */
void *operator new(size_t n, gpulab_host_at at)
{
    void *p = ::operator new(n);
    host_note(p, n, "new", at.file, at.line);
    return p;
}
void *operator new[](size_t n, gpulab_host_at at)
{
    void *p = ::operator new[](n);
    host_note(p, n, "new[]", at.file, at.line);
    return p;
}
/* a constructor that throws: the memory goes back */
void operator delete(void *p, gpulab_host_at) noexcept { ::operator delete(p); }
void operator delete[](void *p, gpulab_host_at) noexcept { ::operator delete[](p); }

/* Library containers' memory (a std::vector's, a std::string's) comes from
 * the global operator new, which no call of the program's names: the
 * replaced operator new remembers each block host code gets (not a launch's
 * own, nor those of the tables here), and a launch whose kernel is handed a
 * pointer into one watches that block as the host's from then on
 * (sim_host_arg). */
namespace {
__thread int lib_busy; /* this thread is in the table below: its own nodes are not remembered */
std::mutex &lib_mu()
{
    static std::mutex *m = new std::mutex;
    return *m;
}
std::map<uintptr_t, size_t> *lib_blocks;
unsigned long lib_count;
[[maybe_unused]] void lib_remember(void *p, size_t n)
{
    if (!p || lib_busy || host_locked || sim_g.in_launch) return;
    lib_busy = 1;
    {
        std::lock_guard<std::mutex> l(lib_mu());
        if (!lib_blocks) lib_blocks = new std::map<uintptr_t, size_t>;
        (*lib_blocks)[(uintptr_t)p] = n;
        __atomic_store_n(&lib_count, (unsigned long)lib_blocks->size(), __ATOMIC_RELAXED);
    }
    lib_busy = 0;
}
[[maybe_unused]] void lib_forget(void *p)
{
    if (!p || lib_busy || !__atomic_load_n(&lib_count, __ATOMIC_RELAXED)) return;
    lib_busy = 1;
    {
        std::lock_guard<std::mutex> l(lib_mu());
        if (lib_blocks && lib_blocks->erase((uintptr_t)p))
            __atomic_store_n(&lib_count, (unsigned long)lib_blocks->size(), __ATOMIC_RELAXED);
    }
    lib_busy = 0;
}
} /* namespace */

namespace gpulab_sim {
void sim_host_arg(const void *p, const char *file, int line)
{
    /* not a child launch from device code; the sanitizer build keeps its
     * own operator new, so no block is known there */
    if (!p || sim_g.in_launch || !__atomic_load_n(&lib_count, __ATOMIC_RELAXED)) return;
    uintptr_t base = 0;
    size_t n = 0;
    lib_busy = 1;
    {
        std::lock_guard<std::mutex> l(lib_mu());
        auto it = lib_blocks->upper_bound((uintptr_t)p);
        if (it != lib_blocks->begin()) {
            --it;
            if ((uintptr_t)p - it->first < it->second) {
                base = it->first;
                n = it->second;
            }
        }
    }
    lib_busy = 0;
    if (!base) return;
    {
        host_lock l;
        if (host_find(base) != host_allocs().end()) return; /* known already, or registered */
    }
    host_note((void *)base, n, "operator new", file, line, 0, 1);
}
} /* namespace gpulab_sim */

#if !defined(SIM_ASAN)
void *operator new(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) throw std::bad_alloc();
    lib_remember(p, n);
    return p;
}
void *operator new[](size_t n) { return operator new(n); }
void *operator new(size_t n, const std::nothrow_t &) noexcept
{
    void *p = malloc(n ? n : 1);
    lib_remember(p, n);
    return p;
}
void *operator new[](size_t n, const std::nothrow_t &t) noexcept { return operator new(n, t); }

/* The replaced global delete (the sanitizer build keeps its own, which
 * checks that new and delete match): every delete of a program's object
 * ends here. */
#pragma GCC diagnostic push
/* the operator new above is malloc: free is its delete */
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void operator delete(void *p) noexcept
{
    host_forget((uintptr_t)p);
    lib_forget(p);
    free(p);
}
void operator delete(void *p, size_t) noexcept { operator delete(p); }
void operator delete[](void *p) noexcept { operator delete(p); }
void operator delete[](void *p, size_t) noexcept { operator delete(p); }
#pragma GCC diagnostic pop
#endif
