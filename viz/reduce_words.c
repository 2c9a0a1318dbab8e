/* reduce_words.c - the reduction renderer's captions: one sentence per
 * frame saying what the threads do and why it matters, and its counters. */
#include "viz/intl.h"
#include "viz/reduce_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Did an earlier step of the launch store values in shared memory (lane 0
 * of each warp writing its warp's sum)? */
static int warp_sums_stored(const rmodel *m, int fi)
{
    const rframe *f = &m->fr[fi];
    for (int i = m->L[f->launch].first; i < fi; i++) {
        if (m->fr[i].kind != F_STEP) continue;
        for (size_t j = 0; j < m->fr[i].count; j++) {
            const lab_event *e = m->fev[m->fr[i].first + j];
            if (e->kind == LAB_EV_WRITE && e->space == LAB_SP_SHARED) return 1;
        }
    }
    return 0;
}

void reduce_describe(const rmodel *m, int fi, const fstats *s, viz_frame_info *info)
{
    const rframe *f = &m->fr[fi];
    const lab_trace *t = m->t;
    const rlaunch *L = f->kind == F_INPUT ? &m->L[0] : &m->L[f->launch];
    char a[32], b[32];
    const char *dt = lab_dtype_name(t->dtype);
    int second = f->launch > 0;
    switch (f->kind) {
    case F_INPUT: {
        char values[512], blocks[256];
        /* TRANSLATORS: "4096 int values" */
        snprintf(values, sizeof values, ngettext("%lld %s value", "%lld %s values", (unsigned long)t->n), t->n, dt);
        snprintf(blocks, sizeof blocks, ngettext("%d block", "%d blocks", (unsigned long)L->nblocks), L->nblocks);
        viz_info_title(info, "%s", _("input"));
        /* TRANSLATORS: "The input: 4096 int values in global memory; 16 blocks of 128 threads ..." */
        if (L->nblocks == 1)
            viz_info_caption(info, _("The input: %s in global memory; one block of %d threads will reduce all of it "
                                     "to one sum."),
                             values, L->bd);
        else
            viz_info_caption(info,
                             _("The input: %s in global memory; %s of %d threads will each reduce a slice of it to "
                               "one partial sum."),
                             values, blocks, L->bd);
        break;
    }
    case F_LOAD:
        if (second) viz_info_title(info, _("launch %d: load"), f->launch + 1);
        else viz_info_title(info, "%s", _("load"));
        if (second)
            viz_info_caption(info,
                             ngettext("Launch %d: %d block of %d threads reads the %d partial sums that the "
                                      "previous launch wrote, so they are added in a fixed order without atomics.",
                                      "Launch %d: %d blocks of %d threads read the %d partial sums that the "
                                      "previous launch wrote, so they are added in a fixed order without atomics.",
                                      (unsigned long)L->nblocks),
                             f->launch + 1, L->nblocks, L->bd, m->L[f->launch - 1].nblocks);
        else if (!L->load_shared)
            viz_info_caption(info,
                             _("Each thread loads up to %d elements with wide, coalesced reads and adds "
                               "them in its own registers: no shared memory and no barrier yet."),
                             L->max_reads);
        else if (L->max_reads <= 1)
            viz_info_caption(info, "%s",
                             _("Each thread copies one element from global into shared memory; "
                               "__syncthreads() then waits until the whole block has stored its value."));
        else if (L->max_reads == 2)
            viz_info_caption(info, "%s",
                             _("Each thread adds two elements while loading, so half as many threads cover "
                               "the data, and stores the sum in shared memory before __syncthreads()."));
        else
            viz_info_caption(info,
                             _("Each thread adds up to %d elements in a grid-stride loop (neighbouring "
                               "threads read neighbouring elements: coalesced) and stores its partial "
                               "in shared memory."),
                             L->max_reads);
        break;
    case F_STEP: {
        /* Bank conflicts worth a word: more passes than the element size
         * needs anyway. The clauses below end a caption's sentence, before
         * its full stop. */
        int min_pass = rmodel_min_passes(t);
        char conflict[160] = "";
        if (s->ways > min_pass)
            /* TRANSLATORS: the end of a caption's sentence, before its full stop */
            snprintf(conflict, sizeof conflict,
                     _(", and %d-way bank conflicts make each shared-memory access take %d passes"), s->ways,
                     s->ways);
        if (s->nshfl > 0) {
            int d = abs(s->offset);
            if (s->xor_pattern) viz_info_title(info, _("shuffle xor %d"), d);
            else viz_info_title(info, _("shuffle offset %d"), d);
            if (s->xor_pattern)
                viz_info_caption(info,
                                 _("Warp shuffle: each lane adds the register of lane i xor %d, straight "
                                   "from register to register: no shared memory, no __syncthreads(), "
                                   "and after log2(32) = 5 rounds every lane holds the warp's sum."),
                                 d);
            else if (s->uniform)
                viz_info_caption(info,
                                 _("Warp shuffle: each lane adds the register of lane i + %d, straight "
                                   "from register to register: no shared memory, no __syncthreads(), "
                                   "and after log2(32) = 5 rounds lane 0 holds the warp's sum."),
                                 d);
            else
                viz_info_caption(info, "%s",
                                 _("Warp shuffle: lanes exchange registers directly, without shared "
                                   "memory or a barrier."));
        } else if (s->nadd > 0) {
            int d = abs(s->offset);
            if (s->uniform) viz_info_title(info, _("stride %d"), d);
            else viz_info_title(info, "%s", _("tree step"));
            /* per block: every block does the same */
            long long nb = s->nblocks_active > 0 ? s->nblocks_active : 1;
            long long act = s->active / nb, warps = s->warps_active / nb;
            /* warps of the block that skip this step as a whole: no divergence,
             * but they still run the loop and reach every __syncthreads */
            long long wpb = (L->bd + 31) / 32, skip = wpb - warps;
            char skips[512] = "";
            if (skip == 1)
                /* TRANSLATORS: the end of a caption's sentence, before its full stop */
                snprintf(skips, sizeof skips, "%s",
                         _("; the other warp skips the addition as a whole (no divergence) but still "
                           "runs the loop and reaches __syncthreads()"));
            else if (skip > 1)
                snprintf(skips, sizeof skips,
                         ngettext("; the other %lld warp skips the addition as a whole (no divergence) but "
                                  "still runs the loop and reaches __syncthreads()",
                                  "; the other %lld warps skip the addition as a whole (no divergence) but "
                                  "still run the loop and reach __syncthreads()",
                                  (unsigned long)skip),
                         skip);
            if (s->pattern == 1 && 2 * d <= 32) {
                if (nb > 1)
                    viz_info_caption(info,
                                     ngettext("Stride %d: threads whose index is a multiple of %d add s[i+%d] into "
                                              "s[i]: only %lld of each block's %d threads work, spread over all "
                                              "%lld warp, so every warp runs the addition with %d of its 32 lanes "
                                              "(divergence)%s.",
                                              "Stride %d: threads whose index is a multiple of %d add s[i+%d] into "
                                              "s[i]: only %lld of each block's %d threads work, spread over all "
                                              "%lld warps, so every warp runs the addition with %d of its 32 lanes "
                                              "(divergence)%s.",
                                              (unsigned long)warps),
                                     d, 2 * d, d, act, L->bd, warps, 32 / (2 * d), conflict);
                else
                    viz_info_caption(info,
                                     ngettext("Stride %d: threads whose index is a multiple of %d add s[i+%d] into "
                                              "s[i]: only %lld of the block's %d threads work, spread over all "
                                              "%lld warp, so every warp runs the addition with %d of its 32 lanes "
                                              "(divergence)%s.",
                                              "Stride %d: threads whose index is a multiple of %d add s[i+%d] into "
                                              "s[i]: only %lld of the block's %d threads work, spread over all "
                                              "%lld warps, so every warp runs the addition with %d of its 32 lanes "
                                              "(divergence)%s.",
                                              (unsigned long)warps),
                                     d, 2 * d, d, act, L->bd, warps, 32 / (2 * d), conflict);
            } else if (s->pattern == 1) {
                char threads[64], inwarps[64];
                snprintf(threads, sizeof threads, ngettext("%lld thread", "%lld threads", (unsigned long)act), act);
                snprintf(inwarps, sizeof inwarps, ngettext("%lld warp", "%lld warps", (unsigned long)warps), warps);
                /* TRANSLATORS: "... into s[i]: 4 threads of the block's 128, one lane in each of 4 warps ..." */
                viz_info_caption(info,
                                 nb > 1 ? _("Stride %d: threads whose index is a multiple of %d add s[i+%d] into "
                                            "s[i]: %s of each block's %d, one lane in each of %s "
                                            "(divergence)%s%s.")
                                        : _("Stride %d: threads whose index is a multiple of %d add s[i+%d] into "
                                            "s[i]: %s of the block's %d, one lane in each of %s "
                                            "(divergence)%s%s."),
                                 d, 2 * d, d, threads, L->bd, inwarps, skips, conflict);
            } else if (s->pattern == 3) {
                viz_info_caption(info,
                                 _("Stride %d: thread 0 alone adds s[%d] into s[0], the block's last "
                                   "addition; the other lanes of its warp are masked off%s%s."),
                                 d, d, skips, conflict);
            } else if (s->pattern == 2 && d >= 32) {
                if (nb > 1)
                    viz_info_caption(info,
                                     ngettext("Stride %d: the first %d threads add s[i+%d] into s[i]; they fill "
                                              "%lld whole warp per block, so no warp diverges%s%s.",
                                              "Stride %d: the first %d threads add s[i+%d] into s[i]; they fill "
                                              "%lld whole warps per block, so no warp diverges%s%s.",
                                              (unsigned long)warps),
                                     d, d, d, warps, skips, conflict);
                else
                    viz_info_caption(info,
                                     ngettext("Stride %d: the first %d threads add s[i+%d] into s[i]; they fill "
                                              "%lld whole warp, so no warp diverges%s%s.",
                                              "Stride %d: the first %d threads add s[i+%d] into s[i]; they fill "
                                              "%lld whole warps, so no warp diverges%s%s.",
                                              (unsigned long)warps),
                                     d, d, d, warps, skips, conflict);
            } else if (s->pattern == 2) {
                viz_info_caption(info,
                                 ngettext("Stride %d: the first %d thread adds s[i+%d] into s[i], now inside "
                                          "one warp that runs with %d of its 32 lanes (divergence)%s%s.",
                                          "Stride %d: the first %d threads add s[i+%d] into s[i], now inside "
                                          "one warp that runs with %d of its 32 lanes (divergence)%s%s.",
                                          (unsigned long)d),
                                 d, d, d, d, skips, conflict);
            } else {
                viz_info_caption(info,
                                 ngettext("%lld thread each add one shared-memory element into another%s.",
                                          "%lld threads each add one shared-memory element into another%s.",
                                          (unsigned long)s->active),
                                 s->active, conflict);
            }
        } else if (s->nread_s > 0 && warp_sums_stored(m, fi)) {
            viz_info_title(info, "%s", _("read warp sums"));
            viz_info_caption(info,
                             ngettext("%lld thread of the first warp read the per-warp sums back from shared "
                                      "memory into registers, so one warp can finish the block with shuffles%s.",
                                      "%lld threads of the first warp read the per-warp sums back from shared "
                                      "memory into registers, so one warp can finish the block with shuffles%s.",
                                      (unsigned long)s->active),
                             s->active, conflict);
        } else if (s->nread_s > 0) {
            viz_info_title(info, "%s", _("to registers"));
            viz_info_caption(info,
                             _("The first warp copies its partials from shared memory into registers, "
                               "where warp shuffles can reach them%s."),
                             conflict);
        } else if (s->nwrite_s > 0) {
            viz_info_title(info, "%s", _("store warp sums"));
            viz_info_caption(info,
                             _("Lane 0 of each warp stores its warp's sum in shared memory; "
                               "__syncthreads() makes them visible to the whole block%s."),
                             conflict);
        } else {
            viz_info_title(info, "%s", _("step"));
            viz_info_caption(info, "%s", _("The threads exchange partial sums."));
        }
        break;
    }
    case F_RESULT: {
        int later = 0; /* more work in this launch after these results */
        for (int i = fi + 1; i < L->first + L->nframes; i++)
            if (m->fr[i].kind == F_STEP) later = 1;
        if (s->natomic > 0) {
            /* equal operands: no order can change the total */
            int equal = 1;
            double first = 0;
            int seen = 0;
            for (size_t i = 0; i < f->count && equal; i++) {
                const lab_event *e = m->fev[f->first + i];
                if (e->kind != LAB_EV_ATOMIC) continue;
                if (seen++ && e->v != first) equal = 0;
                first = e->v;
            }
            const int fp = t->dtype == LAB_FLOAT || t->dtype == LAB_DOUBLE;
            const unsigned long na = (unsigned long)s->natomic;
            if (second) viz_info_title(info, _("launch %d: atomicAdd"), f->launch + 1);
            else viz_info_title(info, "atomicAdd");
            if (!fp)
                viz_info_caption(info,
                                 ngettext("Thread 0 of each block adds its block's sum to the total with atomicAdd: "
                                          "%lld atomic in whatever order the blocks finish; integer sums come out "
                                          "the same in any order.",
                                          "Thread 0 of each block adds its block's sum to the total with atomicAdd: "
                                          "%lld atomics in whatever order the blocks finish; integer sums come out "
                                          "the same in any order.",
                                          na),
                                 (long long)s->natomic);
            else if (equal && s->natomic > 1)
                viz_info_caption(info,
                                 ngettext("Thread 0 of each block adds its block's sum to the total with atomicAdd: "
                                          "%lld atomic in whatever order the blocks finish; the block sums are all "
                                          "equal, so every order gives the same total, yet each addition rounds it "
                                          "to a %s.",
                                          "Thread 0 of each block adds its block's sum to the total with atomicAdd: "
                                          "%lld atomics in whatever order the blocks finish; the block sums are all "
                                          "equal, so every order gives the same total, yet each addition rounds it "
                                          "to a %s.",
                                          na),
                                 (long long)s->natomic, lab_dtype_name(t->dtype));
            else
                viz_info_caption(info,
                                 ngettext("Thread 0 of each block adds its block's sum to the total with atomicAdd: "
                                          "%lld atomic in whatever order the blocks finish, so floating-point "
                                          "rounding can change the last digits from run to run.",
                                          "Thread 0 of each block adds its block's sum to the total with atomicAdd: "
                                          "%lld atomics in whatever order the blocks finish, so floating-point "
                                          "rounding can change the last digits from run to run.",
                                          na),
                                 (long long)s->natomic);
        } else if (later && s->nwrite_g > 1) {
            viz_info_title(info, "%s", _("block sums"));
            viz_info_caption(info, "%s",
                             _("Thread 0 of each block writes its sum to partial[blockIdx]; the last "
                               "block to finish adds them in a fixed order: one launch, no atomics on "
                               "the data."));
        } else if (f->launch + 1 < m->nl) {
            if (second) viz_info_title(info, _("launch %d: partials"), f->launch + 1);
            else viz_info_title(info, "%s", _("block sums"));
            viz_info_caption(info,
                             _("Thread 0 of each block writes its sum to partial[blockIdx]: no "
                               "atomics; a second launch adds the %d partials in a fixed order."),
                             L->nblocks);
        } else {
            if (second) viz_info_title(info, _("launch %d: result"), f->launch + 1);
            else viz_info_title(info, "%s", _("result"));
            viz_info_caption(info, "%s", _("Thread 0 writes the final sum to global memory: this is the answer."));
        }
        break;
    }
    case F_FINAL: {
        rmodel_fmt(m, rmodel_answer(m), a, sizeof a);
        rmodel_fmt(m, m->ref, b, sizeof b);
        viz_info_title(info, "%s", _("result"));
        double got = rmodel_answer(m), rel = m->ref != 0 ? fabs(got - m->ref) / fabs(m->ref) : fabs(got);
        if (!m->have_ref)
            viz_info_caption(info, _("Done: the sum is %s."), a);
        else if (got == m->ref)
            viz_info_caption(info, _("Done: the sum is %s, the same as the CPU's."), a);
        else if (rel < 1e-3 && (t->dtype == LAB_FLOAT || t->dtype == LAB_DOUBLE))
            viz_info_caption(info,
                             _("Done: the sum is %s and the CPU's compensated sum is %s (relative error %.1e): "
                               "each of the GPU's additions rounds to its type, and the rounding errors "
                               "depend on the order of the additions."),
                             a, b, rel);
        else
            viz_info_caption(info, _("Done: the sum is %s but the CPU's is %s: the result is wrong."), a, b);
        break;
    }
    }
    if ((f->kind == F_STEP || f->kind == F_RESULT) && s->nblocks_active == 1 && L->nblocks > 1) {
        /* The vector variant's last block: only it goes on. */
        char rest[VIZ_CAPTION_MAX];
        snprintf(rest, sizeof rest, "%s", info->caption);
        if (rest[0] >= 'A' && rest[0] <= 'Z') rest[0] = (char)(rest[0] - 'A' + 'a');
        /* TRANSLATORS: %s is the frame's caption, its first letter made lower case */
        viz_info_caption(info, _("Only block %d, the last to finish, goes on: %s"), s->only_block, rest);
    }
    if (f->kind == F_INPUT || f->kind == F_FINAL) {
        viz_info_counter(info, "active threads", VIZ_COUNTER_NONE, NULL);
        viz_info_counter(info, "idle in active warps", VIZ_COUNTER_NONE, NULL);
        viz_info_counter(info, "divergent warps", VIZ_COUNTER_NONE, NULL);
        viz_info_counter(info, "bank conflicts", VIZ_COUNTER_NONE, NULL);
        viz_info_counter(info, "barriers passed", VIZ_COUNTER_NONE, NULL);
        return;
    }
    viz_info_counter(info, "active threads", s->active, NULL);
    viz_info_counter(info, "idle in active warps", s->idle_in_active, NULL);
    viz_info_counter(info, "divergent warps", s->divergent, NULL);
    /* 8-byte sums: a warp's 32 of them are 256 bytes, two passes over the 32
     * banks of 4 bytes however they lie; only more passes are a conflict */
    int min_pass = rmodel_min_passes(t);
    if (s->ways <= 0)
        viz_info_counter(info, "bank conflicts", VIZ_COUNTER_NONE, NULL);
    else if (min_pass > 1 && s->ways <= min_pass)
        viz_info_counter(info, "bank conflicts", VIZ_COUNTER_WORD, N_("none (8-byte sums: 2 passes, the least)"));
    else if (min_pass > 1)
        viz_info_counter(info, "bank conflicts", s->ways, N_(" passes (8-byte sums: 2 at the least)"));
    else
        viz_info_counter(info, "bank conflicts", s->ways, N_("-way"));
    viz_info_counter(info, "barriers passed", s->barriers, NULL);
}
