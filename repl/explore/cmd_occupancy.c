/* cmd_occupancy.c - occupancy and suggest: what one block of a variant's
 * kernels takes on an SM, what limits the resident blocks, and the block
 * size the occupancy calculation suggests beside the fastest measured. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repl/cmd.h"
#include "repl/explore/cmd_sweep.h"
#include "repl/i18n.h"
#include "repl/out.h"
#include "repl/parse.h"
#include "repl/session.h"
#include "repl/explore/sweep.h"

/* ------------------------------------------------------------ occupancy */

/* Probe v under the session's settings at a quick size; fills in, the
 * launches and the n they ran at. */
static int probe_variant(struct session *s, const lab_variant *v, lab_config *c, lab_launch_probe *l,
                         int max, int *count, char *err, size_t len)
{
    *c = s->cfg;
    c->repeats = 1;
    /* on the simulator every thread is played by one CPU thread: the
     * figures per SM do not depend on n, so a large n is probed smaller */
    if (lab_kernel_backend(c) == LAB_BACKEND_SIM && s->algo->sim_default_n > 0 &&
        c->n > s->algo->sim_default_n)
        c->n = s->algo->sim_default_n;
    lab_input *in = lab_input_new(s->algo, c, err, len);
    if (!in) return -1;
    int n = lab_probe_launches(in, v, l, max, err, len);
    if (c->n <= 0) c->n = lab_input_n(in); /* n auto: the n it ran at */
    lab_input_delete(in);
    if (n < 0) return -1;
    if (n == 0) {
        snprintf(err, len, _("%s made no kernel launch"), v->name);
        return -1;
    }
    *count = n;
    return 0;
}

