/* cmd_check.c - check: a puzzle's kernel compiled inside gpulab's harness
 * (repl/lessons/puzzle.c writes it around the student's file), run as a child
 * process through the program runner (kernels/program) on the simulator,
 * and on the GPU when there is one, and held against the reference.
 * docs/puzzles.md describes the design. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "repl/cmd.h"
#include "repl/cmd_program.h"
#include "repl/i18n.h"
#include "repl/out.h"
#include "kernels/program/program.h"
#include "repl/lessons/puzzle.h"
#include "repl/lessons/puzzle_def.h"
#include "repl/safefile.h"
#include "repl/session.h"
#include "kernels/sim/acctrace.h"
#include "repl/lessons/cmd_puzzle.h"

/* ----------------------------------------------------------------- check */

#define HARNESS_NAME "gpulab puzzle harness"

/* FNV-1a, 64 bits: the harness's and the reference outputs' keys in the cache. */
static unsigned long long fnv64(const char *s, size_t n, unsigned long long h)
{
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
    return h;
}

/* The harness text drv as the file NAME in gpulab's cache (prog_cache_dir
 * "puzzles"), in a folder named by the hash of its text: the same check of
 * the same file has the same path and text, so the program runner finds its
 * build in its cache instead of compiling it again. Written whole (a
 * temporary file renamed over it), and only when it is not there already
 * with that text; kept, like the build it keys. 0, or -1 with errno. */
static int harness_file(const char *drv, const char *name, char *path, size_t len)
{
    char base[PATH_MAX];
    if (prog_cache_dir("puzzles", base, sizeof base) != 0) return -1;
    size_t dl = strlen(drv);
    unsigned long long h = fnv64(name, strlen(name) + 1, fnv64(drv, dl, 0xcbf29ce484222325ull));
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/harness-%016llx", base, h);
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) return -1;
    snprintf(path, len, "%s/%s", dir, name);
    size_t have;
    char err[PATH_MAX + 256];
    char *old = safefile_read(path, (long long)dl + 1, &have, err, sizeof err);
    int same = old && have == dl && memcmp(old, drv, dl) == 0;
    free(old);
    if (same) return 0;
    struct safefile w;
    if (safefile_open(&w, path, SAFEFILE_NOSYNC, err, sizeof err) != 0) return -1;
    fputs(drv, w.f);
    return safefile_commit(&w, err, sizeof err);
}

/* Print text with every occurrence of from replaced by to. */
static void print_replaced(const char *text, size_t len, const char *from, const char *to)
{
    size_t fl = strlen(from);
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *hit = fl ? memmem(p, (size_t)(end - p), from, fl) : NULL;
        if (!hit) {
            out_printf("%.*s", (int)(end - p), p);
            break;
        }
        out_printf("%.*s%s", (int)(hit - p), p, to);
        p = hit + fl;
    }
    if (len && text[len - 1] != '\n') out_printf("\n");
}

struct check_run {
    struct session *s;   /* its puzzle.line: the first line a diagnostic names */
    const struct puzzle *p;
    const char *shown;   /* the student's file as typed */
    const char *abs;     /* and its absolute path (what #line names) */
    int student_lines;
};

/* What the source pass refused (inline PTX, textures, ...). Its lines count
 * in the harness's file, whose first line is the #line directive. */
static void print_issues(const struct check_run *c, const prog *prg)
{
    out_printf(_("%s cannot run on the simulator:\n"), c->shown);
    for (int i = 0; i < prg->nissues; i++) {
        int line = prg->issues[i].line - 1;
        if (line >= 1 && line <= c->student_lines)
            out_printf("%s:%d: %s\n", c->shown, line, prg->issues[i].msg);
        else
            out_printf("%s: %s\n", HARNESS_NAME, prg->issues[i].msg);
    }
}

/* A compile error on the harness's side comes with pages of template
 * instantiation; the errors and the notes that point into the student's
 * file (with their source line and caret) say all there is. */
static void print_compiler_errors(const struct check_run *c, const char *msg)
{
    const char *p = msg;
    int keep_after = 0, repeat = 0;
    const char *last = NULL; /* the last error's message */
    size_t last_len = 0;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) + 1 : strlen(p);
        const char *err = memmem(p, n, ": error:", 8);
        int error = err != NULL;
        int note = memmem(p, n, ": note:", 7) != NULL && memmem(p, n, c->abs, strlen(c->abs)) != NULL;
        if (error) {
            /* the same error at each of the harness's calls: said once */
            size_t ml = n - (size_t)(err - p);
            repeat = last && ml == last_len && memcmp(err, last, ml) == 0;
            last = err;
            last_len = ml;
        }
        if (repeat) {
            p += n;
            continue;
        }
        if (error || note) {
            print_replaced(p, n, c->abs, c->shown);
            keep_after = note ? 2 : 0;
        } else if (keep_after > 0 && prog_log_snippet(p, n)) {
            print_replaced(p, n, c->abs, c->shown);
            keep_after--;
        } else {
            keep_after = 0; /* the template backtrace that follows is the harness's */
        }
        p += n;
    }
}

/* The first line of the student's file a message names ("03-guard.cu:4"),
 * for `code` to highlight. */
static void note_line(const struct check_run *c, const char *text)
{
    const char *base = strrchr(c->shown, '/');
    base = base ? base + 1 : c->shown;
    size_t bl = strlen(base);
    for (const char *p = strstr(text, base); p; p = strstr(p + 1, base)) {
        if (p[bl] != ':' || p[bl + 1] < '1' || p[bl + 1] > '9') continue;
        int line = atoi(p + bl + 1);
        if (line >= 1 && line <= c->student_lines) {
            c->s->puzzle.line = line;
            return;
        }
    }
}

/* The simulator's messages, in the student's words: their arrays were
 * allocated by the harness, not at a line of theirs. */
static void print_diagnostics(const struct check_run *c, const char *text, size_t len)
{
    static const char from[] = " from cudaMalloc at line ";
    char *buf = NULL;
    size_t blen = 0;
    FILE *m = open_memstream(&buf, &blen);
    if (!m) return;
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *hit = memmem(p, (size_t)(end - p), from, sizeof from - 1);
        if (!hit) {
            fwrite(p, 1, (size_t)(end - p), m);
            break;
        }
        fwrite(p, 1, (size_t)(hit - p), m);
        fputs(" from the harness's cudaMalloc", m);
        p = hit + sizeof from - 1;
        while (p < end && *p >= '0' && *p <= '9') p++;
    }
    fclose(m);
    print_replaced(buf, blen, c->abs, c->shown);
    note_line(c, buf);
    free(buf);
}

static void print_values(const char *label, const float *v, int n, int cols)
{
    out_printf("  %s", out_pad(label, 9));
    for (int i = 0; i < n; i++) {
        if (cols > 1 && i && i % cols == 0) out_printf(" |");
        if (puzzle_is_unwritten(v[i])) out_printf(" %5s", "-");
        else out_printf(" %5g", v[i]);
    }
    out_printf("\n");
}

/* A value as JSON: a number, or "nan", "inf", "-inf" (JSON has none of
 * them; a softmax without its max gives them). */
