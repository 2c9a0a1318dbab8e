/* cmd_lesson.c - the lesson runner: lessons, lesson, next, back, again,
 * answer, beside, lecture.
 *
 * A lesson is shown one step at a time. At the interactive prompt the step's
 * commands are offered one by one as a pre-filled line (Enter runs it, or
 * edit it first), then `next`. Progress is stored after every step shown and
 * every right answer (lesson_progress.c). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


#include "repl/cmd.h"
#include "repl/i18n.h"
#include "repl/lessons/lecture.h"
#include "repl/lessons/lesson.h"
#include "repl/out.h"
#include "repl/session.h"
#include "repl/lessons/beside.h"
#include "repl/lessons/cmd_lesson.h"

/* The first word of a command line, for comparing an edited offer. */
static size_t first_word(const char *line, const char **start)
{
    line += strspn(line, " \t");
    *start = line;
    return strcspn(line, " \t;");
}

int lesson_offered(struct session *s, const char *line, int replaced)
{
    const char *offered = s->lesson.offered;
    s->lesson.offered = NULL;
    if (!offered || !line) return 0;
    int same = strcmp(offered, line) == 0;
    /* It ran when Enter sent it as offered, or edited from the offer into
     * the same command (`set n 32` made `set n 64`). A line typed over it,
     * or edited into another command, leaves the offer where it was. */
    const char *a, *b;
    size_t la = first_word(offered, &a), lb = first_word(line, &b);
    int ran = same || (!replaced && la == lb && la > 0 && strncmp(a, b, la) == 0);
    const struct lesson *l = s->lesson.cur;
    if (ran && l && s->lesson.offer < l->steps[s->lesson.step].ncmds) s->lesson.offer++;
    return same;
}

const char *lesson_offer_next(struct session *s)
{
    s->lesson.offered = NULL;
    const struct lesson *l = s->lesson.cur;
    if (!l || !s->interactive) return NULL;
    const struct lesson_step *st = &l->steps[s->lesson.step];
    if (s->lesson.offer < st->ncmds) {
        s->lesson.offered = lesson_cmd_text(s, &st->cmds[s->lesson.offer]);
        return s->lesson.offered;
    }
    if (s->lesson.offer == st->ncmds && s->lesson.step + 1 < l->nsteps) {
        s->lesson.offered = "next";
        return s->lesson.offered;
    }
    return NULL;
}

static void save_progress(struct session *s)
{
    struct lesson_progress p;
    lesson_progress_get(s->lesson.cur->key, &p);
    p.step = s->lesson.step + 1;
    p.nsteps = s->lesson.cur->nsteps;
    if (p.seen < p.step) p.seen = p.step;
    if (p.seen > p.nsteps) p.seen = p.nsteps;
    if (lesson_progress_put(&p) != 0 && !s->said.progress) {
        char path[4096];
        lesson_progress_path(path, sizeof path);
        out_warn(_("cannot save lesson progress in %s: %s"), path[0] ? path : _("(no home folder)"),
                 strerror(errno));
        s->said.progress = 1;
    }
}

static void show_step(struct session *s)
{
    const struct lesson_step *st = &s->lesson.cur->steps[s->lesson.step];
    free(s->lesson.right);
    s->lesson.right = calloc((size_t)st->nquestions + 1, sizeof *s->lesson.right);
    free(s->lesson.tries);
    s->lesson.tries = calloc((size_t)st->nquestions + 1, sizeof *s->lesson.tries);
    s->lesson.offer = 0;
    s->lesson.beside = st;
    /* Saved before the step is drawn: a step on the screen is a step on disk,
     * even if gpulab is killed the moment it appears. */
    save_progress(s);
    lesson_render_step(s, s->lesson.cur, s->lesson.step, lesson_width(), 0);
    if (s->interactive && st->ncmds > 0)
        out_printf(_("%s(the prompt offers this step's commands one by one: Enter runs one, typing "
                     "replaces it, the arrow keys edit it)%s\n"),
                   out_color(OUT_DIM), out_color(OUT_RESET));
    else if (st->ncmds > 0 && !s->interactive)
        out_printf(_("%s(run the commands above; `next` goes on)%s\n"), out_color(OUT_DIM), out_color(OUT_RESET));
    if (s->lesson.step + 1 == s->lesson.cur->nsteps)
        out_printf(_("%sThis is the last step of the lesson.%s\n"), out_color(OUT_DIM), out_color(OUT_RESET));
}

