/* cmd_grade.c - grade DIR: every student's folder in DIR checked, in
 * parallel on this machine's cores, with a CSV and a JUnit XML report.
 *
 * A folder is either a copy of the puzzles (files NN-name.cu, directly or in
 * puzzles/): each is a `check` of its puzzle; or a program with its stated
 * expected output (one .cu file and expected.txt): it is run on the
 * simulator and its standard output compared with the file. Each task is
 * gpulab itself (this binary, --json, backend sim) in a child process with
 * a private cache folder, so every build and run goes through the program
 * runner and its sandbox as `check` and `run` do, and a task that hangs
 * past its wall limit is killed with its whole process group.
 * docs/puzzles.md describes the reports. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "repl/cmd.h"
#include "repl/cmd_program.h"
#include "repl/i18n.h"
#include "repl/out.h"
#include "repl/safefile.h"
#include "repl/session.h"
#include "repl/lessons/puzzle.h"
#include "repl/lessons/puzzle_def.h"
#include "repl/lessons/cmd_grade.h"

#define GRADE_MAX_TASKS 4096
#define GRADE_WALL_S 180.0 /* a task's wall limit: builds and all its runs */
#define GRADE_OUT_MAX (1 << 20)
/* A program's further runs under random schedules of its threads and blocks,
 * after the fixed order (as `check` tries for a puzzle) */
#define GRADE_SCHEDULES 3

struct task {
    char student[256];
    char what[64];      /* "06-blocks" or "program" */
    char file[PATH_MAX];
    char expected[PATH_MAX]; /* a program's expected output; "" for a puzzle */
    int number;         /* the puzzle's, 0 for a program */
    /* the result */
    const char *status; /* "pass", "fail", "error" */
    char rule[32];
    char detail[512];
    double seconds;
};

struct grade {
    struct task *t;
    int n;
    char tmp[PATH_MAX];
    char seed[48], limit[48]; /* the session's settings, which every task gets */
    unsigned seedv;           /* the session's seed: the schedules' seeds are drawn from it */
    const struct puzzle *own; /* a puzzle of one's own (--puzzle DIR): its tasks check DIR */
    char refs[PATH_MAX];      /* folder puzzles' reference outputs every task's cache starts with; "" none */
};

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted names in dir that keep(name) accepts; NULL-terminated, malloc'd. */
static char **list_dir(const char *dir, int (*keep)(const char *dir, const char *name), int *n)
{
    *n = 0;
    DIR *d = opendir(dir);
    if (!d) return NULL;
    char **v = NULL;
    int cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || !keep(dir, e->d_name)) continue;
        if (*n + 1 >= cap) {
            cap = cap ? cap * 2 : 16;
            char **nv = realloc(v, (size_t)cap * sizeof *v);
            if (!nv) break;
            v = nv;
        }
        v[(*n)++] = strdup(e->d_name);
    }
    closedir(d);
    if (v) {
        v[*n] = NULL;
        qsort(v, (size_t)*n, sizeof *v, cmp_names);
    }
    return v;
}

static void free_list(char **v, int n)
{
    for (int i = 0; i < n; i++) free(v[i]);
    free(v);
}

