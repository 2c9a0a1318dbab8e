/* cmd_trace.c - trace: record every step of every thread of the chosen
 * variant at a small n, print it as text grouped by launch, block and
 * barrier epoch, or save it as JSON (the same data the animations play). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "repl/cmd.h"
#include "repl/cmd_program.h"
#include "repl/i18n.h"
#include "repl/out.h"
#include "repl/parse.h"
#include "repl/safefile.h"
#include "repl/session.h"
#include "kernels/program/program.h"
#include "kernels/sim/acctrace.h"
#include "viz/render_access.h"
#include "repl/cmd_code.h"
#include "repl/record.h"

/* ------------------------------------------------------------------ text */

static char space_letter(int sp)
{
    return sp == LAB_SP_SHARED ? 's' : sp == LAB_SP_REG ? 'r' : 'g';
}

static void fmt_num(double v, char *buf, size_t len)
{
    snprintf(buf, len, "%.10g", v);
}

static void fmt_event(const lab_event *e, char *buf, size_t len)
{
    char v[32], v2[32];
    char sp = space_letter(e->space);
    fmt_num(e->v, v, sizeof v);
    fmt_num(e->v2, v2, sizeof v2);
    switch (e->kind) {
    case LAB_EV_READ: snprintf(buf, len, "read %c[%d]=%s", sp, e->a, v); break;
    case LAB_EV_WRITE: snprintf(buf, len, "write %c[%d]=%s", sp, e->a, v); break;
    case LAB_EV_ADD: snprintf(buf, len, "%c[%d] += %c[%d] -> %s (+%s)", sp, e->a, sp, e->b, v, v2); break;
    case LAB_EV_CSWAP:
        snprintf(buf, len, "compare %c[%d],%c[%d] %s: %s", sp, e->a, sp, e->b,
                 e->v2 != 0 ? "ascending" : "descending", e->v != 0 ? "swapped" : "kept");
        break;
    case LAB_EV_ATOMIC: snprintf(buf, len, "atomic %c[%d] += %s (was %s)", sp, e->a, v, v2); break;
    case LAB_EV_BARRIER: snprintf(buf, len, "barrier (line %d)", e->a); break;
    case LAB_EV_SHFL: snprintf(buf, len, "shfl from lane %d: got %s, now %s", e->b, v, v2); break;
    case LAB_EV_MARK: snprintf(buf, len, "mark %d (%d, %s, %s)", e->a, e->b, v, v2); break;
    default: snprintf(buf, len, "%s", lab_event_kind_name(e->kind)); break;
    }
}

/* Reading order: launch, block, epoch, then each thread's steps in turn. */
static int read_order(const void *x, const void *y)
{
    const lab_event *a = *(const lab_event *const *)x, *b = *(const lab_event *const *)y;
#define CMPF(f) if (a->f != b->f) return a->f < b->f ? -1 : 1
    CMPF(launch);
    CMPF(block);
    CMPF(epoch);
    CMPF(thread);
    CMPF(seq);
#undef CMPF
    return 0;
}

