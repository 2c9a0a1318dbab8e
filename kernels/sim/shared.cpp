/* shared.cpp - shared memory on the simulator: one arena per block, bounds
 * checks, and the race check.
 *
 * A block's shared arrays live in one 48 KiB arena. The dynamic array (the
 * launch's smem bytes) sits at its start; each SHARED() declaration is placed
 * after it the first time a thread of the block reaches it, and filled with
 * SIM_POISON_SHARED then. Blocks run one after another, so one arena serves
 * them all; in a cooperative launch a block parked at a grid barrier keeps a
 * copy of its part of the arena (sim_shared_save) until it runs again.
 *
 * Race check: every byte of the arena has a shadow record of the last write,
 * the readers and the atomic updates in the current epoch (the stretch
 * between two barriers of the block). Records are stamped with a global epoch
 * number instead of being cleared, so a new epoch costs nothing. Two
 * different threads touching one element in one epoch, at least one of them
 * writing, is a race, unless a sync the later one passed after the earlier
 * access separates them: a warp collective (__syncwarp, a shuffle...) when
 * both are lanes of one warp, a tile barrier when both are in one tile.
 * Accesses are stamped with the sync clock for that.
 * Atomics do not race with atomics. */
#include "kernels/sim/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace gpulab_sim {

alignas(256) static unsigned char sim_arena[SIM_SMEM_ARENA];
static size_t sim_arena_used;      /* where the next array may go, red zones included */
static size_t sim_packed_used;     /* the same as a GPU lays the arrays out, without red zones */
static size_t sim_redzones;        /* red-zone bytes placed so far in this block */
static size_t sim_peak_used; /* sim_shared_peak's: the GPU's layout */

size_t sim_shared_peak(int reset)
{
    size_t p = sim_peak_used;
    if (reset) sim_peak_used = 0;
    return p;
}
static sim_shared_site *sim_sites[SIM_MAX_SITES];
static sim_rec_object sim_site_objs[SIM_MAX_SITES]; /* the same arrays, for the access hook */
static unsigned sim_nsites;
static unsigned sim_site_ids;

enum { SIM_NOBODY = 0xffff };

struct sim_shadow {
    uint32_t w_ep, r_ep, a_ep;        /* epoch of the last write, of the reads, of the atomics */
    uint32_t w_stamp, r1_stamp, r2_stamp;
    uint16_t w_tid;                   /* the writer */
    uint16_t r1_tid;                  /* the first reader */
    uint16_t r2_first, r2_tid, r2_warp; /* other readers: the first, the latest, their warp (or NOBODY: several) */
    uint16_t a_tid, a_tid2;           /* the first atomic updater, another one */
    uint8_t r2_many;                  /* more than one other reader */
    const void *w_pc, *r1_pc, *r2_pc, *a_pc; /* where those accesses are (for their source lines) */
};
/* the caller of sim_race_addr, which calls sim_race_access for it */
static const void *sim_race_pc;
static sim_shadow *sim_shadow_mem; /* one record per byte of the arena */
static uint32_t sim_epoch_counter;

static void sim_site_object(unsigned k, const sim_shared_site *s)
{
    sim_rec_object &o = sim_site_objs[k];
    o.base = (uintptr_t)s->ptr;
    o.bytes = s->dynamic ? sim_g.smem : s->count * s->elem;
    o.elem = s->elem;
    o.space = SIM_REC_SHARED;
    o.id = ++sim_site_ids;
    o.name = s->name;
}

/* The shared array of the running block holding a (its index k in the
 * block's list), or -1. */
int sim_shared_find(uintptr_t a)
{
    static unsigned last;
    if (last < sim_nsites) {
        const sim_rec_object &o = sim_site_objs[last];
        if (a - o.base < o.bytes) return (int)last;
    }
    for (unsigned k = 0; k < sim_nsites; k++) {
        const sim_rec_object &o = sim_site_objs[k];
        if (a - o.base < o.bytes) {
            last = k;
            return (int)k;
        }
    }
    return -1;
}

const sim_shared_site *sim_shared_site_at(int k) { return k >= 0 && (unsigned)k < sim_nsites ? sim_sites[k] : nullptr; }
const sim_rec_object *sim_shared_object_at(int k) { return k >= 0 && (unsigned)k < sim_nsites ? &sim_site_objs[k] : nullptr; }
unsigned sim_shared_count(void) { return sim_nsites; }
void sim_shared_span(uintptr_t *lo, uintptr_t *bytes)
{
    *lo = (uintptr_t)sim_arena;
    *bytes = SIM_SMEM_ARENA;
}