static int need_lesson(struct session *s)
{
    if (s->lesson.cur) return 1;
    sess_error(s, 0, _("no lesson under way: `lessons` lists them, `lesson N` starts one"));
    return 0;
}

/* ---- finding a lesson by number, name or file */

static int is_file(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* The name part of an id: "04-reduction" -> "reduction"; a lesson put
 * between two numbers has a letter after its number: "04b-beyond-one-gpu". */
static const char *id_name(const char *id)
{
    const char *p = id;
    while (isdigit((unsigned char)*p)) p++;
    if (p > id && islower((unsigned char)*p) && p[1] == '-') p++;
    return *p == '-' ? p + 1 : id;
}

/* The number a lesson is opened by, from its file name: "04-reduction" ->
 * "4", "04b-beyond-one-gpu" -> "4b" (so inserting one renumbers no other). */
static void id_number(const char *id, char *buf, size_t len)
{
    while (*id == '0' && isdigit((unsigned char)id[1])) id++;
    size_t k = 0;
    while (isdigit((unsigned char)id[k])) k++;
    if (k && islower((unsigned char)id[k]) && (id[k + 1] == '-' || id[k + 1] == 0)) k++;
    snprintf(buf, len, "%.*s", (int)k, id);
}

/* Is what a lesson number: digits, and a letter after them at most? */
static int is_lesson_number(const char *what)
{
    const char *p = what;
    while (isdigit((unsigned char)*p)) p++;
    if (p > what && islower((unsigned char)*p)) p++;
    return p > what && !*p;
}

/* A lesson from the list that lang lacks opens in English, and says so. */
static char *found_lesson(struct session *s, char *path)
{
    if (path && lesson_in_english(s->lang, path)) {
        const char *b = strrchr(path, '/') + 1;
        out_note(_("lesson %.*s is not written in %s yet: it opens in English"), (int)(strlen(b) - 3), b,
                 s->lang);
    }
    return path;
}

char *lesson_resolve(struct session *s, const char *what, char *err, size_t errlen)
{
    if (is_file(what)) return strdup(what);
    if (strchr(what, '/') || (strlen(what) > 3 && strcmp(what + strlen(what) - 3, ".md") == 0)) {
        if (is_file(what)) return strdup(what);
        snprintf(err, errlen, _("no lesson file %s"), what);
        return NULL;
    }
    int n;
    char **list = lesson_list(s->lang, &n);
    char *found = NULL;
    if (is_lesson_number(what)) {
        char want[32], num[32];
        id_number(what, want, sizeof want);
        for (int i = 0; i < n && !found; i++) {
            id_number(strrchr(list[i], '/') + 1, num, sizeof num);
            if (strcmp(num, want) == 0) found = strdup(list[i]);
        }
        if (!found)
            snprintf(err, errlen, _("there are lessons 1 to %d (`lessons` lists them)"),
                     n ? atoi(strrchr(list[n - 1], '/') + 1) : 0);
        lesson_list_free(list, n);
        return found_lesson(s, found);
    }
    int hits = 0;
    char cand[1024] = "";
    for (int pass = 0; pass < 3 && !hits; pass++) {
        for (int i = 0; i < n; i++) {
            char *id = strrchr(list[i], '/') + 1;
            char idb[256];
            snprintf(idb, sizeof idb, "%.*s", (int)(strlen(id) - 3), id);
            int match = 0;
            if (pass == 0) match = strcmp(idb, what) == 0 || strcmp(id_name(idb), what) == 0;
            if (pass == 1) match = strncmp(id_name(idb), what, strlen(what)) == 0;
            if (pass == 2) { /* an algorithm the lesson is about */
                char e[256];
                struct lesson *l = lesson_load(list[i], e, sizeof e);
                if (l) {
                    char al[512];
                    snprintf(al, sizeof al, " %s ", l->algos);
                    char w[80];
                    snprintf(w, sizeof w, " %s ", what);
                    match = strstr(al, w) != NULL;
                    lesson_free(l);
                }
            }
            if (!match) continue;
            hits++;
            if (!found) found = strdup(list[i]);
            size_t off = strlen(cand);
            snprintf(cand + off, sizeof cand - off, "%s%s", off ? ", " : "", idb);
        }
    }
    lesson_list_free(list, n);
    if (hits == 1) return found_lesson(s, found);
    free(found);
    if (hits > 1) snprintf(err, errlen, _("\"%s\" could be %s"), what, cand);
    else snprintf(err, errlen, _("no lesson \"%s\" (`lessons` lists them; a file path opens any lesson)"), what);
    return NULL;
}

/* ---- commands */

/* Under the list of a language other than English: which lessons it lacks
 * (they open in English); a language without lessons at all, once. */
static void note_english(struct session *s, char **list, int n)
{
    char dir[4096], nums[256] = "";
    int k = 0;
    if (strcmp(s->lang, "en") == 0) return;
    if (!lesson_lang_dir(s->lang, dir, sizeof dir)) {
        if (!s->said.no_lessons++) out_note(_("there are no lessons in %s yet: these are the English ones"), s->lang);
        return;
    }
    for (int i = 0; i < n; i++) {
        if (!lesson_in_english(s->lang, list[i])) continue;
        size_t off = strlen(nums);
        char num[32];
        id_number(strrchr(list[i], '/') + 1, num, sizeof num);
        snprintf(nums + off, sizeof nums - off, "%s%s", k++ ? ", " : "", num);
    }
    if (k)
        out_note(ngettext("lesson %s is not written in %s yet: it opens in English",
                          "lessons %s are not written in %s yet: they open in English", (unsigned long)k),
                 nums, s->lang);
}

static enum cmd_status cmd_lessons(struct session *s, int argc, char **argv)
{
    (void)argv;
    int n;
    char **list = lesson_list(s->lang, &n);
    if (n == 0) {
        char dir[4096];
        lesson_dir(s->lang, dir, sizeof dir);
        out_printf(_("no lessons found in %s (set GPULAB_LESSONS to the lessons folder)\n"), dir);
        return CMD_OK;
    }
    const char *hdr[] = {"", _("lesson"), _("title"), _("time"), _("progress")};
    struct out_table *t = out_table_new(5, hdr, "rllll");
    for (int i = 0; i < n; i++) {
        char num[32], err[512], prog[64];
        id_number(strrchr(list[i], '/') + 1, num, sizeof num);
        struct lesson *l = lesson_load(list[i], err, sizeof err);
        if (!l) {
            const char *cells[] = {num, strrchr(list[i], '/') + 1, err, "", "-"};
            out_table_row(t, cells);
            out_table_color(t, 2, OUT_ERROR);
            continue;
        }
        struct lesson_progress p;
        if (lesson_progress_get(l->key, &p) != 0 || p.seen == 0)
            snprintf(prog, sizeof prog, "%s", _("not started"));
        else if (p.seen >= l->nsteps)
            snprintf(prog, sizeof prog, _("done (%d right)"), p.correct);
        else
            snprintf(prog, sizeof prog, _("step %d of %d"), p.step, l->nsteps);
        int cur = s->lesson.cur && strcmp(s->lesson.cur->key, l->key) == 0;
        if (cur) { /* the one open now: where it stands, not a second state beside "done" */
            size_t pl = strlen(prog);
            snprintf(prog + pl, sizeof prog - pl, "%s", _(", open now"));
        }
        const char *cells[] = {num, l->id, l->title, l->time, prog};
        out_table_row(t, cells);
        if (p.seen >= l->nsteps) out_table_color(t, 4, OUT_GOOD);
        lesson_free(l);
    }
    out_table_shrink(t, 2, 16); /* titles are cut before anything wraps */
    out_table_print(t);
    out_table_free(t);
    note_english(s, list, n);
    out_printf(_("`lesson N` starts (or resumes) one; `lesson FILE` opens any lesson file.\n"));
    lesson_list_free(list, n);
    return CMD_OK;
}

static enum cmd_status cmd_lesson(struct session *s, int argc, char **argv)
{
    if (argc == 1) {
        if (s->lesson.cur) {
            show_step(s);
            return CMD_OK;
        }
        return cmd_lessons(s, 1, argv);
    }
    char err[1024];
    char *path = lesson_resolve(s, argv[1], err, sizeof err);
    if (!path) return sess_error(s, 1, "%s", err);
    struct lesson *l = lesson_load(path, err, sizeof err);
    free(path);
    if (!l) return sess_error(s, 1, "%s", err);
    int step = -1;
    if (argc == 3) {
        char *end;
        long k = strtol(argv[2], &end, 10);
        if (*end || k < 1 || k > l->nsteps) {
            int ns = l->nsteps;
            lesson_free(l);
            return sess_error(s, 2, _("this lesson has steps 1 to %d"), ns);
        }
        step = (int)k - 1;
    }
    lesson_free(s->lesson.cur);
    s->lesson.cur = l;
    struct lesson_progress p;
    int resumed = 0;
    if (step < 0) {
        step = 0;
        if (lesson_progress_get(l->key, &p) == 0 && p.step >= 1 && p.step <= l->nsteps &&
            p.seen < l->nsteps && p.step > 1) {
            step = p.step - 1;
            resumed = 1;
        }
    }
    s->lesson.step = step;
    out_printf("%s%s%s", out_color(OUT_BOLD), l->title, out_color(OUT_RESET));
    if (l->time[0]) out_printf("  (%s)", l->time);
    out_printf("\n");
    if (l->prereq[0]) out_printf(_("before this: %s\n"), l->prereq);
    out_printf(ngettext("%d step; `next`, `back` and `again` move through it.",
                        "%d steps; `next`, `back` and `again` move through them.", (unsigned long)l->nsteps),
               l->nsteps);
    /* TRANSLATORS: a second sentence after the one above, on the same line */
    if (resumed) out_printf(_(" Resuming at step %d: `lesson %s 1` starts over."), step + 1, argv[1]);
    out_printf("\n");
    sess_note_no_gpu(s);
    if (lesson_on_sim(s))
        out_printf(_("%sKernels run on the simulator here: the results and pictures are those of a GPU, "
                     "the times are not.%s\n"),
                   out_color(OUT_DIM), out_color(OUT_RESET));
    show_step(s);
    return CMD_OK;
}

static enum cmd_status cmd_next(struct session *s, int argc, char **argv)
{
    (void)argv;
    if (!need_lesson(s)) return CMD_ERROR;
    if (s->lesson.step + 1 >= s->lesson.cur->nsteps) {
        struct lesson_progress p;
        lesson_progress_get(s->lesson.cur->key, &p);
        out_printf(_("%sThat was the last step: lesson \"%s\" is done.%s `lessons` shows what comes next.\n"),
                   out_color(OUT_GOOD), s->lesson.cur->title, out_color(OUT_RESET));
        s->lesson.offer = s->lesson.cur->steps[s->lesson.step].ncmds + 1; /* nothing more is offered */
        return CMD_OK;
    }
    s->lesson.step++;
    show_step(s);
    return CMD_OK;
}

static enum cmd_status cmd_back(struct session *s, int argc, char **argv)
{
    (void)argv;
    if (!need_lesson(s)) return CMD_ERROR;
    if (s->lesson.step == 0) {
        out_printf(_("this is the first step\n"));
        show_step(s);
        return CMD_OK;
    }
    s->lesson.step--;
    show_step(s);
    return CMD_OK;
}

static enum cmd_status cmd_again(struct session *s, int argc, char **argv)
{
    (void)argv;
    if (!need_lesson(s)) return CMD_ERROR;
    show_step(s);
    return CMD_OK;
}

static enum cmd_status cmd_answer(struct session *s, int argc, char **argv)
{
    if (!need_lesson(s)) return CMD_ERROR;
    const struct lesson_step *st = &s->lesson.cur->steps[s->lesson.step];
    if (st->nquestions == 0) return sess_error(s, 0, _("this step asks no question"));
    char text[1024] = "";
    for (int i = 1; i < argc; i++) {
        size_t off = strlen(text);
        snprintf(text + off, sizeof text - off, "%s%s", i > 1 ? " " : "", argv[i]);
    }
    int q = 0;
    while (q < st->nquestions - 1 && s->lesson.right[q]) q++;
    const struct lesson_question *qq = &st->questions[q];
    int r = lesson_check_answer(qq, text);
    if (r == -2) {
        char letters[128] = "";
        for (int i = 0; i < qq->nchoices && i < 26; i++) {
            size_t off = strlen(letters);
            snprintf(letters + off, sizeof letters - off, "%s%c", i ? ", " : "", 'a' + i);
        }
        return sess_error(s, 1, _("that names none of the choices (%s): answer with a letter, or put one in your words"),
                          letters);
    }
    if (r < 0) {
        out_printf(_("noted. This question has no single answer to check; compare yours with this: %s\n"),
                   qq->explain ? qq->explain : _("what the next step says."));
        return CMD_OK;
    }
    if (r == 0) {
        /* The first wrong answer gets the hint and another try; the
         * explanation, which gives the answer away, comes with the second. */
        int tries = ++s->lesson.tries[q];
        out_printf(_("%snot quite.%s"), out_color(OUT_WARN), out_color(OUT_RESET));
        if (qq->hint) out_printf(_(" Hint: %s"), qq->hint);
        if (tries >= 2 && qq->explain) out_printf(_(" Why: %s"), qq->explain);
        if (tries < 2 && qq->explain) out_printf(_(" Try again (a second wrong answer shows why), or `next` to go on.\n"));
        else out_printf(_(" Try again, or `next` to go on.\n"));
        return CMD_OK;
    }
    out_printf(_("%sright.%s"), out_color(OUT_GOOD), out_color(OUT_RESET));
    if (qq->explain) {
        char verdict[128];
        snprintf(verdict, sizeof verdict, _("%sright.%s"), "", "");
        out_printf("%s%s", i18n_gap(verdict), qq->explain);
    }
    out_printf("\n");
    if (!s->lesson.right[q]) {
        s->lesson.right[q] = 1;
        struct lesson_progress p;
        lesson_progress_get(s->lesson.cur->key, &p);
        p.correct++;
        if (p.step == 0) p.step = s->lesson.step + 1;
        p.nsteps = s->lesson.cur->nsteps;
        if (lesson_progress_put(&p) != 0 && !s->said.progress) {
            out_warn(_("cannot save lesson progress: %s"), strerror(errno));
            s->said.progress = 1;
        }
    }
    return CMD_OK;
}

static enum cmd_status cmd_beside(struct session *s, int argc, char **argv)
{
    (void)argv;
    if (!s->lesson.beside) return sess_error(s, 0, _("no lesson step with lecture numbers is being shown"));
    lesson_print_beside(s, s->lesson.beside);
    return CMD_OK;
}

static enum cmd_status cmd_lecture(struct session *s, int argc, char **argv)
{
    if (s->depth > 0 || s->script) return sess_error(s, 0, _("lecture runs from the prompt, not inside a script"));
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "rehearse") == 0) s->rehearse = 1;
        else if (strcmp(argv[i], "large") == 0) s->large = 1;
        else {
            s->rehearse = s->large = 0;
            return sess_error(s, i, _("expected rehearse or large here (usage: lecture N|NAME|FILE [rehearse] [large])"));
        }
    }
    char err[1024];
    char *path = lesson_resolve(s, argv[1], err, sizeof err);
    if (!path) {
        s->rehearse = s->large = 0;
        return sess_error(s, 1, "%s", err);
    }
    int rc = lecture_main(s, path);
    free(path);
    if (rc == 2) return CMD_ERROR; /* it could not start; the reason is printed and counted */
    return CMD_OK;
}