static void print_trace(struct session *s, const lab_trace *t, const lab_result *r)
{
    char launches[64], events[64];
    snprintf(launches, sizeof launches, ngettext("%d launch", "%d launches", (unsigned long)t->nlaunches),
             t->nlaunches);
    snprintf(events, sizeof events, ngettext("%zu event", "%zu events", (unsigned long)t->count), t->count);
    /* TRANSLATORS: "trace of reduce/sequential on sim: n = 256 int, 1 launch, 900 events" */
    out_printf(t->truncated ? _("%strace of %s/%s on %s%s: n = %lld %s, %s, %s (truncated)\n")
                            : _("%strace of %s/%s on %s%s: n = %lld %s, %s, %s\n"),
               out_color(OUT_BOLD), out_vis(t->algo), out_vis(t->variant), lab_backend_name(t->backend),
               out_color(OUT_RESET), t->n, lab_dtype_name(t->dtype), launches, events);
    if (t->input && t->n > 0) {
        out_printf(_("input:"));
        long long shown = t->n < 64 ? t->n : 64;
        for (long long i = 0; i < shown; i++) {
            char b[32];
            fmt_num(t->input[i], b, sizeof b);
            out_printf(" %s", b);
        }
        if (shown < t->n) out_printf(_(" ... (%lld more)"), t->n - shown);
        out_printf("\n");
    }
    out_printf(_("g[i] is global memory, s[i] shared memory, tN thread N of its block\n"));

    const lab_event **ev = malloc((t->count ? t->count : 1) * sizeof *ev);
    if (!ev) {
        out_printf(_("(out of memory)\n"));
        return;
    }
    for (size_t i = 0; i < t->count; i++) ev[i] = &t->ev[i];
    qsort(ev, t->count, sizeof *ev, read_order);

    size_t i = 0;
    long long cur_launch = -1, cur_block = -1, cur_epoch = -1, cur_thread = -1;
    int barrier_line = 0;
    char file[PATH_MAX] = "", kpath[PATH_MAX] = ""; /* the launch's kernel source, for file:line */
    char looked_up[LAB_NAME_MAX] = "";
    char *ktext = NULL; /* its text: an event of a recording line cites the statement it records */
    size_t klen = 0;
    while (i < t->count) {
        const lab_event *e = ev[i];
        if ((long long)e->launch != cur_launch) {
            cur_launch = e->launch;
            cur_block = cur_epoch = cur_thread = -1;
            if (e->launch < (unsigned)t->nlaunches && e->launch < LAB_TRACE_MAX_LAUNCHES) {
                const lab_launch_info *l = &t->launches[e->launch];
                /* the kernel's file, looked up once for a run of launches of it */
                if (strcmp(l->kernel, looked_up) != 0) {
                    char *text, path[PATH_MAX];
                    size_t len;
                    int from, to;
                    file[0] = kpath[0] = 0;
                    free(ktext);
                    ktext = NULL;
                    snprintf(looked_up, sizeof looked_up, "%s", l->kernel);
                    if (code_find_kernel(l->kernel, &text, &len, path, sizeof path, &from, &to) == 0) {
                        ktext = text;
                        klen = len;
                        const char *slash = strrchr(path, '/');
                        snprintf(file, sizeof file, "%s", slash ? slash + 1 : path);
                        snprintf(kpath, sizeof kpath, "%s", path);
                    }
                }
                out_printf(_("\n%slaunch %u: %s%s  grid %u"), out_color(OUT_ACCENT), e->launch,
                           out_vis(l->kernel), out_color(OUT_RESET), l->grid[0]);
                if (l->grid[1] > 1 || l->grid[2] > 1) out_printf("x%ux%u", l->grid[1], l->grid[2]);
                out_printf(_("  block %u"), l->block[0]);
                if (l->block[1] > 1 || l->block[2] > 1) out_printf("x%ux%u", l->block[1], l->block[2]);
                if (kpath[0]) out_printf("  (%s)", kpath);
                out_printf("\n");
            } else {
                file[0] = kpath[0] = looked_up[0] = 0; /* past the launches the trace describes */
                out_printf(_("\nlaunch %u\n"), e->launch);
            }
        }
        if ((long long)e->block != cur_block) {
            cur_block = e->block;
            cur_epoch = cur_thread = -1;
            barrier_line = 0;
            out_printf(_("  block %u\n"), e->block);
        }
        if ((long long)e->epoch != cur_epoch) {
            cur_epoch = e->epoch;
            cur_thread = -1;
            if (e->epoch == 0)
                out_printf(_("    epoch 0\n"));
            else if (barrier_line > 0)
                out_printf(_("    epoch %u (after the barrier at line %d)\n"), e->epoch, barrier_line);
            else
                out_printf(_("    epoch %u (after barrier %u)\n"), e->epoch, e->epoch);
            barrier_line = 0;
        }
        /* One line per thread and epoch: its steps, barriers left out, each
         * run of steps from one source line after that line's file:line. */
        cur_thread = e->thread;
        char line[4096];
        size_t off = 0;
        int steps = 0, at = -1;
        off += (size_t)snprintf(line, sizeof line, "      t%u:", e->thread);
        while (i < t->count && ev[i]->launch == e->launch && ev[i]->block == e->block &&
               ev[i]->epoch == e->epoch && (long long)ev[i]->thread == cur_thread) {
            const lab_event *x = ev[i++];
            if (x->kind == LAB_EV_BARRIER) {
                barrier_line = x->a;
                continue;
            }
            char b[512], where[512] = "";
            fmt_event(x, b, sizeof b);
            int xl = ktext && x->line > 0 ? code_statement_line(ktext, klen, (int)x->line) : (int)x->line;
            if (xl > 0 && xl != at && file[0])
                snprintf(where, sizeof where, "%s %s:%d", steps ? ";" : "", file, xl);
            else if (xl > 0 && xl != at)
                snprintf(where, sizeof where, _("%s line %d"), steps ? ";" : "", xl);
            else if (steps)
                snprintf(where, sizeof where, ",");
            at = xl;
            if (off + strlen(b) + strlen(where) + 8 < sizeof line)
                off += (size_t)snprintf(line + off, sizeof line - off, "%s %s", where, b);
            else if (off + 6 < sizeof line)
                off += (size_t)snprintf(line + off, sizeof line - off, " ...");
            steps++;
        }
        if (steps) out_printf("%s\n", line);
    }
    free(ev);
    free(ktext);
    char res[LAB_NAME_MAX + 64];
    snprintf(res, sizeof res, "%s", r->result[0] ? r->result : "-");
    out_printf(r->correct > 0 ? _("\nresult: %s (correct)\n") : r->correct == 0 ? _("\nresult: %s (WRONG)\n")
                                                                : _("\nresult: %s\n"),
               res);
    (void)s;
}