static void explain_main(const lab_launch_probe *l, const sweep_occ *o, lab_backend be, const lab_config *c)
{
    const occ_result *r = &o->r;
    char lim[512];
    sweep_limiters_words(r->limiters, lim, sizeof lim);
    if (r->blocks_per_sm == 0) {
        out_printf(_("\n%s cannot run at all: %s\n"), l->kernel, r->why);
        return;
    }
    char blocks[64], threads[64];
    snprintf(blocks, sizeof blocks, ngettext("%d block", "%d blocks", (unsigned long)r->blocks_per_sm),
             r->blocks_per_sm);
    snprintf(threads, sizeof threads, ngettext("%d thread", "%d threads", (unsigned long)o->threads), o->threads);
    /* TRANSLATORS: "Why 8 blocks of 256 threads per SM (reduce_sequential):" */
    out_printf(_("\nWhy %s of %s per SM (%s):\n"), blocks, threads, l->kernel);
    const char *const head[] = {_("resource"), _("one block takes"), _("an SM has"), _("blocks it allows")};
    struct out_table *t = out_table_new(4, head, "llrr");
    char a[4][512];
    const char *cells[4] = {a[0], a[1], a[2], a[3]};
    int sms = 0;
    const occ_model *m = NULL;
    occ_model gm;
    char title[256];
    if (be == LAB_BACKEND_GPU && occ_model_from_device(&gm, title, sizeof title) == 0) m = &gm;
    else m = sweep_model(c, NULL);
    sms = m->sms;
    snprintf(a[0], 96, "%s", _("warp slots"));
    snprintf(a[1], 96, ngettext("%d warp", "%d warps", (unsigned long)r->warps_per_block), r->warps_per_block);
    snprintf(a[2], 96, ngettext("%d warp", "%d warps", (unsigned long)r->max_warps), r->max_warps);
    snprintf(a[3], 96, "%d", r->by_warps);
    out_table_row(t, cells);
    snprintf(a[0], 96, "%s", _("registers"));
    if (o->regs > 0) {
        snprintf(a[1], 96, _("%d (%d per thread)"), r->regs_per_block, o->regs);
        snprintf(a[2], 96, "%d", m->regs_per_sm);
        snprintf(a[3], 96, "%d", r->by_regs);
    } else {
        snprintf(a[1], 96, "%s", o->regs == 0 ? _("none") : _("unknown"));
        snprintf(a[2], 96, "%d", m->regs_per_sm);
        snprintf(a[3], 96, "-");
    }
    out_table_row(t, cells);
    snprintf(a[0], 96, "%s", _("shared memory"));
    char sb[32], sm[32];
    lab_fmt_bytes((double)r->smem_per_block, sb, sizeof sb);
    lab_fmt_bytes((double)m->smem_per_sm, sm, sizeof sm);
    snprintf(a[1], 96, "%s", sb);
    snprintf(a[2], 96, "%s", sm);
    if (r->by_smem >= 0) snprintf(a[3], 96, "%d", r->by_smem);
    else snprintf(a[3], 96, "-");
    out_table_row(t, cells);
    snprintf(a[0], 96, "%s", _("resident blocks"));
    snprintf(a[1], 96, "1");
    snprintf(a[2], 96, "%d", m->max_blocks_per_sm);
    snprintf(a[3], 96, "%d", r->by_blocks);
    out_table_row(t, cells);
    out_table_print(t);
    out_table_free(t);
    if (r->smem_per_block > 0 && m->smem_reserved_per_block > 0)
        out_wrapf(0, 1, _("(a block's shared memory includes the %ld bytes the driver keeps per block, rounded up "
                    "to %d bytes)"), m->smem_reserved_per_block, m->smem_alloc_unit);
    out_wrapf(0, 0, _("%d of %d warp slots are filled: %.0f%% theoretical occupancy; %s."), r->active_warps,
              r->max_warps, 100.0 * r->occupancy, sweep_limiter_sentence(r->limiters));
    long long grid = (long long)l->grid[0] * l->grid[1] * l->grid[2];
    long long resident = (long long)r->blocks_per_sm * sms;
    if (resident > 0 && grid > 0) {
        double waves = (double)grid / resident;
        char pct[32];
        if (100.0 * waves < 1) snprintf(pct, sizeof pct, "%s", _("less than 1%"));
        else snprintf(pct, sizeof pct, "%.0f%%", 100.0 * waves);
        if (waves < 1)
            out_wrapf(0, 0,
                      ngettext("The grid of %lld block fills %s of the %lld blocks the %d SMs hold at once: "
                               "part of the GPU idles.",
                               "The grid of %lld blocks fills %s of the %lld blocks the %d SMs hold at once: "
                               "part of the GPU idles.",
                               (unsigned long)grid),
                      grid, pct, resident, sms);
        else
            out_wrapf(0, 0,
                      waves - floor(waves) > 0.01 && waves < 4
                          ? _("The grid of %lld blocks runs in %.1f waves of %lld blocks (%d SMs x %d); the last "
                              "wave leaves SMs idle.")
                          : _("The grid of %lld blocks runs in %.1f waves of %lld blocks (%d SMs x %d)."),
                      grid, waves, resident, sms, r->blocks_per_sm);
        if (grid * o->threads < (long long)sms * 32 && c->n > 0)
            out_wrapf(0, 0,
                      ngettext("At n = %lld the kernel launches only %lld thread: that is what `run` does at "
                               "this n, and too few to fill a GPU; a larger n (set n 2^20) shows the launch of a "
                               "real workload.",
                               "At n = %lld the kernel launches only %lld threads: that is what `run` does at "
                               "this n, and too few to fill a GPU; a larger n (set n 2^20) shows the launch of a "
                               "real workload.",
                               (unsigned long)(grid * o->threads)),
                      c->n, grid * o->threads);
    }
}

