/* cmd_puzzle.c - the puzzles track: puzzle (check is in cmd_check.c).
 *
 * `puzzle N` writes the skeleton of puzzle N to puzzles/NN-name.cu in the
 * current folder (never over a file that is there); `check` compiles the
 * student's kernel inside gpulab's harness (repl/lessons/puzzle.c), runs it as a
 * child process on the simulator (and the GPU when there is one) and holds
 * its output against the reference. Progress is kept in the lessons'
 * progress file, one line per puzzle ("puzzle-01-map"). See docs/puzzles.md. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "repl/cmd.h"
#include "repl/i18n.h"
#include "repl/lessons/lesson.h"
#include "repl/out.h"
#include "repl/lessons/puzzle.h"
#include "repl/lessons/puzzle_def.h"
#include "repl/safefile.h"
#include "repl/session.h"
#include "repl/lessons/cmd_puzzle.h"
#include "repl/lessons/cmd_grade.h"


/* ------------------------------------------------------------- progress */

static void progress_id(const struct puzzle *p, char *buf, size_t len)
{
    char stem[64];
    puzzle_stem(p, stem, sizeof stem);
    snprintf(buf, len, "puzzle-%s", stem);
}

/* 0 not tried, 1 tried, 2 solved. */
static int puzzle_state(const struct puzzle *p)
{
    char id[96];
    struct lesson_progress lp;
    progress_id(p, id, sizeof id);
    if (lesson_progress_get(id, &lp) != 0) return 0;
    return lp.correct > 0 ? 2 : 1;
}

void puzzle_note_progress(const struct puzzle *p, int passed)
{
    char id[96];
    struct lesson_progress lp;
    progress_id(p, id, sizeof id);
    lesson_progress_get(id, &lp);
    lp.step = lp.nsteps = lp.seen = 1;
    if (passed) lp.correct = 1; /* solved stays solved */
    if (lesson_progress_put(&lp) != 0) {
        char path[4096];
        lesson_progress_path(path, sizeof path);
        out_warn(_("cannot save puzzle progress in %s: %s"), path[0] ? path : _("(no home folder)"), strerror(errno));
    }
}

/* ------------------------------------------------------------------ files */

/* The shipped skeleton of p (the session's language, else en). */
static char *skeleton_text(struct session *s, const struct puzzle *p, size_t *len, char *path, size_t pathlen)
{
    char dir[4096], stem[64];
    if (p->def) {
        char err[PATH_MAX + 256];
        char *t = puzzle_def_read(p, s->lang, "skeleton.cu", len, path, pathlen, err, sizeof err);
        if (!t && errno == 0) errno = EINVAL;
        return t;
    }
    puzzle_stem(p, stem, sizeof stem);
    lesson_dir(s->lang, dir, sizeof dir);
    snprintf(path, pathlen, "%s/puzzles/%s.cu", dir, stem);
    char *t = puzzle_read_file(path, len);
    if (!t) {
        lesson_dir("en", dir, sizeof dir);
        snprintf(path, pathlen, "%s/puzzles/%s.cu", dir, stem);
        t = puzzle_read_file(path, len);
    }
    return t;
}

int puzzle_current_file(const struct session *s, char *buf, size_t len)
{
    if (!s->puzzle.cur) return -1;
    puzzle_student_path(s->puzzle.cur, buf, len);
    return 0;
}

/* ---------------------------------------------------------------- puzzle */

static void print_brief(const struct puzzle *p)
{
    char launch[256];
    puzzle_launch_text(p, launch, sizeof launch);
    out_printf(_("%sPuzzle %d: %s%s\n"), out_color(OUT_BOLD), p->number, _(p->title), out_color(OUT_RESET));
    out_wrapped(_(p->spec), 2, 6);
    if (p->detail) out_wrapped(_(p->detail), 2, 2);
    out_printf(_("  launch: %s\n"), launch);
    out_printf(_("  limits:"));
    if (p->max_global_reads >= 0)
        out_printf(ngettext(" at most %d global read per thread;", " at most %d global reads per thread;",
                            (unsigned long)p->max_global_reads),
                   p->max_global_reads);
    if (p->def && p->max_global_writes >= 0)
        out_printf(ngettext(" at most %d global write per thread;", " at most %d global writes per thread;",
                            (unsigned long)p->max_global_writes),
                   p->max_global_writes);
    if (p->def && p->max_barriers >= 0)
        out_printf(ngettext(" at most %d barrier per block;", " at most %d barriers per block;",
                            (unsigned long)p->max_barriers),
                   p->max_barriers);
    if (p->max_shared_bytes == 0) out_printf(_(" no shared memory"));
    else if (p->max_shared_bytes > 0) out_printf(_(" at most %d bytes of shared memory per block"), p->max_shared_bytes);
    if (p->max_block_writes > 0)
        out_printf(ngettext("; at most %d global write per block", "; at most %d global writes per block",
                            (unsigned long)p->max_block_writes),
                   p->max_block_writes);
    out_printf("\n");
    if (p->tolerance > 0)
        out_printf(_("  compared within %g times each value's magnitude (%g below 1): float math is not exact\n"),
                   (double)p->tolerance, (double)p->tolerance);
}