/* ------------------------------------------------------------------ JSON */

static json_t *trace_json(const lab_trace *t, const lab_result *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "algo", json_string(t->algo));
    json_object_set_new(o, "variant", json_string(t->variant));
    json_object_set_new(o, "backend", json_string(lab_backend_name(t->backend)));
    json_object_set_new(o, "n", json_integer(t->n));
    json_object_set_new(o, "dtype", json_string(lab_dtype_name(t->dtype)));
    json_object_set_new(o, "smem_elem_bytes", json_integer(t->smem_elem_bytes));
    if (t->width > 0) json_object_set_new(o, "width", json_integer(t->width));
    if (t->height > 0) json_object_set_new(o, "height", json_integer(t->height));
    json_object_set_new(o, "result", json_real(t->result));
    json_object_set_new(o, "result_text", out_json_text(r->result));
    json_object_set_new(o, "correct", r->correct < 0 ? json_null() : json_boolean(r->correct > 0));
    json_object_set_new(o, "truncated", json_boolean(t->truncated));
    json_t *in = json_array();
    for (long long i = 0; t->input && i < t->n; i++) json_array_append_new(in, json_real(t->input[i]));
    json_object_set_new(o, "input", in);
    json_t *ls = json_array();
    for (int i = 0; i < t->nlaunches && i < LAB_TRACE_MAX_LAUNCHES; i++) {
        const lab_launch_info *l = &t->launches[i];
        json_t *lo = json_object();
        json_object_set_new(lo, "kernel", out_json_text(l->kernel));
        json_object_set_new(lo, "grid", json_pack("[III]", (json_int_t)l->grid[0],
                                                  (json_int_t)l->grid[1], (json_int_t)l->grid[2]));
        json_object_set_new(lo, "block", json_pack("[III]", (json_int_t)l->block[0],
                                                   (json_int_t)l->block[1], (json_int_t)l->block[2]));
        json_array_append_new(ls, lo);
    }
    json_object_set_new(o, "launches", ls);
    static const char *const spaces[] = {"global", "shared", "reg"};
    json_t *evs = json_array();
    for (size_t i = 0; i < t->count; i++) {
        const lab_event *e = &t->ev[i];
        json_t *eo = json_object();
        json_object_set_new(eo, "launch", json_integer(e->launch));
        json_object_set_new(eo, "block", json_integer(e->block));
        json_object_set_new(eo, "thread", json_integer(e->thread));
        json_object_set_new(eo, "epoch", json_integer(e->epoch));
        json_object_set_new(eo, "seq", json_integer(e->seq));
        json_object_set_new(eo, "kind", json_string(lab_event_kind_name(e->kind)));
        json_object_set_new(eo, "space", json_string(e->space < 3 ? spaces[e->space] : "?"));
        json_object_set_new(eo, "a", json_integer(e->a));
        json_object_set_new(eo, "b", json_integer(e->b));
        json_object_set_new(eo, "v", json_real(e->v));
        json_object_set_new(eo, "v2", json_real(e->v2));
        if (e->line > 0) json_object_set_new(eo, "line", json_integer(e->line));
        json_array_append_new(evs, eo);
    }
    json_object_set_new(o, "events", evs);
    return o;
}

/* ------------------------------------------------ the automatic trace */

static int site_line_of(const acc_trace *t, unsigned site)
{
    return site < (unsigned)t->nsites ? t->sites[site].line : 0;
}

