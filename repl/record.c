/* record.c - recording what a built-in variant does: its trace at a small
 * n (every step of every thread, for trace and the animations), across the
 * GPUs of `set gpus`, and every memory access of its first blocks on the
 * simulator (the generic animation and trace's generic view). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repl/record.h"

#include "kernels/sim/acctrace.h"
#include "repl/i18n.h"
#include "repl/parse.h"
#include "repl/session.h"

#define TRACE_AUTO_N 64 /* n when n is auto: small enough to read */

/* Across GPUs: each GPU's trace over its slice, gathered in one trace for
 * viz_render_multi (the input is the slices' inputs in GPU order). r: the
 * host combine's result. */
static int record_multi(lab_input *in, const lab_variant *v, lab_trace *t, lab_result *r)
{
    lab_multi *m = calloc(1, sizeof *m);
    lab_trace *parts = calloc(LAB_MAX_GPUS, sizeof *parts);
    char msg[LAB_ERR_MAX];
    if (!m || !parts || lab_multi_run(in, v, m, parts, msg, sizeof msg) != 0) {
        snprintf(r->note, sizeof r->note, "%s", m && parts ? msg : _("out of memory"));
        if (parts)
            for (int d = 0; d < LAB_MAX_GPUS; d++) lab_trace_free(&parts[d]);
        free(parts);
        free(m);
        return -1;
    }
    const lab_trace *p0 = &parts[0];
    t->backend = p0->backend;
    snprintf(t->algo, sizeof t->algo, "%s", p0->algo);
    snprintf(t->variant, sizeof t->variant, "%s", p0->variant);
    t->n = m->n;
    t->dtype = p0->dtype;
    t->smem_elem_bytes = p0->smem_elem_bytes;
    t->input = calloc((size_t)m->n, sizeof *t->input);
    for (int d = 0; d < m->gpus && t->input; d++)
        if (parts[d].input) memcpy(t->input + m->lo[d], parts[d].input, sizeof(double) * (size_t)m->len[d]);
    t->gpus = m->gpus;
    t->parts = parts;
    t->multi = m;
    t->result = m->comb[LAB_COMBINE_HOST].value;
    *r = m->part[0];
    r->n = m->n;
    r->value = t->result;
    snprintf(r->result, sizeof r->result, "%s", m->comb[LAB_COMBINE_HOST].result);
    return 0;
}

static int record(struct session *s, const lab_variant *v, lab_trace *t, lab_result *r, char *err, size_t errlen,
                  int multi);

int record_trace(struct session *s, const lab_variant *v, lab_trace *t, lab_result *r, char *err, size_t errlen)
{
    return record(s, v, t, r, err, errlen, 0);
}

int record_trace_multi(struct session *s, const lab_variant *v, lab_trace *t, lab_result *r, char *err,
                       size_t errlen)
{
    return record(s, v, t, r, err, errlen, 1);
}

