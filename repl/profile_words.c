/* profile_words.c - how a profile reads: the counts table, one plain
 * sentence per count (the worst site of a kind of access named by its
 * source line), the occupancy bound and the estimate, and the JSON of one
 * row with Nsight Compute's metric names. The counting is kernels/profile's;
 * the command is cmd_profile.c. */
#define _GNU_SOURCE /* vasprintf */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "kernels/profile/profile.h"
#include "repl/i18n.h"
#include "repl/out.h"
#include "repl/parse.h"
#include "repl/profile_words.h"
#include "repl/explore/sweep.h"

/* ------------------------------------------------------------ formatting */

/* A line of the profile's prose, wrapped at the terminal's width: its
 * continuation lines under the text after "  - " (or its own indent). */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = NULL;
    if (vasprintf(&text, fmt, ap) >= 0 && text) {
        size_t l = strlen(text);
        if (l && text[l - 1] == '\n') text[l - 1] = 0;
        int lead = (int)strspn(text, " ");
        out_wrapped(text, 0, lead + 2);
        free(text);
    }
    va_end(ap);
}


static double per(unsigned long long a, unsigned long long b) { return b ? (double)a / (double)b : 0.0; }

static void fmt_count(unsigned long long v, char *buf, size_t len) { snprintf(buf, len, "%llu", v); }

static void fmt_bytes_h(double b, char *buf, size_t len)
{
    if (b >= 1024.0 * 1024 * 1024) snprintf(buf, len, "%.2f GiB", b / (1024.0 * 1024 * 1024));
    else if (b >= 1024.0 * 1024) snprintf(buf, len, "%.2f MiB", b / (1024.0 * 1024));
    else if (b >= 1024.0) snprintf(buf, len, "%.1f KiB", b / 1024.0);
    else snprintf(buf, len, "%.0f B", b);
}

/* TRANSLATORS: a warp's memory access: "each warp's load touches 4.0 sectors" */
static const char *kind_word(int kind) { return kind == PROF_LD ? _("load") : kind == PROF_ST ? _("store") : _("atomic"); }
/* TRANSLATORS: "shared loads need 1.0 wavefront per request" */
static const char *kind_words(int kind) { return kind == PROF_LD ? _("loads") : kind == PROF_ST ? _("stores") : _("atomics"); }

/* The site of group g, kind and space, whose requests cost most over the
 * ideal; NULL when there is none. */
static const prof_site *worst_site(const prof_session *ses, int g, int space, int kind)
{
    const prof_site *w = NULL;
    double worst = -1;
    for (int i = 0; i < ses->nsites; i++) {
        const prof_site *s = &ses->sites[i];
        if (s->group != g || s->space != space || s->kind != kind || !s->m.requests) continue;
        double r = per(s->m.units, s->m.ideal) * (double)s->m.requests;
        if (r > worst) {
            worst = r;
            w = s;
        }
    }
    return w;
}

static void where_of(const prof_site *s, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!s) return;
    char w[160];
    prof_site_where(s, w, sizeof w);
    if (w[0]) snprintf(buf, len, _(", at %s"), w);
}

/* One sentence on a kind of global access. */
void profile_say_global(const prof_session *ses, int g, const prof_counts *c, int kind)
{
    const prof_mem *m = &c->mem[PROF_GLOBAL][kind];
    if (!m->requests) return;
    if (!m->ideal) { /* the GPU's counters: no lanes or widths */
        say(_("  - each warp's %s touches %.1f sectors on average: a warp of 4-byte values needs at least 4, "
                     "of 8-byte values 8, of 16-byte values 16.\n"), kind_word(kind), per(m->units, m->requests));
        return;
    }
    const double got = per(m->units, m->requests), ideal = per(m->ideal, m->requests);
    const double lanes = per(m->lanes, m->requests);
    char at[512];
    where_of(g >= 0 ? worst_site(ses, g, PROF_GLOBAL, kind) : NULL, at, sizeof at);
    const char *what = kind == PROF_LD ? _("reads") : kind == PROF_ST ? _("writes") : _("atomics");
    if (got < ideal * 0.95)
        say(_("  - each warp's %s touches %.1f sectors, fewer than %.1f: lanes share words (a broadcast)%s.\n"),
                   kind_word(kind), got, ideal, at);
    else if (got <= ideal * 1.05)
        say(_("  - each warp's %s touches %.1f sectors, the fewest %u-byte values allow: the %s are "
                     "coalesced.\n"), kind_word(kind), got, m->width, what);
    else if (got >= lanes * 0.9 && lanes >= 2)
        say(_("  - each warp's %s touches %.1f sectors, one per lane: the %s are scattered 32 bytes or "
                     "more apart, down a column or with a large stride%s.\n"), kind_word(kind), got, what, at);
    else
        say(_("  - each warp's %s touches %.1f sectors where %.1f would do: %.0f%% of the bytes fetched are "
                     "used%s.\n"), kind_word(kind), got, ideal, 100.0 * ideal / got, at);
}