/* A request's elements, compactly: "in[0..31]", "s[3, 5, 9]", "out[7]". */
static void fmt_elements(const acc_trace *t, const acc_req *r, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    size_t k = r->lane0, end = r->lane0 + r->nlanes;
    while (k < end && used + 40 < len) {
        unsigned arr = t->lanes[k].array;
        unsigned long long lo = t->lanes[k].index, prev = lo;
        size_t j = k + 1;
        while (j < end && t->lanes[j].array == arr && t->lanes[j].index == prev + 1) prev = t->lanes[j++].index;
        int same = used > 0 && t->lanes[k - 1].array == arr;
        if (same) used += (size_t)snprintf(buf + used, len - used, ", ");
        else used += (size_t)snprintf(buf + used, len - used, "%s%s[", used ? "] " : "", t->arrays[arr].name);
        if (prev > lo) used += (size_t)snprintf(buf + used, len - used, "%llu..%llu", lo, prev);
        else used += (size_t)snprintf(buf + used, len - used, "%llu", lo);
        k = j;
    }
    if (k < end) used += (size_t)snprintf(buf + used, len - used, ", \u2026");
    if (used + 2 < len) snprintf(buf + used, len - used, "]");
}

/* A warp collective's lanes: "0←16 (7), 1←17 (9), …" for a shuffle, the
 * result for a vote, a match or a reduction. */
static void fmt_wop_lanes(const acc_trace *t, const acc_wop *w, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    const acc_wlane *first = &t->wlanes[w->lane0];
    char v[40];
    if (w->op <= ACC_SHFL_XOR) {
        for (size_t k = w->lane0; k < w->lane0 + w->nlanes && used + 40 < len; k++) {
            const acc_wlane *l = &t->wlanes[k];
            if (k - w->lane0 == 8) {
                used += (size_t)snprintf(buf + used, len - used, ", \u2026");
                break;
            }
            acc_wop_value_text(l->result, v, sizeof v);
            used += (size_t)snprintf(buf + used, len - used, "%s%u\u2190%u (%s)", k > w->lane0 ? ", " : "", l->lane,
                                     l->src, v);
        }
    } else if (w->op == ACC_BALLOT || w->op == ACC_MATCH_ALL) {
        snprintf(buf, len, "0x%08llx", first->result);
    } else if (w->op == ACC_ANY || w->op == ACC_ALL) {
        snprintf(buf, len, "%llu", first->result);
    } else if (w->op == ACC_MATCH_ANY) {
        snprintf(buf, len, "%u: 0x%08llx", first->lane, first->result);
    } else if (w->op == ACC_REDUCE) {
        acc_wop_value_text(first->result, v, sizeof v);
        snprintf(buf, len, "%s", v);
    }
}

/* One line per warp request and warp collective, in the order each warp ran
 * them, by launch and barrier epoch, each naming its source line; then the
 * barriers that end the epoch. */
