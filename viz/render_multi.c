/* render_multi.c - a reduction across GPUs, frame by frame: the input cut
 * into slices, each GPU's reduction tree over its slice (the reduction
 * renderer, one GPU after another), then the combines: the partials copied
 * to the host, copied GPU to GPU, and NCCL's ring all-reduce step by step.
 *
 * The ring is the algorithm nccl-tests' bus bandwidth is defined for: the
 * buffer of E elements (S bytes) is cut at element boundaries into N chunks,
 * chunk c holding elements [c E / N, (c + 1) E / N); in N-1 reduce-scatter
 * steps each GPU sends one chunk to the next GPU on the ring, which adds it
 * to its own element by element, so that GPU i ends with chunk i+1 summed over
 * all GPUs; in N-1 all-gather steps the summed chunks go round once more.
 * NCCL adds elements of a datatype (ncclInt64, ncclFloat) and never splits
 * one: with E >= N and E a multiple of N each step moves S/N bytes out of
 * every GPU (2(N-1)/N x S in all); with fewer elements than GPUs some chunks
 * are empty, and a one-element buffer (a reduction's partial) travels round
 * the ring whole. */
#include "viz/render_multi.h"

#include <stdio.h>
#include <string.h>

#include "viz/intl.h"

static const viz_renderer *tree(void) { return viz_renderer_find("reduce", NULL); }

/* The frames: 1 (slices) + each GPU's tree + host + p2p + the ring (its
 * start, its 2(N-1) steps, the end). */
static int ring_frames(int gpus) { return gpus > 1 ? 2 * (gpus - 1) + 2 : 1; }

static int part_frames(const lab_trace *t, int d) { return tree()->frames(&t->parts[d]); }

static int multi_frames(const lab_trace *t)
{
    if (!t->multi || !t->parts) return 1;
    int n = 1;
    for (int d = 0; d < t->gpus; d++) n += part_frames(t, d);
    return n + 2 + ring_frames(t->gpus);
}

static int gpu_role(int d) { return VIZ_ROLE_BLOCK0 + d % 8; }

/* Row 0: the input as one bar, each GPU's slice in its colour, the current
 * one (cur; -1 none) marked; row 1: the partials known so far (done GPUs). */
static void draw_slices_bar(const lab_trace *t, canvas *c, viz_rect a, int cur, int done)
{
    const lab_multi *m = t->multi;
    int x = a.x;
    for (int d = 0; d < m->gpus; d++) {
        int w = (int)((double)m->len[d] * a.w / (double)(m->n > 0 ? m->n : 1));
        if (d == m->gpus - 1) w = a.x + a.w - x;
        if (w < 1) w = 1;
        canvas_fill(c, viz_rect_make(x, a.y, w, 1), d == cur ? 0x2588 : 0x2592, gpu_role(d), 0);
        char lab[16];
        snprintf(lab, sizeof lab, "%d", d);
        if (w >= 3) canvas_text(c, x + 1, a.y, lab, d == cur ? VIZ_ROLE_HIGHLIGHT : VIZ_ROLE_TEXT, 0);
        x += w;
    }
    int px = a.x;
    for (int d = 0; d < done && d < m->gpus; d++) {
        char buf[512];
        snprintf(buf, sizeof buf, _("GPU %d: %s"), d, m->part[d].result);
        px = canvas_textn(c, px, a.y + 1, a.x + a.w - px, buf, gpu_role(d), 0) + 2;
        if (px >= a.x + a.w) break;
    }
}

static void draw_intro(const lab_trace *t, canvas *c, viz_rect a, viz_frame_info *info)
{
    const lab_multi *m = t->multi;
    for (int d = 0; d < m->gpus && d + 3 < a.h; d++)
        canvas_printf(c, a.x, a.y + 3 + d, gpu_role(d), 0, _("GPU %d: elements %lld..%lld (%lld)"), d, m->lo[d],
                      m->lo[d] + m->len[d] - 1, m->len[d]);
    viz_info_title(info, "%s", _("the slices"));
    viz_info_caption(info,
                     _("The input is cut into %d contiguous slices whose sizes differ by at most one element; "
                       "each GPU holds its slice in its own memory and reduces it with the same kernel."),
                     m->gpus);
    viz_info_counter(info, "GPUs", m->gpus, NULL);
    viz_info_counter(info, "elements", m->n, NULL);
}

