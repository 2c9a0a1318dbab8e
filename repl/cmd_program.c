/* cmd_program.c - a student's own CUDA program: open, edit, and what run,
 * compare and show do while one is open (kernels/program does the work). */
#include <errno.h>
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
#include "repl/lessons/puzzle.h"
#include "repl/out.h"
#include "repl/parse.h"
#include "repl/safefile.h"
#include "kernels/program/program.h"
#include "repl/session.h"

enum cmd_status program_refuse(struct session *s, const char *cmd)
{
    const char *v = s->variant ? s->variant->name : "VARIANT";
    return sess_error(s, -1,
                      _("%s works on the built-in variants, not on the open program %s: name one (%s %s), "
                        "or `use %s` to close the program; `trace` and `animate` show the program's accesses"),
                      cmd, s->prog->shown, cmd, v, s->algo ? s->algo->name : "ALGO");
}

static void print_issues(const prog *p)
{
    for (int i = 0; i < p->nissues; i++)
        out_printf("  %s:%d: %s\n", p->issues[i].file, p->issues[i].line, p->issues[i].msg);
}

/* The file as typed, else beside the script that names it. */
static int resolve(struct session *s, const char *name, char *buf, size_t len)
{
    struct stat st;
    if (stat(name, &st) == 0 || name[0] == '/' || !s->script) {
        snprintf(buf, len, "%s", name);
        return 0;
    }
    const char *sl = strrchr(s->script, '/');
    if (sl) {
        snprintf(buf, len, "%.*s/%s", (int)(sl - s->script), s->script, name);
        if (stat(buf, &st) == 0) return 0;
    }
    snprintf(buf, len, "%s", name);
    return 0;
}

static enum cmd_status do_open(struct session *s, int argc, char **argv)
{
    static prog_project pr;
    memset(&pr, 0, sizeof pr);
    char msg[PROG_PATH_MAX + 256];
    /* a script's files and folders are beside it */
    char base[PROG_PATH_MAX] = "";
    if (s->script && strrchr(s->script, '/')) snprintf(base, sizeof base, "%.*s", (int)(strrchr(s->script, '/') - s->script), s->script);
    for (int i = 1; i < argc; i++) {
        char path[PROG_PATH_MAX];
        const char *arg = argv[i];
        if (strcmp(arg, "-I") == 0 && i + 1 < argc) {
            /* -I FOLDER, as compilers take it too */
            snprintf(path, sizeof path, "-I%s", argv[++i]);
            arg = path;
        }
        int rc;
        if (arg[0] == '-') {
            rc = prog_project_add(&pr, arg, base[0] && access(arg + 2, F_OK) != 0 ? base : NULL, msg, sizeof msg);
        } else {
            resolve(s, arg, path, sizeof path);
            rc = prog_project_add(&pr, path, NULL, msg, sizeof msg);
        }
        if (rc != 0) return sess_error(s, i, "%s", msg);
    }
    if (pr.nfiles == 0)
        return sess_error(s, -1, _("open takes the program's files (FILE.cu, several files, a folder, its "
                                   "CMakeLists.txt or Makefile) and compiler options (-I, -D, -U, -std=, -O)"));
    const char *files[PROG_MAX_SOURCES], *opts[PROG_MAX_OPTIONS + 1];
    for (int i = 0; i < pr.nfiles; i++) {
        /* each file as open takes one: inside a lesson's folder when
         * confined, a regular file of a source's size */
        if (s->confined && !safefile_lesson_read_ok(pr.files[i], s->confined_from, 1, msg, sizeof msg))
            return sess_error(s, 1, "%s", msg);
        int fd = safefile_open_read(pr.files[i], SAFEFILE_SOURCE_MAX, msg, sizeof msg);
        if (fd < 0) return sess_error(s, 1, "%s", msg);
        close(fd);
        files[i] = pr.files[i];
    }
    for (int i = 0; i < pr.noptions; i++) opts[i] = pr.options[i];
    opts[pr.noptions] = NULL;
    prog *p = calloc(1, sizeof *p);
    if (!p) return sess_error(s, -1, _("out of memory"));
    if (prog_open_sources(p, files, pr.nfiles, opts, msg, sizeof msg) != 0) {
        free(p);
        return sess_error(s, 1, "%s", msg);
    }
    /* the program as typed: its first file or its folder */
    for (int i = argc - 1; i >= 1; i--)
        if (argv[i][0] != '-' && !(i > 1 && strcmp(argv[i - 1], "-I") == 0))
            snprintf(p->shown, sizeof p->shown, "%s", argv[i]);
    sess_close_program(s);
    s->prog = p;
    for (int i = 0; i < pr.noptions; i++) s->prog_defines[i] = strdup(pr.options[i]);
    if (!s->json) {
        if (pr.note[0]) out_printf("%s\n", pr.note);
        if (p->nsrcs > 1)
            out_printf(ngettext("%s: %d source file", "%s: %d source files", (unsigned long)p->nsrcs), p->shown, p->nsrcs);
        else
            out_printf("%s", p->shown);
        out_printf(ngettext(": %d kernel", ": %d kernels", (unsigned long)p->nkernels), p->nkernels);
        for (int i = 0; i < p->nkernels; i++) out_printf(_("%s %s (line %d)"), i ? "," : ":", p->kernels[i].name, p->kernels[i].line);
        out_printf("\n");
        if (p->nissues) {
            out_printf(_("it cannot run on the simulator:\n"));
            print_issues(p);
        }
        if (s->interactive) out_printf(_("run builds and runs it; compare runs it on the GPU and the simulator; use ALGO goes back\n"));
    }
    return CMD_OK;
}