static json_t *float_json(float f)
{
    if (isnan(f)) return json_string("nan");
    if (isinf(f)) return json_string(f > 0 ? "inf" : "-inf");
    return json_real(f);
}

static json_t *values_json(const float *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++) json_array_append_new(a, puzzle_is_unwritten(v[i]) ? json_null() : float_json(v[i]));
    return a;
}

/* The keys every JSON verdict starts with. */
static json_t *verdict_json(const struct check_run *c, enum prog_mode backend)
{
    json_t *j = json_object();
    json_object_set_new(j, "puzzle", json_integer(c->p->number));
    json_object_set_new(j, "name", json_string(c->p->name));
    json_object_set_new(j, "file", json_string(c->shown));
    json_object_set_new(j, "backend", json_string(backend == PROG_GPU ? "gpu" : "sim"));
    return j;
}

/* ---------------------------------------------------------------- limits */

/* What the automatic access trace says about a puzzle's limits. */
struct limit_counts {
    int checked;                 /* 0: no trace (the sanitizer build) */
    int reads, rd_block, rd_thread; /* the most global reads of one thread, and which */
    long long shared, sh_block;  /* the most shared bytes of one block, and which */
    int unshared, us_block, us_thread; /* threads writing out without reading shared memory */
    long long writes, wr_block;  /* the most global writes (stores, atomics) of one block, and which */
    int twrites, twr_block, twr_thread; /* the most global writes of one thread (folder puzzles) */
    int barriers, bar_block;     /* the most __syncthreads() one block waited at (folder puzzles) */
    int ok;
};

static void count_limits(const struct puzzle *p, const acc_trace *t, unsigned launch, struct limit_counts *lc)
{
    memset(lc, 0, sizeof *lc);
    lc->ok = 1;
    if (!t) return;
    lc->checked = 1;
    unsigned nthreads = p->block[0] * p->block[1], nblocks = p->grid[0] * p->grid[1];
    size_t n = (size_t)nthreads * nblocks;
    int *reads = calloc(n ? n : 1, sizeof *reads), *twr = calloc(n ? n : 1, sizeof *twr);
    int *bars = calloc(nblocks ? nblocks : 1, sizeof *bars);
    unsigned char *wrote_out = calloc(n ? n : 1, 1), *read_sh = calloc(n ? n : 1, 1);
    long long *sh = calloc(nblocks ? nblocks : 1, sizeof *sh);
    long long *wr = calloc(nblocks ? nblocks : 1, sizeof *wr);
    unsigned char *counted = calloc((size_t)(t->narrays ? t->narrays : 1) * (nblocks ? nblocks : 1), 1);
    if (!reads || !twr || !bars || !wrote_out || !read_sh || !sh || !wr || !counted) {
        lc->checked = 0;
        goto out;
    }
    for (size_t i = 0; i < t->nreqs; i++) {
        const acc_req *r = &t->reqs[i];
        if (r->launch != launch || r->block >= nblocks) continue;
        for (size_t k = r->lane0; k < r->lane0 + r->nlanes; k++) {
            const acc_lane *ln = &t->lanes[k];
            unsigned th = r->warp * 32 + ln->lane;
            if (th >= nthreads) continue;
            size_t id = (size_t)r->block * nthreads + th;
            const acc_array *a = &t->arrays[ln->array];
            if (a->space == ACC_GLOBAL) {
                if (r->kind != ACC_WRITE) reads[id]++;
                if (r->kind != ACC_READ) wr[r->block]++;
                if (r->kind != ACC_READ) twr[id]++;
                if (r->kind != ACC_READ && strcmp(a->name, puzzle_out(p)->name) == 0) wrote_out[id] = 1;
            } else {
                if (r->kind != ACC_WRITE) read_sh[id] = 1;
                unsigned char *c = &counted[(size_t)ln->array * nblocks + r->block];
                if (!*c) {
                    *c = 1;
                    sh[r->block] += (long long)a->bytes;
                }
            }
        }
    }
    for (size_t i = 0; i < t->nbars; i++)
        if (t->bars[i].launch == launch && t->bars[i].block < nblocks && !t->bars[i].grid) bars[t->bars[i].block]++;
    for (unsigned b = 0; b < nblocks; b++)
        if (bars[b] > lc->barriers) {
            lc->barriers = bars[b];
            lc->bar_block = (int)b;
        }
    lc->rd_block = lc->rd_thread = -1;
    for (size_t id = 0; id < n; id++) {
        if (twr[id] > lc->twrites) {
            lc->twrites = twr[id];
            lc->twr_block = (int)(id / nthreads);
            lc->twr_thread = (int)(id % nthreads);
        }
        if (reads[id] > lc->reads) {
            lc->reads = reads[id];
            lc->rd_block = (int)(id / nthreads);
            lc->rd_thread = (int)(id % nthreads);
        }
        if (p->need_shared && wrote_out[id] && !read_sh[id]) {
            if (!lc->unshared) {
                lc->us_block = (int)(id / nthreads);
                lc->us_thread = (int)(id % nthreads);
            }
            lc->unshared++;
        }
    }
    for (unsigned b = 0; b < nblocks; b++) {
        if (sh[b] > lc->shared) {
            lc->shared = sh[b];
            lc->sh_block = b;
        }
        if (wr[b] > lc->writes) {
            lc->writes = wr[b];
            lc->wr_block = b;
        }
    }
    if (p->max_global_reads >= 0 && lc->reads > p->max_global_reads) lc->ok = 0;
    if (p->max_shared_bytes >= 0 && lc->shared > p->max_shared_bytes) lc->ok = 0;
    if (lc->unshared) lc->ok = 0;
    if (p->max_block_writes > 0 && lc->writes > p->max_block_writes) lc->ok = 0;
    if (p->def && p->max_global_writes >= 0 && lc->twrites > p->max_global_writes) lc->ok = 0;
    if (p->def && p->max_barriers >= 0 && lc->barriers > p->max_barriers) lc->ok = 0;
out:
    free(reads);
    free(twr);
    free(bars);
    free(wrote_out);
    free(read_sh);
    free(sh);
    free(wr);
    free(counted);
}