static int is_folder(const char *dir, const char *name)
{
    char p[PATH_MAX];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return lstat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A regular file (never a link: a submission cannot point outside itself). */
static int is_cu(const char *dir, const char *name)
{
    char p[PATH_MAX];
    struct stat st;
    size_t l = strlen(name);
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return l > 3 && strcmp(name + l - 3, ".cu") == 0 && lstat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int add_task(struct grade *g, const char *student, const char *what, const char *file, const char *expected,
                    int number)
{
    if (g->n >= GRADE_MAX_TASKS) return -1;
    struct task *t = &g->t[g->n++];
    memset(t, 0, sizeof *t);
    snprintf(t->student, sizeof t->student, "%s", student);
    snprintf(t->what, sizeof t->what, "%s", what);
    snprintf(t->file, sizeof t->file, "%s", file);
    snprintf(t->expected, sizeof t->expected, "%s", expected ? expected : "");
    t->number = number;
    return 0;
}

/* One student's tasks: its program, or its puzzle files. */
static void student_tasks(struct grade *g, const char *dir, const char *student)
{
    char sd[PATH_MAX], exp[PATH_MAX];
    snprintf(sd, sizeof sd, "%s/%s", dir, student);
    snprintf(exp, sizeof exp, "%s/expected.txt", sd);
    struct stat st;
    int n;
    if (lstat(exp, &st) == 0 && S_ISREG(st.st_mode)) {
        char **cu = list_dir(sd, is_cu, &n);
        char f[PATH_MAX];
        if (n == 1) {
            snprintf(f, sizeof f, "%s/%s", sd, cu[0]);
            add_task(g, student, "program", f, exp, 0);
        } else {
            add_task(g, student, "program", "", exp, 0);
            struct task *t = &g->t[g->n - 1];
            t->status = "error";
            snprintf(t->rule, sizeof t->rule, "files");
            snprintf(t->detail, sizeof t->detail, "a program folder holds exactly one .cu file beside expected.txt; "
                                                  "this one holds %d", n);
        }
        free_list(cu, n);
        return;
    }
    char pd[PATH_MAX];
    snprintf(pd, sizeof pd, "%s/puzzles", sd);
    const char *from = is_folder(sd, "puzzles") ? pd : sd;
    char **cu = list_dir(from, is_cu, &n);
    int found = 0;
    for (int i = 0; i < n; i++) {
        const struct puzzle *p = puzzle_find(cu[i]);
        if (!p) continue;
        char f[PATH_MAX], stem[64];
        snprintf(f, sizeof f, "%s/%s", from, cu[i]);
        puzzle_stem(p, stem, sizeof stem);
        add_task(g, student, stem, f, NULL, p->number);
        found++;
    }
    free_list(cu, n);
    if (!found) {
        add_task(g, student, "-", "", NULL, 0);
        struct task *t = &g->t[g->n - 1];
        t->status = "error";
        snprintf(t->rule, sizeof t->rule, "files");
        snprintf(t->detail, sizeof t->detail, "no puzzle file (NN-name.cu) and no program with expected.txt");
    }
}

/* ------------------------------------------------------------- running */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

struct running {
    pid_t pid;
    int task;
    double start;
    char out[PATH_MAX];
};

/* The reference outputs in from (files reference-HASH.out) into the cache
 * folder cache, where `check` looks for them (prog_cache_dir "puzzles"). */
static void copy_refs(const char *from, const char *cache)
{
    char dir[PATH_MAX + 32];
    snprintf(dir, sizeof dir, "%s/gpulab", cache);
    mkdir(dir, 0700);
    snprintf(dir, sizeof dir, "%s/gpulab/puzzles", cache);
    mkdir(dir, 0700);
    DIR *d = opendir(from);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (strncmp(e->d_name, "reference-", 10) != 0) continue;
        char src[PATH_MAX * 2], dst[PATH_MAX * 2], err[256];
        size_t len;
        snprintf(src, sizeof src, "%s/%s", from, e->d_name);
        snprintf(dst, sizeof dst, "%s/%s", dir, e->d_name);
        char *data = safefile_read(src, GRADE_OUT_MAX, &len, err, sizeof err);
        int fd = data ? open(dst, O_WRONLY | O_CREAT | O_EXCL, 0600) : -1;
        if (fd >= 0) {
            if (write(fd, data, len) != (ssize_t)len) unlink(dst);
            close(fd);
        }
        free(data);
    }
    if (d) closedir(d);
}

/* The seed of a program's k-th schedule (1..GRADE_SCHEDULES), drawn from the
 * session's seed as `check` draws a puzzle's. */
static unsigned long long grade_schedule_seed(unsigned seed, int k)
{
    unsigned long long x = ((unsigned long long)seed << 8 | (unsigned)k) * 0x9e3779b97f4a7c15ull;
    return (x ^ (x >> 29)) & 0xffffffffffffull;
}

static pid_t start_task(const struct grade *g, int i, const char *self, struct running *r)
{
    const struct task *t = &g->t[i];
    char cache[PATH_MAX], c1[PATH_MAX + 64];
    snprintf(cache, sizeof cache, "%s/cache-%d", g->tmp, i);
    snprintf(r->out, sizeof r->out, "%s/out-%d", g->tmp, i);
    if (mkdir(cache, 0700) != 0) return -1;
    if (g->refs[0]) copy_refs(g->refs, cache);
    if (g->own && t->number == g->own->number)
        snprintf(c1, sizeof c1, "check %s %s", g->own->def->dir, t->file);
    else if (t->number)
        snprintf(c1, sizeof c1, "check %d %s", t->number, t->file);
    else
        snprintf(c1, sizeof c1, "open %s", t->file);
    pid_t pid = fork();
    if (pid != 0) return pid;
    /* the child: its own process group, so a kill takes what it started */
    setpgid(0, 0);
    int fd = open(r->out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int nul = open("/dev/null", O_RDWR);
    if (fd < 0 || nul < 0) _exit(126);
    dup2(nul, 0);
    dup2(fd, 1);
    dup2(fd, 2);
    setenv("XDG_CACHE_HOME", cache, 1);
    setenv("XDG_STATE_HOME", cache, 1);
    setenv("NO_COLOR", "1", 1);
    char *argv[16 + 4 * GRADE_SCHEDULES];
    char sched[GRADE_SCHEDULES][64];
    int a = 0;
    argv[a++] = (char *)"gpulab";
    argv[a++] = (char *)"--json";
    argv[a++] = (char *)"-c";
    argv[a++] = (char *)"set backend sim";
    argv[a++] = (char *)"-c";
    argv[a++] = (char *)g->seed;
    argv[a++] = (char *)"-c";
    argv[a++] = (char *)g->limit;
    argv[a++] = (char *)"-c";
    argv[a++] = c1;
    if (!t->number) {
        argv[a++] = (char *)"-c";
        argv[a++] = (char *)"run";
        /* then the same program under random orders: its output must not
         * depend on the order its threads run in */
        for (int k = 1; k <= GRADE_SCHEDULES; k++) {
            snprintf(sched[k - 1], sizeof sched[k - 1], "set schedule random,0x%llx", grade_schedule_seed(g->seedv, k));
            argv[a++] = (char *)"-c";
            argv[a++] = sched[k - 1];
            argv[a++] = (char *)"-c";
            argv[a++] = (char *)"run";
        }
    }
    argv[a] = NULL;
    execv(self, argv);
    _exit(127);
}

/* The first line of text (for a detail), squeezed into buf. */
static void first_line(const char *text, char *buf, size_t len)
{
    size_t o = 0;
    for (const char *p = text; *p && *p != '\n' && o + 1 < len; p++) buf[o++] = *p == '\t' ? ' ' : *p;
    buf[o] = 0;
}

/* A limit from --json: the number, or "none". */
static const char *limit_text(const json_t *v, char *buf, size_t len)
{
    if (json_is_integer(v)) snprintf(buf, len, "%lld", (long long)json_integer_value(v));
    else snprintf(buf, len, "none");
    return buf;
}

/* A check's JSON rows: pass when every case passed; else the first failing
 * case's rule and what it found. */
static void read_check(struct task *t, const char *text, int status)
{
    int rows = 0, failed = 0;
    char l1[24], l2[24], l3[24], l4[24];
    const char *p = text;
    const char *plain = NULL; /* the first line that is not JSON: an error's message */
    /* the simulator's first diagnostic, which the verdict of a stopped run refers to */
    const char *diag = NULL;
    size_t diag_len = 0;
    for (const char *q = text; *q;) {
        const char *e = strchr(q, '\n');
        size_t n = e ? (size_t)(e - q) : strlen(q);
        if (!diag && n > 11 && strncmp(q, "simulator: ", 11) == 0) {
            diag = q + 11;
            diag_len = n - 11;
        }
        q = e ? e + 1 : q + n;
    }
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        json_t *j = *p == '{' ? json_loadb(p, n, 0, NULL) : NULL;
        if (j && json_object_get(j, "pass")) {
            rows++;
            if (!json_is_true(json_object_get(j, "pass")) && !failed++) {
                const char *rule = json_string_value(json_object_get(j, "rule"));
                snprintf(t->rule, sizeof t->rule, "%s", rule ? rule : "");
                const char *why = json_string_value(json_object_get(j, "why"));
                json_t *first = json_object_get(j, "first"), *lim = json_object_get(j, "limits");
                long long cs = (long long)json_integer_value(json_object_get(j, "case"));
                if (rule && strcmp(rule, "schedule") == 0) /* right in the fixed order, not in another */
                    snprintf(t->detail, sizeof t->detail, "schedule %lld (random, seed 0x%llx): %s",
                             (long long)json_integer_value(json_object_get(j, "schedule")),
                             (unsigned long long)json_integer_value(json_object_get(j, "schedule_seed")),
                             why ? why : "");
                else if (why && diag)
                    snprintf(t->detail, sizeof t->detail, "case %lld: %.*s", cs, (int)diag_len, diag);
                else if (why)
                    snprintf(t->detail, sizeof t->detail, "case %lld: %s", cs, why);
                else if (json_is_integer(first) && json_is_null(json_object_get(j, "got")))
                    snprintf(t->detail, sizeof t->detail, "case %lld: element %lld: expected %g, got nothing (never written)",
                             cs, (long long)json_integer_value(first), json_number_value(json_object_get(j, "expected")));
                else if (json_is_integer(first) && json_is_string(json_object_get(j, "got"))) /* nan, inf */
                    snprintf(t->detail, sizeof t->detail, "case %lld: element %lld: expected %g, got %s", cs,
                             (long long)json_integer_value(first), json_number_value(json_object_get(j, "expected")),
                             json_string_value(json_object_get(j, "got")));
                else if (json_is_integer(first))
                    snprintf(t->detail, sizeof t->detail, "case %lld: element %lld: expected %g, got %g", cs,
                             (long long)json_integer_value(first), json_number_value(json_object_get(j, "expected")),
                             json_number_value(json_object_get(j, "got")));
                else if (json_integer_value(json_object_get(j, "outside")))
                    snprintf(t->detail, sizeof t->detail, "case %lld: element %lld written, outside the output", cs,
                             (long long)json_integer_value(json_object_get(j, "first_outside")));
                else if (json_is_object(lim) && json_object_get(lim, "global_writes_max")) /* a folder puzzle */
                    snprintf(t->detail, sizeof t->detail,
                             "case %lld: global reads of a thread %lld (limit %s), writes %lld (limit %s), shared bytes "
                             "%lld (limit %s), barriers %lld (limit %s)%s",
                             cs, (long long)json_integer_value(json_object_get(lim, "global_reads_max")),
                             limit_text(json_object_get(lim, "global_reads_limit"), l1, sizeof l1),
                             (long long)json_integer_value(json_object_get(lim, "global_writes_max")),
                             limit_text(json_object_get(lim, "global_writes_limit"), l2, sizeof l2),
                             (long long)json_integer_value(json_object_get(lim, "shared_bytes")),
                             limit_text(json_object_get(lim, "shared_bytes_limit"), l3, sizeof l3),
                             (long long)json_integer_value(json_object_get(lim, "barriers_max")),
                             limit_text(json_object_get(lim, "barriers_limit"), l4, sizeof l4),
                             json_integer_value(json_object_get(lim, "without_shared")) ? ", threads writing out without shared memory" : "");
                else if (json_is_object(lim))
                    snprintf(t->detail, sizeof t->detail,
                             "case %lld: global reads of a thread %lld (limit %lld), shared bytes %lld (limit %lld)%s", cs,
                             (long long)json_integer_value(json_object_get(lim, "global_reads_max")),
                             (long long)json_integer_value(json_object_get(lim, "global_reads_limit")),
                             (long long)json_integer_value(json_object_get(lim, "shared_bytes")),
                             (long long)json_integer_value(json_object_get(lim, "shared_bytes_limit")),
                             json_integer_value(json_object_get(lim, "without_shared")) ? ", threads writing out without shared memory" : "");
                else
                    snprintf(t->detail, sizeof t->detail, "case %lld: %s", cs,
                             json_string_value(json_object_get(j, "case_text")));
            }
        } else if (!j && n > 0 && (!plain || (!memmem(plain, strcspn(plain, "\n"), "error", 5) &&
                                                memmem(p, n, "error", 5)))) {
            plain = p; /* the first line, or better the first that names an error */
        }
        json_decref(j);
        p = e ? e + 1 : p + n;
    }
    if (rows && !failed && status == 0) {
        t->status = "pass";
    } else if (rows) {
        t->status = "fail";
    } else {
        /* no verdict: it did not compile, or its program gave no answers */
        t->status = "error";
        snprintf(t->rule, sizeof t->rule, "%s", strstr(text, "did not compile") ? "build" : "run");
        first_line(plain ? plain : "no verdict", t->detail, sizeof t->detail);
    }
}

/* One run of a program against the expected output: 0 when it passes, else
 * 1 with the rule it broke and what it did. */
static int judge_run(json_t *run, const char *want, size_t elen, char *rule, size_t rlen, char *detail, size_t dlen)
{
    json_t *so = json_object_get(run, "stdout");
    const char *got = json_string_value(so);
    size_t glen = json_string_length(so);
    json_t *ex = json_object_get(run, "exit");
    if (json_is_true(json_object_get(run, "timed_out"))) {
        snprintf(rule, rlen, "time");
        snprintf(detail, dlen, "it ran past the time limit");
    } else if (json_object_get(run, "signal") && json_integer_value(json_object_get(run, "signal"))) {
        snprintf(rule, rlen, "crash");
        snprintf(detail, dlen, "it was ended by signal %lld", (long long)json_integer_value(json_object_get(run, "signal")));
    } else if (glen != elen || memcmp(got, want, elen) != 0) {
        size_t i = 0;
        int line = 1;
        while (i < glen && i < elen && got[i] == want[i]) line += got[i++] == '\n';
        snprintf(rule, rlen, "output");
        snprintf(detail, dlen, "the output differs from expected.txt at line %d (byte %zu)", line, i);
    } else if (json_is_integer(ex) && json_integer_value(ex) != 0) {
        snprintf(rule, rlen, "exit");
        snprintf(detail, dlen, "exit status %lld", (long long)json_integer_value(ex));
    } else {
        return 0;
    }
    return 1;
}

/* A program's runs: the fixed order's stdout against the expected file,
 * then each schedule's (GRADE_SCHEDULES runs, in the order start_task asked
 * for them): right in the fixed order but not in another is rule schedule. */
static void read_program(const struct grade *g, struct task *t, const char *text)
{
    json_t *runs[1 + GRADE_SCHEDULES] = {0};
    int nruns = 0;
    const char *p = text, *plain = NULL;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        json_t *j = *p == '{' ? json_loadb(p, n, 0, NULL) : NULL;
        if (j && json_object_get(j, "stdout") && nruns < 1 + GRADE_SCHEDULES) runs[nruns++] = json_incref(j);
        else if (!j && !plain && n > 0) plain = p;
        json_decref(j);
        p = e ? e + 1 : p + n;
    }
    if (!nruns) {
        t->status = "error";
        snprintf(t->rule, sizeof t->rule, "build");
        first_line(plain ? plain : "no result", t->detail, sizeof t->detail);
        return;
    }
    size_t elen;
    char err[256];
    char *want = safefile_read(t->expected, GRADE_OUT_MAX, &elen, err, sizeof err);
    if (!want) {
        t->status = "error";
        snprintf(t->rule, sizeof t->rule, "files");
        snprintf(t->detail, sizeof t->detail, "%s", err);
    } else if (judge_run(runs[0], want, elen, t->rule, sizeof t->rule, t->detail, sizeof t->detail)) {
        t->status = "fail";
    } else {
        t->status = "pass";
        for (int k = 1; k < nruns; k++) {
            char rule[32], what[400];
            if (!judge_run(runs[k], want, elen, rule, sizeof rule, what, sizeof what)) continue;
            t->status = "fail";
            snprintf(t->rule, sizeof t->rule, "schedule");
            snprintf(t->detail, sizeof t->detail,
                     "right in the fixed order of the threads, but schedule %d (random, seed 0x%llx): %s", k + 1,
                     grade_schedule_seed(g->seedv, k), what);
            break;
        }
    }
    free(want);
    for (int k = 0; k < nruns; k++) json_decref(runs[k]);
}