/* The partials as GPU boxes in a column, and where they go. */
static void draw_copy(const lab_trace *t, canvas *c, viz_rect a, int p2p, viz_frame_info *info)
{
    const lab_multi *m = t->multi;
    const lab_multi_combine *k = &m->comb[p2p ? LAB_COMBINE_P2P : LAB_COMBINE_HOST];
    for (int d = 0; d < m->gpus && 3 + d < a.h; d++) {
        int x = canvas_printf(c, a.x, a.y + 3 + d, gpu_role(d), 0, _("GPU %d  %s"), d, m->part[d].result);
        if (!p2p || d > 0)
            canvas_printf(c, x + 1, a.y + 3 + d, VIZ_ROLE_ARROW, 0, p2p ? _("--%.0f B--> GPU 0") : _("--%.0f B--> host"),
                          m->bytes);
    }
    if (3 + m->gpus + 1 < a.h)
        canvas_printf(c, a.x, a.y + 4 + m->gpus, k->correct > 0 ? VIZ_ROLE_OK : VIZ_ROLE_WRONG, 0,
                      p2p ? _("GPU 0 adds them: %s") : _("the host adds them: %s"), k->result);
    viz_info_title(info, "%s", p2p ? _("combine: p2p") : _("combine: host"));
    if (p2p)
        viz_info_caption(info,
                         _("Each GPU's partial, %.0f bytes, is copied to GPU 0 (cudaMemcpyPeerAsync: directly when "
                           "the GPUs can reach each other's memory, else through the host), where one thread adds "
                           "the %d values; a copy this small costs its latency, not its bytes."),
                         m->bytes, m->gpus);
    else
        viz_info_caption(info,
                         _("Each GPU's partial, %.0f bytes, is copied to the host (cudaMemcpy) and added there: %d "
                           "copies one after another, each paying a copy's latency."),
                         m->bytes, m->gpus);
    viz_info_counter(info, "GPUs", m->gpus, NULL);
    viz_info_counter(info, "copies", p2p ? m->gpus - 1 : m->gpus, NULL);
}

/* Which GPUs' contributions chunk c of GPU i holds after `steps` ring steps
 * (a bit per GPU). */
static unsigned ring_state(int n, int steps, int i, int c)
{
    unsigned have[LAB_MAX_GPUS][LAB_MAX_GPUS], next[LAB_MAX_GPUS][LAB_MAX_GPUS];
    for (int g = 0; g < n; g++)
        for (int k = 0; k < n; k++) have[g][k] = 1u << g;
    for (int s = 0; s < steps; s++) {
        memcpy(next, have, sizeof have);
        for (int g = 0; g < n; g++) {
            int to = (g + 1) % n;
            if (s < n - 1) {
                int k = ((g - s) % n + n) % n; /* reduce-scatter: add */
                next[to][k] = have[to][k] | have[g][k];
            } else {
                int k = ((g + 1 - (s - (n - 1))) % n + n) % n; /* all-gather: keep */
                next[to][k] = have[g][k];
            }
        }
        memcpy(have, next, sizeof have);
    }
    return have[i][c];
}

/* The chunk GPU g sends in step s (0-based). */
static int ring_sent(int n, int s, int g)
{
    return s < n - 1 ? ((g - s) % n + n) % n : ((g + 1 - (s - (n - 1))) % n + n) % n;
}

/* The elements of chunk c when E elements are cut into n chunks at element
 * boundaries. */
static long long chunk_first(long long e, int n, int c) { return (long long)c * e / n; }
static long long chunk_elems(long long e, int n, int c) { return chunk_first(e, n, c + 1) - chunk_first(e, n, c); }

/* The most and the fewest bytes one GPU sends over the 2(N-1) steps. */
static void ring_sent_bytes(long long e, int es, int n, long long *most, long long *least)
{
    *most = 0;
    *least = -1;
    for (int g = 0; g < n; g++) {
        long long sent = 0;
        for (int s = 0; s < 2 * (n - 1); s++) sent += chunk_elems(e, n, ring_sent(n, s, g)) * es;
        if (sent > *most) *most = sent;
        if (*least < 0 || sent < *least) *least = sent;
    }
}

