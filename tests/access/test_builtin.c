/* Every built-in kernel variant on the simulator, traced twice at once:
 * by its hand-written TRACE_* lines and by the automatic access trace.
 * For every read and write the TRACE lines record in global or shared
 * memory (and the reads and the write an ADD implies), the automatic trace
 * must hold an access of the same kind, by the same thread of the same
 * block, in the same barrier epoch of the same launch, to the same element
 * of an array in the same memory space: as sets per epoch, what the TRACE
 * lines say is in the automatic trace. Registers (shuffles) are no memory
 * and are left out; so are the automatic trace's accesses that no TRACE
 * line describes (they are more: every load the compiled kernel makes).
 * The automatic trace's sites must name a source line of the variant's
 * kernels/ file. Exit 77 where the build has no recording. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/lab.h"
#include "kernels/sim/acctrace.h"
#include "kernels/sim/record.h"

typedef struct key {
    unsigned launch, block, thread, epoch;
    int write, shared;
    long long index;
} key;

static int key_cmp(const void *x, const void *y)
{
    const key *a = x, *b = y;
#define C(f) if (a->f != b->f) return a->f < b->f ? -1 : 1
    C(launch); C(block); C(thread); C(epoch); C(write); C(shared); C(index);
#undef C
    return 0;
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

static size_t uniq(key *k, size_t n)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || key_cmp(&k[m - 1], &k[i]) != 0) k[m++] = k[i];
    return m;
}

static int check_variant(const lab_algo *al, const lab_variant *v, int *checked)
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
        return 0;
    }
    lab_input *in = lab_input_new(al, &cfg, err, sizeof err);
    if (!in) {
        printf("FAIL %s/%s: %s\n", al->name, v->name, err);
        return 1;
    }
    char *buf = NULL;
    size_t blen = 0;
    FILE *mf = open_memstream(&buf, &blen);
    if (acc_writer_attach(mf, 1u << 16, 1ull << 24) != 0) {
        printf("FAIL: cannot attach the writer\n");
        return 1;
    }
    lab_trace t;
    lab_result r;
    memset(&t, 0, sizeof t);
    int rc = lab_run(in, v, &r, &t);
    acc_writer_detach();
    fclose(mf);
    lab_input_delete(in);
    if (rc != 0) {
        printf("FAIL %s/%s: did not run: %s\n", al->name, v->name, r.note);
        free(buf);
        return 1;
    }
    acc_trace acc;
    FILE *rf = fmemopen(buf, blen, "r");
    rc = acc_trace_read(rf, &acc, 1ull << 24, err, sizeof err);
    fclose(rf);
    free(buf);
    if (rc != 0) {
        printf("FAIL %s/%s: %s\n", al->name, v->name, err);
        lab_trace_free(&t);
        return 1;
    }
    /* the lab harness may launch more often than the trace keeps (a
     * warm-up): the traced launches are the last ones */
    int fails = 0;
    if (acc.nlaunches < t.nlaunches) {
        printf("FAIL %s/%s: %d launches traced by hand, %d automatically\n", al->name, v->name, t.nlaunches,
               acc.nlaunches);
        fails++;
    }
    unsigned shift = acc.nlaunches >= t.nlaunches ? (unsigned)(acc.nlaunches - t.nlaunches) : 0;
    /* Compared byte by byte: a TRACE index counts elements of the variant's
     * type (or of its 8-byte accumulator), in shared memory from the start
     * of the block's shared memory (smem_elem_bytes each); an automatic
     * access covers width bytes from its offset. */
    size_t su = t.smem_elem_bytes > 0 ? (size_t)t.smem_elem_bytes : lab_dtype_size(t.dtype);
    size_t nk = 0;
    for (size_t i = 0; i < acc.nreqs; i++) nk += (size_t)acc.reqs[i].nlanes * acc.reqs[i].width * 2;
    key *auto_keys = malloc((nk ? nk : 1) * sizeof *auto_keys);
    size_t na = 0;
    for (size_t i = 0; i < acc.nreqs; i++) {
        const acc_req *q = &acc.reqs[i];
        if (q->launch < shift) continue;
        for (size_t k = q->lane0; k < q->lane0 + q->nlanes; k++) {
            const acc_lane *ln = &acc.lanes[k];
            unsigned long long first = (q->space == ACC_SHARED ? acc.arrays[ln->array].base : 0) + ln->offset;
            for (unsigned j = 0; j < q->width; j++) {
                key a = {q->launch - shift, q->block, q->warp * 32 + ln->lane, q->epoch, q->kind != ACC_READ,
                         q->space == ACC_SHARED, (long long)(first + j)};
                auto_keys[na++] = a;
                if (q->kind == ACC_ATOMIC) { /* an atomic reads too */
                    a.write = 0;
                    auto_keys[na++] = a;
                }
            }
        }
    }
    qsort(auto_keys, na, sizeof *auto_keys, key_cmp);
    na = uniq(auto_keys, na);
    /* the TRACE lines' accesses as bytes too, at the epoch where the
     * automatic trace found them */
    size_t tcap = 64, nt = 0;
    key *trace_keys = malloc(tcap * sizeof *trace_keys);
    size_t want = 0, missing = 0;
    key scope[64]; /* (launch, space, direction) the TRACE lines record */
    size_t nscope = 0;
    const size_t units[2] = {lab_dtype_size(t.dtype), 8};
    for (size_t i = 0; i < t.count; i++) {
        const lab_event *e = &t.ev[i];
        if (e->space == LAB_SP_REG) continue;
        key ks[3];
        int n = 0;
        key base = {e->launch, e->block, e->thread, e->epoch, 0, e->space == LAB_SP_SHARED, e->a};
        if (e->kind == LAB_EV_READ || e->kind == LAB_EV_WRITE || e->kind == LAB_EV_ADD)
            for (int w = 0; w < 2; w++) {
                if (e->kind == LAB_EV_READ && w) continue;
                if (e->kind == LAB_EV_WRITE && !w) continue;
                int dup = 0;
                for (size_t k = 0; k < nscope && !dup; k++)
                    dup = scope[k].launch == e->launch && scope[k].shared == base.shared && scope[k].write == w;
                if (!dup && nscope < 64) {
                    scope[nscope] = base;
                    scope[nscope++].write = w;
                }
            }
        if (e->kind == LAB_EV_READ) {
            ks[n++] = base;
        } else if (e->kind == LAB_EV_WRITE) {
            base.write = 1;
            ks[n++] = base;
        } else if (e->kind == LAB_EV_ADD) {
            ks[n++] = base;                      /* reads a[dst] */
            key src = base;
            src.index = e->b;                    /* and a[src] */
            ks[n++] = src;
            base.write = 1;                      /* and writes a[dst] */
            ks[n++] = base;
        } else if (e->kind == LAB_EV_ATOMIC) {
            ks[n++] = base;                      /* an atomic reads */
            base.write = 1;                      /* and writes */
            ks[n++] = base;
        } else {
            continue;
        }
        for (int k = 0; k < n; k++) {
            want++;
            int found = 0;
            key hit = ks[k];
            long long unit = 0;
            for (int u = 0; u < (ks[k].shared ? 1 : 2) && !found; u++) {
                key b = ks[k];
                unit = (long long)(ks[k].shared ? su : units[u]);
                b.index = ks[k].index * unit;
                /* a TRACE read may describe a value the thread loaded in an
                 * earlier epoch (histogram/fast's words arrive ahead) */
                for (long long ep = (long long)b.epoch; ep >= 0 && !found; ep--) {
                    b.epoch = (unsigned)ep;
                    found = bsearch(&b, auto_keys, na, sizeof *auto_keys, key_cmp) != NULL;
                    if (found) hit = b;
                    if (b.write) break;
                }
            }
            if (found) {
                /* the element's bytes, at the epoch the automatic trace has them */
                for (long long j = 0; j < unit; j++) {
                    if (nt == tcap) trace_keys = realloc(trace_keys, (tcap *= 2) * sizeof *trace_keys);
                    trace_keys[nt] = hit;
                    trace_keys[nt++].index = hit.index + j;
                }
            }
            if (!found && missing++ < 3)
                printf("FAIL %s/%s: launch %u block %u thread %u epoch %u: TRACE says %s %c[%lld], the automatic "
                       "trace has no such access\n",
                       al->name, v->name, ks[k].launch, ks[k].block, ks[k].thread, ks[k].epoch,
                       ks[k].write ? "write" : "read", ks[k].shared ? 's' : 'g', ks[k].index);
        }
    }
    if (missing) fails++;
    qsort(trace_keys, nt, sizeof *trace_keys, key_cmp);
    nt = uniq(trace_keys, nt);
    /* the other way: every automatic access where the TRACE lines record
     * accesses (the same launch, memory space and direction) is one of theirs */
    size_t extra = 0, in_scope = 0;
    for (size_t i = 0; i < na; i++) {
        const key *a = &auto_keys[i];
        int scoped = 0;
        for (size_t k = 0; k < nscope && !scoped; k++)
            scoped = scope[k].launch == a->launch && scope[k].shared == a->shared && scope[k].write == a->write;
        if (!scoped) continue;
        in_scope++;
        if (bsearch(a, trace_keys, nt, sizeof *trace_keys, key_cmp)) continue;
        if (extra++ < 3)
            printf("  extra %s/%s: launch %u block %u thread %u epoch %u %s %c byte %lld\n", al->name, v->name,
                   a->launch, a->block, a->thread, a->epoch, a->write ? "write" : "read", a->shared ? 's' : 'g',
                   a->index);
    }
    printf("  %s/%s: %zu automatic bytes where TRACE records, %zu of them not in TRACE\n", al->name, v->name,
           in_scope, extra);
    /* every shuffle a TRACE_SHFL line records is a collective of the
     * automatic trace: the same warp, epoch and lane, source lane and value */
    size_t shfl = 0, shfl_missing = 0;
    for (size_t i = 0; i < t.count; i++) {
        const lab_event *e = &t.ev[i];
        if (e->kind != LAB_EV_SHFL) continue;
        shfl++;
        int found = 0;
        for (size_t k = 0; k < acc.nwops && !found; k++) {
            const acc_wop *w = &acc.wops[k];
            if (w->launch < shift || w->launch - shift != e->launch || w->block != e->block ||
                w->warp != e->thread / 32 || w->epoch != e->epoch || w->op > ACC_SHFL_XOR)
                continue;
            for (size_t j = w->lane0; j < w->lane0 + w->nlanes && !found; j++) {
                const acc_wlane *l = &acc.wlanes[j];
                found = l->lane == e->thread % 32 && l->src == (unsigned)e->b && same_bits(l->result, e->v);
            }
        }
        if (!found && shfl_missing++ < 3)
            printf("FAIL %s/%s: launch %u block %u thread %u epoch %u: TRACE says lane %d got %g from lane %d, the "
                   "automatic trace has no such shuffle\n",
                   al->name, v->name, e->launch, e->block, e->thread, e->epoch, e->a, e->v, e->b);
    }
    if (shfl_missing) fails++;
    /* every site names a line of a kernels/ source file */
    acc_trace_resolve(&acc, NULL);
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
        printf("ok %s/%s: %zu TRACE accesses all in the automatic trace (%zu bytes, %d sites), %zu shuffles\n",
               al->name, v->name, want, na, acc.nsites, shfl);
        if (want) (*checked)++;
    }
    free(auto_keys);
    free(trace_keys);
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
    printf("%d variants with TRACE accesses checked, %d failed\n", checked, fails);
    return fails ? 1 : checked > 0 ? 0 : 1;
}