static void finish_task(struct grade *g, struct running *r, int status, int killed)
{
    struct task *t = &g->t[r->task];
    t->seconds = now_s() - r->start;
    size_t len;
    char err[256];
    char *text = safefile_read(r->out, GRADE_OUT_MAX, &len, err, sizeof err);
    if (killed) {
        t->status = "fail";
        snprintf(t->rule, sizeof t->rule, "time");
        snprintf(t->detail, sizeof t->detail, "stopped after %.0f s (the wall limit of a task)", GRADE_WALL_S);
    } else if (t->number) {
        read_check(t, text ? text : "", status);
    } else {
        read_program(g, t, text ? text : "");
    }
    free(text);
    unlink(r->out);
}

/* Run every task not yet decided, jobs at a time. 0, or -1 with errno. */
static int run_all(struct grade *g, int jobs, int show)
{
    char self[PATH_MAX];
    ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
    if (sl <= 0) return -1;
    self[sl] = 0;
    struct running *run = calloc((size_t)jobs, sizeof *run);
    if (!run) return -1;
    int next = 0, active = 0, done = 0, total = 0;
    for (int i = 0; i < g->n; i++) total += g->t[i].status == NULL;
    while (next < g->n || active > 0) {
        while (active < jobs && next < g->n) {
            int i = next++;
            if (g->t[i].status) continue;
            int slot = 0;
            while (run[slot].pid) slot++;
            run[slot].task = i;
            run[slot].start = now_s();
            pid_t pid = start_task(g, i, self, &run[slot]);
            if (pid < 0) {
                g->t[i].status = "error";
                snprintf(g->t[i].rule, sizeof g->t[i].rule, "grade");
                snprintf(g->t[i].detail, sizeof g->t[i].detail, "could not start: %s", strerror(errno));
                continue;
            }
            run[slot].pid = pid;
            active++;
        }
        int st;
        pid_t pid = waitpid(-1, &st, WNOHANG);
        if (pid <= 0) {
            double t = now_s();
            for (int k = 0; k < jobs; k++)
                if (run[k].pid && t - run[k].start > GRADE_WALL_S) {
                    kill(-run[k].pid, SIGKILL);
                    kill(run[k].pid, SIGKILL);
                    waitpid(run[k].pid, &st, 0);
                    finish_task(g, &run[k], -1, 1);
                    run[k].pid = 0;
                    active--;
                    done++;
                }
            struct timespec ts = {0, 20 * 1000 * 1000};
            nanosleep(&ts, NULL);
            continue;
        }
        for (int k = 0; k < jobs; k++) {
            if (run[k].pid != pid) continue;
            kill(-pid, SIGKILL); /* anything it left behind */
            finish_task(g, &run[k], WIFEXITED(st) ? WEXITSTATUS(st) : -1, 0);
            run[k].pid = 0;
            active--;
            done++;
            if (show) out_progress(_("  graded %d of %d..."), done, total);
        }
    }
    out_progress_clear();
    free(run);
    return 0;
}