static void print_limits(const struct puzzle *p, const struct limit_counts *lc)
{
    if (!lc->checked) {
        out_printf(_("%slimits: not checked in this build (the sanitizer build records no accesses)%s\n"),
                   out_color(OUT_DIM), out_color(OUT_RESET));
        return;
    }
    if (p->max_global_reads >= 0) {
        int over = lc->reads > p->max_global_reads;
        out_printf(ngettext("%slimit: each thread reads global memory at most %d time; the most any thread did: %d%s",
                            "%slimit: each thread reads global memory at most %d times; the most any thread did: %d%s",
                            (unsigned long)p->max_global_reads),
                   over ? out_color(OUT_ERROR) : "", p->max_global_reads, lc->reads, over ? "" : "\n");
        if (over)
            out_printf(_(" (thread %d of block %d): too many%s\n"), lc->rd_thread, lc->rd_block, out_color(OUT_RESET));
    }
    if (p->max_shared_bytes >= 0) {
        int over = lc->shared > p->max_shared_bytes;
        out_printf(_("%slimit: at most %d bytes of shared memory per block; used: %lld%s"),
                   over ? out_color(OUT_ERROR) : "", p->max_shared_bytes, lc->shared, over ? "" : "\n");
        if (over) out_printf(_(" (block %lld): too much%s\n"), lc->sh_block, out_color(OUT_RESET));
    }
    if (p->max_block_writes > 0) {
        int over = lc->writes > p->max_block_writes;
        out_printf(ngettext("%slimit: each block writes global memory at most %d time; the most any block did: %lld%s",
                            "%slimit: each block writes global memory at most %d times; the most any block did: %lld%s",
                            (unsigned long)p->max_block_writes),
                   over ? out_color(OUT_ERROR) : "", p->max_block_writes, lc->writes, over ? "" : "\n");
        if (over) out_printf(_(" (block %lld): too many%s\n"), lc->wr_block, out_color(OUT_RESET));
    }
    if (p->def && p->max_global_writes >= 0) {
        int over = lc->twrites > p->max_global_writes;
        out_printf(ngettext("%slimit: each thread writes global memory at most %d time; the most any thread did: %d%s",
                            "%slimit: each thread writes global memory at most %d times; the most any thread did: %d%s",
                            (unsigned long)p->max_global_writes),
                   over ? out_color(OUT_ERROR) : "", p->max_global_writes, lc->twrites, over ? "" : "\n");
        if (over)
            out_printf(_(" (thread %d of block %d): too many%s\n"), lc->twr_thread, lc->twr_block, out_color(OUT_RESET));
    }
    if (p->def && p->max_barriers >= 0) {
        int over = lc->barriers > p->max_barriers;
        out_printf(ngettext("%slimit: each block waits at __syncthreads() at most %d time; the most any block did: %d%s",
                            "%slimit: each block waits at __syncthreads() at most %d times; the most any block did: %d%s",
                            (unsigned long)p->max_barriers),
                   over ? out_color(OUT_ERROR) : "", p->max_barriers, lc->barriers, over ? "" : "\n");
        if (over) out_printf(_(" (block %d): too many%s\n"), lc->bar_block, out_color(OUT_RESET));
    }
    if (p->need_shared) {
        if (lc->unshared)
            out_printf(_("%slimit: every thread that writes %s reads shared memory; %d did not (the first: thread %d "
                         "of block %d)%s\n"),
                       out_color(OUT_ERROR), puzzle_out(p)->name, lc->unshared, lc->us_thread, lc->us_block,
                       out_color(OUT_RESET));
        else
            out_printf(_("limit: every thread that writes %s reads shared memory: yes\n"), puzzle_out(p)->name);
    }
}

static json_t *limits_json(const struct puzzle *p, const struct limit_counts *lc)
{
    if (!lc->checked) return json_string("not checked");
    json_t *j = json_object();
    json_object_set_new(j, "ok", json_boolean(lc->ok));
    json_object_set_new(j, "global_reads_max", json_integer(lc->reads));
    json_object_set_new(j, "global_reads_limit", p->max_global_reads >= 0 ? json_integer(p->max_global_reads)
                                                                          : json_null());
    json_object_set_new(j, "shared_bytes", json_integer(lc->shared));
    json_object_set_new(j, "shared_bytes_limit", p->max_shared_bytes >= 0 ? json_integer(p->max_shared_bytes)
                                                                          : json_null());
    if (p->need_shared) json_object_set_new(j, "without_shared", json_integer(lc->unshared));
    if (p->max_block_writes > 0) {
        json_object_set_new(j, "block_writes_max", json_integer(lc->writes));
        json_object_set_new(j, "block_writes_limit", json_integer(p->max_block_writes));
    }
    if (p->def) {
        json_object_set_new(j, "global_writes_max", json_integer(lc->twrites));
        json_object_set_new(j, "global_writes_limit",
                            p->max_global_writes >= 0 ? json_integer(p->max_global_writes) : json_null());
        json_object_set_new(j, "barriers_max", json_integer(lc->barriers));
        json_object_set_new(j, "barriers_limit", p->max_barriers >= 0 ? json_integer(p->max_barriers) : json_null());
    }
    return j;
}

/* The line the harness writes on stderr before each case's launch, so
 * that a diagnostic can be put to its case. */
#define CASE_MARK "gpulab-harness-case "

/* Split the program's stderr at the case marks: seg[k] (len[k]) is what
 * case k printed; the marks themselves are left out of every segment.
 * Returns the last case that started. */
static int split_cases(const char *err, size_t n, int ncases, const char **seg, size_t *len)
{
    for (int k = 0; k < ncases; k++) {
        seg[k] = "";
        len[k] = 0;
    }
    const char *p = err, *end = err + n;
    int cur = -1;
    const char *start = p;
    while (p && p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *next = nl ? nl + 1 : end;
        if ((size_t)(end - p) > sizeof CASE_MARK - 1 && memcmp(p, CASE_MARK, sizeof CASE_MARK - 1) == 0) {
            if (cur >= 0 && cur < ncases) len[cur] = (size_t)(p - start);
            cur = atoi(p + sizeof CASE_MARK - 1);
            if (cur >= 0 && cur < ncases) seg[cur] = next;
            start = next;
        }
        p = next;
    }
    if (cur >= 0 && cur < ncases) len[cur] = (size_t)(end - start);
    return cur >= 0 && cur < ncases ? cur : 0;
}

/* Everything on stderr but the case marks. */
static size_t strip_marks(const char *err, size_t n, char *dst)
{
    size_t o = 0;
    const char *p = err, *end = err + n;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *next = nl ? nl + 1 : end;
        if (!((size_t)(end - p) > sizeof CASE_MARK - 1 && memcmp(p, CASE_MARK, sizeof CASE_MARK - 1) == 0)) {
            memcpy(dst + o, p, (size_t)(next - p));
            o += (size_t)(next - p);
        }
        p = next;
    }
    dst[o] = 0;
    return o;
}

/* Which rule a case broke (the first in this order), "" when none: the
 * words --json and the report use. */
static const char *case_rule(const struct puzzle_verdict *v, int race, const struct limit_counts *lc)
{
    if (v->outside) return "bounds";
    if (v->nwrong && v->nunwritten == v->nwrong) return "unwritten";
    if (race) return "race"; /* the cause of wrong values, when there are some */
    if (v->nwrong) return "value";
    if (!lc->ok) return "limit";
    return "";
}

/* The rule a run that did not finish broke: "time" (the time limit),
 * "race" (the race check stopped it), "bounds" (the simulator stopped an access outside an array), "crash"
 * (another signal) or "launch" (a launch failed). */
static const char *stop_rule(const prog_result *r)
{
    if (r->timed_out) return "time";
    static const char *const oob[] = {"of its allocation", "is outside", "outside any allocation",
                                      "out of bounds", "past the end", "past its end", "before its start",
                                      "a null pointer"};
    for (size_t i = 0; i < sizeof oob / sizeof oob[0]; i++)
        if (strstr(r->fault, oob[i]) || (r->err && memmem(r->err, r->err_len, oob[i], strlen(oob[i]))))
            return "bounds";
    if (r->err && memmem(r->err, r->err_len, "data race on", 12)) return "race";
    return r->signal ? "crash" : "launch";
}