/* Run $VISUAL, else $EDITOR, else vi on path and wait for it: 0 when it
 * ended well, else its status (said as a warning). */
static int run_editor(struct session *s, const char *path)
{
    const char *ed = getenv("VISUAL");
    if (!ed || !*ed) ed = getenv("EDITOR");
    if (!ed || !*ed) ed = "vi";
    out_flush();
    pid_t pid = fork();
    if (pid < 0) {
        sess_error(s, -1, _("cannot start the editor: %s"), strerror(errno));
        return -1;
    }
    if (pid == 0) {
        /* $EDITOR may carry arguments ("code -w"): let the shell split it */
        execl("/bin/sh", "sh", "-c", "exec $0 \"$1\"", ed, path, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        out_warn(s->prog ? _("the editor (%s) ended with status %d; reloading the file anyway")
                         : _("the editor (%s) ended with status %d"),
                 ed, code);
        return code;
    }
    return 0;
}

/* edit with no program open: the current puzzle's file (puzzle N wrote it). */
static enum cmd_status edit_puzzle(struct session *s)
{
    char path[512];
    if (!s->puzzle.cur)
        return sess_error(s, -1, _("nothing to edit: open FILE.cu opens a program, puzzle N a puzzle"));
    puzzle_student_path(s->puzzle.cur, path, sizeof path);
    struct stat sb;
    if (stat(path, &sb) != 0)
        return sess_error(s, -1, _("%s is not there: `puzzle %d` writes its skeleton"), path, s->puzzle.cur->number);
    if (run_editor(s, path) < 0) return CMD_ERROR;
    out_printf(_("%s saved? `check` tests it.\n"), path);
    return CMD_OK;
}

static enum cmd_status do_edit(struct session *s, int argc, char **argv)
{
    if (!s->prog) return edit_puzzle(s);
    if (run_editor(s, s->prog->path) < 0) return CMD_ERROR;
    char msg[1024], shown[256];
    snprintf(shown, sizeof shown, "%s", s->prog->shown);
    const char *files[PROG_MAX_SOURCES];
    for (int i = 0; i < s->prog->nsrcs; i++) files[i] = s->prog->srcs[i];
    if (prog_open_sources(s->prog, files, s->prog->nsrcs, (const char *const *)s->prog_defines, msg, sizeof msg) != 0)
        return sess_error(s, -1, "%s", msg);
    snprintf(s->prog->shown, sizeof s->prog->shown, "%s", shown);
    out_printf(ngettext("reloaded %s: %d kernel\n", "reloaded %s: %d kernels\n", (unsigned long)s->prog->nkernels), shown,
               s->prog->nkernels);
    if (s->prog->nissues) {
        out_printf(_("it cannot run on the simulator:\n"));
        print_issues(s->prog);
    }
    return CMD_OK;
}

/* ------------------------------------------------------------------- run */

/* The program's output as it comes, its control characters made visible
 * (out_escape): it cannot move the cursor, retitle or clear the terminal.
 * A C1 control is two bytes (C2 xx) that two reads may split: a trailing
 * C2 waits for the next piece. */
static void on_output(void *ctx, int fd, const char *buf, size_t n)
{
    static char held[2];
    struct session *s = ctx;
    if (s->json) return; /* kept in the result, printed as JSON */
    FILE *f = fd == 1 ? out_stream() : out_err_stream();
    char *join = malloc(n + 2);
    if (!join) return;
    size_t k = 0;
    if (held[fd - 1]) join[k++] = held[fd - 1];
    held[fd - 1] = 0;
    memcpy(join + k, buf, n);
    k += n;
    if (k && (unsigned char)join[k - 1] == 0xc2) held[fd - 1] = join[--k];
    char *vis = out_escape(join, k, "\n\t");
    if (vis) fputs(vis, f);
    free(vis);
    free(join);
    fflush(f);
}

/* Once a session: what the sandbox could not enforce here. */
void program_sandbox_note(struct session *s)
{
    char why[256];
    int state = prog_sandbox_state(why, sizeof why);
    if (s->said.sandbox || state == 2) return;
    s->said.sandbox = 1;
    if (state == 1)
        out_warn(_("students' programs have no process limit here (%s): one that starts processes without end "
                   "is stopped by its time limit only"),
                 why);
    else if (!prog_sandbox_on())
        out_warn(_("the sandbox is off (set sandbox off): students' programs run with their time, memory and "
                   "process limits only, and can read and write your files and use the network; set sandbox "
                   "on turns it on"));
    else if (prog_sandbox_landlock())
        out_warn(_("students' programs run without their own namespaces here (%s); Landlock confines their "
                   "files instead: they read the system's folders, their build and their own folder, and write "
                   "only /tmp, which is shared; they still get no network sockets and no terminal, and their "
                   "time, memory and file limits hold (docs/reliability.md)"),
                 why);
    else
        out_warn(_("students' programs run without their own namespaces here (%s): they can read what you can "
                   "read and write what you can write; they still get no network sockets and no terminal, and "
                   "their time, memory and file limits hold (docs/reliability.md)"),
                 why);
}

/* ------------------------------------------------- the options of a run */

static long long mem_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), pg = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || pg <= 0) return 8ll << 30;
    return (long long)pages * pg / 4 * 3;
}