/* Folder puzzles take their expected outputs from their reference, run by
 * `check` and cached. Each task has a cache of its own, so without this
 * every task would build and run the reference again: run each puzzle's
 * reference once first (as a task, in the sandbox), and start every task's
 * cache with the outputs it left. */
static void share_references(struct grade *g, int jobs)
{
    struct grade pre = *g;
    pre.refs[0] = 0;
    pre.n = 0;
    pre.t = calloc(64, sizeof *pre.t);
    snprintf(pre.tmp, sizeof pre.tmp, "%s/pre", g->tmp);
    if (!pre.t || mkdir(pre.tmp, 0700) != 0) {
        free(pre.t);
        return;
    }
    for (int i = 0; i < g->n && pre.n < 64; i++) {
        const struct task *t = &g->t[i];
        if (!t->number || t->status) continue;
        const struct puzzle *p = g->own && g->own->number == t->number ? g->own : puzzle_find(t->what);
        if (!p || !p->def) continue;
        int seen = 0;
        for (int k = 0; k < pre.n; k++) seen |= pre.t[k].number == p->number;
        char f[PATH_MAX + 16];
        snprintf(f, sizeof f, "%s/reference.cu", p->def->dir);
        if (!seen) add_task(&pre, "-", t->what, f, NULL, p->number);
    }
    if (pre.n && run_all(&pre, jobs, 0) == 0) {
        snprintf(g->refs, sizeof g->refs, "%s/refs", g->tmp);
        mkdir(g->refs, 0700);
        for (int k = 0; k < pre.n; k++) {
            char from[PATH_MAX + 64];
            snprintf(from, sizeof from, "%s/cache-%d/gpulab/puzzles", pre.tmp, k);
            DIR *d = opendir(from);
            struct dirent *e;
            while (d && (e = readdir(d))) {
                if (strncmp(e->d_name, "reference-", 10) != 0) continue;
                char a[PATH_MAX * 2], b[PATH_MAX * 2];
                snprintf(a, sizeof a, "%s/%s", from, e->d_name);
                snprintf(b, sizeof b, "%s/%s", g->refs, e->d_name);
                if (rename(a, b) != 0) continue;
            }
            if (d) closedir(d);
        }
    }
    free(pre.t);
}