void profile_say_shared(const prof_session *ses, int g, const prof_counts *c, int kind)
{
    const prof_mem *m = &c->mem[PROF_SHARED][kind];
    if (!m->requests) return;
    if (g < 0) { /* the GPU's counters */
        if (kind != PROF_ATOM)
            say(_("  - shared %s: %.1f wavefronts per instruction, %llu of them bank conflicts (Nsight "
                         "Compute counts instructions whose lanes are all off too).\n"), kind_words(kind),
                       per(m->units, m->requests), m->units > m->ideal ? m->units - m->ideal : 0);
        return;
    }
    const double got = per(m->units, m->requests), ideal = per(m->ideal, m->requests);
    char at[512];
    where_of(g >= 0 ? worst_site(ses, g, PROF_SHARED, kind) : NULL, at, sizeof at);
    if (kind == PROF_ATOM) {
        say(_("  - %llu shared-memory atomic requests, %.1f passes each: lanes on the same word wait for "
                     "each other.\n"), m->requests, got);
        return;
    }
    if (m->units <= m->ideal)
        say(ngettext("  - shared %s need %.1f wavefront per request, the fewest possible: no bank conflicts.\n",
                            "  - shared %s need %.1f wavefronts per request, the fewest possible: no bank conflicts.\n",
                            got == 1.0 ? 1 : 2),
                   kind_words(kind), got);
    else
        say(_("  - shared %s need %.1f wavefronts per request where %.1f would do: %.1f-way bank "
                     "conflicts: lanes on different words of one bank wait in turn%s.\n"),
                   kind_words(kind), got, ideal, got / ideal, at);
}

/* ------------------------------------------------------------- printing */

void profile_print_counts(const prof_counts *c)
{
    const char *const head[] = {_("access"), _("requests"), _("sectors|wavefronts"), _("per request"), _("ideal"),
                                _("lanes/request")};
    struct out_table *t = out_table_new(6, head, "lrrrrr");
    /* 85 columns whole: at 80 the lanes per request go first, then the ideal */
    const char *const drop[] = {head[5], head[4], NULL};
    out_table_drop_order(t, drop);
    for (int sp = 0; sp < PROF_NSPACES; sp++)
        for (int k = 0; k < PROF_NKINDS; k++) {
            const prof_mem *m = &c->mem[sp][k];
            if (!m->requests) continue;
            char a[6][64];
            const char *cells[6] = {a[0], a[1], a[2], a[3], a[4], a[5]};
            snprintf(a[0], 64, sp == PROF_GLOBAL ? _("global %s (%u B)") : _("shared %s (%u B)"), kind_words(k),
                     m->width);
            fmt_count(m->requests, a[1], 64);
            fmt_count(m->units, a[2], 64);
            snprintf(a[3], 64, "%.2f", per(m->units, m->requests));
            snprintf(a[4], 64, "%.2f", per(m->ideal, m->requests));
            snprintf(a[5], 64, "%.1f", per(m->lanes, m->requests));
            out_table_row(t, cells);
        }
    out_table_print(t);
    out_table_free(t);
    say(_("  (global: 32-byte sectors; shared: wavefronts, one pass of the 32 banks)\n"));
}