static enum cmd_status do_occupancy(struct session *s, int argc, char **argv)
{
    const lab_variant *v = sweep_kernel_variant(s, argc, argv, 1, "occupancy");
    if (!v) return CMD_ERROR;
    char err[LAB_ERR_MAX];
    if (lab_validate(s->algo, v, &s->cfg, err, sizeof err) != 0)
        return sess_error(s, argc > 1 ? 1 : -1, "%s", err);
    lab_config c;
    lab_launch_probe l[16];
    int nl = 0;
    if (v->kind == LAB_ROW_KERNEL && s->cfg.backend == LAB_BACKEND_AUTO) sess_note_no_gpu(s);
    if (probe_variant(s, v, &c, l, 16, &nl, err, sizeof err) != 0)
        return sess_error(s, argc > 1 ? 1 : -1, _("%s did not run: %s"), v->name, err);
    lab_backend be = lab_kernel_backend(&c);
    sweep_occ occ[16];
    for (int i = 0; i < nl; i++) sweep_launch_occupancy(&l[i], &c, be, &occ[i]);
    const lab_launch_probe *main_l = sweep_main_launch(l, nl);
    int mi = (int)(main_l - l);
    if (s->json) {
        for (int i = 0; i < nl; i++) {
            json_t *o = sweep_occ_json(l[i].kernel, &occ[i]);
            if (!json_is_object(o)) {
                json_decref(o);
                o = json_object();
                json_object_set_new(o, "kernel", json_string(l[i].kernel));
                json_object_set_new(o, "note", json_string(occ[i].note));
            }
            json_object_set_new(o, "algo", json_string(s->algo->name));
            json_object_set_new(o, "variant", json_string(v->name));
            json_object_set_new(o, "backend", json_string(lab_backend_name(be)));
            json_object_set_new(o, "launches", json_integer(l[i].count));
            json_object_set_new(o, "grid", json_integer((long long)l[i].grid[0] * l[i].grid[1] * l[i].grid[2]));
            json_object_set_new(o, "main", json_boolean(i == mi));
            out_json(o);
        }
        return CMD_OK;
    }
    char nb[64], dev[320];
    sweep_fmt_n(c.n > 0 ? c.n : 0, nb, sizeof nb);
    sweep_device_words(&c, dev, sizeof dev);
    out_wrapf(0, 2, _("%soccupancy of %s/%s%s  on %s"), out_color(OUT_BOLD), s->algo->name, v->name,
              out_color(OUT_RESET), dev);
    const char *const head[] = {_("kernel"), _("launches"), _("grid"), _("block"), _("regs"), _("static smem"),
                                _("dynamic smem"), _("blocks/SM"), _("warps/SM"), _("occupancy"), _("limited by")};
    struct out_table *t = out_table_new(11, head, "lrrrrrrrrrl");
    for (int i = 0; i < nl; i++) {
        char a[11][512];
        const char *cells[11];
        for (int k = 0; k < 11; k++) {
            snprintf(a[k], sizeof a[k], "-");
            cells[k] = a[k];
        }
        snprintf(a[0], 96, i == mi && nl > 1 ? _("%s (main)") : "%s", l[i].kernel);
        snprintf(a[1], 96, "%d", l[i].count);
        if (l[i].grid[1] > 1 || l[i].grid[2] > 1) snprintf(a[2], 96, "%ux%ux%u", l[i].grid[0], l[i].grid[1], l[i].grid[2]);
        else snprintf(a[2], 96, "%u", l[i].grid[0]);
        if (l[i].block[1] > 1 || l[i].block[2] > 1)
            snprintf(a[3], 96, "%ux%ux%u", l[i].block[0], l[i].block[1], l[i].block[2]);
        else snprintf(a[3], 96, "%u", l[i].block[0]);
        const sweep_occ *o = &occ[i];
        if (o->known) {
            if (o->regs >= 0) snprintf(a[4], 96, "%d", o->regs);
            else snprintf(a[4], 96, "?");
            lab_fmt_bytes((double)o->static_smem, a[5], sizeof a[5]);
            lab_fmt_bytes((double)o->dynamic_smem, a[6], sizeof a[6]);
            snprintf(a[7], 96, "%d", o->r.blocks_per_sm);
            snprintf(a[8], 96, "%d/%d", o->r.active_warps, o->r.max_warps);
            snprintf(a[9], 96, "%.0f%%", 100.0 * o->r.occupancy);
            sweep_limiters_words(o->r.limiters, a[10], sizeof a[10]);
        }
        out_table_row(t, cells);
    }
    const char *const drop[] = {_("launches"), _("warps/SM"), _("static smem"), _("regs"), _("dynamic smem"),
                                _("grid"), NULL};
    out_table_drop_order(t, drop);
    out_table_shrink(t, 0, 12);
    out_table_shrink(t, 10, 9);
    out_table_print(t);
    out_table_free(t);
    for (int i = 0; i < nl; i++)
        if (!occ[i].known || occ[i].note[0])
            out_wrapf(0, 2, "%s: %s%s%s", l[i].kernel, occ[i].known ? occ[i].source_words : "",
                      occ[i].known && occ[i].note_words[0] ? "; " : "", occ[i].note_words);
    if (c.n != s->cfg.n && s->cfg.n > 0)
        out_wrapf(0, 2, _("launches recorded at n = %s (the figures per SM do not depend on n; the grid does)"), nb);
    if (occ[mi].known) explain_main(main_l, &occ[mi], be, &c);
    return CMD_OK;
}