/* ------------------------------------------------------------- reports */

static void csv_field(FILE *f, const char *s, int last)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
    fputc(last ? '\n' : ',', f);
}

static int write_csv(const struct grade *g, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "student,task,result,rule,detail,seconds\n");
    for (int i = 0; i < g->n; i++) {
        const struct task *t = &g->t[i];
        char sec[32];
        snprintf(sec, sizeof sec, "%.2f", t->seconds);
        csv_field(f, t->student, 0);
        csv_field(f, t->what, 0);
        csv_field(f, t->status, 0);
        csv_field(f, t->rule, 0);
        csv_field(f, t->detail, 0);
        fprintf(f, "%s\n", sec);
    }
    return fclose(f);
}

static void xml_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '<') fputs("&lt;", f);
        else if (c == '>') fputs("&gt;", f);
        else if (c == '&') fputs("&amp;", f);
        else if (c == '"') fputs("&quot;", f);
        else if (c < 0x20 && c != '\n' && c != '\t') fputc(' ', f); /* not allowed in XML 1.0 */
        else fputc(c, f);
    }
}

static int write_junit(const struct grade *g, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    int fails = 0, errors = 0;
    for (int i = 0; i < g->n; i++) {
        fails += strcmp(g->t[i].status, "fail") == 0;
        errors += strcmp(g->t[i].status, "error") == 0;
    }
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"gpulab grade\" tests=\"%d\" "
               "failures=\"%d\" errors=\"%d\">\n", g->n, fails, errors);
    for (int i = 0; i < g->n;) {
        int j = i, sf = 0, se = 0;
        double secs = 0;
        while (j < g->n && strcmp(g->t[j].student, g->t[i].student) == 0) {
            sf += strcmp(g->t[j].status, "fail") == 0;
            se += strcmp(g->t[j].status, "error") == 0;
            secs += g->t[j].seconds;
            j++;
        }
        fputs("  <testsuite name=\"", f);
        xml_text(f, g->t[i].student);
        fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" time=\"%.2f\">\n", j - i, sf, se, secs);
        for (int k = i; k < j; k++) {
            const struct task *t = &g->t[k];
            fputs("    <testcase classname=\"", f);
            xml_text(f, t->student);
            fputs("\" name=\"", f);
            xml_text(f, t->what);
            fprintf(f, "\" time=\"%.2f\"", t->seconds);
            if (strcmp(t->status, "pass") == 0) {
                fputs("/>\n", f);
                continue;
            }
            fprintf(f, ">\n      <%s type=\"", strcmp(t->status, "fail") == 0 ? "failure" : "error");
            xml_text(f, t->rule);
            fputs("\" message=\"", f);
            xml_text(f, t->detail);
            fputs("\"/>\n    </testcase>\n", f);
        }
        fputs("  </testsuite>\n", f);
        i = j;
    }
    fputs("</testsuites>\n", f);
    return fclose(f);
}