static void print_occupancy(const prof_counts *c, const lab_config *cfg)
{
    lab_launch_probe l;
    memset(&l, 0, sizeof l);
    snprintf(l.kernel, sizeof l.kernel, "%s", c->kernel);
    memcpy(l.grid, c->grid, sizeof l.grid);
    memcpy(l.block, c->block, sizeof l.block);
    l.dynamic_smem = c->dynamic_smem;
    l.count = c->launches;
    l.regs = l.max_threads = -1;
    l.static_smem = l.local_bytes = l.max_dynamic_smem = -1;
    sweep_occ o;
    sweep_launch_occupancy(&l, cfg, LAB_BACKEND_SIM, &o);
    if (!o.known || o.r.blocks_per_sm <= 0) {
        if (o.note_words[0]) say(_("  - occupancy: %s.\n"), o.note_words);
        return;
    }
    char lim[512];
    sweep_limiters_words(o.r.limiters, lim, sizeof lim);
    say(_("  - occupancy at most %.0f%% (%s): %d blocks of %d threads fit on an SM, limited by %s; "
                 "achieved occupancy on a GPU stays at or below this.\n"),
               100.0 * o.r.occupancy, o.source_words, o.r.blocks_per_sm, o.threads, lim);
}

void profile_print_group(const prof_session *ses, int g, const prof_counts *c, const lab_config *cfg)
{
    char gb[64], bb[64];
    if (c->grid[1] > 1 || c->grid[2] > 1) snprintf(gb, sizeof gb, "(%u,%u,%u)", c->grid[0], c->grid[1], c->grid[2]);
    else snprintf(gb, sizeof gb, "%u", c->grid[0]);
    if (c->block[1] > 1 || c->block[2] > 1)
        snprintf(bb, sizeof bb, "(%u,%u,%u)", c->block[0], c->block[1], c->block[2]);
    else snprintf(bb, sizeof bb, "%u", c->block[0]);
    out_printf(ngettext("%s%s%s  grid %s  block %s  %d launch\n", "%s%s%s  grid %s  block %s  %d launches\n",
                        (unsigned long)c->launches),
               out_color(OUT_ACCENT), c->kernel, out_color(OUT_RESET), gb, bb, c->launches);
    profile_print_counts(c);
    profile_say_global(ses, g, c, PROF_LD);
    profile_say_global(ses, g, c, PROF_ST);
    profile_say_shared(ses, g, c, PROF_LD);
    profile_say_shared(ses, g, c, PROF_ST);
    profile_say_shared(ses, g, c, PROF_ATOM);
    const prof_mem *ga = &c->mem[PROF_GLOBAL][PROF_ATOM];
    if (ga->requests)
    {
        if (c->atom_same_max > 1)
            say(_("  - %llu global atomic requests: up to %llu lanes of one request update the same address, and "
                  "the busiest address took %llu atomics in one launch; atomics on one address are done one "
                  "after another.\n"), ga->requests, c->atom_same_max, c->atom_addr_max);
        else
            say(_("  - %llu global atomic requests: no two lanes of one request update the same address, and "
                  "the busiest address took %llu atomics in one launch; atomics on one address are done one "
                  "after another.\n"), ga->requests, c->atom_addr_max);
    }
    unsigned long long req = 0, lanes = 0;
    for (int sp = 0; sp < PROF_NSPACES; sp++)
        for (int k = 0; k < PROF_NKINDS; k++) {
            req += c->mem[sp][k].requests;
            lanes += c->mem[sp][k].lanes;
        }
    if (req && per(lanes, req) < 31.5)
        say(_("  - %.1f of 32 lanes take part in a memory request on average: the others are idle (branches "
                     "or a block that is not a multiple of 32 leave them out).\n"), per(lanes, req));
    if (c->barriers)
        say(_("  - %llu barrier instructions (each __syncthreads counted once per warp): every warp of a "
                     "block waits there for the slowest.\n"), c->barriers);
    char rb[32], wb[32];
    fmt_bytes_h((double)c->read_bytes, rb, sizeof rb);
    fmt_bytes_h((double)c->write_bytes, wb, sizeof wb);
    say(_("  - %s read and %s written (distinct sectors): the least traffic to DRAM.\n"), rb, wb);
    print_occupancy(c, cfg);
}

/* The part of the estimate that is largest, as the line above names it
 * (e->bound is the estimate's key, which --json keeps). */
static const char *bound_words(const char *bound)
{
    static const struct { const char *key, *words; } parts[] = {
        {"launch", N_("the launches")},       {"dram", N_("DRAM")},          {"excess sectors", N_("the sectors beyond the ideal")},
        {"latency", N_("latency")},           {"shared", N_("shared memory")}, {"issue", N_("instruction issue")},
        {"blocks", N_("the block starts")},   {"atomics", N_("the atomics")}, {"compute", N_("arithmetic")}};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (bound && strcmp(bound, parts[i].key) == 0) return _(parts[i].words);
    return bound ? bound : "-";
}

