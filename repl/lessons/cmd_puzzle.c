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
#include "repl/safefile.h"
#include "repl/session.h"
#include "repl/lessons/cmd_puzzle.h"


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
    if (p->max_shared_bytes == 0) out_printf(_(" no shared memory"));
    else if (p->max_shared_bytes > 0) out_printf(_(" at most %d bytes of shared memory per block"), p->max_shared_bytes);
    out_printf("\n");
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
    out_table_print(t);
    out_table_free(t);
    out_printf(_("`puzzle N` writes puzzle N's skeleton to puzzles/NN-name.cu here; `check` tests it.\n"));
    return CMD_OK;
}

static int mkdir_here(const char *dir)
{
    if (mkdir(dir, 0777) == 0 || errno == EEXIST) return 0;
    return -1;
}

static enum cmd_status do_puzzle(struct session *s, int argc, char **argv)
{
    if (argc == 1) return list_puzzles();
    int n;
    puzzle_all(&n);
    const struct puzzle *p = puzzle_find(argv[1]);
    if (!p) return sess_error(s, 1, _("no puzzle \"%s\": there are puzzles 1 to %d (`puzzle` lists them)"), argv[1], n);
    s->puzzle.cur = p;
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

const struct cmd cmd_puzzle_group[] = {
    {
        .name = "puzzle",
        .aliases = "puzzles",
        .usage = N_("puzzle [N|NAME]"),
        .help = N_("write puzzle N's kernel skeleton to puzzles/NN-name.cu (no N: list the puzzles)"),
        .long_help =
            N_("The puzzles are small kernels to write, from a map to a tiled matrix multiply\n"
               "(lesson 11 walks through them). puzzle N prints the puzzle's rule, launch and\n"
               "limits and writes its skeleton to puzzles/NN-name.cu in the current folder.\n"
               "A file already there is never overwritten: your work is kept. puzzle alone\n"
               "lists the puzzles with your progress. Edit the kernel, then type check.\n"),
        .run = do_puzzle, .args = CMD_ARGS(0, 1),
        .complete = CMP_CUSTOM,
        .complete_fn = puzzle_complete,
    },
    {0},
};