/* One case's verdict in words (the first failing case's). */
static void print_case_failure(const struct check_run *c, const struct puzzle_case *pc, const char *bname,
                               const struct puzzle_verdict *v, int race, const struct limit_counts *lc,
                               const float *want, const float *alloc)
{
    const struct puzzle *q = &pc->inst;
    char text[256], idx[64];
    puzzle_case_text(pc, text, sizeof text);
    out_printf(_("%snot yet%s on %s: case %d of %d: %s\n"), out_color(OUT_ERROR), out_color(OUT_RESET), bname,
               pc->index + 1, pc->count, text);
    int n = puzzle_arg_len(puzzle_out(q));
    const char *rule = case_rule(v, race, lc);
    if (strcmp(rule, "bounds") == 0) {
        out_printf(ngettext("  rule bounds: %s[%d] was written, outside the %d element of %s (%d write outside)\n",
                            "  rule bounds: %s[%d] was written, outside the %d elements of %s (%d writes outside)\n",
                            (unsigned long)n),
                   puzzle_out(q)->name, v->first_outside, n, puzzle_out(q)->name, v->outside);
    } else if (v->nwrong) {
        puzzle_index_text(q, v->first, idx, sizeof idx);
        out_printf(_("  rule %s: %s: expected %g, "), rule, idx, v->expected);
        if (v->unwritten) out_printf(_("got nothing (never written)\n"));
        else out_printf(_("got %g\n"), v->got);
        out_printf(ngettext("  %d of %d element wrong", "  %d of %d elements wrong", (unsigned long)n), v->nwrong, n);
        if (v->nunwritten) out_printf(_(", %d never written"), v->nunwritten);
        out_printf("\n");
        if (q->tolerance > 0)
            out_printf(_("  (a value is right within %g times its magnitude of the exact one, %g below 1: float "
                         "math is not exact)\n"),
                       (double)q->tolerance, (double)q->tolerance);
        if (n <= 36) {
            int front = 0;
            for (int k = 0; k < q->nargs; k++)
                if (q->args[k].kind == PZ_OUT) front = pc->front[k];
            int cols = puzzle_out(q)->rows > 1 ? puzzle_out(q)->cols : 0;
            print_values(_("expected"), want, n, cols);
            print_values(_("got"), alloc + front, n, cols);
        }
    } else if (race) {
        out_printf(_("  rule race: the right values this time, but with a data race (above): another order of the "
                     "threads can give other values\n"));
    } else {
        out_printf(_("  rule limit: the right values, but over a limit:\n"));
    }
    (void)c;
}

static json_t *case_json(const struct check_run *c, enum prog_mode backend, const struct puzzle_case *pc)
{
    json_t *j = verdict_json(c, backend);
    char text[256];
    puzzle_case_text(pc, text, sizeof text);
    json_object_set_new(j, "case", json_integer(pc->index + 1));
    json_object_set_new(j, "cases", json_integer(pc->count));
    json_object_set_new(j, "size", json_integer(pc->n));
    json_object_set_new(j, "seed", pc->seed ? json_integer(pc->seed) : json_null());
    json_object_set_new(j, "case_text", json_string(text));
    return j;
}

/* One backend: build, run every case, compare. Returns 1 pass, 0 wrong, -1
 * could not run (already reported). */
/* Schedules a check tries after the fixed order passed (docs/puzzles.md). */
enum { CHECK_SCHEDULES = 3 };

struct check_sched {
    struct session *s;
    const struct check_run *c;
    const struct puzzle_case *cases;
    int ncases;
    size_t total;
    const unsigned long long *seed; /* run i is schedule i + 2 */
    int ok;                         /* 0 once one schedule failed (reported) */
};

/* One schedule's run, seen in turn. Nonzero: it failed (reported), no more. */
static int check_schedule_seen(void *ctx, int i, prog_result *rp, int rc)
{
    struct check_sched *x = ctx;
    struct session *s = x->s;
    const struct check_run *c = x->c;
    const struct puzzle_case *cases = x->cases;
    int ncases = x->ncases, k = i + 1;
    size_t total = x->total;
    unsigned long long seed = x->seed[i];
    prog_result r = *rp;
    if (rc != 0) return 0; /* it ran in the fixed order: a failure to start is not the kernel's */
    int finished = !(r.timed_out || r.signal || r.exit_code != 0) && r.output &&
                   r.output_len == total * sizeof(float);
    int race = r.err && memmem(r.err, r.err_len, "data race on", 12) != NULL;
    int bad = -1;
    struct puzzle_verdict v;
    memset(&v, 0, sizeof v);
    size_t off = 0;
    for (int q = 0; finished && q < ncases && bad < 0; q++) {
        int total_q = puzzle_case_out_floats(&cases[q]), n = puzzle_arg_len(puzzle_out(&cases[q].inst));
        float *alloc = malloc((size_t)total_q * sizeof *alloc), *want = malloc((size_t)(n ? n : 1) * sizeof *want);
        if (alloc && want) {
            memcpy(alloc, r.output + off, (size_t)total_q * sizeof *alloc);
            puzzle_case_compare(&cases[q], alloc, want, &v);
            if (!v.pass) bad = q;
        }
        off += (size_t)total_q * sizeof *alloc;
        free(alloc);
        free(want);
    }
    if (finished && bad < 0 && !race) return lab_interrupted;
    if (s->json) {
        json_t *j = verdict_json(c, PROG_SIM);
        json_object_set_new(j, "pass", json_false());
        json_object_set_new(j, "rule", json_string("schedule"));
        json_object_set_new(j, "schedule", json_integer(k + 1));
        json_object_set_new(j, "schedule_seed", json_integer((json_int_t)seed));
        char why[320] = "runs into a data race";
        if (!finished) snprintf(why, sizeof why, "does not finish (%s)", r.timed_out ? "the time limit" : "a failed launch");
        else if (bad >= 0) {
            char idx[64];
            puzzle_index_text(&cases[bad].inst, v.first, idx, sizeof idx);
            snprintf(why, sizeof why, "gives %s = %g in case %d, expected %g", idx, v.got, bad + 1, v.expected);
        }
        json_object_set_new(j, "why", json_string(why));
        out_json(j);
    } else {
        out_printf(_("%snot yet%s on the simulator: right in the fixed order of the threads, but schedule %d "
                     "(random, seed 0x%llx) "),
                   out_color(OUT_ERROR), out_color(OUT_RESET), k + 1, seed);
        if (!finished) {
            out_printf(_("does not finish (%s)\n"), r.timed_out ? _("the time limit") : _("a failed launch"));
        } else if (bad >= 0) {
            char idx[64], text[256];
            puzzle_index_text(&cases[bad].inst, v.first, idx, sizeof idx);
            puzzle_case_text(&cases[bad], text, sizeof text);
            out_printf(_("gives %s = %g in case %d (%s), expected %g\n"), idx, v.got, bad + 1, text, v.expected);
        } else {
            out_printf(_("runs into a data race\n"));
        }
        if (r.err_len) {
            char *plain = malloc(r.err_len + 1);
            if (plain) {
                size_t pl = strip_marks(r.err, r.err_len, plain);
                if (pl) print_diagnostics(c, plain, pl);
                free(plain);
            }
        }
        out_printf(_("  a kernel must be right in every order its threads may run in on a GPU: `set schedule "
                     "random,0x%llx` and `run` show that order\n"),
                   seed);
    }
    x->ok = 0;
    return 1;
}