/* the block's shared memory as a GPU lays it out: bytes in use so far */
size_t sim_shared_packed_used(void) { return sim_packed_used; }
/* the GPU's offset of an address of the arena */
size_t sim_shared_packed(uintptr_t a)
{
    int k = -1;
    uintptr_t best = 0;
    for (unsigned i = 0; i < sim_nsites; i++)
        if (sim_site_objs[i].base <= a && sim_site_objs[i].base >= best) {
            best = sim_site_objs[i].base;
            k = (int)i;
        }
    if (k < 0) return (size_t)(a - (uintptr_t)sim_arena);
    return sim_sites[k]->packed + (size_t)(a - best);
}

void sim_shared_launch(int race_check)
{
    sim_race_on = 0;
    if (!race_check) return;
    if (!sim_shadow_mem) {
        sim_shadow_mem = (sim_shadow *)calloc(SIM_SMEM_ARENA, sizeof(sim_shadow));
        sim_epoch_counter = 0;
    }
    sim_race_on = sim_shadow_mem != nullptr;
}

void sim_shared_block(void)
{
    sim_block_gen++;
    sim_nsites = 0;
    sim_arena_used = sim_packed_used = (sim_g.smem + 15) / 16 * 16;
    sim_redzones = 0;
    if (sim_g.smem) memset(sim_arena, SIM_POISON_SHARED, sim_g.smem);
}

int sim_shared_save(sim_shared_copy *c)
{
    c->used = sim_arena_used;
    c->packed = sim_packed_used;
    c->redzones = sim_redzones;
    c->nsites = sim_nsites;
    c->bytes = (unsigned char *)malloc(c->used ? c->used : 1);
    c->sites = (sim_shared_copy::site *)malloc(sizeof *c->sites * (sim_nsites ? sim_nsites : 1));
    if (!c->bytes || !c->sites) {
        sim_shared_copy_free(c);
        return -1;
    }
    memcpy(c->bytes, sim_arena, c->used);
    for (unsigned k = 0; k < sim_nsites; k++) {
        sim_shared_site *s = sim_sites[k];
        c->sites[k] = {s, s->ptr, s->count, s->rows, s->cols, s->elem, s->packed};
    }
    return 0;
}

/* The block runs again: its bytes, and its arrays where they were (a new
 * generation, so arrays it had not reached yet are placed when it does). */
void sim_shared_restore(const sim_shared_copy *c)
{
    sim_block_gen++;
    memcpy(sim_arena, c->bytes, c->used);
    sim_arena_used = c->used;
    sim_packed_used = c->packed;
    sim_redzones = c->redzones;
    sim_nsites = c->nsites;
    for (unsigned k = 0; k < c->nsites; k++) {
        sim_shared_site *s = c->sites[k].s;
        s->ptr = c->sites[k].ptr;
        s->count = c->sites[k].count;
        s->rows = c->sites[k].rows;
        s->cols = c->sites[k].cols;
        s->elem = c->sites[k].elem;
        s->packed = c->sites[k].packed;
        s->gen = sim_block_gen;
        sim_sites[k] = s;
        sim_site_object(k, s);
        sim_rec_shared_array(s->ptr, s->count * s->elem, s->elem, s->name);
    }
}

void sim_shared_copy_free(sim_shared_copy *c)
{
    free(c->bytes);
    free(c->sites);
    c->bytes = nullptr;
    c->sites = nullptr;
}

void sim_race_epoch(void)
{
    if (++sim_epoch_counter == 0) {
        if (sim_shadow_mem) memset(sim_shadow_mem, 0, SIM_SMEM_ARENA * sizeof(sim_shadow));
        sim_epoch_counter = 1;
    }
    sim_g.epoch_id = sim_epoch_counter;
}

int sim_is_shared(const void *p)
{
    const unsigned char *c = (const unsigned char *)p;
    return c >= sim_arena && c < sim_arena + SIM_SMEM_ARENA;
}