static int record(struct session *s, const lab_variant *v, lab_trace *t, lab_result *r, char *err, size_t errlen,
                  int multi)
{
    memset(t, 0, sizeof *t);
    memset(r, 0, sizeof *r);
    if (!s->algo || !v) {
        snprintf(err, errlen, "%s", _("choose an algorithm first: use ALGO/VARIANT"));
        return -1;
    }
    if (v->trace_max_n <= 0) {
        snprintf(err, errlen,
                 v->kind == LAB_ROW_LIB   ? _("%s/%s cannot be traced (library code records nothing)")
                 : v->kind == LAB_ROW_CPU ? _("%s/%s cannot be traced (it is a CPU row)")
                                          : _("%s/%s cannot be traced"),
                 s->algo->name, v->name);
        return -1;
    }
    lab_config cfg = s->cfg;
    s->trace_note[0] = 0;
    /* With block auto, trace with the variant's smallest block of at least a
     * warp: fewer idle threads make a readable trace, and a warp shows
     * divergence. Below a warp, the variant's own default. */
    if (cfg.block <= 0 && v->trace_block > 0)
        cfg.block = v->trace_block; /* the variant knows what shows its steps best */
    else if (cfg.block <= 0 && v->block_min > 0 && !(v->flags & (LAB_FIXED_BLOCK | LAB_BLOCK_2D)))
        cfg.block = v->block_min >= 32 ? v->block_min : v->block_default;
    if (cfg.n <= 0 || cfg.n > v->trace_max_n) {
        /* The family's picture size, or its default size when that is small
         * enough (the lecture's examples), or a size small enough to read. */
        long long def = s->algo->n_default;
        long long asked = cfg.n;
        if (s->algo->trace_n > 0) cfg.n = s->algo->trace_n;
        else if (def > 0 && def <= v->trace_max_n) cfg.n = def;
        else cfg.n = v->trace_max_n < TRACE_AUTO_N ? v->trace_max_n : TRACE_AUTO_N;
        if (asked > 0) {
            /* n too large to record every step: a small instance of the same
             * configuration, two blocks of the same block size where the
             * variant's n is one element per thread (and the family has no
             * picture size, or the block was set), else the picture size. */
            int blocks = 0;
            if (!(v->flags & LAB_BLOCK_2D) && (s->algo->trace_n <= 0 || s->cfg.block > 0) && cfg.block > 0) {
                int ipt = v->items_per_thread > 0 ? v->items_per_thread : 1;
                long long two = 2LL * cfg.block * ipt;
                if (two > v->trace_max_n) two = v->trace_max_n;
                if (v->flags & LAB_POW2_N) {
                    long long p2 = 1;
                    while (p2 * 2 <= two) p2 *= 2;
                    two = p2;
                }
                cfg.n = two;
                blocks = (int)((two + (long long)cfg.block * ipt - 1) / ((long long)cfg.block * ipt));
            }
            char a[32], b[32];
            parse_fmt_size(asked, a, sizeof a);
            parse_fmt_size(cfg.n, b, sizeof b);
            if (blocks > 0)
                snprintf(s->trace_note, sizeof s->trace_note,
                         ngettext("n = %s is too large to record every step: showing a small instance, the "
                                  "first %d block, n = %s, with the same block (%d) and pattern",
                                  "n = %s is too large to record every step: showing a small instance, the "
                                  "first %d blocks, n = %s, with the same block (%d) and pattern",
                                  (unsigned long)blocks),
                         a, blocks, b, cfg.block);
            else
                snprintf(s->trace_note, sizeof s->trace_note,
                         _("n = %s is too large to record every step: showing a small instance, n = %s, "
                           "with the same block and pattern"),
                         a, b);
        }
    }
    cfg.repeats = 1;
    lab_input *in = lab_input_new(s->algo, &cfg, err, errlen);
    if (!in) return -1;
    int rc = multi ? record_multi(in, v, t, r) : lab_run(in, v, r, t);
    lab_input_delete(in);
    if (rc != 0) {
        snprintf(err, errlen, "%s", r->note[0] ? r->note : _("the trace could not be recorded"));
        lab_trace_free(t);
        memset(t, 0, sizeof *t);
        return -1;
    }
    return 0;
}

int record_accesses(struct session *s, const lab_variant *v, acc_trace *acc, lab_trace *t, char *err,
                    size_t errlen)
{
    char *buf = NULL;
    size_t blen = 0;
    memset(acc, 0, sizeof *acc);
    FILE *mf = open_memstream(&buf, &blen);
    if (!mf) {
        snprintf(err, errlen, "%s", _("out of memory"));
        return -1;
    }
    if (acc_writer_attach(mf, s->trace_blocks, 0) != 0) {
        fclose(mf);
        free(buf);
        snprintf(err, errlen, "%s", _("this build records no accesses (the sanitizer build leaves the recording out)"));
        return -1;
    }
    lab_backend was = s->cfg.backend;
    s->cfg.backend = LAB_BACKEND_SIM; /* the recording is the simulator's */
    lab_result r;
    int rc = record_trace(s, v, t, &r, err, errlen);
    s->cfg.backend = was;
    acc_writer_detach();
    fclose(mf);
    if (rc != 0) {
        free(buf);
        return -1;
    }
    FILE *rf = fmemopen(buf, blen, "r");
    rc = rf ? acc_trace_read(rf, acc, 0, err, errlen) : -1;
    if (!rf) snprintf(err, errlen, "%s", _("out of memory"));
    else fclose(rf);
    free(buf);
    if (rc != 0) {
        lab_trace_free(t);
        return -1;
    }
    acc_trace_resolve(acc, NULL);
    return 0;
}