static void print_accesses(const acc_trace *t)
{
    for (int l = 0; l < t->nlaunches; l++) {
        const acc_launch *L = &t->launches[l];
        out_printf(_("%slaunch %d: %s<<<%u, %u>>> at line %d%s\n"), out_color(OUT_BOLD), l, L->kernel,
                   L->grid[0] * L->grid[1] * L->grid[2], L->block[0] * L->block[1] * L->block[2], L->line,
                   out_color(OUT_RESET));
        for (unsigned e = 0; e < (L->epochs ? L->epochs : 1); e++) {
            out_printf(_("  barrier epoch %u\n"), e);
            size_t i = L->req0, j = L->wop0;
            while (i < L->req0 + L->nreq || j < L->wop0 + L->nwop) {
                int req = j >= L->wop0 + L->nwop || (i < L->req0 + L->nreq && t->reqs[i].seq < t->wops[j].seq);
                if (!req) {
                    const acc_wop *w = &t->wops[j++];
                    if (w->epoch != e) continue;
                    char what[512], lanes[512];
                    viz_wop_text(t, w, what, sizeof what);
                    fmt_wop_lanes(t, w, lanes, sizeof lanes);
                    /* TRANSLATORS: "    line 22   block 0 warp 0  32 lanes  __shfl_down_sync by 16: 0←16 (7), …" */
                    out_printf(_("    line %-4d block %u warp %u  %2d lanes  %s%s%s\n"), site_line_of(t, w->site),
                               w->block, w->warp, w->nlanes, what, lanes[0] ? ": " : "", lanes);
                    continue;
                }
                const acc_req *r = &t->reqs[i++];
                if (r->epoch != e) continue;
                char el[512], cost[64];
                fmt_elements(t, r, el, sizeof el);
                if (r->space == ACC_GLOBAL) snprintf(cost, sizeof cost, ngettext("%u sector", "%u sectors", r->sectors), r->sectors);
                else snprintf(cost, sizeof cost, ngettext("%u wavefront", "%u wavefronts", r->wavefronts), r->wavefronts);
                const char *what = r->kind == ACC_READ ? _("read") : r->kind == ACC_WRITE ? _("wrote") : _("atomic");
                /* TRANSLATORS: "    line 12  block 0 warp 1  32 lanes  wrote out[0..31]  (4 sectors)" */
                out_printf(_("    line %-4d block %u warp %u  %2d lanes  %s %s  (%s)\n"), site_line_of(t, r->site),
                           r->block, r->warp, r->nlanes, what, el, cost);
            }
            for (size_t b = L->bar0; b < L->bar0 + L->nbar; b++) {
                const acc_bar *y = &t->bars[b];
                if (y->epoch != e) continue;
                /* TRANSLATORS: "    line 14   block 0  __syncthreads: all 64 threads of the block waited" */
                out_printf(_("    line %-4d block %u  %s: all %u threads of the block waited\n"),
                           site_line_of(t, y->site), y->block,
                           y->site < (unsigned)t->nsites ? t->sites[y->site].name : "?", y->threads);
            }
        }
        if (L->blocks_skipped)
            out_printf(_("  (%llu more blocks ran unrecorded: set trace-blocks N records more)\n"), L->blocks_skipped);
        if (L->dropped) out_printf(_("  (%llu accesses past the trace's bound were not recorded)\n"), L->dropped);
    }
}

/* `trace [ARGS]` with a program open, `trace VARIANT as generic`. */
static enum cmd_status trace_accesses(struct session *s, const lab_variant *v, int argc, char **argv)
{
    char err[LAB_ERR_MAX];
    if (s->prog) {
        prog_result r;
        if (program_record(s, argc - 1, argv + 1, &r) != 0) return CMD_ERROR;
        enum cmd_status st = CMD_OK;
        if (r.fault[0]) out_warn(_("the program failed: %s; the trace shows what it did until then"), r.fault);
        if (r.acc) print_accesses(r.acc);
        else st = sess_error(s, -1, _("nothing was recorded: %s"), r.acc_why);
        /* a trace cut short by the time limit says so where it ends */
        program_print_stopped(s, &r);
        prog_result_free(&r);
        return st;
    }
    acc_trace acc;
    lab_trace t;
    if (record_accesses(s, v, &acc, &t, err, sizeof err) != 0) return sess_error(s, -1, "%s", err);
    if (s->trace_note[0]) out_note("%s", s->trace_note);
    print_accesses(&acc);
    acc_trace_free(&acc);
    lab_trace_free(&t);
    return CMD_OK;
}

/* ------------------------------------------------------------- command */

