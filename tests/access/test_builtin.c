/* Every built-in kernel variant on the simulator, traced twice at once:
 * by its hand-written TRACE_* lines and by the automatic access trace, and
 * the two held against each other as sets of byte accesses per launch,
 * block, thread, barrier epoch, memory space and direction:
 *   - every access the TRACE lines imply (a read, a write; an ADD's two
 *     reads and its write; an atomic's read and write; a compare-swap's two
 *     reads and, where it swapped, its two writes) is in the automatic trace
 *     (a TRACE read may describe a value the thread loaded in an earlier
 *     epoch: then that load counts);
 *   - the other way, every automatic access of a launch, memory space and
 *     direction in which the TRACE lines record accesses is one of theirs,
 *     except the accesses exceptions[] names, each with the reason;
 *   - every shuffle a TRACE_SHFL line records is a collective of the
 *     automatic trace, by the same warp and lane in the same epoch, with the
 *     same source lane and value;
 *   - every access site names a source line of a .cu file.
 * Exit 77 where the build has no recording. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/lab.h"
#include "kernels/sim/acctrace.h"
#include "kernels/sim/record.h"

/* Automatic accesses no TRACE line describes, on purpose. A site is named by
 * the text of its source line (the file in kernels/ and a part of the line),
 * so that the table survives edits that move lines. */
typedef struct exception {
    const char *algo, *variant; /* variant NULL: all of the family's */
    const char *file;           /* under kernels/ */
    const char *code;           /* a part of the access's source line */
    const char *why;
} exception;

static const exception exceptions[] = {
    {"reduce", NULL, "reduce/reduce.cu", "atomic_add(total, (A)s[0])",
     "the block's sum is read from s[0] for the atomicAdd: TRACE_ATOMIC carries it as the operand"},
    {"reduce", NULL, "reduce/reduce.cu", "    y = s[tid];",
     "the partial moves from shared memory into the register the shuffles start from: TRACE_SHFL shows the "
     "registers, the reduction's picture has no shared read there"},
    {"reduce", "vector", "reduce/reduce.cu", "atomicAdd(done, 1u)",
     "the ticket that finds the last block is bookkeeping; the picture shows the partials and their sum"},
    {"reduce", "vector", "reduce/reduce.cu", "last[0]",
     "the flag that tells the block it came last is bookkeeping, as its ticket is"},
    {"reduce", "vector", "reduce/reduce.cu", "z += ((volatile A *)partial)[b]",
     "the last block's reads of the partials: the picture shows their fixed-order sum (the total's TRACE_WRITE)"},
    {"reduce", "vector", "reduce/reduce.cu", "warp_sums",
     "the last block's warp sums, written and added in a fixed order: the picture shows the total they make"},
    {"distance", "tree", "vector/distance.cu", "partial[blockIdx.x] = s[0]",
     "the block's result is recorded as a TRACE_MARK (the partial), not as a read of s[0]"},
    {"matmul", "gpu-vec", "matmul/matmul.cu", "] = a.",
     "a float4 of A is stored as four floats (transposed): TRACE records the first, where the tile picture "
     "places the thread's load"},
    {"matmul", "gpu-vec", "matmul/matmul.cu", "] = b.", "likewise a float4 of B: its first float is traced"},
    {"matmul", "gpu-warp", "matmul/matmul.cu", "] = a.", "as gpu-vec: the first of a float4's four stores is traced"},
    {"matmul", "gpu-warp", "matmul/matmul.cu", "] = b.", "as gpu-vec, for B"},
};
enum { NEXCEPTIONS = sizeof exceptions / sizeof exceptions[0] };

typedef struct key {
    unsigned launch, block, thread, epoch;
    int write, shared, atomic;
    long long index; /* a byte: from the array's start (global), or the block's shared memory */
    /* not compared: the automatic access's array, site, first byte and width */
    int array, site;
    long long first, width;
} key;

static int key_cmp(const void *x, const void *y)
{
    const key *a = x, *b = y;
#define C(f) if (a->f != b->f) return a->f < b->f ? -1 : 1
    C(launch); C(block); C(thread); C(epoch); C(write); C(shared); C(atomic); C(index);
#undef C
    return 0;
}