void *sim_shared_place(sim_shared_site *s, size_t elem, size_t align, size_t rows, size_t cols)
{
    if (s->dynamic) {
        s->ptr = sim_arena;
        s->count = sim_g.smem / elem;
        s->rows = s->count;
        s->cols = 1;
    } else {
        size_t count = 0, bytes = 0;
        bool big = __builtin_mul_overflow(rows, cols, &count) || __builtin_mul_overflow(count, elem, &bytes);
        size_t a = align < 16 ? 16 : align;
        size_t packed = (sim_packed_used + a - 1) / a * a;
        const size_t limit = sim_g.smem_limit;
        if (big || bytes > limit || packed + bytes > limit) {
            char blk[64], where[96];
            sim_block_name(blk, sizeof blk);
            sim_where(where, sizeof where, s->line, s->file);
            sim_fail("%s: %s: shared array %s (declared at %s) needs %zu bytes, and with the block's other shared "
                     "memory (%zu bytes, %zu of them dynamic) that is more than the %zu bytes a block may use%s",
                     sim_g.kernel, blk, s->name, where, big ? (size_t)-1 : bytes, sim_packed_used, sim_g.smem,
                     limit, limit == SIM_SMEM_LIMIT ? " (48 KiB)" : "");
        }
        /* a red zone before the array (memcheck), a multiple of 128 bytes
         * and of the alignment, so its banks are the GPU's */
        size_t rz = a > SIM_SMEM_RZ ? a : (size_t)SIM_SMEM_RZ;
        size_t off = packed + sim_redzones + rz;
        if (off + bytes + SIM_SMEM_RZ > SIM_SMEM_ARENA || sim_nsites >= SIM_MAX_SITES) off = packed + sim_redzones;
        else sim_redzones += rz;
        memset(sim_arena + off, SIM_POISON_SHARED, bytes);
        s->ptr = sim_arena + off;
        s->packed = packed;
        s->count = count;
        s->rows = rows;
        s->cols = cols;
        sim_arena_used = off + bytes;
        sim_packed_used = packed + bytes;
        if (sim_packed_used > sim_peak_used) sim_peak_used = sim_packed_used;
    }
    s->elem = elem;
    s->gen = sim_block_gen;
    if (s->dynamic) s->packed = 0;
    sim_rec_shared_array(s->ptr, s->count * elem, elem, s->name);
    if (sim_nsites < SIM_MAX_SITES) {
        sim_site_object(sim_nsites, s);
        sim_sites[sim_nsites++] = s;
    }
    return s->ptr;
}

/* sim_shared_oob (an index outside an array): check.cpp, with memcheck's reports */

/* ------------------------------------------------------------ race check */

/* u's access (made at sync clock su) is ordered before an access of t by a
 * sync t left after su: a warp collective of their warp, or the barrier of a
 * wide tile that holds both. */
static inline bool sim_tile_ordered(unsigned u, uint32_t su, const sim_fiber *t)
{
    unsigned tl = t->info.linear;
    for (unsigned k = 0; k < SIM_TILE_LEVELS; k++)
        if ((u >> (6 + k)) == (tl >> (6 + k)) && t->tsync[k] > su) return true;
    return false;
}

static inline bool sim_ordered(unsigned u, uint32_t su, const sim_fiber *t)
{
    return ((u >> 5) == (t->info.linear >> 5) && t->wsync > su) || sim_tile_ordered(u, su, t);
}

static void sim_race_found(const sim_shared_site *s, long long i, long long j, int t1, int k1, int t2, int k2,
                           const void *pc1, const void *pc2)
{
    sim_race *r = &sim_g.race;
    if (r->pending) return;
    r->pc1 = pc1;
    r->pc2 = pc2;
    r->pending = 1;
    r->site = s;
    r->i = i;
    r->j = j;
    r->t1 = t1;
    r->k1 = k1;
    r->t2 = t2;
    r->k2 = k2;
}

/* A write or atomic by t against the reads of this epoch: the conflicting
 * reader, or -1 for none (-2: one exists but is not known by number). */
static int sim_read_conflict(const sim_shadow *r, const sim_fiber *self)
{
    unsigned t = self->info.linear;
    if (r->r1_tid != t && !sim_ordered(r->r1_tid, r->r1_stamp, self)) return r->r1_tid;
    if (r->r2_tid == SIM_NOBODY) return -1;
    if (!r->r2_many) return r->r2_tid != t && !sim_ordered(r->r2_tid, r->r2_stamp, self) ? r->r2_tid : -1;
    /* several other readers, at least one of them not t; r2_stamp is the
     * latest of their stamps */
    if (r->r2_warp != SIM_NOBODY && r->r2_warp == (t >> 5) && self->wsync > r->r2_stamp) return -1;
    if (sim_tile_ordered(r->r2_first, r->r2_stamp, self) && sim_tile_ordered(r->r2_tid, r->r2_stamp, self))
        return -1; /* the readers between them are not known: a race can be missed here */
    if (r->r2_first != t) return r->r2_first;
    if (r->r2_tid != t) return r->r2_tid;
    return -2;
}