static void remove_tmp(struct grade *g)
{
    int n;
    char **v = list_dir(g->tmp, is_folder, &n);
    for (int i = 0; i < n; i++) {
        char p[PATH_MAX * 2];
        snprintf(p, sizeof p, "rm -rf -- '%s/%s'", g->tmp, v[i]);
        /* the caches hold what the tasks built: folders of their own */
        int rc = system(p);
        (void)rc;
    }
    free_list(v, n);
    rmdir(g->tmp);
}

static enum cmd_status do_grade(struct session *s, int argc, char **argv)
{
    const char *dir = NULL, *csv = "grade.csv", *junit = "grade.xml";
    const struct puzzle *own = NULL;
    int jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--csv") == 0 && i + 1 < argc) csv = argv[++i];
        else if (strcmp(argv[i], "--junit") == 0 && i + 1 < argc) junit = argv[++i];
        else if (strcmp(argv[i], "--puzzle") == 0 && i + 1 < argc) {
            char err[PATH_MAX + 512];
            if (!(own = puzzle_def_open(argv[++i], err, sizeof err))) return sess_error(s, i, "%s", err);
        } else if (strcmp(argv[i], "--jobs") == 0 && i + 1 < argc) {
            char *e;
            long v = strtol(argv[++i], &e, 10);
            if (*e || v < 1 || v > 256) return sess_error(s, i, _("--jobs takes a count from 1 to 256"));
            jobs = (int)v;
        } else if (argv[i][0] == '-')
            return sess_error(s, i, _("unknown option %s: grade takes --csv FILE, --junit FILE, --jobs N, --puzzle DIR"), argv[i]);
        else if (dir)
            return sess_error(s, i, _("grade takes one folder"));
        else
            dir = argv[i];
    }
    if (!dir) return sess_error(s, -1, _("usage: grade DIR [--csv FILE] [--junit FILE] [--jobs N] [--puzzle DIR]"));
    if (jobs < 1) jobs = 1;
    int ns;
    char **students = list_dir(dir, is_folder, &ns);
    if (!students) return sess_error(s, 1, _("cannot read the folder %s: %s"), dir, strerror(errno));
    if (ns == 0) {
        free_list(students, ns);
        return sess_error(s, 1, _("%s holds no student folders"), dir);
    }
    struct grade g = {0};
    g.own = own;
    g.t = calloc(GRADE_MAX_TASKS, sizeof *g.t);
    snprintf(g.tmp, sizeof g.tmp, "%s/gpulab-grade-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!g.t || !mkdtemp(g.tmp)) {
        free(g.t);
        free_list(students, ns);
        return sess_error(s, -1, _("cannot make a folder for grading: %s"), strerror(errno));
    }
    snprintf(g.seed, sizeof g.seed, "set seed %u", s->cfg.seed);
    g.seedv = s->cfg.seed;
    double lim = program_time_limit(s, PROG_SIM);
    snprintf(g.limit, sizeof g.limit, "set time-limit %g", lim > 0 ? lim : 3600.0); /* 0: none; the wall limit stays */
    for (int i = 0; i < ns; i++) student_tasks(&g, dir, students[i]);
    free_list(students, ns);
    double t0 = now_s();
    share_references(&g, jobs);
    int rc = run_all(&g, jobs, s->interactive && !s->json);
    double secs = now_s() - t0;
    remove_tmp(&g);
    if (rc != 0) {
        free(g.t);
        return sess_error(s, -1, _("cannot run the checks: %s"), strerror(errno));
    }
    enum cmd_status st = CMD_OK;
    if (write_csv(&g, csv) != 0) st = sess_error(s, -1, _("cannot write %s: %s"), csv, strerror(errno));
    if (write_junit(&g, junit) != 0) st = sess_error(s, -1, _("cannot write %s: %s"), junit, strerror(errno));
    int pass = 0;
    for (int i = 0; i < g.n; i++) pass += strcmp(g.t[i].status, "pass") == 0;
    if (s->json) {
        for (int i = 0; i < g.n; i++) {
            json_t *j = json_object();
            json_object_set_new(j, "student", json_string(g.t[i].student));
            json_object_set_new(j, "task", json_string(g.t[i].what));
            json_object_set_new(j, "result", json_string(g.t[i].status));
            json_object_set_new(j, "rule", json_string(g.t[i].rule));
            json_object_set_new(j, "detail", json_string(g.t[i].detail));
            out_json(j);
        }
    } else {
        for (int i = 0; i < g.n; i++) {
            const struct task *t = &g.t[i];
            out_printf("%s %s %s%s%s%s%s\n", out_pad(t->student, 16), out_pad(t->what, 18), t->status,
                       t->rule[0] ? " (" : "", t->rule, t->rule[0] ? ") " : "", t->detail);
        }
        out_printf(_("%d of %d passed, %d students, %.1f s on %d cores; wrote %s and %s\n"), pass, g.n, ns, secs, jobs,
                   csv, junit);
    }
    free(g.t);
    return st;
}