static size_t uniq(key *k, size_t n)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || key_cmp(&k[m - 1], &k[i]) != 0) k[m++] = k[i];
    return m;
}

typedef struct keys {
    key *k;
    size_t n, cap;
} keys;

static void push(keys *s, key k)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 1024;
        s->k = realloc(s->k, s->cap * sizeof *s->k);
        if (!s->k) {
            printf("FAIL: out of memory\n");
            exit(1);
        }
    }
    s->k[s->n++] = k;
}

/* A register's bits as the value a TRACE line recorded (as a double): the
 * trace does not know the type, so any of the kernels' types may match. */
static int same_bits(unsigned long long r, double v)
{
    uint32_t u = (uint32_t)r;
    float f;
    double d;
    memcpy(&f, &u, 4);
    memcpy(&d, &r, 8);
    return (double)(int32_t)u == v || (double)u == v || (r >> 32 == 0 && (double)f == v) || d == v ||
           (double)(long long)r == v;
}

/* The source line `line` of kernels/FILE, or "" (static buffer). */
static const char *source_line(const char *file, int line)
{
    static char text[512];
    char path[1024];
    text[0] = 0;
    snprintf(path, sizeof path, "%s/kernels/%s", SOURCE_DIR, file);
    FILE *f = fopen(path, "r");
    if (!f) return text;
    for (int n = 1; fgets(text, sizeof text, f); n++)
        if (n == line) {
            fclose(f);
            return text;
        }
    fclose(f);
    text[0] = 0;
    return text;
}

/* The exception that covers an automatic access at site s, or NULL. */
static const exception *excepted(const lab_algo *al, const lab_variant *v, const acc_site *s)
{
    for (int i = 0; i < NEXCEPTIONS; i++) {
        const exception *x = &exceptions[i];
        if (strcmp(x->algo, al->name) != 0 || (x->variant && strcmp(x->variant, v->name) != 0)) continue;
        const char *base = strrchr(x->file, '/');
        if (strcmp(base ? base + 1 : x->file, s->file) != 0) continue;
        if (strstr(source_line(x->file, s->line), x->code)) return x;
    }
    return NULL;
}

/* Record the variant both ways at once; 0 with both traces. */
static int record_both(const lab_algo *al, const lab_variant *v, lab_trace *t, acc_trace *acc)
{
    lab_config cfg;
    lab_config_defaults(&cfg);
    cfg.backend = LAB_BACKEND_SIM;
    cfg.repeats = 1;
    cfg.dtype = al->dtype_default;
    unsigned dts = v->dtypes ? v->dtypes : al->dtypes;
    if (dts && !(dts & LAB_DT(cfg.dtype)))
        for (int d = 0; d < LAB_NDTYPES; d++)
            if (dts & LAB_DT(d)) {
                cfg.dtype = (lab_dtype)d;
                break;
            }
    cfg.n = al->trace_n > 0 ? al->trace_n : 64;
    if (cfg.n > v->trace_max_n) cfg.n = v->trace_max_n;
    if (v->trace_block > 0) cfg.block = v->trace_block;
    char err[LAB_ERR_MAX];
    if (lab_validate(al, v, &cfg, err, sizeof err) != 0) {
        printf("skip %s/%s: %s\n", al->name, v->name, err);
        return 1;
    }
    lab_input *in = lab_input_new(al, &cfg, err, sizeof err);
    if (!in) {
        printf("FAIL %s/%s: %s\n", al->name, v->name, err);
        return -1;
    }
    char *buf = NULL;
    size_t blen = 0;
    FILE *mf = open_memstream(&buf, &blen);
    if (acc_writer_attach(mf, 1u << 16, 1ull << 24) != 0) {
        printf("FAIL: cannot attach the writer\n");
        return -1;
    }
    lab_result r;
    memset(t, 0, sizeof *t);
    int rc = lab_run(in, v, &r, t);
    acc_writer_detach();
    fclose(mf);
    lab_input_delete(in);
    if (rc != 0) {
        printf("FAIL %s/%s: did not run: %s\n", al->name, v->name, r.note);
        free(buf);
        return -1;
    }
    FILE *rf = fmemopen(buf, blen, "r");
    rc = acc_trace_read(rf, acc, 1ull << 24, err, sizeof err);
    fclose(rf);
    free(buf);
    if (rc != 0) {
        printf("FAIL %s/%s: %s\n", al->name, v->name, err);
        lab_trace_free(t);
        return -1;
    }
    acc_trace_resolve(acc, NULL);
    return 0;
}