static enum cmd_status list_puzzles(void)
{
    int n;
    const struct puzzle *all = puzzle_all(&n);
    const char *hdr[] = {"#", _("puzzle"), _("rule"), _("progress")};
    struct out_table *t = out_table_new(4, hdr, "rlll");
    for (int i = 0; i < n; i++) {
        char num[8], rule[64];
        snprintf(num, sizeof num, "%d", all[i].number);
        const char *spec = _(all[i].spec);
        if (strlen(spec) < sizeof rule) {
            snprintf(rule, sizeof rule, "%s", spec);
        } else {
            int cut = (int)sizeof rule - 4;
            while (cut > 0 && ((unsigned char)spec[cut] & 0xC0) == 0x80) cut--; /* not inside a character */
            snprintf(rule, sizeof rule, "%.*s...", cut, spec);
        }
        int st = puzzle_state(&all[i]);
        const char *cells[] = {num, _(all[i].title), rule, st == 2 ? _("solved") : st == 1 ? _("tried") : _("not started")};
        out_table_row(t, cells);
        if (st == 2) out_table_color(t, 3, OUT_GOOD);
    }
    out_table_shrink(t, 2, 16); /* the rule is cut before anything wraps */
    out_table_print(t);
    out_table_free(t);
    out_wrapf(0, 0, "%s", _("`puzzle N` writes puzzle N's skeleton to puzzles/NN-name.cu here, `edit` opens it, `check` "
                            "tests it; `puzzle hint`, `puzzle solution` (after a try) and `puzzle reset` help."));
    return CMD_OK;
}

static int mkdir_here(const char *dir)
{
    if (mkdir(dir, 0777) == 0 || errno == EEXIST) return 0;
    return -1;
}

/* The reference solution of p, shipped beside the skeletons. */
static char *solution_text(const struct puzzle *p, size_t *len, char *path, size_t pathlen)
{
    char dir[4096], stem[64];
    if (p->def) {
        char err[PATH_MAX + 256];
        char *t = puzzle_def_read(p, "en", "reference.cu", len, path, pathlen, err, sizeof err);
        if (!t && errno == 0) errno = EINVAL;
        return t;
    }
    puzzle_stem(p, stem, sizeof stem);
    lesson_dir("en", dir, sizeof dir);
    snprintf(path, pathlen, "%s/puzzles/solutions/%s.cu", dir, stem);
    return puzzle_read_file(path, len);
}

static enum cmd_status puzzle_hint_cmd(struct session *s, const struct puzzle *p)
{
    const char *h = puzzle_hint(p);
    out_printf(_("%sPuzzle %d: %s%s\n"), out_color(OUT_BOLD), p->number, _(p->title), out_color(OUT_RESET));
    if (h) out_wrapf(2, 2, _("hint: %s"), _(h));
    out_wrapf(2, 2, "%s", _("The comments in the skeleton give the steps; `check` says which element is wrong. "
                            "After a try, `puzzle solution` shows one way to write it."));
    (void)s;
    return CMD_OK;
}

static enum cmd_status puzzle_solution_cmd(struct session *s, const struct puzzle *p)
{
    if (puzzle_state(p) == 0)
        return sess_error(s, -1, _("puzzle %d: write your kernel and `check` it first; the solution opens after a "
                                   "try (`puzzle hint` helps now)"),
                          p->number);
    char path[4200];
    size_t len;
    char *text = solution_text(p, &len, path, sizeof path);
    if (!text) return sess_error(s, -1, _("cannot read the solution %s: %s"), path, strerror(errno));
    out_printf(_("%sOne solution of puzzle %d (%s)%s; yours may differ and be as right:\n\n"), out_color(OUT_BOLD),
               p->number, _(p->title), out_color(OUT_RESET));
    char *vis = out_escape(text, len, "\n\t");
    out_printf("%s", vis ? vis : text);
    if (len && text[len - 1] != '\n') out_printf("\n");
    free(vis);
    free(text);
    return CMD_OK;
}