double program_time_limit(const struct session *s, enum prog_mode b)
{
    /* a GPU run also builds for the GPU and starts its driver */
    return b == PROG_SIM ? s->time_limit : s->time_limit * 10;
}

void program_run_options(const struct session *s, enum prog_mode b, prog_options *o)
{
    memset(o, 0, sizeof *o);
    o->backend = b;
    o->time_limit = program_time_limit(s, b);
    o->mem_limit = mem_limit();
    o->race_check = s->cfg.race_check;
    o->check = s->check;
    o->check_limit = s->check_limit;
    o->schedule = s->schedule;
    o->schedule_seed = s->schedule_seed;
    o->sim_threads = s->sim_threads;
    o->model = s->cfg.model;
    o->interrupt = &lab_interrupted;
}

static int run_on(struct session *s, enum prog_mode backend, int argc, char **argv, int echo, prog_result *r)
{
    prog_options o;
    program_run_options(s, backend, &o);
    /* run shows stdout and stderr in the order the program wrote them */
    o.merge_output = echo > 0 && !s->json;
    o.argc = argc;
    o.argv = argv;
    if (argc == 0) {
        /* set args: the arguments of every run that names none */
        while (s->prog_args[o.argc]) o.argc++;
        o.argv = s->prog_args;
    }
    o.defines = (const char *const *)s->prog_defines;
    o.on_output = echo > 0 ? on_output : NULL;
    o.ctx = s;
    if (s->interactive && !s->json)
        out_progress(backend == PROG_GPU ? _("  building %s for the GPU...") : _("  building %s for the simulator..."),
                     s->prog->shown);
    o.record_blocks = echo < 0 ? s->trace_blocks : 0;
    program_sandbox_note(s);
    int rc = prog_run(s->prog, &o, r);
    out_progress_clear();
    return rc;
}

int program_record(struct session *s, int argc, char **argv, prog_result *r)
{
    /* echo -1: quiet, and every access of the first trace-blocks blocks recorded */
    if (run_on(s, PROG_SIM, argc, argv, -1, r) == 0) return 0;
    sess_error(s, -1, "%s", r->msg[0] ? r->msg : _("the program could not be run"));
    prog_result_free(r);
    return -1;
}


static void fmt_dim(const unsigned d[3], char *buf, size_t len)
{
    if (d[1] == 1 && d[2] == 1) snprintf(buf, len, "%u", d[0]);
    else if (d[2] == 1) snprintf(buf, len, "%ux%u", d[0], d[1]);
    else snprintf(buf, len, "%ux%ux%u", d[0], d[1], d[2]);
}

static void print_launches(const prog_result *r, enum prog_mode b)
{
    if (r->nlaunches == 0) return;
    const char *hdr[] = {_("kernel"), _("line"),   _("launches"),
                         _("grid"),   _("block"),  _("shared"), b == PROG_GPU ? "ms" : _("ms (sim)")};
    struct out_table *t = out_table_new(7, hdr, "lrrrrrr");
    for (int i = 0; i < r->nlaunches; i++) {
        const prog_launch *l = &r->launches[i];
        char line[16], cnt[32], g[48], bl[48], sm[32], ms[32];
        snprintf(line, sizeof line, "%d", l->line);
        if (l->failed) snprintf(cnt, sizeof cnt, _("%d (%d failed)"), l->count, l->failed);
        else snprintf(cnt, sizeof cnt, "%d", l->count);
        fmt_dim(l->grid, g, sizeof g);
        fmt_dim(l->block, bl, sizeof bl);
        snprintf(sm, sizeof sm, "%zu", l->smem);
        snprintf(ms, sizeof ms, "%.3f", l->ms);
        const char *cells[] = {l->kernel, line, cnt, g, bl, sm, ms};
        out_table_row(t, cells);
        if (l->failed) out_table_color(t, 2, OUT_ERROR);
    }
    out_table_print(t);
    out_table_free(t);
    if (r->launches_dropped) out_printf(_("(%d more launch shapes not listed)\n"), r->launches_dropped);
}

/* The time limit ended the run: how far it got (the launches that
 * finished, the rate they ran at, the kernel running and for how long) and
 * what to do, which differs for a kernel that is merely big and one that
 * never ends. */