/* ---------------------------------------------------------------- verify */

static int is_wrong_cu(const char *dir, const char *name)
{
    for (const char *c = name; *c; c++)
        if (!(isalnum((unsigned char)*c) || *c == '.' || *c == '-' || *c == '_')) return 0;
    return is_cu(dir, name);
}

/* The rule a known-wrong version names on its first line,
 * "// must fail: RULE. why": 0 with rule and why, -1 with the reason. */
static int wrong_rule(const char *path, char *rule, size_t rlen, char *why, size_t wlen, char *err, size_t elen)
{
    size_t len;
    char *text = safefile_read(path, PUZZLE_DEF_CU_MAX, &len, err, elen);
    if (!text) return -1;
    static const char *const rules[] = {"bounds", "unwritten", "value", "race", "limit", "time", "crash", "launch",
                                        "schedule"};
    char r[32] = "";
    int n = 0;
    int ok = sscanf(text, "// must fail: %31[a-z].%n", r, &n) == 1 && n > 0;
    int known = 0;
    for (size_t i = 0; ok && i < sizeof rules / sizeof rules[0]; i++) known |= strcmp(r, rules[i]) == 0;
    if (!ok || !known) {
        snprintf(err, elen, _("%s: the first line says \"// must fail: RULE. why\", RULE one of bounds, unwritten, "
                              "value, race, limit, time, crash, launch, schedule"),
                 path);
        free(text);
        return -1;
    }
    snprintf(rule, rlen, "%s", r);
    const char *w = text + n;
    while (*w == ' ') w++;
    snprintf(why, wlen, "%.*s", (int)strcspn(w, "\n"), w);
    free(text);
    return 0;
}

