/* reduce_multi.c - the reduction across several GPUs (`set gpus N`).
 *
 * Data parallelism in its plainest form: the input is cut into N contiguous
 * slices, GPU d reduces slice d with the chosen variant, and the N partial
 * sums are combined, three ways (lab_combine). The slices run one GPU after
 * another; each slice lives in its own GPU's memory and the GPUs share
 * nothing while they reduce, so N GPUs working at once take as long as the
 * slowest of them: the total is the slowest GPU's median plus the combine's.
 * On the simulator the N GPUs are modelled one after another and the combines
 * compute their result without a time (a copy or a collective between
 * simulated GPUs has no cost the simulator could measure). */
#include "kernels/family.h"
#include "kernels/reduce/reduce.h"

#include <math.h>
#include <stdlib.h>

/* reduce_multi_lib.cu: one combine on the GPUs, timed (warm-up, then repeats;
 * the median in *ms). partials[d] is GPU d's partial; total gets the result. */
#ifndef GPULAB_NO_CUDA
int reduce_combine_gpu(lab_combine way, int gpus, lab_dtype dt, const reduce_out *partials, int repeats,
                       double *ms, reduce_out *total, char *note, size_t notelen, char *err, size_t errlen);
#else
/* built without the CUDA toolkit: never on the GPU (no device), yet say why */
static int reduce_combine_gpu(lab_combine way, int gpus, lab_dtype dt, const reduce_out *partials, int repeats,
                              double *ms, reduce_out *total, char *note, size_t notelen, char *err, size_t errlen)
{
    (void)way, (void)gpus, (void)dt, (void)partials, (void)repeats, (void)ms, (void)total, (void)note,
        (void)notelen;
    snprintf(err, errlen, "%s", lab_device()->why_not);
    return -1;
}
#endif

/* The partial a slice's row returned: ints exactly (the row's text is the
 * 64-bit sum), floats and doubles as the row's value. */
static reduce_out row_partial(const lab_result *r, lab_dtype dt)
{
    reduce_out o;
    o.isum = dt == LAB_INT ? strtoll(r->result, NULL, 10) : (long long)r->value;
    o.sum = dt == LAB_INT ? (double)o.isum : r->value;
    return o;
}

/* What every combine computes, in the type the GPUs add in (floats in
 * float), GPU 0's partial first. */
static reduce_out add_partials(const reduce_out *p, int gpus, lab_dtype dt)
{
    reduce_out t = {0, 0};
    float f = 0;
    for (int d = 0; d < gpus; d++) {
        t.isum += p[d].isum;
        t.sum += p[d].sum;
        f += (float)p[d].sum;
    }
    if (dt == LAB_FLOAT) t.sum = f;
    if (dt != LAB_INT) t.isum = (long long)t.sum;
    return t;
}

/* One combine's row: its result checked against the reference of all of n. */
static void finish_combine(const lab_input *in, lab_multi *m, lab_multi_combine *c, const reduce_out *total,
                           double slowest)
{
    const lab_config *cfg = in->job.cfg;
    lab_job j = in->job;
    reduce_out o = *total;
    j.out = &o;
    lab_result r;
    memset(&r, 0, sizeof r);
    r.correct = -1;
    in->job.algo->check(&j, &j, &r);
    snprintf(c->result, sizeof c->result, "%s", r.result);
    c->value = r.value;
    c->correct = r.correct;
    c->rel_error = cfg->dtype == LAB_INT ? -1 : r.rel_error;
    if (!r.correct) {
        size_t l = strlen(c->note);
        snprintf(c->note + l, sizeof c->note - l, "%s%s", l ? "; " : "", r.note);
    }
    c->ran = 1;
    if (c->timed && slowest > 0) {
        c->total_ms = slowest + c->ms;
        if (m->one.ran && m->one.ms > 0) c->speedup = m->one.ms / c->total_ms;
        if (c->way == LAB_COMBINE_NCCL && c->ms > 0) {
            /* nccl-tests: algbw = S / t, busbw = algbw * 2(n-1)/n for all-reduce */
            c->algbw = m->bytes / (c->ms * 1e6);
            c->busbw = c->algbw * 2.0 * (m->gpus - 1) / m->gpus;
        }
    }
}