/* A read (or an atomic update) of shared memory that no thread of the block
 * has written: its value is whatever the previous block left there. */
void sim_uninit_report(void)
{
    if (!sim_g.un_pending) return;
    sim_g.un_pending = 0;
    char blk[64], thr[96], decl[96], idx[64];
    const sim_shared_site *s = sim_g.un_site;
    sim_block_name(blk, sizeof blk);
    sim_thread_name(thr, sizeof thr, (unsigned)sim_g.un_t);
    if (sim_g.un_j >= 0) snprintf(idx, sizeof idx, "[%lld][%lld]", sim_g.un_i, sim_g.un_j);
    else snprintf(idx, sizeof idx, "[%lld]", sim_g.un_i);
    const char *verb = sim_g.un_kind == SIM_ACC_ATOMIC ? "atomically updates" : "reads";
    if (!s) {
        sim_diag("%s: %s, %s %s shared memory at byte %lld before any thread of the block wrote it: shared memory "
                 "starts undefined in every block",
                 sim_g.kernel, blk, thr, verb, sim_g.un_i);
        return;
    }
    sim_where(decl, sizeof decl, s->line, s->file);
    sim_diag("%s: %s, %s %s %s%s (shared array %s, declared at %s) before any thread of the block wrote it: "
             "shared memory starts undefined in every block, so write it (and __syncthreads()) before reading it",
             sim_g.kernel, blk, thr, verb, s->name, idx, s->name, decl);
}

void sim_race_access(const sim_shared_site *s, const void *addr, long long i, long long j, int kind)
{
    if (!sim_shadow_mem || !sim_in_fiber()) return;
    size_t off = (size_t)((const unsigned char *)addr - sim_arena);
    if (off >= SIM_SMEM_ARENA) return;
    sim_shadow *r = &sim_shadow_mem[off];
    sim_fiber *self = sim_self();
    unsigned t = self->info.linear;
    uint32_t st = sim_g.sync_clock, ep = sim_g.epoch_id;
    const void *pc = sim_race_pc ? sim_race_pc : __builtin_return_address(0);
    sim_race_pc = nullptr;
    if ((kind == SIM_ACC_READ || kind == SIM_ACC_ATOMIC) && r->w_ep < sim_g.block_epoch &&
        r->a_ep < sim_g.block_epoch)
        if (!sim_g.un_pending) {
            sim_g.un_pending = 1;
            sim_g.un_site = s;
            sim_g.un_i = i;
            sim_g.un_j = j;
            sim_g.un_t = (int)t;
            sim_g.un_kind = kind;
        }
    if (kind == SIM_ACC_REF) kind = SIM_ACC_READ;

    if (r->w_ep == ep && r->w_tid != t && !sim_ordered(r->w_tid, r->w_stamp, self))
        sim_race_found(s, i, j, r->w_tid, SIM_ACC_WRITE, (int)t, kind, r->w_pc, pc);
    if (kind != SIM_ACC_ATOMIC && r->a_ep == ep && (r->a_tid != t || r->a_tid2 != SIM_NOBODY))
        sim_race_found(s, i, j, r->a_tid != t ? r->a_tid : r->a_tid2, SIM_ACC_ATOMIC, (int)t, kind, r->a_pc, pc);
    if (kind != SIM_ACC_READ && r->r_ep == ep) {
        int u = sim_read_conflict(r, self);
        if (u != -1) sim_race_found(s, i, j, u, SIM_ACC_READ, (int)t, kind, u == r->r1_tid ? r->r1_pc : r->r2_pc, pc);
    }

    switch (kind) {
    case SIM_ACC_READ:
        if (r->r_ep != ep) {
            r->r_ep = ep;
            r->r1_tid = (uint16_t)t;
            r->r1_stamp = st;
            r->r1_pc = pc;
            r->r2_first = r->r2_tid = r->r2_warp = SIM_NOBODY;
            r->r2_many = 0;
        } else if (r->r1_tid == t) {
            r->r1_stamp = st;
            r->r1_pc = pc;
        } else if (r->r2_tid == SIM_NOBODY) {
            r->r2_first = r->r2_tid = (uint16_t)t;
            r->r2_stamp = st;
            r->r2_pc = pc;
            r->r2_warp = (uint16_t)(t >> 5);
        } else {
            if (r->r2_tid != t || r->r2_first != t) r->r2_many = 1;
            if (r->r2_warp != (t >> 5)) r->r2_warp = SIM_NOBODY;
            r->r2_tid = (uint16_t)t;
            r->r2_pc = pc;
            if (st > r->r2_stamp) r->r2_stamp = st;
        }
        break;
    case SIM_ACC_WRITE:
        r->w_ep = ep;
        r->w_tid = (uint16_t)t;
        r->w_stamp = st;
        r->w_pc = pc;
        break;
    default:
        r->a_pc = pc;
        if (r->a_ep != ep) {
            r->a_ep = ep;
            r->a_tid = (uint16_t)t;
            r->a_tid2 = SIM_NOBODY;
        } else if (r->a_tid != t) {
            r->a_tid2 = (uint16_t)t;
        }
        break;
    }
}