static void print_time_limit(const prog_result *r, double limit)
{
    out_printf(_("%sstopped:%s the time limit of %g s ended the run\n"), out_color(OUT_ERROR), out_color(OUT_RESET),
               limit);
    unsigned long long threads = 0, same_threads = 0;
    double ms = 0, same_ms = 0;
    int n = 0;
    for (int i = 0; i < r->nlaunches; i++) {
        const prog_launch *l = &r->launches[i];
        if (l->failed) continue;
        n += l->count;
        unsigned long long t = (unsigned long long)l->count * l->grid[0] * l->grid[1] * l->grid[2] * l->block[0] *
                               l->block[1] * l->block[2];
        threads += t;
        ms += l->ms;
        /* earlier launches of the kernel that was running ("name (launched at line N)") */
        size_t k = strlen(l->kernel);
        if (k && !strncmp(r->running, l->kernel, k) && r->running[k] == ' ') {
            same_threads += t;
            same_ms += l->ms;
        }
    }
    double rate = ms > 0 ? (double)threads / (ms / 1e3) : 0;
    double same_rate = same_ms > 0 ? (double)same_threads / (same_ms / 1e3) : 0;
    if (n > 0 && rate > 0)
        out_printf(ngettext("  how far: %d launch had finished, %.3g threads at %.3g threads simulated per second\n",
                            "  how far: %d launches had finished, %.3g threads at %.3g threads simulated per second\n",
                            (unsigned long)n),
                   n, (double)threads, rate);
    else
        out_printf(_("  how far: no launch had finished\n"));
    int hang = 0;
    if (r->running[0]) {
        double ran = limit - r->running_since;
        out_printf(_("  kernel %s was running, for %.1f s, with %llu threads"), r->running, ran > 0 ? ran : 0,
                   r->running_threads);
        if (rate > 0 && r->running_threads) {
            double need = (double)r->running_threads / rate;
            out_printf(_(", which at that rate take about %.3g s"), need);
            /* Other kernels' threads may do far less work each (an init
             * kernel before a loop-heavy one): the kernel's own earlier
             * launches are the measure where there are some; without them
             * only a wide margin says it waits rather than works. */
            if (same_rate > 0) hang = ran > 10 * ((double)r->running_threads / same_rate) && ran > 1;
            else hang = ran > 1000 * need && ran > 1;
        }
        out_printf("\n");
    }
    if (hang)
        out_printf(_("  what to do: it ran far longer than its size explains, so it probably waits for something "
                     "that never happens (a barrier some threads skip, a flag no thread sets, a value the host "
                     "writes after the launch: on the simulator a launch ends before the host goes on, as with "
                     "CUDA_LAUNCH_BLOCKING=1) or loops forever; a longer limit will not help\n"));
    else
        out_printf(_("  what to do: a kernel that is only big needs a smaller size (through the program's "
                     "arguments: run ARGS, or set args) or a longer limit (set time-limit 600); one that waits "
                     "for something that never happens, or loops forever, stops at any limit\n"));
}

/* The time limit's or Ctrl-C's end of a run: 1 when it was one of them. */
static int print_stopped(struct session *s, const prog_result *r, enum prog_mode b)
{
    if (r->timed_out) {
        print_time_limit(r, program_time_limit(s, b));
        return 1;
    }
    if (r->interrupted) {
        if (r->running[0]) out_printf(_("stopped by Ctrl-C while kernel %s was running\n"), r->running);
        else out_printf(_("stopped by Ctrl-C\n"));
        return 1;
    }
    return 0;
}

void program_print_stopped(struct session *s, const prog_result *r) { print_stopped(s, r, PROG_SIM); }

/* What happened, in the student's terms. */
static void print_end(struct session *s, const prog_result *r, enum prog_mode b)
{
    const int stopped = print_stopped(s, r, b);
    if (stopped) {
        /* said */
    } else if (r->signal) {
        out_printf("%s%s%s", out_color(OUT_ERROR), r->msg, out_color(OUT_RESET));
        if (r->running[0] && !strstr(r->msg, "in kernel")) out_printf(_(" (kernel %s was running)"), r->running);
        if (r->out_of_memory) out_printf(_("; it ran out of memory (the limit is 3/4 of this machine's)"));
        out_printf("\n");
    } else {
        out_printf(_("exit status %d"), r->exit_code);
    }
    if (!r->timed_out && !r->interrupted && !r->signal) {
        int n = 0;
        for (int i = 0; i < r->nlaunches; i++) n += r->launches[i].count;
        if (b == PROG_GPU)
            out_printf(ngettext(" · %.2f s · %d launch on the GPU", " · %.2f s · %d launches on the GPU", (unsigned long)n),
                       r->seconds, n);
        else
            out_printf(ngettext(" · %.2f s · %d launch on the simulator", " · %.2f s · %d launches on the simulator",
                                (unsigned long)n),
                       r->seconds, n);
        if (r->cached) out_printf(_(" · cached build\n"));
        else out_printf(_(" · built in %.1f s\n"), r->build_seconds);
    }
    print_launches(r, b);
    if (r->used_events && b == PROG_SIM)
        out_printf(_("note: cudaEventElapsedTime measured simulator time on this CPU, not GPU time\n"));
}