static int mkdir_here(const char *dir);

/* The skeleton back over the student's file, which is kept beside it as
 * NN-name.cu.old (replacing an older one). */
static enum cmd_status puzzle_reset_cmd(struct session *s, const struct puzzle *p)
{
    char path[256], old[300], skel[4200], err[512];
    puzzle_student_path(p, path, sizeof path);
    snprintf(old, sizeof old, "%s.old", path);
    size_t len;
    char *body = skeleton_text(s, p, &len, skel, sizeof skel);
    if (!body) return sess_error(s, -1, _("cannot read the skeleton %s: %s"), skel, strerror(errno));
    char *head = puzzle_header(p);
    if (!head) {
        free(body);
        return sess_error(s, -1, _("out of memory"));
    }
    struct stat sb;
    int had = stat(path, &sb) == 0;
    enum cmd_status st = CMD_OK;
    struct safefile w;
    if (mkdir_here("puzzles") != 0) {
        st = sess_error(s, -1, _("cannot make the folder puzzles here: %s"), strerror(errno));
    } else if (had && rename(path, old) != 0) {
        st = sess_error(s, -1, _("cannot keep %s as %s: %s"), path, old, strerror(errno));
    } else if (safefile_open(&w, path, SAFEFILE_NEW, err, sizeof err) != 0) {
        st = sess_error(s, -1, "%s", err);
    } else {
        fputs(head, w.f);
        fwrite(body, 1, len, w.f);
        if (safefile_commit(&w, err, sizeof err) != 0) st = sess_error(s, -1, "%s", err);
        else if (had) out_printf(_("wrote the skeleton to %s again; your version is in %s.\n"), path, old);
        else out_printf(_("wrote %s: edit the kernel, then type `check`.\n"), path);
    }
    free(head);
    free(body);
    return st;
}

static int is_puzzle_action(const char *w) { return !strcmp(w, "hint") || !strcmp(w, "solution") || !strcmp(w, "reset"); }

static enum cmd_status do_puzzle(struct session *s, int argc, char **argv)
{
    if (argc == 1) return list_puzzles();
    int n;
    puzzle_all(&n);
    const struct puzzle *p;
    const char *action = NULL;
    int act_i = 0;
    if (is_puzzle_action(argv[1])) { /* puzzle hint: the current puzzle */
        if (argc > 2) return sess_error(s, 2, _("usage: %s"), _("puzzle [N|NAME|DIR] [hint|solution|reset] | puzzle verify DIR"));
        if (!s->puzzle.cur)
            return sess_error(s, 1, _("no puzzle chosen yet: puzzle N %s names one (`puzzle` lists them)"), argv[1]);
        p = s->puzzle.cur;
        action = argv[1];
        act_i = 1;
    } else if (!strcmp(argv[1], "verify")) {
        if (argc != 3) return sess_error(s, 2, _("usage: %s"), _("puzzle verify DIR"));
        return puzzle_verify(s, argv[2]);
    } else if (!strcmp(argv[1], "open") || puzzle_def_is_dir(argv[1])) { /* a puzzle of one's own */
        int di = strcmp(argv[1], "open") == 0 ? 2 : 1;
        if (di >= argc) return sess_error(s, 1, _("usage: %s"), _("puzzle open DIR"));
        if (s->confined) return sess_error(s, di, _("a lesson opens gpulab's puzzles, not a folder's"));
        char err[PATH_MAX + 512];
        p = puzzle_def_open(argv[di], err, sizeof err);
        if (!p) return sess_error(s, di, "%s", err);
        if (argc > di + 1) {
            if (!is_puzzle_action(argv[di + 1]))
                return sess_error(s, di + 1, _("after the puzzle comes hint, solution or reset (not \"%s\")"),
                                  argv[di + 1]);
            action = argv[di + 1];
        }
    } else {
        p = puzzle_find(argv[1]);
        int last = 0;
        const struct puzzle *all = puzzle_all(&n);
        for (int i = 0; i < n; i++)
            if (!all[i].def || all[i].def->shipped) last = all[i].number;
        if (!p) return sess_error(s, 1, _("no puzzle \"%s\": there are puzzles 1 to %d (`puzzle` lists them)"), argv[1], last);
        if (argc > 2) {
            if (!is_puzzle_action(argv[2]))
                return sess_error(s, 2, _("after the puzzle comes hint, solution or reset (not \"%s\")"), argv[2]);
            action = argv[2];
            act_i = 2;
        }
    }
    (void)act_i;
    s->puzzle.cur = p;
    if (action && !strcmp(action, "hint")) return puzzle_hint_cmd(s, p);
    if (action && !strcmp(action, "solution")) return puzzle_solution_cmd(s, p);
    if (action && !strcmp(action, "reset")) return puzzle_reset_cmd(s, p);
    char path[256], skel[4200];
    puzzle_student_path(p, path, sizeof path);
    print_brief(p);
    struct stat sb;
    if (stat(path, &sb) == 0) {
        out_printf(_("%s is already there: keeping your work (delete or rename it for a fresh skeleton).\n"), path);
        out_printf(_("Edit it, then type `check`.\n"));
        return CMD_OK;
    }
    size_t len;
    char *body = skeleton_text(s, p, &len, skel, sizeof skel);
    if (!body) return sess_error(s, 1, _("cannot read the skeleton %s: %s"), skel, strerror(errno));
    char *head = puzzle_header(p);
    if (!head) {
        free(body);
        return sess_error(s, -1, _("out of memory"));
    }
    enum cmd_status st = CMD_OK;
    struct safefile w;
    char err[512];
    if (mkdir_here("puzzles") != 0) {
        st = sess_error(s, -1, _("cannot make the folder puzzles here: %s"), strerror(errno));
    } else if (safefile_open(&w, path, SAFEFILE_NEW, err, sizeof err) != 0) { /* never over a file made meanwhile */
        st = sess_error(s, -1, "%s", err);
    } else {
        fputs(head, w.f);
        fwrite(body, 1, len, w.f);
        if (safefile_commit(&w, err, sizeof err) != 0)
            st = sess_error(s, -1, "%s", err);
        else
            out_printf(_("wrote %s: edit the kernel, then type `check`.\n"), path);
    }
    free(head);
    free(body);
    return st;
}