/* A kernel right only in the order the simulator happened to run its threads
 * in: the harness again under CHECK_SCHEDULES random orders of the threads
 * and blocks (kernels/sim/schedule.cpp), drawn from the input seed, several
 * at once where the cores allow (program_schedule_jobs), seen in their
 * order. 1: every order gave right answers with no race; 0: one did not
 * (reported). peak_kb: the fixed order's run's largest size. */
static int check_schedules(struct session *s, const struct check_run *c, prog *prg, prog_options *o,
                           const struct puzzle_case *cases, int ncases, size_t total, long peak_kb)
{
    prog_options os[CHECK_SCHEDULES];
    unsigned long long seed[CHECK_SCHEDULES];
    for (int k = 1; k <= CHECK_SCHEDULES; k++) {
        unsigned long long sd = ((unsigned long long)s->cfg.seed << 8 | (unsigned)k) * 0x9e3779b97f4a7c15ull;
        seed[k - 1] = (sd ^ (sd >> 29)) & 0xffffffffffffull;
        os[k - 1] = *o;
        os[k - 1].schedule = PROG_SCHED_RANDOM;
        os[k - 1].schedule_seed = seed[k - 1];
    }
    struct check_sched x = {s, c, cases, ncases, total, seed, 1};
    if (!lab_interrupted)
        prog_run_each(prg, os, CHECK_SCHEDULES, program_schedule_jobs(s, CHECK_SCHEDULES, peak_kb, o->race_check),
                      check_schedule_seen, &x);
    return x.ok;
}

static int check_on(struct session *s, const struct check_run *c, prog *prg, enum prog_mode backend,
                    const struct puzzle_case *cases, int ncases)
{
    const char *bname = backend == PROG_GPU ? _("the GPU") : _("the simulator");
    prog_options o;
    program_run_options(s, backend, &o); /* as run: time, memory, model, Ctrl-C */
    o.race_check = 1; /* a race fails a check */
    /* the memory checks the session asks for, but not leaks: the harness
     * owns the allocations, and after a failed launch it cannot free them */
    o.check = ((s->check ? s->check : PROG_CHECK_DEFAULT) & ~PROG_CHECK_LEAKS) | PROG_CHECK_SET;
    o.check_limit = s->check_limit;
    /* the harness writes its answers through a descriptor gpulab made */
    char *argv[] = {(char *)PROG_OUTPUT_PATH, NULL};
    o.argc = 1;
    o.argv = argv;
    size_t total = 0;
    unsigned most_blocks = 1;
    for (int k = 0; k < ncases; k++) {
        total += (size_t)puzzle_case_out_floats(&cases[k]);
        unsigned nb = cases[k].inst.grid[0] * cases[k].inst.grid[1];
        if (nb > most_blocks) most_blocks = nb;
    }
    o.output_max = total * sizeof(float) + 1;
    /* the limits are counted from every access of every block */
    if (backend == PROG_SIM) o.record_blocks = most_blocks;
    program_sandbox_note(s);
    if (s->interactive && !s->json) out_progress(_("  building and running %s on %s..."), c->shown, bname);
    prog_result r;
    int rc = prog_run(prg, &o, &r);
    out_progress_clear();
    const struct puzzle *p = c->p;
    if (rc != 0) {
        if (prg->nissues)
            print_issues(c, prg);
        else if (strstr(r.msg, HARNESS_NAME))
            print_compiler_errors(c, r.msg);
        else
            print_replaced(r.msg, strlen(r.msg), c->abs, c->shown);
        if (strstr(r.msg, HARNESS_NAME)) {
            char launch[256];
            puzzle_launch_text(p, launch, sizeof launch);
            out_printf(_("(gpulab's harness calls %s: keep the kernel's name and parameters as the skeleton "
                         "has them)\n"), launch);
        }
        sess_error(s, -1, _("%s did not compile for %s"), c->shown, bname);
        prog_result_free(&r);
        return -1;
    }
    const char *seg[PUZZLE_MAX_CASES];
    size_t seglen[PUZZLE_MAX_CASES];
    int last_case = split_cases(r.err ? r.err : "", r.err_len, ncases, seg, seglen);
    /* the simulator's diagnostics and the harness's messages, with the student's lines */
    if (r.err_len) {
        char *plain = malloc(r.err_len + 1);
        if (plain) {
            size_t pl = strip_marks(r.err, r.err_len, plain);
            if (pl) print_diagnostics(c, plain, pl);
            free(plain);
        }
    }
    if (r.fault[0] && !(r.err && strstr(r.err, r.fault))) print_diagnostics(c, r.fault, strlen(r.fault));
    if (r.interrupted) {
        out_printf(_("stopped by Ctrl-C\n"));
        prog_result_free(&r);
        return -1;
    }
    int with_limits = backend == PROG_SIM;
    int finished = !(r.timed_out || r.signal || r.exit_code != 0);
    /* the cases before the one that stopped it are compared all the same */
    int upto = finished ? ncases : last_case;
    size_t have = 0;
    for (int k = 0; k < upto; k++) {
        size_t need = have + (size_t)puzzle_case_out_floats(&cases[k]) * sizeof(float);
        if (!r.output || r.output_len < need) {
            upto = k;
            break;
        }
        have = need;
    }
    if (finished && (!r.output || r.output_len != total * sizeof(float))) {
        sess_error(s, -1, _("the harness wrote no output on %s"), bname);
        prog_result_free(&r);
        return -1;
    }
    int all = 1, shown = 0;
    size_t off = 0;
    struct limit_counts stated;
    memset(&stated, 0, sizeof stated);
    stated.ok = 1;
    for (int k = 0; k < upto; k++) {
        const struct puzzle_case *pc = &cases[k];
        const struct puzzle *q = &pc->inst;
        int total_k = puzzle_case_out_floats(pc), n = puzzle_arg_len(puzzle_out(q));
        float *alloc = malloc((size_t)total_k * sizeof *alloc), *want = malloc((size_t)(n ? n : 1) * sizeof *want);
        if (!alloc || !want) {
            free(alloc);
            free(want);
            sess_error(s, -1, _("out of memory"));
            prog_result_free(&r);
            return -1;
        }
        memcpy(alloc, r.output + off, (size_t)total_k * sizeof *alloc);
        off += (size_t)total_k * sizeof *alloc;
        struct puzzle_verdict v;
        puzzle_case_compare(pc, alloc, want, &v);
        struct limit_counts lc;
        count_limits(q, r.acc, (unsigned)k, &lc);
        if (!with_limits) lc.ok = 1;
        int race = seglen[k] && memmem(seg[k], seglen[k], "data race on", 12) != NULL;
        int pass = v.pass && lc.ok && !race;
        if (k == 0) stated = lc; /* the pass shows the stated case's counts */
        all &= pass;
        if (s->json) {
            json_t *j = case_json(c, backend, pc);
            json_object_set_new(j, "pass", json_boolean(pass));
            json_object_set_new(j, "right", json_boolean(v.pass));
            json_object_set_new(j, "finished", json_true());
            json_object_set_new(j, "rule", json_string(case_rule(&v, race, &lc)));
            json_object_set_new(j, "first", v.first >= 0 ? json_integer(v.first) : json_null());
            if (v.first >= 0) {
                json_object_set_new(j, "expected", float_json(v.expected));
                json_object_set_new(j, "got", v.unwritten ? json_null() : float_json(v.got));
            }
            char tol[32]; /* 1e-05, not the float's 9.99999974e-06 */
            snprintf(tol, sizeof tol, "%g", (double)puzzle_tolerance(q));
            json_object_set_new(j, "tolerance", json_real(strtod(tol, NULL)));
            json_object_set_new(j, "wrong", json_integer(v.nwrong));
            json_object_set_new(j, "unwritten", json_integer(v.nunwritten));
            json_object_set_new(j, "outside", json_integer(v.outside));
            if (v.outside) json_object_set_new(j, "first_outside", json_integer(v.first_outside));
            json_object_set_new(j, "race", json_boolean(race));
            int front = 0;
            for (int a = 0; a < q->nargs; a++)
                if (q->args[a].kind == PZ_OUT) front = pc->front[a];
            json_object_set_new(j, "out", values_json(alloc + front, n));
            json_object_set_new(j, "limits", with_limits ? limits_json(q, &lc) : json_string("counted on the simulator"));
            out_json(j);
        } else if (!pass && !shown) {
            shown = 1;
            print_case_failure(c, pc, bname, &v, race, &lc, want, alloc);
            if (with_limits && !lc.ok) print_limits(q, &lc);
        }
        free(alloc);
        free(want);
    }
    if (!finished) {
        /* a verdict too: the kernel did not get to an answer (in English
         * for --json, which scripts read; translated on the screen) */
        char why[PROG_MSG_MAX + 128], text[256];
        const char *fmt = r.timed_out ? N_("it ran past the time limit of %g s (a loop that never ends?)")
                          : r.signal  ? (r.msg[0] ? "%s" : N_("the program crashed"))
                                      : N_("the launch failed (the simulator's message above says why)");
        const char *tr = s->json ? fmt : _(fmt);
        if (r.timed_out) snprintf(why, sizeof why, tr, o.time_limit);
        else if (r.signal && r.msg[0]) snprintf(why, sizeof why, "%s", r.msg);
        else snprintf(why, sizeof why, "%s", tr);
        const struct puzzle_case *pc = &cases[last_case];
        puzzle_case_text(pc, text, sizeof text);
        if (s->json) {
            json_t *j = case_json(c, backend, pc);
            json_object_set_new(j, "pass", json_false());
            json_object_set_new(j, "finished", json_false());
            json_object_set_new(j, "rule", json_string(stop_rule(&r)));
            json_object_set_new(j, "why", json_string(why));
            out_json(j);
        } else if (!shown) {
            shown = 1;
            out_printf(_("%snot yet%s on %s: case %d of %d: %s\n  rule %s: %s\n"), out_color(OUT_ERROR),
                       out_color(OUT_RESET), bname, pc->index + 1, ncases, text, stop_rule(&r), why);
        }
        all = 0;
    }
    long peak_kb = r.peak_kb;
    prog_result_free(&r);
    /* right in the fixed order: now in others */
    if (all && backend == PROG_SIM && !lab_interrupted)
        all = check_schedules(s, c, prg, &o, cases, ncases, total, peak_kb);
    if (!s->json && all) {
        out_printf(ngettext("%spass%s on %s: %d case right", "%spass%s on %s: all %d cases right", (unsigned long)ncases),
                   out_color(OUT_GOOD), out_color(OUT_RESET), bname, ncases);
        out_printf(_(" (sizes"));
        for (int k = 0; k < ncases; k++) out_printf("%s %d", k ? "," : "", cases[k].n);
        out_printf(_("; random inputs from seed %u)\n"), s->cfg.seed);
        if (with_limits) print_limits(p, &stated);
    } else if (!s->json) {
        out_printf(_("  (every case: `set seed %u` then `check` repeats these inputs)\n"), s->cfg.seed);
    }
    return all;
}