static enum cmd_status do_trace(struct session *s, int argc, char **argv)
{
    char err[LAB_ERR_MAX];
    const lab_variant *v = s->variant;
    const char *save = NULL;
    int i = 1;
    if (s->prog) return trace_accesses(s, NULL, argc, argv);
    if (argc >= 3 && strcmp(argv[argc - 2], "as") == 0 && strcmp(argv[argc - 1], "generic") == 0) {
        if (argc == 4 && !(v = sess_variant_arg(s, 1, argv[1]))) return CMD_ERROR;
        return trace_accesses(s, v, argc, argv);
    }
    if (i < argc && strcmp(argv[i], "save") != 0) {
        if (!(v = sess_variant_arg(s, i, argv[i]))) return CMD_ERROR;
        i++;
    }
    if (i < argc) {
        if (strcmp(argv[i], "save") != 0)
            return sess_error(s, i, _("expected save FILE.json here (usage: trace [VARIANT] [save FILE.json])"));
        if (i + 1 >= argc) return sess_error(s, i + 1, _("trace save needs a file name, e.g. trace save steps.json"));
        save = argv[i + 1];
        if (i + 2 < argc) return sess_error(s, i + 2, _("too many arguments: trace [VARIANT] [save FILE.json]"));
        const char *dot = strrchr(save, '.');
        if (!dot || strchr(dot, '/') || strcasecmp(dot, ".json") != 0)
            return sess_error(s, i + 1, _("trace save writes JSON: the file name must end in .json "
                                          "(e.g. trace save steps.json)"));
        if (s->confined && !safefile_confined_ok(save, err, sizeof err)) return sess_error(s, i + 1, "%s", err);
    }
    int var_argi = argc > 1 && strcmp(argv[1], "save") != 0 ? 1 : -1;
    if (v->kind == LAB_ROW_KERNEL && s->cfg.backend == LAB_BACKEND_AUTO) sess_note_no_gpu(s);
    lab_trace t;
    lab_result r;
    if (record_trace(s, v, &t, &r, err, sizeof err) != 0) {
        if (strstr(err, "up to n =") && s->cur) {
            /* too large to trace: that is the n setting's fault */
            return sess_error(s, var_argi, _("%s; `set n` to at most %lld and trace again"), err,
                              v->trace_max_n);
        }
        return sess_error(s, var_argi, "%s", err);
    }
    enum cmd_status st = CMD_OK;
    if (s->trace_note[0] && !s->json) out_note("%s", s->trace_note);
    if (save) {
        json_t *o = trace_json(&t, &r);
        struct safefile w;
        if (sess_open_output(s, &w, save, err, sizeof err) != 0) {
            st = sess_error(s, i + 1, "%s", err);
        } else if (json_dumpf(o, w.f, JSON_COMPACT | JSON_PRESERVE_ORDER) != 0 && !w.err) {
            safefile_abort(&w);
            st = sess_error(s, i + 1, _("cannot write %s: the trace could not be turned into JSON"), save);
        } else if (safefile_commit(&w, err, sizeof err) != 0) {
            st = sess_error(s, i + 1, "%s", err);
        } else if (!s->json) {
            out_printf(_("saved %zu events of %s/%s (n = %lld, %s) to %s%s\n"), t.count, t.algo, t.variant,
                       t.n, lab_backend_name(t.backend), out_vis(save),
                       w.replaced ? _(" (it replaces the old file)") : "");
        }
        json_decref(o);
    } else if (s->json) {
        out_json(trace_json(&t, &r));
    } else {
        print_trace(s, &t, &r);
    }
    if (t.truncated && !s->json)
        out_warn(_("the trace was cut short: it reached its size bound; trace at a smaller n"));
    lab_trace_free(&t);
    return st;
}

static void complete_trace(struct session *s, int argc, char **argv, const char *text,
                           struct cmp_list *out)
{
    if (argc == 1) {
        if (s->algo)
            for (int i = 0; i < s->algo->nvariants; i++)
                if (s->algo->variants[i].trace_max_n > 0) cmp_add(out, s->algo->variants[i].name);
        cmp_add(out, "save");
    } else if (argc == 2 && strcmp(argv[1], "save") != 0) {
        cmp_add(out, "save");
    }
}

const struct cmd cmd_trace[] = {
    {
        .name = "trace",
        .usage = N_("trace [VARIANT] [save FILE.json | as generic]"),
        .help = N_("record every step of every thread at a small n; print it or save it as JSON"),
        .long_help =
            N_("Runs the chosen variant (or VARIANT) once with recording on, on the GPU or\n"
               "the simulator, and prints each launch, block and barrier epoch with one line\n"
               "per thread: its reads, writes, additions, atomics and shuffles. Tracing is for\n"
               "small inputs: when n is auto it traces at a small size chosen for each\n"
               "algorithm (docs/commands.md lists them), and when block is auto with the\n"
               "variant's trace block, else its smallest, so there are fewer idle threads\n"
               "to read. Past the variant's limit (show lists it) it traces a small\n"
               "instance of the same configuration, two blocks of the same block size with\n"
               "the same pattern, and says so.\n"
               "trace save FILE.json\n"
               "writes the events as JSON, the data the animations play; with --json the\n"
               "trace is printed as one JSON object.\n"
               "trace [VARIANT] as generic, and trace [ARGS] with a program open, print the\n"
               "automatic trace instead: every global and shared memory access of the first\n"
               "trace-blocks blocks of each launch, one line per warp instruction with its\n"
               "source line, lanes, elements and sectors (or shared-memory wavefronts),\n"
               "the warp's collectives (shuffles, votes, reductions, __syncwarp) in the\n"
               "order it ran them, and the barriers that end each epoch with the threads\n"
               "that waited.\n"),
        .run = do_trace, .args = CMD_ARGS(0, 3), .needs = CMD_NEEDS_VARIANT, .program = 1,
        .complete = CMP_CUSTOM,
        .complete_fn = complete_trace,
    },
    {0},
};
