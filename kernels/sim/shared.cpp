/* shared.cpp - shared memory on the simulator: one arena per block and
 * its arrays (bounds: check.cpp; races: race.cpp).
 *
 * A block's shared arrays live in one 48 KiB arena. The dynamic array (the
 * launch's smem bytes) sits at its start; each SHARED() declaration is placed
 * after it the first time a thread of the block reaches it, and filled with
 * SIM_POISON_SHARED then. Blocks run one after another, so one arena serves
 * them all; in a cooperative launch a block parked at a grid barrier keeps a
 * copy of its part of the arena (sim_shared_save) until it runs again. */
#include "kernels/sim/internal.h"
#include "kernels/sim/race.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace gpulab_sim {

/* Each worker thread (par.cpp) has its own arena and list of the running
 * block's arrays. */
alignas(256) static __thread unsigned char sim_arena[SIM_SMEM_ARENA];
static __thread size_t sim_arena_used;      /* where the next array may go, red zones included */
static __thread size_t sim_packed_used;     /* the same as a GPU lays the arrays out, without red zones */
static __thread size_t sim_redzones;        /* red-zone bytes placed so far in this block */
static size_t sim_peak_used; /* sim_shared_peak's: the GPU's layout (the most of all workers) */
static unsigned long long sim_gen_next = 1; /* block generations, unique over the workers */

size_t sim_shared_peak(int reset)
{
    size_t p = sim_peak_used;
    if (reset) sim_peak_used = 0;
    return p;
}
static __thread sim_shared_site *sim_sites[SIM_MAX_SITES];
static __thread sim_rec_object sim_site_objs[SIM_MAX_SITES]; /* the same arrays, for the access hook */
static __thread unsigned sim_nsites;
static __thread unsigned sim_site_ids;


static void sim_site_object(unsigned k, const sim_shared_site *s)
{
    sim_rec_object &o = sim_site_objs[k];
    o.base = (uintptr_t)s->at[sim_worker].ptr;
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
    static __thread unsigned last;
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

size_t sim_shared_used(void) { return sim_arena_used; }

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
    /* the race check is a checker on the access hook (race.cpp) */
    sim_race_enable(race_check);
}

void sim_shared_block(void)
{
    sim_block_gen = __atomic_add_fetch(&sim_gen_next, 1, __ATOMIC_RELAXED);
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
        c->sites[k] = {s, s->at[sim_worker].ptr, s->count, s->rows, s->cols, s->elem, s->packed};
    }
    return 0;
}

/* The block runs again: its bytes, and its arrays where they were (a new
 * generation, so arrays it had not reached yet are placed when it does). */
void sim_shared_restore(const sim_shared_copy *c)
{
    sim_block_gen = __atomic_add_fetch(&sim_gen_next, 1, __ATOMIC_RELAXED);
    memcpy(sim_arena, c->bytes, c->used);
    sim_arena_used = c->used;
    sim_packed_used = c->packed;
    sim_redzones = c->redzones;
    sim_nsites = c->nsites;
    for (unsigned k = 0; k < c->nsites; k++) {
        sim_shared_site *s = c->sites[k].s;
        s->at[sim_worker].ptr = c->sites[k].ptr;
        s->count = c->sites[k].count;
        s->rows = c->sites[k].rows;
        s->cols = c->sites[k].cols;
        s->elem = c->sites[k].elem;
        s->packed = c->sites[k].packed;
        s->at[sim_worker].gen = sim_block_gen;
        sim_sites[k] = s;
        sim_site_object(k, s);
        sim_rec_shared_array(s->at[sim_worker].ptr, s->count * s->elem, s->elem, s->name);
    }
}

void sim_shared_copy_free(sim_shared_copy *c)
{
    free(c->bytes);
    free(c->sites);
    c->bytes = nullptr;
    c->sites = nullptr;
}

int sim_is_shared(const void *p)
{
    const unsigned char *c = (const unsigned char *)p;
    return c >= sim_arena && c < sim_arena + SIM_SMEM_ARENA;
}

void *sim_shared_place(sim_shared_site *s, size_t elem, size_t align, size_t rows, size_t cols)
{
    void *&ptr = s->at[sim_worker].ptr;
    if (s->dynamic) {
        ptr = sim_arena;
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
        ptr = sim_arena + off;
        s->packed = packed;
        s->count = count;
        s->rows = rows;
        s->cols = cols;
        sim_arena_used = off + bytes;
        sim_packed_used = packed + bytes;
        for (size_t p = __atomic_load_n(&sim_peak_used, __ATOMIC_RELAXED); sim_packed_used > p;)
            if (__atomic_compare_exchange_n(&sim_peak_used, &p, sim_packed_used, false, __ATOMIC_RELAXED,
                                            __ATOMIC_RELAXED))
                break;
    }
    s->elem = elem;
    s->at[sim_worker].gen = sim_block_gen;
    if (s->dynamic) s->packed = 0;
    sim_rec_shared_array(ptr, s->count * elem, elem, s->name);
    if (sim_nsites < SIM_MAX_SITES) {
        sim_site_object(sim_nsites, s);
        sim_sites[sim_nsites++] = s;
    }
    return ptr;
}

/* sim_shared_oob (an index outside an array): check.cpp, with memcheck's reports */

} /* namespace gpulab_sim */

/* record.h: where a shared address lies in the block's shared memory */
extern "C" size_t sim_rec_shared_offset(const void *p)
{
    size_t off;
    if (gpulab_sim::sim_rec_delivered_offset(p, &off)) return off; /* a block of another worker */
    return gpulab_sim::sim_is_shared(p) ? gpulab_sim::sim_shared_packed((uintptr_t)p) : 0;
}