/* ------------------------------------------------------------ reference */

/* A folder puzzle's expected outputs: its reference.cu in the same harness
 * with the same cases, run on the simulator through the program runner and
 * its sandbox like a student's program. The outputs are kept in gpulab's
 * cache under the hash of the whole harness text (inputs and all), so the
 * next check of the same puzzle and seed does not run it again. 0, or -1
 * reported. */
/* While the reference builds, the student's harness (prg, when not NULL)
 * builds beside it on another core: a child process runs it once with a
 * time limit that ends the run at once, and leaves the build in the program
 * runner's cache, where check_on finds it. The two compiles of a folder
 * puzzle's first check then take the time of one on a machine of two cores. */
static pid_t prebuild_start(struct session *s, prog *prg)
{
    if (!prg) return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid != 0) return pid;
    prog_options o;
    program_run_options(s, PROG_SIM, &o);
    o.time_limit = 0.001; /* the build is what is wanted, not the run */
    o.interrupt = NULL;
    prog_result r;
    prog_run(prg, &o, &r);
    _exit(0);
}

static void prebuild_wait(pid_t pid)
{
    if (pid <= 0) return;
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
    }
}

static int reference_outputs(struct session *s, const struct puzzle *p, struct puzzle_case *cases, int ncases,
                             prog *prebuild)
{
    char path[PATH_MAX], err[PATH_MAX + 256], file[PATH_MAX + 64], cpath[PATH_MAX + 64], base[PATH_MAX];
    size_t len, total = 0;
    for (int k = 0; k < ncases; k++) total += (size_t)puzzle_case_out_floats(&cases[k]);
    char *text = puzzle_def_read(p, "en", "reference.cu", &len, path, sizeof path, err, sizeof err);
    if (!text) {
        sess_error(s, -1, _("the puzzle's reference: %s"), err);
        return -1;
    }
    char *drv = puzzle_driver(cases, ncases, path, text, len, HARNESS_NAME, CASE_MARK);
    free(text);
    if (!drv) {
        sess_error(s, -1, _("out of memory"));
        return -1;
    }
    unsigned long long h = fnv64(drv, strlen(drv), 0xcbf29ce484222325ull);
    h = fnv64(__DATE__ __TIME__, sizeof __DATE__ __TIME__, h); /* another gpulab: run it again */
    cpath[0] = 0;
    if (prog_cache_dir("puzzles", base, sizeof base) == 0)
        snprintf(cpath, sizeof cpath, "%s/reference-%016llx.out", base, h);
    char *out = NULL;
    size_t olen = 0;
    if (cpath[0]) {
        out = safefile_read(cpath, (long long)(total * sizeof(float) + 1), &olen, err, sizeof err);
        if (out && olen != total * sizeof(float)) {
            free(out);
            out = NULL;
        }
    }
    prog_result r;
    memset(&r, 0, sizeof r);
    int have_r = 0;
    const char *fail = NULL;
    int fail_case = 0;
    prog prg;
    memset(&prg, 0, sizeof prg);
    if (!out) {
        int wrote = harness_file(drv, "reference.cu", file, sizeof file) == 0;
        if (!wrote || prog_open(&prg, file, err, sizeof err) != 0) {
            free(drv);
            sess_error(s, -1, _("cannot run the puzzle's reference: %s"), wrote ? err : strerror(errno));
            return -1;
        }
        snprintf(prg.shown, sizeof prg.shown, "%s", path);
        prog_options o;
        program_run_options(s, PROG_SIM, &o);
        o.race_check = 1;
        o.check = ((s->check ? s->check : PROG_CHECK_DEFAULT) & ~PROG_CHECK_LEAKS) | PROG_CHECK_SET;
        char *argv[] = {(char *)PROG_OUTPUT_PATH, NULL};
        o.argc = 1;
        o.argv = argv;
        o.output_max = total * sizeof(float) + 1;
        program_sandbox_note(s);
        if (s->interactive && !s->json) out_progress(_("  running the puzzle's reference on the simulator..."));
        pid_t pre = s->cfg.backend != LAB_BACKEND_GPU ? prebuild_start(s, prebuild) : -1;
        int rc = prog_run(&prg, &o, &r);
        prebuild_wait(pre);
        out_progress_clear();
        have_r = 1;
        prog_close(&prg);
        if (rc != 0) {
            sess_error(s, -1, _("the puzzle's reference %s did not build: %s"), path, r.msg);
            prog_result_free(&r);
            free(drv);
            return -1;
        }
        if (r.interrupted) {
            prog_result_free(&r);
            free(drv);
            out_printf(_("stopped by Ctrl-C\n"));
            return -1;
        }
        if (r.timed_out || r.signal || r.exit_code != 0 || !r.output || r.output_len != total * sizeof(float)) {
            const char *seg[PUZZLE_MAX_CASES];
            size_t seglen[PUZZLE_MAX_CASES];
            fail_case = split_cases(r.err ? r.err : "", r.err_len, ncases, seg, seglen);
        }
        if (r.timed_out || r.signal || r.exit_code != 0 || !r.output || r.output_len != total * sizeof(float))
            fail = r.timed_out ? N_("it ran past the time limit") : N_("it did not finish (the simulator's message above says why)");
        else if (r.err && memmem(r.err, r.err_len, "data race on", 12))
            fail = N_("it has a data race");
        char *plain = fail && r.err_len ? malloc(r.err_len + 1) : NULL;
        if (plain) {
            size_t pl = strip_marks(r.err, r.err_len, plain);
            out_printf("%.*s", (int)pl, plain);
            free(plain);
        }
        if (fail && r.fault[0]) out_printf("%s\n", r.fault);
        out = r.output;
        olen = r.output_len;
    }
    size_t off = 0;
    for (int k = 0; k < ncases && !fail; k++) {
        const struct puzzle_case *pc = &cases[k];
        int n = puzzle_arg_len(puzzle_out(&pc->inst)), tot = puzzle_case_out_floats(pc), front = 0;
        for (int a = 0; a < pc->inst.nargs; a++)
            if (pc->inst.args[a].kind == PZ_OUT) front = pc->front[a];
        const float *v = (const float *)(out + off);
        for (int i = 0; i < tot && !fail; i++) {
            int unw = puzzle_is_unwritten(v[i]);
            if ((i < front || i >= front + n) && !unw) fail = N_("it writes outside the output");
            else if (i >= front && i < front + n && (unw || v[i] != v[i]))
                fail = N_("it leaves an element of the output unwritten (or NaN)");
            fail_case = k;
        }
        if (!fail) {
            cases[k].want = malloc((size_t)n * sizeof(float));
            if (cases[k].want) memcpy(cases[k].want, v + front, (size_t)n * sizeof(float));
        }
        off += (size_t)tot * sizeof(float);
    }
    if (!fail && !have_r) {
        /* from the cache */
    } else if (!fail && cpath[0]) {
        struct safefile w;
        char e2[512];
        unlink(cpath);
        if (safefile_open(&w, cpath, SAFEFILE_NEW, e2, sizeof e2) == 0) {
            fwrite(out, 1, olen, w.f);
            safefile_commit(&w, e2, sizeof e2);
        }
    }
    if (have_r) prog_result_free(&r);
    else free(out);
    free(drv);
    if (fail) {
        sess_error(s, -1, _("the puzzle's reference %s is wrong in case %d: %s; the puzzle cannot be checked"), path,
                   fail_case + 1, _(fail));
        return -1;
    }
    return 0;
}