static json_t *result_json(const struct session *s, const prog_result *r, enum prog_mode b)
{
    json_t *o = json_object();
    json_object_set_new(o, "program", json_string(s->prog->shown));
    json_object_set_new(o, "backend", json_string(b == PROG_GPU ? "gpu" : "sim"));
    json_object_set_new(o, "exit", json_integer(r->exit_code));
    json_object_set_new(o, "signal", json_integer(r->signal));
    json_object_set_new(o, "timed_out", json_boolean(r->timed_out));
    json_object_set_new(o, "seconds", json_real(r->seconds));
    json_object_set_new(o, "cached", json_boolean(r->cached));
    json_object_set_new(o, "stdout", json_stringn(r->out ? r->out : "", r->out_len));
    json_object_set_new(o, "stderr", json_stringn(r->err ? r->err : "", r->err_len));
    if (r->fault[0]) json_object_set_new(o, "fault", json_string(r->fault));
    json_t *ls = json_array();
    for (int i = 0; i < r->nlaunches; i++) {
        const prog_launch *l = &r->launches[i];
        json_t *j = json_object();
        json_object_set_new(j, "kernel", json_string(l->kernel));
        json_object_set_new(j, "line", json_integer(l->line));
        json_object_set_new(j, "count", json_integer(l->count));
        json_object_set_new(j, "failed", json_integer(l->failed));
        json_object_set_new(j, "grid", json_pack("[iii]", l->grid[0], l->grid[1], l->grid[2]));
        json_object_set_new(j, "block", json_pack("[iii]", l->block[0], l->block[1], l->block[2]));
        json_object_set_new(j, "smem", json_integer((json_int_t)l->smem));
        json_object_set_new(j, "ms", json_real(l->ms));
        json_array_append_new(ls, j);
    }
    json_object_set_new(o, "launches", ls);
    return o;
}

/* The backend a run uses: set backend, else the GPU when there is one. */
static int choose_backend(struct session *s, enum prog_mode *b)
{
    char why[512];
    if (s->cfg.backend == LAB_BACKEND_SIM) { *b = PROG_SIM; return 0; }
    int gpu = prog_gpu_available(why, sizeof why);
    if (s->cfg.backend == LAB_BACKEND_GPU && !gpu) {
        sess_error(s, -1, _("backend is gpu but %s; set backend sim (or auto) runs it on the simulator"), why);
        return -1;
    }
    *b = gpu ? PROG_GPU : PROG_SIM;
    return 0;
}

static enum cmd_status finish(struct session *s, prog_result *r, enum prog_mode b)
{
    enum cmd_status st = CMD_OK;
    s->prog->last_backend = b;
    if (s->prog->have_last) prog_result_free(&s->prog->last);
    s->prog->last = *r;
    s->prog->have_last = 1;
    if (!r->ran || r->timed_out || r->interrupted || r->signal) st = CMD_ERROR;
    if (st == CMD_ERROR) s->errors++;
    return st;
}

static int outputs_differ(const char *a, size_t an, const char *b, size_t bn, int *line, int *timing);
static void show_line(const char *label, const char *t, size_t n, int line);

static int line_has(const char *l, size_t n, const char *word)
{
    size_t w = strlen(word);
    for (size_t k = 0; k + w <= n; k++)
        if (memcmp(l + k, word, w) == 0) return 1;
    return 0;
}

/* The seed of a run's k-th extra schedule: drawn from the base seed. */
unsigned long long program_schedule_seed_at(unsigned long long base, int k)
{
    unsigned long long x = base + 0x9e3779b97f4a7c15ull * (unsigned long long)k;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return (x ^ (x >> 31)) & 0xffffffffffffull;
}

/* How many of a run's further schedules go at once: one for each worker
 * `set sim-threads` allows (a schedule's launches run on one worker, the
 * race check being on), no more than the cores; in namespaces only (each run
 * has its own /tmp and working folder there: without them runs at once would
 * share files); and as many as the memory holds, counted from the first
 * run's largest size (times 14 when its race check was off: the check's
 * shadow is 12 bytes for each byte of device memory). */
int program_schedule_jobs(const struct session *s, int runs, long peak_kb, int race_checked)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    long j = s->sim_threads > 0 ? s->sim_threads : cores;
    if (j > cores) j = cores;
    if (j > runs) j = runs;
    if (j <= 1 || peak_kb <= 0 || prog_sandbox_state(NULL, 0) < 1) return 1;
    long long need = (long long)peak_kb * 1024 * (race_checked ? 1 : 14);
    while (j > 1 && need * j > mem_limit() / 2) j--;
    return (int)j;
}

struct schedules {
    struct session *s;
    const prog_result *first;
    const unsigned long long *seed; /* the runs' seeds: run i is schedule i + 2 */
    int keep_kind;
    int differ;
};

/* One schedule's run, seen in turn: compared with the first run's output
 * and exit, the difference reported. Nonzero: no further schedules. */