/* The accesses one TRACE event implies; optional ones (a global
 * compare-swap that kept its pair may write it back or not) need not be
 * there. Returns how many. */
static int implied(const lab_event *e, key *ks, int *optional)
{
    int n = 0;
    key base = {e->launch, e->block, e->thread, e->epoch, 0, e->space == LAB_SP_SHARED, 0, e->a, 0, 0, 0, 0};
    key b = base;
    b.index = e->b;
    switch (e->kind) {
    case LAB_EV_READ: ks[n] = base, optional[n++] = 0; break;
    case LAB_EV_WRITE: ks[n] = base, ks[n].write = 1, optional[n++] = 0; break;
    case LAB_EV_ADD: /* reads a[dst] and a[src], writes a[dst] */
        ks[n] = base, optional[n++] = 0;
        ks[n] = b, optional[n++] = 0;
        ks[n] = base, ks[n].write = 1, optional[n++] = 0;
        break;
    case LAB_EV_ATOMIC:
        ks[n] = base, ks[n].atomic = 1, optional[n++] = 0;
        ks[n] = base, ks[n].atomic = 1, ks[n].write = 1, optional[n++] = 0;
        break;
    case LAB_EV_CSWAP: { /* reads both; writes both where it swapped */
        int kept = e->v == 0;
        ks[n] = base, optional[n++] = 0;
        ks[n] = b, optional[n++] = 0;
        if (!kept || e->space == LAB_SP_GLOBAL) {
            ks[n] = base, ks[n].write = 1, optional[n++] = kept;
            ks[n] = b, ks[n].write = 1, optional[n++] = kept;
        }
        break;
    }
    default: break;
    }
    return n;
}