/* ------------------------------------------------------------ suggest */

static enum cmd_status cmd_suggest(struct session *s, int argc, char **argv)
{
    const lab_variant *v = sweep_kernel_variant(s, argc, argv, 1, "suggest");
    if (!v) return CMD_ERROR;
    if (v->flags & LAB_FIXED_BLOCK)
        return sess_error(s, argc > 1 ? 1 : -1, _("%s/%s chooses its own block size (%d): there is nothing to suggest"),
                          s->algo->name, v->name, v->block_default);
    char err[LAB_ERR_MAX];
    if (lab_validate(s->algo, v, &s->cfg, err, sizeof err) != 0)
        return sess_error(s, argc > 1 ? 1 : -1, "%s", err);
    if (v->kind == LAB_ROW_KERNEL && s->cfg.backend == LAB_BACKEND_AUTO) sess_note_no_gpu(s);
    /* probe at two block sizes: how the kernel's dynamic shared memory
     * grows with the block is what the search needs */
    lab_config c;
    lab_launch_probe l1[16], l2[16];
    int n1 = 0, n2 = 0;
    if (probe_variant(s, v, &c, l1, 16, &n1, err, sizeof err) != 0)
        return sess_error(s, -1, _("%s did not run: %s"), v->name, err);
    const lab_launch_probe *m1 = sweep_main_launch(l1, n1);
    int b1 = (int)(m1->block[0] * m1->block[1] * m1->block[2]);
    int lo = v->block_min > 0 ? v->block_min : 1, hi = v->block_max > 0 ? v->block_max : 1024;
    int b2 = b1 / 2 >= lo ? b1 / 2 : b1 * 2 <= hi ? b1 * 2 : 0;
    double per_thread = 0;
    long base = (long)m1->dynamic_smem;
    if (b2 > 0 && !(v->flags & LAB_BLOCK_2D)) {
        struct session tmp = *s;
        tmp.cfg.block = b2;
        if (probe_variant(&tmp, v, &c, l2, 16, &n2, err, sizeof err) == 0) {
            for (int i = 0; i < n2; i++)
                if (strcmp(l2[i].kernel, m1->kernel) == 0) {
                    int bb = (int)(l2[i].block[0] * l2[i].block[1] * l2[i].block[2]);
                    if (bb != b1) {
                        per_thread = ((double)m1->dynamic_smem - (double)l2[i].dynamic_smem) / (b1 - bb);
                        if (per_thread < 0) per_thread = 0;
                        base = (long)m1->dynamic_smem - (long)(per_thread * b1);
                        if (base < 0) base = 0;
                    }
                    break;
                }
        }
    }
    lab_backend be = lab_kernel_backend(&s->cfg);
    int suggested = -1, min_grid = 0;
    char src[320], src_words[1024];
    sweep_occ occ_s;
    memset(&occ_s, 0, sizeof occ_s);
    if (be == LAB_BACKEND_GPU && m1->func) {
        suggested = occ_api_suggest_block(m1->func, base, per_thread, hi, &min_grid, err, sizeof err);
        if (suggested < 0) return sess_error(s, -1, _("the occupancy API failed: %s"), err);
        snprintf(src, sizeof src, "cudaOccupancyMaxPotentialBlockSize's search on %s", lab_device()->name);
        snprintf(src_words, sizeof src_words, _("cudaOccupancyMaxPotentialBlockSize's search on %s"),
                 lab_device()->name);
        lab_launch_probe at = *m1;
        at.block[0] = (unsigned)suggested;
        at.block[1] = at.block[2] = 1;
        at.dynamic_smem = (size_t)(base + (long)(per_thread * suggested + 0.999999));
        sweep_launch_occupancy(&at, &s->cfg, be, &occ_s);
    } else {
        /* the model's figures, with the compiler's registers */
        lab_launch_probe at = *m1;
        sweep_occ o1;
        sweep_launch_occupancy(m1, &s->cfg, LAB_BACKEND_SIM, &o1);
        const occ_model *m = sweep_model(&s->cfg, NULL);
        occ_kernel k;
        memset(&k, 0, sizeof k);
        k.regs = o1.regs > 0 ? o1.regs : 0;
        k.static_smem = o1.static_smem > 0 ? o1.static_smem : 0;
        k.dynamic_smem = base;
        k.dynamic_per_thread = per_thread;
        k.max_dynamic_smem = sweep_optin_limit(m1, m, k.static_smem);
        if (k.max_dynamic_smem > 0) k.max_dynamic_smem = m->smem_per_block_optin - k.static_smem;
        suggested = occ_suggest_block(m, &k, hi, &min_grid);
        snprintf(src, sizeof src, "the occupancy calculator for model %s (%s)", m->name, m->title);
        snprintf(src_words, sizeof src_words, _("the occupancy calculator for model %s (%s)"), m->name, m->title);
        at.block[0] = (unsigned)(suggested > 0 ? suggested : 1);
        at.block[1] = at.block[2] = 1;
        at.dynamic_smem = (size_t)(base + (long)(per_thread * suggested + 0.999999));
        sweep_launch_occupancy(&at, &s->cfg, LAB_BACKEND_SIM, &occ_s);
        if (o1.note[0]) snprintf(src + strlen(src), sizeof src - strlen(src), "; %s", o1.note);
        if (o1.note_words[0])
            snprintf(src_words + strlen(src_words), sizeof src_words - strlen(src_words), "; %s", o1.note_words);
    }
    if (suggested <= 0) return sess_error(s, -1, _("no block size of %s can run: %s"), v->name, occ_s.r.why);