static int schedule_seen(void *ctx, int i, prog_result *rp, int rc)
{
    struct schedules *c = ctx;
    const prog_result *first = c->first;
    const prog_result r = *rp;
    int k = i + 1;
    unsigned long long seed = c->seed[i];
    out_progress_clear();
    /* one that could not start, or was stopped by Ctrl-C, says nothing */
    if (rc != 0 || r.interrupted) return 1;
    int line = 0, timing = 0;
    int d_out = outputs_differ(first->out, first->out_len, r.out, r.out_len, &line, &timing);
    int d_exit = first->exit_code != r.exit_code || first->signal != r.signal;
    if (d_out || d_exit) {
        c->differ = 1;
        out_printf(_("%syour result depends on the order threads run:%s schedule %d (random, seed 0x%llx) "),
                   out_color(OUT_WARN), out_color(OUT_RESET), k + 1, seed);
        if (d_out) {
            out_printf(_("prints line %d of the output differently:\n"), line);
            char label[64];
            snprintf(label, sizeof label, _("schedule %d"), k + 1);
            show_line(label, r.out ? r.out : "", r.out_len, line);
            show_line(c->keep_kind == PROG_SCHED_FIXED ? _("fixed") : prog_schedule_name(c->keep_kind),
                      first->out ? first->out : "", first->out_len, line);
        } else {
            out_printf(_("ends with exit status %d, the first run with %d\n"), r.exit_code, first->exit_code);
        }
        /* the accesses that make the difference: that run's races */
        int shown = 0;
        for (size_t q = 0; r.err && q < r.err_len && shown < 6;) {
            size_t e = q;
            while (e < r.err_len && r.err[e] != '\n') e++;
            if (line_has(r.err + q, e - q, "data race on") || line_has(r.err + q, e - q, "before any thread") ||
                line_has(r.err + q, e - q, "depend on their order at")) {
                char *vis = out_escape(r.err + q, e - q, NULL);
                out_printf("  %s\n", vis ? vis : "");
                free(vis);
                shown++;
            }
            q = e + 1;
        }
        if (!shown)
            out_printf(_("  the race check found no race in that run: look for reads of memory nothing wrote "
                         "(set check initcheck) or float sums whose order changed\n"));
        out_printf(_("  set schedule random,0x%llx runs that order again\n"), seed);
    }
    return c->differ || lab_interrupted;
}

/* set schedules N: the program runs again under N-1 random orders of its
 * threads and blocks, with the race check on, and each output is compared
 * with the first run's, in the order of the schedules (the first that
 * differs is the one reported); where cores allow, several run at once
 * (schedule_jobs). 1: an order gave another output (reported). */
static int run_schedules(struct session *s, int argc, char **argv, const prog_result *first)
{
    int n = s->schedules;
    unsigned long long base = s->schedule_seed ? s->schedule_seed : 0x5eedull;
    int keep_kind = s->schedule, keep_race = s->cfg.race_check;
    unsigned long long keep_seed = s->schedule_seed;
    prog_options *o = calloc((size_t)n - 1, sizeof *o);
    unsigned long long *seed = calloc((size_t)n - 1, sizeof *seed);
    if (!o || !seed) {
        free(o);
        free(seed);
        sess_error(s, -1, "%s", strerror(ENOMEM));
        return 0;
    }
    for (int k = 1; k < n; k++) {
        prog_options *ok = &o[k - 1];
        seed[k - 1] = program_schedule_seed_at(base, k);
        s->schedule = PROG_SCHED_RANDOM;
        s->schedule_seed = seed[k - 1];
        s->cfg.race_check = 1;
        program_run_options(s, PROG_SIM, ok);
        s->schedule = keep_kind;
        s->schedule_seed = keep_seed;
        s->cfg.race_check = keep_race;
        ok->argc = argc;
        ok->argv = argv;
        if (argc == 0) {
            /* set args: the arguments of every run that names none */
            while (s->prog_args[ok->argc]) ok->argc++;
            ok->argv = s->prog_args;
        }
        ok->defines = (const char *const *)s->prog_defines;
        ok->ctx = s;
    }
    struct schedules c = {s, first, seed, keep_kind, 0};
    if (!lab_interrupted) {
        if (s->interactive && !s->json)
            out_progress(_("  building %s for the simulator..."), s->prog->shown);
        program_sandbox_note(s);
        prog_run_each(s->prog, o, n - 1, program_schedule_jobs(s, n - 1, first->peak_kb, s->cfg.race_check),
                      schedule_seen, &c);
        out_progress_clear();
    }
    free(o);
    free(seed);
    if (!c.differ && !lab_interrupted)
        out_printf(_("the same output under %d schedules (the first run, then random orders drawn from seed 0x%llx)\n"),
                   n, base);
    return c.differ;
}

enum cmd_status program_run(struct session *s, int argc, char **argv)
{
    enum prog_mode b;
    if (choose_backend(s, &b) != 0) return CMD_ERROR;
    prog_result r;
    int rc = run_on(s, b, argc - 1, argv + 1, 1, &r);
    if (rc != 0) {
        /* refusals and compile errors, with the file's own lines */
        out_printf("%s", r.msg);
        if (r.msg[0] && r.msg[strlen(r.msg) - 1] != '\n') out_printf("\n");
        prog_result_free(&r);
        return sess_error(s, -1, _("%s was not run"), s->prog->shown);
    }
    if (s->json) out_json(result_json(s, &r, b));
    else print_end(s, &r, b);
    if (b == PROG_SIM && s->schedule != PROG_SCHED_FIXED && !s->json)
        out_printf(_("schedule %s, seed 0x%llx (set schedule %s,0x%llx repeats this run)\n"),
                   prog_schedule_name(s->schedule), s->schedule_seed, prog_schedule_name(s->schedule),
                   s->schedule_seed);
    enum cmd_status st = finish(s, &r, b);
    if (b == PROG_SIM && s->schedules > 1 && !s->json && st == CMD_OK &&
        run_schedules(s, argc - 1, argv + 1, &s->prog->last)) {
        s->errors++;
        st = CMD_ERROR;
    }
    return st;
}