static void draw_ring(const lab_trace *t, canvas *c, viz_rect a, int step, viz_frame_info *info)
{
    const lab_multi *m = t->multi;
    const lab_multi_combine *k = &m->comb[LAB_COMBINE_NCCL];
    const int n = m->gpus, steps = 2 * (n - 1);
    const long long e = m->elems > 0 ? m->elems : 1;
    const int es = m->elem_bytes > 0 ? m->elem_bytes : (int)(m->bytes / (double)e);
    long long cmin = e, cmax = 0, empty = 0;
    for (int ch = 0; ch < n; ch++) {
        long long ce = chunk_elems(e, n, ch);
        if (ce < cmin) cmin = ce;
        if (ce > cmax) cmax = ce;
        empty += ce == 0;
    }
    canvas_text(c, a.x, a.y + 3, _("chunks of each GPU: how many GPUs' values each one holds (-: an empty chunk)"),
                VIZ_ROLE_DIM, 0);
    for (int g = 0; g < n && 4 + g < a.h; g++) {
        int y = a.y + 4 + g;
        int x = canvas_printf(c, a.x, y, gpu_role(g), 0, "GPU %d ", g);
        for (int ch = 0; ch < n; ch++) {
            unsigned have = ring_state(n, step, g, ch);
            int cnt = __builtin_popcount(have);
            int sent = step > 0 && step <= steps && ring_sent(n, step - 1, (g + n - 1) % n) == ch;
            if (chunk_elems(e, n, ch) == 0) {
                x = canvas_text(c, x, y, "[ - ]", VIZ_ROLE_DIM, 0) + 1;
                continue;
            }
            int role = cnt == n ? VIZ_ROLE_OK : sent ? VIZ_ROLE_ACTIVE : VIZ_ROLE_VALUE;
            x = canvas_printf(c, x, y, role, sent ? VIZ_BOLD : 0, "[%d/%d]", cnt, n) + 1;
        }
        if (step > 0 && step <= steps) {
            int from = (g + n - 1) % n, ch = ring_sent(n, step - 1, from);
            long long ce = chunk_elems(e, n, ch);
            if (ce > 0)
                canvas_printf(c, x, y, VIZ_ROLE_ARROW, 0,
                              ngettext("got chunk %d (%lld element) from GPU %d",
                                       "got chunk %d (%lld elements) from GPU %d", (unsigned long)ce),
                              ch, ce, from);
            else
                canvas_printf(c, x, y, VIZ_ROLE_DIM, 0, _("chunk %d from GPU %d is empty: nothing moves"), ch, from);
        }
    }
    if (step > steps || n == 1) {
        long long most, least;
        ring_sent_bytes(e, es, n, &most, &least);
        const double ideal = 2.0 * (n - 1) / n * m->bytes;
        /* every GPU sent 2(N-1)/N x S: equal chunks, or one element on 2 GPUs */
        const int even = most == least && most >= ideal - 0.5 && most <= ideal + 0.5;
        if (4 + n + 1 < a.h)
            canvas_printf(c, a.x, a.y + 5 + n, k->ran && k->correct > 0 ? VIZ_ROLE_OK : VIZ_ROLE_WRONG, 0,
                          _("every GPU holds the total: %s"), k->ran ? k->result : "-");
        viz_info_title(info, "%s", _("all-reduce: done"));
        if (n == 1)
            viz_info_caption(info, "%s", _("With one GPU the all-reduce sends nothing: its partial is the total."));
        else if (even)
            viz_info_caption(info,
                             _("After 2(N-1) = %d steps every GPU holds the sum: each sent 2(N-1)/N x S = %.3g bytes "
                               "of the S = %.0f byte buffer, which is why busbw = algbw x 2(N-1)/N."),
                             steps, 2.0 * (n - 1) / n * m->bytes, m->bytes);
        else
            viz_info_caption(info,
                             _("After 2(N-1) = %d steps every GPU holds the sum. The chunks are unequal (%lld of "
                               "them empty), so the busiest GPU sent %lld bytes of the S = %.0f byte buffer, not the "
                               "2(N-1)/N x S = %.3g bytes of equal chunks that busbw = algbw x 2(N-1)/N assumes."),
                             steps, empty, most, m->bytes, ideal);
    } else if (step == 0) {
        viz_info_title(info, "%s", _("all-reduce: ring"));
        if (e >= n)
            viz_info_caption(info,
                             _("ncclAllReduce on a ring of %d GPUs: the %.0f byte buffer of %lld elements of %d "
                               "bytes is cut at element boundaries into %d chunks of %lld to %lld elements; NCCL "
                               "chooses its algorithm and protocol by size and topology, this is its ring."),
                             n, m->bytes, e, es, n, cmin, cmax);
        else
            viz_info_caption(info,
                             ngettext("ncclAllReduce on a ring of %d GPUs: the buffer is %lld element of %d bytes, "
                                      "fewer than the %d chunks of a ring, and NCCL adds whole elements, never parts "
                                      "of one; so only %lld of the %d chunks holds a value, and it travels round the "
                                      "ring whole.",
                                      "ncclAllReduce on a ring of %d GPUs: the buffer is %lld elements of %d bytes, "
                                      "fewer than the %d chunks of a ring, and NCCL adds whole elements, never parts "
                                      "of one; so only %lld of the %d chunks hold a value each, and the values travel "
                                      "round the ring whole.",
                                      (unsigned long)e),
                             n, e, es, n, n - empty, n);
    } else if (step <= n - 1) {
        viz_info_title(info, _("reduce-scatter %d/%d"), step, n - 1);
        viz_info_caption(info,
                         _("Every GPU sends one chunk (up to %lld elements, %lld bytes) to the next GPU on the "
                           "ring, which adds it to its own element by element: after N-1 steps each GPU holds one "
                           "chunk summed over all GPUs."),
                         cmax, cmax * es);
    } else {
        viz_info_title(info, _("all-gather %d/%d"), step - (n - 1), n - 1);
        viz_info_caption(info,
                         _("Every GPU passes a summed chunk (up to %lld elements, %lld bytes) on to the next GPU, "
                           "which keeps it: after N-1 more steps every GPU holds every summed chunk."),
                         cmax, cmax * es);
    }
    viz_info_counter(info, "GPUs", n, NULL);
    viz_info_counter(info, "steps", steps, NULL);
    viz_info_counter(info, "elements", e, NULL);
}