int reduce_multi(lab_input *in, const lab_variant *v, lab_multi *m, lab_trace *traces)
{
    const lab_config *cfg = in->job.cfg;
    const lab_dtype dt = cfg->dtype;
    const int gpus = m->gpus;
    const long long n = in->job.n;
    const size_t es = lab_dtype_size(dt);
    const int on_gpu = m->backend == LAB_BACKEND_GPU;
    char msg[LAB_ERR_MAX];
    reduce_out partial[LAB_MAX_GPUS];
    double slowest = 0;
    int parts_ok = 1;
    /* the bytes of one partial, as the GPUs add it: 64-bit ints, floats in
     * float, doubles: the all-reduce's buffer */
    m->bytes = dt == LAB_FLOAT ? 4 : 8;
    m->elems = 1;
    m->elem_bytes = (int)m->bytes;
    for (int d = 0; d < gpus; d++) {
        lab_multi_split(n, gpus, d, &m->lo[d], &m->len[d]);
        /* the slice as an input of its own: its own exact sum to check the
         * partial against, and no reference row of its own to run */
        lab_input part = *in;
        reduce_ref sref = {0, 0};
        long double ls = 0;
        for (long long i = m->lo[d]; i < m->lo[d] + m->len[d]; i++) {
            switch (dt) {
            case LAB_INT: sref.isum += ((const int *)in->job.in)[i]; break;
            case LAB_FLOAT: ls += ((const float *)in->job.in)[i]; break;
            default: ls += ((const double *)in->job.in)[i]; break;
            }
        }
        sref.sum = dt == LAB_INT ? (double)sref.isum : (double)ls;
        part.job.in = (char *)in->job.in + (size_t)m->lo[d] * es;
        part.job.n = m->len[d];
        part.job.in_bytes = (size_t)m->len[d] * es;
        part.job.bytes = (double)part.job.in_bytes;
        part.job.sim_items = 0;
        part.job.priv = &sref;
        part.have_ref = 1;
        part.omp_ms = -1;
        if (on_gpu && lab_device_select(d, msg, sizeof msg) != 0) {
            memset(&m->part[d], 0, sizeof m->part[d]);
            snprintf(m->part[d].note, sizeof m->part[d].note, "%s", msg);
            parts_ok = 0;
            break;
        }
        if (lab_run(&part, v, &m->part[d], traces ? &traces[d] : NULL) != 0) {
            parts_ok = 0;
            break;
        }
        partial[d] = row_partial(&m->part[d], dt);
        if (m->part[d].ms > slowest) slowest = m->part[d].ms;
    }
    if (on_gpu && lab_device_select(0, msg, sizeof msg) != 0) parts_ok = 0;
    for (int k = 0; k < LAB_NCOMBINES; k++) {
        lab_multi_combine *c = &m->comb[k];
        memset(c, 0, sizeof *c);
        c->way = (lab_combine)k;
        c->correct = -1;
        c->ms = c->total_ms = c->speedup = c->algbw = c->busbw = -1;
    }
    if (!parts_ok) return -1;
    if (on_gpu && !traces) lab_run(in, v, &m->one, NULL); /* the same variant on GPU 0 over all of n */
    for (int k = 0; k < LAB_NCOMBINES; k++) {
        lab_multi_combine *c = &m->comb[k];
        reduce_out total;
        if (!on_gpu) {
            total = add_partials(partial, gpus, dt);
            snprintf(c->note, sizeof c->note, "%s",
                     k == LAB_COMBINE_NCCL
                         ? "modelled: the all-reduce's result is computed, its time is not (no NCCL on the simulator)"
                         : "modelled: the copies' result is computed, their time is not (the simulated GPUs share "
                           "this CPU's memory)");
        } else {
            char err[LAB_ERR_MAX] = "";
            if (reduce_combine_gpu(c->way, gpus, dt, partial, cfg->repeats, &c->ms, &total, c->note,
                                   sizeof c->note, err, sizeof err) != 0) {
                snprintf(c->note, sizeof c->note, "%s", err);
                continue;
            }
            c->timed = 1;
        }
        finish_combine(in, m, c, &total, slowest);
    }
    return 0;
}