/* Lines that print a time differ from run to run and between backends. */
static int is_timing_line(const char *l, size_t n)
{
    static const char *const words[] = {"ms", "time", "Time", "TIME", "sec", "elapsed", "GB/s", "us ", "час", "мс",
                                        NULL};
    for (int i = 0; words[i]; i++) {
        size_t wl = strlen(words[i]);
        for (size_t k = 0; k + wl <= n; k++)
            if (memcmp(l + k, words[i], wl) == 0) return 1;
    }
    return 0;
}

/* Compare two outputs line by line; 0 when they agree (timing lines aside).
 * first: the first differing line (1-based) in *line. */
static int outputs_differ(const char *a, size_t an, const char *b, size_t bn, int *line, int *timing)
{
    size_t i = 0, j = 0;
    int ln = 0;
    *timing = 0;
    while (i < an || j < bn) {
        ln++;
        size_t ie = i, je = j;
        while (ie < an && a[ie] != '\n') ie++;
        while (je < bn && b[je] != '\n') je++;
        int same = ie - i == je - j && memcmp(a + i, b + j, ie - i) == 0;
        if (!same) {
            if (i < an && j < bn && is_timing_line(a + i, ie - i) && is_timing_line(b + j, je - j)) {
                (*timing)++;
            } else {
                *line = ln;
                return 1;
            }
        }
        i = ie < an ? ie + 1 : an;
        j = je < bn ? je + 1 : bn;
    }
    return 0;
}

static void show_line(const char *label, const char *t, size_t n, int line)
{
    size_t i = 0;
    for (int k = 1; k < line && i < n; k++) {
        while (i < n && t[i] != '\n') i++;
        if (i < n) i++;
    }
    size_t e = i;
    while (e < n && t[e] != '\n') e++;
    if (i >= n) out_printf(_("  %s (no line %d: the output ends before it)\n"), out_pad(label, 10), line);
    else {
        char *vis = out_escape(t + i, e - i > 200 ? 200 : e - i, NULL);
        out_printf("  %s %s\n", out_pad(label, 10), vis ? vis : "");
        free(vis);
    }
}

enum cmd_status program_compare(struct session *s, int argc, char **argv)
{
    char why[512];
    if (!prog_gpu_available(why, sizeof why)) {
        out_printf(_("compare runs the program on the GPU and on the simulator, and this machine has %s.\n"
                     "Running it on the simulator only:\n"),
                   why);
        prog_result r;
        if (run_on(s, PROG_SIM, argc - 1, argv + 1, 1, &r) != 0) {
            out_printf("%s", r.msg);
            prog_result_free(&r);
            return sess_error(s, -1, _("%s was not run"), s->prog->shown);
        }
        print_end(s, &r, PROG_SIM);
        return finish(s, &r, PROG_SIM);
    }
    prog_result g, m;
    if (run_on(s, PROG_GPU, argc - 1, argv + 1, 0, &g) != 0) {
        out_printf("%s", g.msg);
        prog_result_free(&g);
        return sess_error(s, -1, _("%s did not build for the GPU"), s->prog->shown);
    }
    if (run_on(s, PROG_SIM, argc - 1, argv + 1, 0, &m) != 0) {
        out_printf("%s", m.msg);
        prog_result_free(&g);
        prog_result_free(&m);
        return sess_error(s, -1, _("%s did not build for the simulator"), s->prog->shown);
    }
    int line = 0, timing = 0;
    int d_out = outputs_differ(g.out, g.out_len, m.out, m.out_len, &line, &timing);
    int d_exit = g.exit_code != m.exit_code || g.signal != m.signal;
    if (s->json) {
        json_t *o = json_object();
        json_object_set_new(o, "gpu", result_json(s, &g, PROG_GPU));
        json_object_set_new(o, "sim", result_json(s, &m, PROG_SIM));
        json_object_set_new(o, "agree", json_boolean(!d_out && !d_exit));
        out_json(o);
    } else {
        out_printf(_("GPU:       exit status %d, %zu bytes of output, %.2f s\n"), g.exit_code, g.out_len, g.seconds);
        out_printf(_("simulator: exit status %d, %zu bytes of output, %.2f s\n"), m.exit_code, m.out_len, m.seconds);
        if (!d_out && !d_exit) {
            out_printf(_("%sthe outputs agree%s"), out_color(OUT_GOOD), out_color(OUT_RESET));
            if (timing)
                out_printf(ngettext(" (but for %d line that prints times)", " (but for %d lines that print times)",
                                    (unsigned long)timing),
                           timing);
            out_printf("\n");
        } else {
            out_printf(_("%sthe outputs differ%s"), out_color(OUT_WARN), out_color(OUT_RESET));
            if (d_out) {
                out_printf(_(" from line %d:\n"), line);
                show_line(_("GPU"), g.out ? g.out : "", g.out_len, line);
                show_line(_("simulator"), m.out ? m.out : "", m.out_len, line);
            } else {
                out_printf(_(": the exit statuses differ\n"));
            }
            out_printf(_("A correct program prints the same on both (but for times, and float sums whose order\n"
                         "depends on scheduling, such as atomicAdd on floats). Usually the difference is a race\n"
                         "(threads that read what others write without a barrier between) or a read of memory\n"
                         "nothing wrote: set race-check on and run it on the simulator to find the lines.\n"));
        }
        print_launches(&m, PROG_SIM);
    }
    prog_result_free(&g);
    return finish(s, &m, PROG_SIM);
}