static void complete_lessons(struct session *s, int argc, char **argv, const char *text,
                             struct cmp_list *out)
{
    (void)argv;
    (void)text;
    if (argc != 1) return;
    int n;
    char **list = lesson_list(s->lang, &n);
    for (int i = 0; i < n; i++) {
        char id[256];
        const char *b = strrchr(list[i], '/') + 1;
        snprintf(id, sizeof id, "%.*s", (int)(strlen(b) - 3), b);
        cmp_add(out, id_name(id));
    }
    lesson_list_free(list, n);
}

const struct cmd cmd_lesson_group[] = {
    {.name = "lessons", .usage = "lessons", .help = N_("the lessons, with how far you got in each"),
     .long_help = N_("Lists the lessons in gpulab's language (--lang, else the environment's;\n"
                     "English by default) with their estimated time and your progress, kept in\n"
                     "$XDG_STATE_HOME/gpulab/progress. A lesson not written in that language yet\n"
                     "is listed, and opens, in English."),
     .run = cmd_lessons, .args = CMD_ARGS(0, 0)},
    {.name = "lesson", .usage = N_("lesson [N|NAME|FILE] [STEP]"),
     .help = N_("start or resume a lesson; with no argument, show the step again"),
     .long_help = N_("lesson 4, lesson reduction, lesson reduce (an algorithm it teaches) or\n"
                     "lesson path/to/file.md start a lesson where you left it; a STEP number\n"
                     "starts at that step (lesson 4 1 starts over). Each step shows its text\n"
                     "and offers its commands at the prompt one by one: Enter runs the offered\n"
                     "line, typing replaces it, the arrow keys edit it; the offer moves on only\n"
                     "when it ran. Then next, back and again move through the steps,\n"
                     "answer replies to a question, beside puts the lecture's numbers beside\n"
                     "the last results. lessons/README.md describes the file format."),
     .run = cmd_lesson, .args = CMD_ARGS(0, 2), .screen = 1, .complete = CMP_CUSTOM, .complete_fn = complete_lessons},
    {.name = "next", .usage = "next", .help = N_("the next step of the lesson"), .run = cmd_next, .args = CMD_ARGS(0, 0), .screen = 1},
    {.name = "back", .usage = "back", .help = N_("the previous step of the lesson"), .run = cmd_back, .args = CMD_ARGS(0, 0), .screen = 1},
    {.name = "again", .usage = "again", .help = N_("show the lesson's step again"), .run = cmd_again, .args = CMD_ARGS(0, 0), .screen = 1},
    {.name = "answer", .usage = N_("answer TEXT"), .help = N_("answer the question of the lesson's step"),
     .long_help = N_("Questions with a known answer are checked (case and spacing do not matter;\n"
                     "numbers may be written with separators: 3,321,858,913); open questions are\n"
                     "only noted. A wrong answer gets the question's hint when it has one, and\n"
                     "another try; the explanation comes with the right answer or a second wrong\n"
                     "one. A choice is named by its letter, its text or its words put otherwise;\n"
                     "a decimal comma (4,8) is read as a decimal point."),
     .run = cmd_answer, .args = CMD_ARGS(1, CMD_ANY)},
    {.name = "beside", .usage = "beside",
     .help = N_("the lecture's numbers of this step beside the last results"),
     .run = cmd_beside, .args = CMD_ARGS(0, 0)},
    {.name = "lecture", .usage = N_("lecture N|NAME|FILE [rehearse] [large]"),
     .help = N_("present a lesson or a script: one step per key, big and uncluttered"),
     .long_help = N_("Shows a lesson (a number or name as `lesson` takes it, or a file; or a plain\n"
                     "script, steps separated by blank lines) one step at a time: space or right\n"
                     "goes on (running the step's next command, shown before it runs, its output\n"
                     "indented under the step), left goes back, g N Enter goes to step N, a shows\n"
                     "the answers, k hides the key line, t the commands' output, z switches to a\n"
                     "large layout for a projector, ? lists the keys, q leaves. Runs use repeats 1\n"
                     "unless the lecture sets repeats itself; on the simulator a command's sim:\n"
                     "alternative runs. Without a terminal, or with rehearse, every step runs in\n"
                     "order and the time each one took is printed at the end (a rehearsal)."),
     .run = cmd_lecture, .args = CMD_ARGS(1, CMD_ANY), .screen = 1, .complete = CMP_FILE},
    {0},
};