/* The unit work is counted in, as a word of the screen: "flop", "iteration". */
static const char *unit_words(const char *unit)
{
    if (unit && strcmp(unit, "flop") == 0) return _("flops");
    if (unit && strcmp(unit, "iteration") == 0) return _("iterations");
    return unit ? unit : "";
}

void profile_print_estimate(const prof_estimate *e, const char *model, const prof_work *w, const prof_counts *total)
{
    say(_("%sestimated GPU time on %s: %.4f ms%s (an estimate from the counts, not a measurement)\n"),
               out_color(OUT_BOLD), model, e->ms, out_color(OUT_RESET));
    say(_("  launches %.4f, DRAM %.4f, sectors beyond the ideal %.4f, latency %.4f, shared %.4f, issue %.4f, "
                 "block starts %.4f, atomics %.4f, arithmetic %.4f ms; the largest part: %s\n"),
               e->launch_ms, e->dram_ms, e->excess_ms, e->latency_ms, e->shared_ms, e->issue_ms, e->block_ms,
               e->atomic_ms, e->compute_ms, bound_words(e->bound));
    double bytes = (double)(total->read_bytes + total->write_bytes);
    if (w && w->ops > 0 && bytes > 0)
        /* TRANSLATORS: "0.25 flops per byte moved"; the unit is a word of its own */
        say(_("  arithmetic intensity: %.3g %s per byte moved\n"), w->ops / bytes, unit_words(w->unit));
}

/* ----------------------------------------------------------------- JSON */

json_t *profile_row_json(const prof_row *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "algo", json_string(r->algo));
    json_object_set_new(o, "variant", json_string(r->variant));
    json_object_set_new(o, "source", json_string(r->source));
    json_object_set_new(o, "kernel", json_string(r->c.kernel));
    json_object_set_new(o, "n", json_integer(r->n));
    json_t *g = json_array(), *b = json_array();
    for (int i = 0; i < 3; i++) {
        json_array_append_new(g, json_integer(r->c.grid[i]));
        json_array_append_new(b, json_integer(r->c.block[i]));
    }
    json_object_set_new(o, "grid", g);
    json_object_set_new(o, "block", b);
    json_object_set_new(o, "launches", json_integer(r->c.launches));
    const int sim = strcmp(r->source, "simulator") == 0;
    for (int i = 0; i < prof_metric_count(); i++) {
        const prof_metric *m = prof_metric_at(i);
        if (sim || strstr(m->ncu, "__")) json_object_set_new(o, m->ncu, json_real(prof_metric_value(&r->c, m)));
    }
    if (sim) {
        json_object_set_new(o, "atom_same_address_max", json_integer((json_int_t)r->c.atom_same_max));
        json_object_set_new(o, "atom_address_max", json_integer((json_int_t)r->c.atom_addr_max));
        for (int sp = 0; sp < PROF_NSPACES; sp++)
            for (int k = 0; k < PROF_NKINDS; k++) {
                const prof_mem *m = &r->c.mem[sp][k];
                if (!m->requests) continue;
                char key[64];
                snprintf(key, sizeof key, "%s_%s", sp ? "shared" : "global",
                         k == PROF_LD ? "ld" : k == PROF_ST ? "st" : "atom");
                json_t *x = json_object();
                json_object_set_new(x, "ideal", json_integer((json_int_t)m->ideal));
                json_object_set_new(x, "lanes", json_integer((json_int_t)m->lanes));
                json_object_set_new(x, "width", json_integer(m->width));
                json_object_set_new(o, key, x);
            }
    }
    if (r->have_est) {
        json_object_set_new(o, "est_ms", json_real(r->est.ms));
        json_object_set_new(o, "est_bound", json_string(r->est.bound));
        json_object_set_new(o, "est_model", json_string(r->model));
    }
    return o;
}

/* ------------------------------------------------------------- the rows */

int profile_rows_add(prof_row **rows, int *n, int *cap, const prof_row *r)
{
    if (*n == *cap) {
        int nc = *cap ? *cap * 2 : 16;
        prof_row *x = realloc(*rows, sizeof *x * (size_t)nc);
        if (!x) return -1;
        *rows = x;
        *cap = nc;
    }
    (*rows)[(*n)++] = *r;
    return 0;
}