enum cmd_status program_show(struct session *s, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    prog *p = s->prog;
    if (s->json) {
        json_t *o = json_object();
        json_object_set_new(o, "program", json_string(p->shown));
        json_object_set_new(o, "path", json_string(p->path));
        json_t *ks = json_array();
        for (int i = 0; i < p->nkernels; i++)
            json_array_append_new(ks, json_pack("{s:s,s:i}", "kernel", p->kernels[i].name, "line", p->kernels[i].line));
        json_object_set_new(o, "kernels", ks);
        if (p->have_last) json_object_set_new(o, "last_run", result_json(s, &p->last, p->last_backend));
        out_json(o);
        return CMD_OK;
    }
    if (strcmp(p->shown, p->path) == 0) /* the path once: shown is the path as it was typed */
        out_printf("%s%s%s\n", out_color(OUT_BOLD), p->shown, out_color(OUT_RESET));
    else
        out_printf("%s%s%s  (%s)\n", out_color(OUT_BOLD), p->shown, out_color(OUT_RESET), p->path);
    for (int i = 0; s->prog_defines[i]; i++) out_printf("  %s\n", s->prog_defines[i]);
    out_printf(_("kernels:\n"));
    for (int i = 0; i < p->nkernels; i++)
        out_printf(_("  %-24s line %d\n"), p->kernels[i].name, p->kernels[i].line); /* kernel names are ASCII */
    if (p->nissues) {
        out_printf(_("cannot run on the simulator:\n"));
        print_issues(p);
    }
    if (!p->have_last) {
        out_printf(_("not run yet: run shows the launch shapes as they ran\n"));
        return CMD_OK;
    }
    out_printf(p->last_backend == PROG_GPU ? _("launches of the last run (on the GPU):\n")
                                           : _("launches of the last run (on the simulator):\n"));
    if (p->last.nlaunches == 0) out_printf(_("  none\n"));
    print_launches(&p->last, p->last_backend);
    char tl[32];
    if (s->time_limit > 0) snprintf(tl, sizeof tl, "%g s", s->time_limit);
    else snprintf(tl, sizeof tl, "%s", _("none"));
    out_printf(_("time limit on the simulator %s · race-check %s · model %s\n"), tl, s->cfg.race_check ? "on" : "off",
               s->cfg.model[0] ? s->cfg.model : "h200");
    return CMD_OK;
}

const struct cmd cmd_program_group[] = {
    {
        .name = "open",
        .usage = N_("open FILE.cu|FILES...|FOLDER|CMakeLists.txt|Makefile [-IFOLDER] [-DNAME=VALUE] [-std=c++NN] [-ON] [-fmad=false]"),
        .help = N_("make your own CUDA program the thing run, compare and show act on"),
        .long_help =
            N_("The file is plain CUDA C++ with its own main, as nvcc takes it, with its\n"
               "headers beside it or in -I folders (\"...\" or <...>). A program of several\n"
               "files is opened by naming them all, their folder, or the CMakeLists.txt or\n"
               "Makefile that lists them (its files, include folders and definitions; none\n"
               "of it is run). run compiles it (once per content of every file it reads:\n"
               "the build is cached) and runs it as a separate process, on the GPU when\n"
               "there is one, else on gpulab's simulator (set backend chooses). On the\n"
               "simulator the kernels get its diagnostics: divergent barriers, out-of-bounds\n"
               "and freed memory, and with race-check on, shared-memory races; every message\n"
               "names the file's own lines. What cannot run on the simulator (inline PTX,\n"
               "the driver API, IPC and peer-to-peer memory) is listed with its line when\n"
               "the file is opened. -I, -D, -U, -std=, -O and -fmad=false go to the\n"
               "compiler and stay with the program; run ARGS passes arguments to its\n"
               "main (set args keeps them). use ALGO goes back to the built-in\n"
               "algorithms. See docs/programs.md.\n"),
        .run = do_open, .args = CMD_ARGS(1, 64),
        .complete = CMP_FILE,
    },
    {
        .name = "edit",
        .usage = "edit",
        .help = N_("edit the open program (or the current puzzle) in $VISUAL or $EDITOR"),
        .run = do_edit, .args = CMD_ARGS(0, 0),
    },
    {0},
};