    /* is the suggestion one the variant takes? */
    int allowed = suggested >= lo && suggested <= hi &&
                  (!(v->flags & LAB_POW2_BLOCK) || (suggested & (suggested - 1)) == 0);
    int nearest = suggested;
    if (!allowed) {
        nearest = lo;
        for (int b = lo; b <= hi; b *= 2)
            if (b <= suggested) nearest = b;
    }

    /* the measured side: a quick block sweep; on the simulator its points
     * compare by the estimated GPU time (the simulator's own is CPU time) */
    int best = -1;
    double best_ms = 0, best_gbps = -1;
    sweep_data d;
    int have_sweep = 0;
    const int sim = be == LAB_BACKEND_SIM;
    if (be == LAB_BACKEND_GPU || sim) {
        long long vals[SWEEP_MAX_VALUES];
        int nv = 0;
        for (long long b = lo < 32 ? 32 : lo; b <= hi && nv < SWEEP_MAX_VALUES; b *= 2) vals[nv++] = b;
        if (allowed) {
            int seen = 0;
            for (int i = 0; i < nv; i++) seen |= vals[i] == suggested;
            if (!seen && nv < SWEEP_MAX_VALUES) {
                int k = nv++;
                while (k > 0 && vals[k - 1] > suggested) {
                    vals[k] = vals[k - 1];
                    k--;
                }
                vals[k] = suggested;
            }
        }
        lab_config qc = s->cfg;
        if (qc.repeats > 5) qc.repeats = 5;
        struct sweep_progress_ctx pc = {s};
        const lab_variant *vv[1] = {v};
        if (sweep_run(s->algo, vv, 1, &qc, SWEEP_BLOCK, vals, nv, &d, sweep_progress, &pc, err, sizeof err) != 0)
            return sess_error(s, -1, "%s", err);
        have_sweep = 1;
        if (s->interactive && !s->json) {
            fprintf(out_err_stream(), "\r\033[K");
            fflush(out_err_stream());
        }
        for (int i = 0; i < d.npoints; i++) {
            const lab_result *r = &d.points[i].r;
            double ms = sim ? r->est_ms : r->ms;
            if (r->ran && r->correct != 0 && ms > 0 && (best < 0 || ms < best_ms)) {
                best = (int)d.points[i].x;
                best_ms = ms;
                best_gbps = r->gbps;
            }
        }
    }