enum cmd_status puzzle_verify(struct session *s, const char *pdir)
{
    char err[PATH_MAX + 512];
    const struct puzzle *p = puzzle_def_open(pdir, err, sizeof err);
    if (!p) return sess_error(s, 2, "%s", err);
    struct grade g = {0};
    g.own = p;
    g.t = calloc(PUZZLE_DEF_MAX_WRONG + 2, sizeof *g.t);
    snprintf(g.tmp, sizeof g.tmp, "%s/gpulab-verify-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!g.t || !mkdtemp(g.tmp)) {
        free(g.t);
        return sess_error(s, -1, _("cannot make a folder for the checks: %s"), strerror(errno));
    }
    snprintf(g.seed, sizeof g.seed, "set seed %u", s->cfg.seed);
    g.seedv = s->cfg.seed;
    double lim = program_time_limit(s, PROG_SIM);
    snprintf(g.limit, sizeof g.limit, "set time-limit %g", lim > 0 ? lim : 3600.0);
    const char *dir = p->def->dir;
    char f[PATH_MAX * 2], wd[PATH_MAX + 8];
    char rules[PUZZLE_DEF_MAX_WRONG + 2][32], whys[PUZZLE_DEF_MAX_WRONG + 2][256];
    enum cmd_status st = CMD_OK;
    snprintf(f, sizeof f, "%s/reference.cu", dir);
    add_task(&g, "reference", "reference.cu", f, NULL, p->number);
    snprintf(f, sizeof f, "%s/skeleton.cu", dir);
    add_task(&g, "skeleton", "skeleton.cu", f, NULL, p->number);
    snprintf(wd, sizeof wd, "%s/wrong", dir);
    int nw = 0;
    char **w = is_folder(dir, "wrong") ? list_dir(wd, is_wrong_cu, &nw) : NULL;
    if (nw > PUZZLE_DEF_MAX_WRONG) {
        st = sess_error(s, 2, _("%s holds %d known-wrong versions; at most %d"), wd, nw, PUZZLE_DEF_MAX_WRONG);
        nw = 0;
    }
    for (int i = 0; i < nw; i++) {
        char what[64];
        snprintf(f, sizeof f, "%s/%s", wd, w[i]);
        snprintf(what, sizeof what, "wrong/%s", w[i]);
        if (wrong_rule(f, rules[g.n], sizeof rules[0], whys[g.n], sizeof whys[0], err, sizeof err) != 0) {
            st = sess_error(s, 2, "%s", err);
            break;
        }
        add_task(&g, "wrong", what, f, NULL, p->number);
    }
    free_list(w, nw);
    if (st == CMD_OK) share_references(&g, (int)sysconf(_SC_NPROCESSORS_ONLN));
    if (st == CMD_OK && run_all(&g, (int)sysconf(_SC_NPROCESSORS_ONLN), s->interactive && !s->json) != 0)
        st = sess_error(s, -1, _("cannot run the checks: %s"), strerror(errno));
    remove_tmp(&g);
    int bad = 0;
    for (int i = 0; st == CMD_OK && i < g.n; i++) {
        struct task *t = &g.t[i];
        if (!s->json && strlen(t->detail) > 150) /* the whole detail is in --json */
            snprintf(t->detail + 140, sizeof t->detail - 140, "...");
        const char *want = i == 0 ? "pass" : "fail";
        int ok = strcmp(t->status, want) == 0 && (i < 2 || strcmp(t->rule, rules[i]) == 0);
        bad += !ok;
        if (s->json) {
            json_t *j = json_object();
            json_object_set_new(j, "file", json_string(t->what));
            json_object_set_new(j, "want", json_string(i < 2 ? want : rules[i]));
            json_object_set_new(j, "result", json_string(t->status));
            json_object_set_new(j, "rule", json_string(t->rule));
            json_object_set_new(j, "detail", json_string(t->detail));
            json_object_set_new(j, "ok", json_boolean(ok));
            out_json(j);
            continue;
        }
        out_printf("%s%s%s %s ", ok ? out_color(OUT_GOOD) : out_color(OUT_ERROR), ok ? "ok  " : "FAIL",
                   out_color(OUT_RESET), t->what);
        if (i == 0)
            out_printf(ok ? _("passes every case\n") : _("must pass, but: %s (%s) %s\n"), t->status, t->rule, t->detail);
        else if (i == 1)
            out_printf(ok ? _("fails, as a skeleton should (%s)\n") : _("must fail, but: %s %s\n"), t->rule, t->detail);
        else if (ok)
            out_printf(_("fails for rule %s, as it says (%s): %s\n"), t->rule, whys[i], t->detail);
        else
            out_printf(_("must fail for rule %s (%s), but: %s %s %s\n"), rules[i], whys[i], t->status, t->rule,
                       t->detail);
    }
    if (st == CMD_OK && !s->json)
        out_printf(_("puzzle %d (%s): the reference, the skeleton and %d known-wrong versions checked; %d not as "
                     "stated\n"),
                   p->number, p->name, g.n - 2, bad);
    if (st == CMD_OK && nw < 3)
        st = sess_error(s, 2, _("%s: %d known-wrong versions; a puzzle has at least 3 (wrong/NAME.cu)"), dir, nw);
    else if (st == CMD_OK && bad)
        st = sess_error(s, -1, _("%d of the puzzle's files did not check as stated"), bad);
    free(g.t);
    return st;
}

const struct cmd cmd_grade_group[] = {
    {
        .name = "grade",
        .usage = N_("grade DIR [--csv FILE] [--junit FILE] [--jobs N] [--puzzle DIR]"),
        .help = N_("check every student's folder in DIR; write a CSV and a JUnit XML report"),
        .long_help =
            N_("Every folder in DIR is one student's. A folder with expected.txt and one\n"
               ".cu file is a program: it runs on the simulator and its standard output\n"
               "must equal expected.txt byte for byte, in the fixed order of the threads\n"
               "and under 3 random schedules of them. Otherwise every NN-name.cu in the\n"
               "folder (or in its puzzles/ folder) is checked as `check` does, with all\n"
               "its cases. The tasks run in parallel, one per core (--jobs N), each a\n"
               "gpulab of its own in the sandbox with this session's seed and\n"
               "time-limit, and a wall limit of 180 s. Writes\n"
               "grade.csv (student, task, result, rule, detail, seconds) and grade.xml\n"
               "(JUnit: a testsuite per student, a testcase per task), or the files\n"
               "--csv and --junit name. Results: pass, fail (the rule it broke) or error\n"
               "(it did not build, or the folder is not one of the two kinds).\n"
               "--puzzle DIR adds a puzzle of your own (a folder with puzzle.txt): the\n"
               "students' NNN-name.cu files of its number are checked against it.\n"),
        .run = do_grade,
        .complete = CMP_FILE,
    },
    {0},
};