static void multi_draw(const lab_trace *t, int frame, canvas *c, viz_rect a, viz_frame_info *info)
{
    if (!t->multi || !t->parts) {
        viz_info_caption(info, "%s", _("nothing was recorded"));
        return;
    }
    const lab_multi *m = t->multi;
    int f = frame;
    if (f == 0) {
        draw_slices_bar(t, c, a, -1, 0);
        draw_intro(t, c, a, info);
        return;
    }
    f--;
    for (int d = 0; d < m->gpus; d++) {
        int nf = part_frames(t, d);
        if (f < nf) {
            draw_slices_bar(t, c, a, d, d);
            viz_frame_info sub;
            viz_info_clear(&sub);
            viz_rect ta = viz_rect_make(a.x, a.y + 3, a.w, a.h > 3 ? a.h - 3 : 0);
            tree()->draw(&t->parts[d], f, c, ta, &sub);
            *info = sub;
            viz_info_title(info, _("GPU %d: %s"), d, sub.title);
            viz_info_caption(info, _("GPU %d of %d, elements %lld..%lld: %s"), d, m->gpus, m->lo[d],
                             m->lo[d] + m->len[d] - 1, sub.caption);
            return;
        }
        f -= nf;
    }
    draw_slices_bar(t, c, a, -1, m->gpus);
    if (f < 2) {
        draw_copy(t, c, a, f == 1, info);
        return;
    }
    draw_ring(t, c, a, f - 2, info);
}

static int multi_height(const lab_trace *t, int width)
{
    if (!t->multi || !t->parts) return 4;
    int h = 8 + t->gpus;
    for (int d = 0; d < t->gpus; d++) {
        int th = tree()->height ? tree()->height(&t->parts[d], width) : 24;
        if (th + 3 > h) h = th + 3;
    }
    return h;
}

const viz_renderer viz_render_multi = {
    .algos = "reduce",
    .name = "reduction across GPUs",
    .frames = multi_frames,
    .draw = multi_draw,
    .height = multi_height,
    .min_w = 44,
    .min_h = 16,
};