static int check_variant(const lab_algo *al, const lab_variant *v, int *checked)
{
    lab_trace t;
    acc_trace acc;
    int rc = record_both(al, v, &t, &acc);
    if (rc != 0) return rc < 0;
    /* the lab harness may launch more often than the trace keeps (a
     * warm-up): the traced launches are the last ones */
    int fails = 0;
    if (acc.nlaunches < t.nlaunches) {
        printf("FAIL %s/%s: %d launches traced by hand, %d automatically\n", al->name, v->name, t.nlaunches,
               acc.nlaunches);
        fails++;
    }
    unsigned shift = acc.nlaunches >= t.nlaunches ? (unsigned)(acc.nlaunches - t.nlaunches) : 0;
    /* the automatic accesses, byte by byte */
    keys A = {0};
    for (size_t i = 0; i < acc.nreqs; i++) {
        const acc_req *q = &acc.reqs[i];
        if (q->launch < shift) continue;
        for (size_t k = q->lane0; k < q->lane0 + q->nlanes; k++) {
            const acc_lane *ln = &acc.lanes[k];
            long long first = (long long)((q->space == ACC_SHARED ? acc.arrays[ln->array].base : 0) + ln->offset);
            for (unsigned j = 0; j < q->width; j++) {
                key a = {q->launch - shift, q->block, q->warp * 32 + ln->lane, q->epoch, q->kind != ACC_READ,
                         q->space == ACC_SHARED, q->kind == ACC_ATOMIC, first + j, (int)ln->array, (int)q->site,
                         first, q->width};
                push(&A, a);
                if (q->kind == ACC_ATOMIC) { /* an atomic reads too */
                    a.write = 0;
                    push(&A, a);
                }
            }
        }
    }
    qsort(A.k, A.n, sizeof *A.k, key_cmp);
    A.n = uniq(A.k, A.n);
    /* The TRACE lines' accesses, found in the automatic trace. An index
     * counts elements: in shared memory of smem_elem_bytes from the start of
     * the block's shared memory, in global memory of the variant's type, of
     * its 8-byte accumulator or of a 4-byte counter (histogram's bins). */
    size_t su = t.smem_elem_bytes > 0 ? (size_t)t.smem_elem_bytes : lab_dtype_size(t.dtype);
    const long long units[3] = {(long long)lab_dtype_size(t.dtype), 8, 4};
    keys T = {0};
    key scope[64]; /* (launch, space, direction) in which the TRACE lines record accesses */
    size_t nscope = 0, want = 0, missing = 0;
    for (size_t i = 0; i < t.count; i++) {
        const lab_event *e = &t.ev[i];
        if (e->space == LAB_SP_REG) continue;
        key ks[4];
        int optional[4];
        int n = implied(e, ks, optional);
        for (int k = 0; k < n; k++) {
            int dup = 0;
            for (size_t s = 0; s < nscope && !dup; s++)
                dup = scope[s].launch == ks[k].launch && scope[s].shared == ks[k].shared && scope[s].write == ks[k].write;
            if (!dup && nscope < 64 && !ks[k].atomic) scope[nscope++] = ks[k];
            if (!optional[k]) want++;
            const key *hit = NULL;
            long long unit = 0;
            for (int u = 0; u < (ks[k].shared ? 1 : 3) && !hit; u++) {
                key b = ks[k];
                unit = ks[k].shared ? (long long)su : units[u];
                b.index = ks[k].index * unit;
                /* a read may have loaded the value in an earlier epoch */
                for (long long ep = (long long)b.epoch; ep >= 0 && !hit; ep--) {
                    b.epoch = (unsigned)ep;
                    hit = bsearch(&b, A.k, A.n, sizeof *A.k, key_cmp);
                    if (b.write) break;
                }
            }
            if (hit) {
                /* the element's bytes; and the whole access where the element
                 * begins it (an 8-byte atomic on a 4-byte element's index) */
                key c = *hit;
                long long from = hit->index, to = hit->index + unit;
                if (hit->first == hit->index && hit->first + hit->width > to) to = hit->first + hit->width;
                for (c.index = from; c.index < to; c.index++) push(&T, c);
            } else if (!optional[k] && missing++ < 3) {
                printf("FAIL %s/%s: launch %u block %u thread %u epoch %u: TRACE says %s %c[%lld], the automatic "
                       "trace has no such access\n",
                       al->name, v->name, ks[k].launch, ks[k].block, ks[k].thread, ks[k].epoch,
                       ks[k].atomic ? "atomic" : ks[k].write ? "write" : "read", ks[k].shared ? 's' : 'g',
                       ks[k].index);
            }
        }
    }
    if (missing) fails++;
    qsort(T.k, T.n, sizeof *T.k, key_cmp);
    T.n = uniq(T.k, T.n);
    /* the other way: the automatic accesses where the TRACE lines record */
    size_t extra = 0, in_scope = 0, allowed = 0;
    for (size_t i = 0; i < A.n; i++) {
        const key *a = &A.k[i];
        int scoped = 0;
        for (size_t s = 0; s < nscope && !scoped; s++)
            scoped = scope[s].launch == a->launch && scope[s].shared == a->shared && scope[s].write == a->write;
        if (!scoped) continue;
        in_scope++;
        if (bsearch(a, T.k, T.n, sizeof *T.k, key_cmp)) continue;
        const acc_site *site = &acc.sites[a->site];
        if (excepted(al, v, site)) {
            allowed++;
            continue;
        }
        if (extra++ < 3)
            printf("FAIL %s/%s: launch %u block %u thread %u epoch %u: the automatic trace %s %s byte %lld at %s:%d, "
                   "no TRACE line says so\n",
                   al->name, v->name, a->launch, a->block, a->thread, a->epoch, a->write ? "writes" : "reads",
                   acc.arrays[a->array].name, a->index, site->file, site->line);
    }
    if (extra) fails++;
    /* every shuffle a TRACE_SHFL line records is a collective of the
     * automatic trace. A TRACE line names the lane it asked for; past the
     * warp (lane + delta > 31) the shuffle returns the caller's own value,
     * and the automatic trace names the lane read: the caller. */
    size_t shfl = 0, shfl_missing = 0;
    for (size_t i = 0; i < t.count; i++) {
        const lab_event *e = &t.ev[i];
        if (e->kind != LAB_EV_SHFL) continue;
        shfl++;
        unsigned lane = e->thread % 32, src = e->b >= 0 && e->b < 32 ? (unsigned)e->b : lane;
        int found = 0;
        for (size_t k = 0; k < acc.nwops && !found; k++) {
            const acc_wop *w = &acc.wops[k];
            if (w->launch < shift || w->launch - shift != e->launch || w->block != e->block ||
                w->warp != e->thread / 32 || w->epoch != e->epoch || w->op > ACC_SHFL_XOR)
                continue;
            for (size_t j = w->lane0; j < w->lane0 + w->nlanes && !found; j++) {
                const acc_wlane *l = &acc.wlanes[j];
                found = l->lane == lane && l->src == src && same_bits(l->result, e->v);
            }
        }
        if (!found && shfl_missing++ < 3)
            printf("FAIL %s/%s: launch %u block %u thread %u epoch %u: TRACE says lane %u got %g from lane %d, the "
                   "automatic trace has no such shuffle\n",
                   al->name, v->name, e->launch, e->block, e->thread, e->epoch, lane, e->v, e->b);
    }
    if (shfl_missing) fails++;
    /* every site names a line of a kernels/ source file */
    int unnamed = 0;
    for (int i = 0; i < acc.nsites; i++)
        if (acc.sites[i].line <= 0 || !strstr(acc.sites[i].file, ".cu")) {
            if (!unnamed) printf("  site %llx: \"%s\" line %d\n", acc.sites[i].pc, acc.sites[i].file, acc.sites[i].line);
            unnamed++;
        }
    if (unnamed) {
        printf("FAIL %s/%s: %d of %d access sites have no source line\n", al->name, v->name, unnamed, acc.nsites);
        fails++;
    }
    if (!fails) {
        printf("ok %s/%s: %zu TRACE accesses in the automatic trace; its %zu bytes where TRACE records are theirs "
               "(%zu excepted); %zu shuffles\n",
               al->name, v->name, want, in_scope, allowed, shfl);
        if (want) (*checked)++;
    }
    free(A.k);
    free(T.k);
    acc_trace_free(&acc);
    lab_trace_free(&t);
    return fails;
}