    if (s->json) {
        json_t *o = json_object();
        json_object_set_new(o, "algo", json_string(s->algo->name));
        json_object_set_new(o, "variant", json_string(v->name));
        json_object_set_new(o, "backend", json_string(lab_backend_name(be)));
        json_object_set_new(o, "kernel", json_string(m1->kernel));
        json_object_set_new(o, "suggested_block", json_integer(suggested));
        json_object_set_new(o, "suggested_allowed", json_boolean(allowed));
        json_object_set_new(o, "min_grid", json_integer(min_grid));
        json_object_set_new(o, "occupancy", occ_s.known ? json_real(occ_s.r.occupancy) : json_null());
        json_object_set_new(o, "from", json_string(src));
        json_object_set_new(o, "best_measured_block", best > 0 ? json_integer(best) : json_null());
        json_object_set_new(o, "best_measured_ms", best > 0 ? json_real(best_ms) : json_null());
        json_object_set_new(o, "best_is_estimate", json_boolean(sim)); /* the simulator: est ms */
        out_json(o);
        if (have_sweep) {
            for (int i = 0; i < d.npoints; i++) out_json(sweep_point_json(&d, &d.points[i]));
            sess_output_sweep(s, &d);
        }
        return CMD_OK;
    }
    out_printf(_("%ssuggest a block for %s/%s%s (kernel %s)\n"), out_color(OUT_BOLD), s->algo->name, v->name,
               out_color(OUT_RESET), m1->kernel);
    if (have_sweep) {
        sweep_print_table(s, &d);
        sess_output_sweep(s, &d);
        out_printf("\n");
    }
    char sugg[320];
    if (occ_s.known) {
        char per[256], fill[512];
        snprintf(per, sizeof per, ngettext("%d block per SM", "%d blocks per SM", (unsigned long)occ_s.r.blocks_per_sm),
                 occ_s.r.blocks_per_sm);
        snprintf(fill, sizeof fill,
                 ngettext("a grid of %d block fills every SM", "a grid of %d blocks fills every SM", (unsigned long)min_grid),
                 min_grid);
        /* TRANSLATORS: "occupancy suggests: block 256 (100% theoretical occupancy, 8 blocks per SM;
           a grid of 1056 blocks fills every SM)" */
        snprintf(sugg, sizeof sugg, _("occupancy suggests: block %d (%.0f%% theoretical occupancy, %s; %s)"), suggested,
                 100.0 * occ_s.r.occupancy, per, fill);
    } else {
        snprintf(sugg, sizeof sugg, _("occupancy suggests: block %d"), suggested);
    }
    out_wrapped(sugg, 0, 2);
    out_wrapf(2, 4, _("from %s"), src_words);
    if (!allowed)
        out_printf((v->flags & LAB_POW2_BLOCK)
                       ? _("  %s/%s takes blocks of %d..%d threads, powers of two, so the nearest it can run is %d\n")
                       : _("  %s/%s takes blocks of %d..%d threads, so the nearest it can run is %d\n"),
                   s->algo->name, v->name, lo, hi, nearest);
    if (best < 0) {
        out_printf(sim ? _("fastest estimated: no block size ran correctly (the notes above say why)\n")
                       : _("fastest measured: no block size ran correctly (the notes above say why)\n"));
        return CMD_OK;
    }
    char ms[32];
    parse_fmt_ms(best_ms, ms, sizeof ms);
    if (sim) {
        out_printf(_("fastest estimated:  block %d: %s ms on model %s"), best, ms,
                   s->cfg.model[0] ? s->cfg.model : "h200");
        out_printf("\n");
        out_wrapf(2, 2, "%s", _("(on the simulator the blocks compare by the GPU time estimated from their counted "
                                "accesses, est ms; the simulator's own time is the CPU's)"));
    } else {
        out_printf(_("fastest measured:   block %d: %s ms"), best, ms);
        if (best_gbps > 0) out_printf(_(", %.1f GB/s"), best_gbps);
        out_printf("\n");
    }
    if (best == nearest)
        out_wrapf(0, 0, _("They agree here: with this kernel, filling the SM with warps is also what makes it "
                     "fastest."));
    else
        out_wrapf(0, 0, _("They differ, and that is normal: the occupancy API only counts how many warps fit on "
                     "an SM. Time also depends on what each block does once (its reduction tree, its "
                     "atomicAdd), on how the grid divides into waves over the SMs, and on memory "
                     "bandwidth: once enough warps are resident to hide memory latency, more occupancy "
                     "buys nothing, and another block size wins for those other reasons."));
    return CMD_OK;
}