void puzzle_complete(struct session *s, int argc, char **argv, const char *text, struct cmp_list *out)
{
    (void)s;
    (void)argv;
    (void)text;
    if (argc != 1) return;
    int n;
    const struct puzzle *all = puzzle_all(&n);
    for (int i = 0; i < n; i++) {
        char num[8];
        snprintf(num, sizeof num, "%d", all[i].number);
        cmp_add(out, num);
        cmp_add(out, all[i].name);
    }
}

/* puzzle's words: a puzzle or an action, then an action. */
static void complete_puzzle_cmd(struct session *s, int argc, char **argv, const char *text, struct cmp_list *out)
{
    static const char *const actions[] = {"hint", "solution", "reset"};
    if (argc == 1) {
        cmp_add(out, "open");
        cmp_add(out, "verify");
    }
    if (argc == 1 || (argc == 2 && !is_puzzle_action(argv[1])))
        for (int i = 0; i < 3; i++) cmp_add(out, actions[i]);
    puzzle_complete(s, argc, argv, text, out);
}

const struct cmd cmd_puzzle_group[] = {
    {
        .name = "puzzle",
        .aliases = "puzzles",
        .usage = N_("puzzle [N|NAME|DIR] [hint|solution|reset] | puzzle verify DIR"),
        .help = N_("write puzzle N's kernel skeleton to puzzles/NN-name.cu (no N: list the puzzles)"),
        .long_help =
            N_("The puzzles are small kernels to write, from a map to a tiled matrix multiply\n"
               "(lesson 11 walks through them). puzzle N prints the puzzle's rule, launch and\n"
               "limits and writes its skeleton to puzzles/NN-name.cu in the current folder.\n"
               "A file already there is never overwritten: your work is kept. puzzle alone\n"
               "lists the puzzles with your progress. edit opens the file, then type check.\n"
               "puzzle hint gives a hint for the current puzzle; puzzle solution shows one\n"
               "solution once you have checked a try; puzzle reset writes the skeleton\n"
               "again, keeping your version as NN-name.cu.old. puzzle DIR (or puzzle open\n"
               "DIR) opens a puzzle of your own: a folder with puzzle.txt, skeleton.cu,\n"
               "reference.cu and wrong/ (docs/puzzles.md). puzzle verify DIR checks that\n"
               "its reference passes, its skeleton fails and every wrong version fails\n"
               "for the rule its first line names.\n"),
        .run = do_puzzle, .args = CMD_ARGS(0, 3),
        .complete = CMP_CUSTOM,
        .complete_fn = complete_puzzle_cmd,
    },
    {0},
};