int main(void)
{
    if (!sim_rec_available()) {
        printf("skipped: this build has no access recording\n");
        return 77;
    }
    int fails = 0, checked = 0;
    for (int a = 0; a < lab_algo_count(); a++) {
        const lab_algo *al = lab_algo_at(a);
        for (int i = 0; i < al->nvariants; i++) {
            const lab_variant *v = &al->variants[i];
            if (v->kind != LAB_ROW_KERNEL || v->trace_max_n <= 0 || !v->sim) continue;
            fails += check_variant(al, v, &checked);
        }
    }
    /* each exception must still be needed: its line must exist */
    for (int i = 0; i < NEXCEPTIONS; i++) {
        const exception *x = &exceptions[i];
        char path[1024];
        snprintf(path, sizeof path, "%s/kernels/%s", SOURCE_DIR, x->file);
        FILE *f = fopen(path, "r");
        char line[512];
        int seen = 0;
        while (f && !seen && fgets(line, sizeof line, f)) seen = strstr(line, x->code) != NULL;
        if (f) fclose(f);
        if (!seen) {
            printf("FAIL: the exception for %s/%s names \"%s\", which %s no longer has\n", x->algo,
                   x->variant ? x->variant : "*", x->code, x->file);
            fails++;
        }
    }
    printf("%d variants with TRACE accesses checked, %d failed\n", checked, fails);
    return fails ? 1 : checked > 0 ? 0 : 1;
}