static void print_brief_line(const struct puzzle *p, const char *file)
{
    char launch[256];
    puzzle_launch_text(p, launch, sizeof launch);
    out_printf(_("%sPuzzle %d: %s%s  %s  %s\n"), out_color(OUT_BOLD), p->number, _(p->title), out_color(OUT_RESET), file,
               launch);
}

/* After the verdict: the limits, what next, what to watch. */
static void after_check(const struct session *s, const struct puzzle *p, int passed, const char *file)
{
    int n, next = 0;
    const struct puzzle *all = puzzle_all(&n);
    for (int i = 0; i + 1 < n; i++)
        if (&all[i] == p && !(all[i + 1].def && !all[i + 1].def->shipped)) next = all[i + 1].number;
    if (passed && p->def && !p->def->shipped)
        out_printf(_("solved.\n"));
    else if (passed && next)
        out_printf(_("solved. Next: `puzzle %d`.\n"), next);
    else if (passed)
        out_printf(_("solved: that was the last puzzle.\n"));
    else
        out_printf(_("edit %s and type `check` again.\n"), file);
    if (s->puzzle.line > 0)
        out_printf(_("`code` shows %s with line %d highlighted.\n"), file, s->puzzle.line);
    if (p->watch) {
        out_printf(_("%swatch gpulab's own kernel of this idea: `use %s` then `animate`%s\n"), out_color(OUT_DIM),
                   p->watch, out_color(OUT_RESET));
    }
}

/* What `check` was given: the puzzle and the file. */
/* A file named by a lesson's or lecture's check: only in its folder. */
static int confined_ok(struct session *s, const char *file, int argi)
{
    char err[PATH_MAX + 256];
    if (s->confined && !safefile_lesson_read_ok(file, s->confined_from, 1, err, sizeof err)) {
        sess_error(s, argi, "%s", err);
        return -1;
    }
    return 0;
}