const struct cmd cmd_occupancy[] = {
    {
        .name = "occupancy",
        .aliases = "occ",
        .usage = N_("occupancy [VARIANT]"),
        .help = N_("registers, shared memory and resident blocks per SM of a variant's kernels"),
        .long_help =
            N_("Runs the variant once (at a small n on the simulator) and lists every kernel it\n"
               "launched: registers per thread, static and dynamic shared memory per block, how\n"
               "many blocks fit on one SM, the theoretical occupancy, and which resource limits\n"
               "it (registers, shared memory, warp slots, resident blocks). On a GPU the figures\n"
               "come from the CUDA occupancy API; on the simulator they are computed for the\n"
               "GPU model of `set model`, with the registers the compiler reported for sm_90.\n"),
        .run = do_occupancy, .args = CMD_ARGS(0, 1), .needs = CMD_NEEDS_VARIANT,
        .complete = CMP_VARIANT,
        .more_help = sweep_models_help,
    },
    {
        .name = "suggest",
        .usage = N_("suggest [VARIANT]"),
        .help = N_("the block size the occupancy API suggests, beside the fastest measured"),
        .long_help =
            N_("Asks the occupancy calculation for the block size with the most resident\n"
               "threads (what cudaOccupancyMaxPotentialBlockSize returns), then on a GPU runs a\n"
               "quick block sweep and shows the fastest block beside it, and why the two may\n"
               "differ. On the simulator only the suggestion for the model of `set model` is\n"
               "given: measuring needs a GPU.\n"),
        .run = cmd_suggest, .args = CMD_ARGS(0, 1), .needs = CMD_NEEDS_VARIANT,
        .complete = CMP_VARIANT,
    },
    {0},
};