static void sim_race_addr_at(const void *addr, int kind, const void *pc)
{
    if (!sim_is_shared(addr) || !sim_in_fiber()) return;
    sim_race_pc = pc;
    const unsigned char *a = (const unsigned char *)addr;
    const sim_shared_site *site = nullptr;
    long long i = (long long)(a - sim_arena), j = -1;
    for (unsigned k = 0; k < sim_nsites; k++) {
        const sim_shared_site *s = sim_sites[k];
        const unsigned char *b = (const unsigned char *)s->ptr;
        if (a >= b && a < b + s->count * s->elem) {
            site = s;
            long long e = (long long)((size_t)(a - b) / s->elem);
            if (s->cols > 1 && !s->dynamic) {
                i = e / (long long)s->cols;
                j = e % (long long)s->cols;
            } else {
                i = e;
            }
            break;
        }
    }
    sim_race_access(site, addr, i, j, kind);
}

void sim_race_addr(const void *addr, int kind) { sim_race_addr_at(addr, kind, __builtin_return_address(0)); }

void sim_race_atomic(const void *addr) { sim_race_addr_at(addr, SIM_ACC_ATOMIC, __builtin_return_address(0)); }

static const char *sim_acc_verb(int k)
{
    return k == SIM_ACC_WRITE ? "writes" : k == SIM_ACC_ATOMIC ? "atomically updates" : "reads";
}

void sim_race_report(int line, const char *file, int stopped)
{
    sim_race *r = &sim_g.race;
    if (!r->pending) return;
    r->pending = 0;
    char blk[64], decl[96], idx[64], open[128], close[128], th1[96], th2[96], where[96];
    sim_block_name(blk, sizeof blk);
    const sim_shared_site *s = r->site;
    if (s) sim_where(decl, sizeof decl, s->line, s->file);
    if (r->j >= 0)
        snprintf(idx, sizeof idx, "[%lld][%lld]", r->i, r->j);
    else
        snprintf(idx, sizeof idx, "%lld", r->i);
    if (sim_g.epoch_line <= 0) {
        snprintf(open, sizeof open, "the start of the kernel");
    } else {
        sim_where(where, sizeof where, sim_g.epoch_line, sim_g.epoch_file);
        snprintf(open, sizeof open, "the barrier at %s", where);
    }
    if (line > 0) {
        sim_where(where, sizeof where, line, file);
        snprintf(close, sizeof close, "the barrier at %s", where);
    } else {
        snprintf(close, sizeof close, "%s", stopped ? "the point where the launch stopped" : "the end of the kernel");
    }
    if (r->t1 >= 0)
        sim_thread_name(th1, sizeof th1, (unsigned)r->t1);
    else
        snprintf(th1, sizeof th1, "another thread");
    sim_thread_name(th2, sizeof th2, (unsigned)r->t2);
    char what[256];
    if (s)
        snprintf(what, sizeof what, "shared array %s (declared at %s), element %s", s->name, decl, idx);
    else
        snprintf(what, sizeof what, "shared memory at byte %s", idx);
    char warp[192] = "";
    if (r->t1 >= 0 && (r->t1 >> 5) == (r->t2 >> 5))
        snprintf(warp, sizeof warp,
                 " (both in warp %d: the lanes of a warp do not run in lockstep either, __syncwarp() orders them)",
                 r->t2 >> 5);
    sim_diag("%s: %s: data race on %s: %s %s it and %s %s it, between %s and %s with no barrier in between: "
             "separate the two with __syncthreads()%s",
             sim_g.kernel, blk, what, th1, sim_acc_verb(r->k1), th2,
             sim_acc_verb(r->k2), open, close, warp);
}

} /* namespace gpulab_sim */

/* record.h: where a shared address lies in the block's shared memory */
extern "C" size_t sim_rec_shared_offset(const void *p)
{
    return gpulab_sim::sim_is_shared(p) ? gpulab_sim::sim_shared_packed((uintptr_t)p) : 0;
}