static int check_target(struct session *s, int argc, char **argv, const struct puzzle **p, char *file,
                        size_t filelen)
{
    if (argc > 3) {
        sess_error(s, 3, _("usage: check [N|NAME|FILE.cu] (or check N FILE.cu)"));
        return -1;
    }
    if (argc == 1) {
        if (!s->puzzle.cur) {
            sess_error(s, -1, _("which puzzle? `puzzle N` writes one; `check N` or `check FILE.cu` checks it"));
            return -1;
        }
        *p = s->puzzle.cur;
        puzzle_student_path(*p, file, filelen);
        return 0;
    }
    const char *a = argv[1];
    size_t al = strlen(a);
    int is_file = strchr(a, '/') || (al > 3 && strcmp(a + al - 3, ".cu") == 0);
    if (puzzle_def_is_dir(a)) { /* a puzzle of one's own: check DIR [FILE.cu] */
        char err[PATH_MAX + 512];
        if (s->confined) {
            sess_error(s, 1, _("a lesson checks gpulab's puzzles, not a folder's"));
            return -1;
        }
        if (!(*p = puzzle_def_open(a, err, sizeof err))) {
            sess_error(s, 1, "%s", err);
            return -1;
        }
        if (argc == 3) snprintf(file, filelen, "%s", argv[2]);
        else puzzle_student_path(*p, file, filelen);
        return 0;
    }
    if (argc == 3) {
        if (!(*p = puzzle_find(a))) {
            sess_error(s, 1, _("no puzzle \"%s\" (`puzzle` lists them)"), a);
            return -1;
        }
        snprintf(file, filelen, "%s", argv[2]);
        return confined_ok(s, file, 2);
    }
    *p = puzzle_find(a);
    if (!*p) {
        if (is_file)
            sess_error(s, 1, _("cannot tell which puzzle %s is: name it like its skeleton (puzzles/03-guard.cu), "
                               "or say check N %s"), a, a);
        else
            sess_error(s, 1, _("no puzzle \"%s\" (`puzzle` lists them)"), a);
        return -1;
    }
    if (!is_file) {
        puzzle_student_path(*p, file, filelen);
        return 0;
    }
    snprintf(file, filelen, "%s", a);
    return confined_ok(s, file, 1);
}

static enum cmd_status do_check(struct session *s, int argc, char **argv)
{
    const struct puzzle *p;
    char file[PATH_MAX];
    if (check_target(s, argc, argv, &p, file, sizeof file) != 0) return CMD_ERROR;
    s->puzzle.line = 0;
    s->puzzle.cur = p;
    size_t len;
    char rerr[PATH_MAX + 256];
    char *text = safefile_read(file, SAFEFILE_SOURCE_MAX, &len, rerr, sizeof rerr);
    if (!text) {
        if (errno == ENOENT)
            return sess_error(s, argc > 1 ? argc - 1 : -1, _("there is no %s here: `puzzle %d` writes it"), file,
                              p->number);
        return sess_error(s, argc > 1 ? argc - 1 : -1, "%s", rerr);
    }
    char abs[PATH_MAX], combined[PATH_MAX + 64], stem[64];
    if (!realpath(file, abs)) snprintf(abs, sizeof abs, "%s", file);
    puzzle_stem(p, stem, sizeof stem);
    int lines = 0;
    for (size_t i = 0; i < len; i++) lines += text[i] == '\n';
    if (len && text[len - 1] != '\n') lines++;
    struct puzzle_case cases[PUZZLE_MAX_CASES];
    int ncases = puzzle_cases(p, s->cfg.seed, cases);
    if (ncases < 0) {
        free(text);
        return sess_error(s, -1, _("out of memory"));
    }
    enum cmd_status st = CMD_OK;
    char *drv = puzzle_driver(cases, ncases, abs, text, len, HARNESS_NAME, CASE_MARK);
    free(text);
    char name[80];
    snprintf(name, sizeof name, "%s.cu", stem);
    int wrote = drv && harness_file(drv, name, combined, sizeof combined) == 0;
    if (!drv) errno = ENOMEM;
    free(drv);
    prog prg;
    memset(&prg, 0, sizeof prg);
    char msg[2048];
    int opened = 0;
    if (!wrote) {
        int e = errno;
        char where[PATH_MAX];
        if (prog_cache_dir("puzzles", where, sizeof where) != 0) snprintf(where, sizeof where, "gpulab's cache");
        st = sess_error(s, -1, _("cannot write the harness in %s: %s"), where, strerror(e));
        goto done;
    }
    if (prog_open(&prg, combined, msg, sizeof msg) != 0) {
        st = sess_error(s, -1, "%s", msg);
        goto done;
    }
    opened = 1;
    snprintf(prg.shown, sizeof prg.shown, "%s", file);
    if (p->def && reference_outputs(s, p, cases, ncases, &prg) != 0) {
        st = CMD_ERROR;
        goto done;
    }
    if (!s->json) print_brief_line(p, file);
    enum prog_mode backs[2];
    int nb = 0;
    char why[512];
    if (s->cfg.backend != LAB_BACKEND_GPU) backs[nb++] = PROG_SIM;
    if (s->cfg.backend != LAB_BACKEND_SIM) {
        if (prog_gpu_available(why, sizeof why))
            backs[nb++] = PROG_GPU;
        else if (!s->said.check_gpu++)
            out_note(_("checked on the simulator only: %s"), why);
    }
    if (nb == 0) {
        st = sess_error(s, -1, _("backend is gpu but %s; set backend auto checks on the simulator"), why);
        goto done;
    }
    int all = 1, ran = 0;
    for (int i = 0; i < nb; i++) {
        struct check_run c = {s, p, file, abs, lines};
        int r = check_on(s, &c, &prg, backs[i], cases, ncases);
        if (r < 0) { /* reported: it did not build, or Ctrl-C */
            all = 0;
            st = CMD_ERROR;
            continue;
        }
        ran = 1;
        all &= r;
    }
    if (ran && !all) s->checks_failed++;
    if (ran) {
        puzzle_note_progress(p, all);
        if (!s->json) after_check(s, p, all, file);
    }
done:
    if (opened) prog_close(&prg);
    puzzle_cases_free(cases, ncases);
    return st;
}

const struct cmd cmd_check_group[] = {
    {
        .name = "check",
        .usage = N_("check [N|NAME|FILE.cu|DIR] | check N|DIR FILE.cu"),
        .help = N_("compile and run a puzzle's kernel, compare with the reference"),
        .long_help =
            N_("Compiles puzzles/NN-name.cu (the puzzle last named by puzzle or check, or\n"
               "the one given) inside gpulab's harness, which supplies the inputs, the\n"
               "launch and main, and runs it on the simulator in a child process (with a\n"
               "time limit, race-check on), and on the GPU too when there is one. Says\n"
               "pass, or the first wrong element with the value expected and the value\n"
               "written, and prints every diagnostic with the line of your file. A wrong\n"
               "answer is a verdict, not an error; a file that does not compile or run is\n"
               "an error. Progress is kept with the lessons'. With --json, one object per\n"
               "backend with the whole output.\n"),
        .run = do_check,
        .complete = CMP_CUSTOM,
        .complete_fn = puzzle_complete,
    },
    {0},
};
