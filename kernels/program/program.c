/* program.c - a student's program: open it (its kernels and what cannot
 * run), run its build (program_build.c) as a child process with limits,
 * read what it reported.
 *
 * The child is the safety boundary: a hang, a crash or a memory blow-up ends
 * the child, never gpulab. It runs in its own process group (so Ctrl-C at
 * the terminal reaches gpulab, which then stops the whole group), with
 * /dev/null as its standard input, its standard output and error on pipes
 * that gpulab reads as they fill, and a result file for its launches and
 * faults (progrt.cpp writes it; docs/programs.md describes it). */
#define _GNU_SOURCE
#include "kernels/program/program.h"
#include "kernels/program/program_build.h"
#include "kernels/program/sandbox.h"
#include "kernels/sim/acctrace.h"
#include "kernels/sim/check.h"
#include "kernels/sim/race.h"
#include "kernels/sim/sim.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kernels/lab.h"

double prog_now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

unsigned long long prog_hash(unsigned long long h, const void *data, size_t n)
{
    const unsigned char *p = data;
    if (h == 0) h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

char *prog_read_file(const char *path, size_t *len)
{
    /* a student's file or header: a FIFO or a device must not hold gpulab */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    struct stat st;
    if (fd < 0) return NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > PROG_SOURCE_MAX) {
        int e = S_ISDIR(st.st_mode) ? EISDIR : S_ISREG(st.st_mode) ? EFBIG : EINVAL;
        close(fd);
        errno = e;
        return NULL;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        return NULL;
    }
    size_t cap = 8192, n = 0;
    char *b = malloc(cap + 1);
    while (b) {
        size_t k = fread(b + n, 1, cap - n, f);
        n += k;
        if (n < cap) break;
        char *nb = realloc(b, cap * 2 + 1);
        if (!nb) { free(b); b = NULL; break; }
        b = nb;
        cap *= 2;
    }
    fclose(f);
    if (!b) return NULL;
    b[n] = 0;
    *len = n;
    return b;
}

const char *prog_read_error(int e)
{
    if (e == EINVAL) return "it is not a regular file (a device, pipe or socket)";
    if (e == EFBIG) return "it is larger than 8 MiB";
    return strerror(e);
}

void prog_msg_add(char *msg, size_t len, const char *fmt, ...)
{
    size_t l = strlen(msg);
    if (l + 1 >= len) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + l, len - l, fmt, ap);
    va_end(ap);
}

/* ---------------------------------------------------------------- open */

int prog_open_sources(prog *p, const char *const *paths, int n, const char *const *options, char *msg,
                      size_t msglen)
{
    if (n < 1 || n > PROG_MAX_SOURCES) {
        snprintf(msg, msglen, "a program has 1 to %d source files", PROG_MAX_SOURCES);
        return -1;
    }
    prog *q = calloc(1, sizeof *q);
    struct prog_unit *u = calloc(PROG_MAX_UNITS, sizeof *u);
    if (!q || !u) {
        free(q);
        free(u);
        snprintf(msg, msglen, "out of memory");
        return -1;
    }
    int rc = -1;
    for (int i = 0; i < n; i++) {
        char abs[PROG_PATH_MAX];
        struct stat st;
        if (!realpath(paths[i], abs)) {
            snprintf(msg, msglen, "cannot open %s: %s", paths[i], strerror(errno));
            goto out;
        }
        if (stat(abs, &st) != 0 || !S_ISREG(st.st_mode)) {
            snprintf(msg, msglen, "%s is not a file", paths[i]);
            goto out;
        }
        for (int j = 0; j < q->nsrcs; j++)
            if (strcmp(q->srcs[j], abs) == 0) {
                snprintf(msg, msglen, "%s is named twice", paths[i]);
                goto out;
            }
        snprintf(q->srcs[q->nsrcs++], PROG_PATH_MAX, "%s", abs);
    }
    snprintf(q->path, sizeof q->path, "%s", q->srcs[0]);
    snprintf(q->shown, sizeof q->shown, "%s", paths[0]);
    int nu = 0;
    char tmsg[PROG_MSG_MAX];
    tmsg[0] = 0;
    if (prog_translate_all(q, PROG_SIM, options, u, &nu, NULL, tmsg, sizeof tmsg) < 0) {
        snprintf(msg, msglen, "%s", tmsg);
        prog_units_free(u, nu);
        goto out;
    }
    prog_units_free(u, nu);
    int had = p->have_last && strcmp(p->path, q->path) == 0;
    if (had) {
        q->last = p->last; /* a reload keeps the launches of the last run for show */
        q->have_last = 1;
    }
    *p = *q;
    rc = 0;
out:
    free(q);
    free(u);
    return rc;
}

int prog_open(prog *p, const char *path, char *msg, size_t msglen)
{
    const char *paths[1] = {path};
    return prog_open_sources(p, paths, 1, NULL, msg, msglen);
}

void prog_close(prog *p)
{
    memset(p, 0, sizeof *p);
}

void prog_result_free(prog_result *r)
{
    free(r->out);
    free(r->err);
    free(r->output);
    r->out = r->err = r->output = NULL;
    if (r->acc) {
        acc_trace_free(r->acc);
        free(r->acc);
        r->acc = NULL;
    }
}

/* ------------------------------------------------------------------- run */

static void keep_bytes(char **buf, size_t *len, size_t *cap, const char *data, size_t n)
{
    const size_t max = 16u << 20; /* what is kept for compare; the rest is only shown */
    if (*len + n > max) n = *len < max ? max - *len : 0;
    if (!n) return;
    if (*len + n + 1 > *cap) {
        size_t c = (*len + n + 1) * 2;
        char *nb = realloc(*buf, c);
        if (!nb) return;
        *buf = nb;
        *cap = c;
    }
    memcpy(*buf + *len, data, n);
    *len += n;
    (*buf)[*len] = 0;
}

static void add_launch(prog_result *r, const char *kernel, int line, const unsigned g[3], const unsigned b[3],
                       size_t smem, double ms, int failed)
{
    for (int i = 0; i < r->nlaunches; i++) {
        prog_launch *l = &r->launches[i];
        if (l->line == line && strcmp(l->kernel, kernel) == 0 && !memcmp(l->grid, g, sizeof l->grid) &&
            !memcmp(l->block, b, sizeof l->block) && l->smem == smem) {
            l->count++;
            l->ms += ms;
            l->failed += failed;
            return;
        }
    }
    if (r->nlaunches == PROG_MAX_LAUNCHES) {
        r->launches_dropped++;
        return;
    }
    prog_launch *l = &r->launches[r->nlaunches++];
    memset(l, 0, sizeof *l);
    snprintf(l->kernel, sizeof l->kernel, "%s", kernel);
    l->line = line;
    memcpy(l->grid, g, sizeof l->grid);
    memcpy(l->block, b, sizeof l->block);
    l->smem = smem;
    l->count = 1;
    l->ms = ms;
    l->failed = failed;
}

static const char *sig_words(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV, a memory access outside what the program owns";
    case SIGBUS: return "SIGBUS, a bad memory access";
    case SIGFPE: return "SIGFPE, an integer division by zero";
    case SIGILL: return "SIGILL, an illegal instruction";
    case SIGABRT: return "SIGABRT: it called abort(), or an assert failed";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGSYS: return "SIGSYS: it made a system call gpulab's sandbox forbids (a network socket, ptrace, a mount, "
                        "a new namespace, typing into a terminal, or a signal to gpulab)";
    case SIGXFSZ: return "SIGXFSZ: a file it wrote reached the limit of 1 GiB";
    default: return strsignal(sig);
    }
}

/* Control characters of text the program wrote (its result lines, a
 * compiler's echo of its source) made '?', so none reaches the terminal:
 * C0 but tab and newline, DEL, and the C1 controls as UTF-8 (C2 80..9F). */
void prog_sanitize(char *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)t[i];
        if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) t[i] = '?';
        else if (c == 0xc2 && i + 1 < n && (unsigned char)t[i + 1] >= 0x80 && (unsigned char)t[i + 1] <= 0x9f)
            t[i] = t[i + 1] = '?';
    }
}

/* At most max bytes of a descriptor gpulab made (a memfd the program wrote
 * through), from its start; NULL when it is empty or not a plain file.
 * *cut: it held more. */
static char *read_back(int fd, size_t max, size_t *len, int *cut)
{
    struct stat st;
    *len = 0;
    if (cut) *cut = 0;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) return NULL;
    size_t n = (size_t)st.st_size < max ? (size_t)st.st_size : max;
    if (cut && (size_t)st.st_size > max) *cut = 1;
    char *b = malloc(n + 1);
    if (!b) return NULL;
    size_t got = 0;
    while (got < n) {
        ssize_t k = pread(fd, b + got, n - got, (off_t)got);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) break;
        got += (size_t)k;
    }
    b[got] = 0;
    *len = got;
    return b;
}

/* The result lines (docs/programs.md), each field checked: a forged or cut
 * file changes what is shown of this run, never more. */
/* A build file's name as the student's: the build names its copies sN-FILE
 * (FILE.cpp for a .cu source) and uN-HEADER (program_build.c) */
static const char *student_file(const char *name, char *buf, size_t len)
{
    const char *p = name;
    if ((*p == 's' || *p == 'u') && p[1] >= '0' && p[1] <= '9') {
        const char *d = p + 1;
        while (*d >= '0' && *d <= '9') d++;
        if (*d == '-') p = d + 1;
    }
    snprintf(buf, len, "%s", p);
    /* NAME.cu.cpp[:LINE] -> NAME.cu[:LINE] */
    char *cpp = strstr(buf, ".cpp");
    char *dot = strchr(buf, '.');
    if (p != name && cpp && dot && dot < cpp && (cpp[4] == 0 || cpp[4] == ':')) memmove(cpp, cpp + 4, strlen(cpp + 4) + 1);
    return buf;
}

static void parse_results(char *text, const char *exe, prog_result *r)
{
    if (!text) return;
    char running[128] = "";
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *f[10];
        int nf = 0;
        for (char *s = line; nf < 10;) {
            f[nf++] = s;
            char *t = strchr(s, '\t');
            if (!t) break;
            *t = 0;
            s = t + 1;
        }
        if (!strcmp(f[0], "begin") && nf >= 3) {
            snprintf(running, sizeof running, "%.60s (launched at line %d)", f[1], atoi(f[2]));
            unsigned g[3] = {1, 1, 1}, b[3] = {1, 1, 1};
            if (nf >= 6 && sscanf(f[3], "%u,%u,%u", &g[0], &g[1], &g[2]) == 3 &&
                sscanf(f[4], "%u,%u,%u", &b[0], &b[1], &b[2]) == 3) {
                r->running_threads = (unsigned long long)g[0] * g[1] * g[2] * b[0] * b[1] * b[2];
                r->running_since = atof(f[5]);
            }
        } else if (!strcmp(f[0], "launch") && nf >= 8) {
            unsigned g[3] = {1, 1, 1}, b[3] = {1, 1, 1};
            sscanf(f[3], "%u,%u,%u", &g[0], &g[1], &g[2]);
            sscanf(f[4], "%u,%u,%u", &b[0], &b[1], &b[2]);
            double ms = atof(f[6]);
            if (!(ms >= 0 && ms < 1e12)) ms = 0;
            int failed = atoi(f[7]) != 0;
            add_launch(r, f[1], atoi(f[2]), g, b, (size_t)strtoull(f[5], NULL, 10), ms, failed);
            running[0] = 0;
        } else if (!strcmp(f[0], "fault") && nf >= 3) {
            if (!r->fault[0]) snprintf(r->fault, sizeof r->fault, "%s", f[2]);
        } else if (!strcmp(f[0], "events")) {
            r->used_events = 1;
        } else if (!strcmp(f[0], "crash") && nf >= 5) {
            /* the source line of the instruction that crashed */
            char loc[512] = "";
            void *pc = NULL;
            if (sscanf(f[2], "%p", &pc) == 1 && pc) {
                char cmd[PROG_PATH_MAX + 64];
                snprintf(cmd, sizeof cmd, "addr2line -C -f -e '%s' %p 2>/dev/null", exe, pc);
                FILE *a = popen(cmd, "r");
                if (a) {
                    char fn[512] = "", at[512] = "";
                    if (fgets(fn, sizeof fn, a) && fgets(at, sizeof at, a)) {
                        fn[strcspn(fn, "\n")] = 0;
                        at[strcspn(at, " \n")] = 0;
                        const char *b = strrchr(at, '/');
                        char shown[512];
                        if (at[0] != '?')
                            snprintf(loc, sizeof loc, " at %s (in %.200s)", student_file(b ? b + 1 : at, shown, sizeof shown),
                                     fn);
                    }
                    pclose(a);
                }
            }
            snprintf(r->fault, sizeof r->fault, "%s%.100s%s%s%.300s", f[3][0] ? "in kernel " : "in host code",
                     f[3][0] ? f[3] : "", loc, f[4][0] ? ": it " : "", f[4]);
        }
    }
    snprintf(r->running, sizeof r->running, "%s", running);
    for (int i = 0; i < r->nlaunches; i++) prog_sanitize(r->launches[i].kernel, strlen(r->launches[i].kernel));
    prog_sanitize(r->running, strlen(r->running));
    prog_sanitize(r->fault, strlen(r->fault));
}

/* Does a trace read back hold together? Every index in range and every
 * shape one CUDA allows, so what shows it loops over what was recorded. */
static int trace_sane(const acc_trace *t, unsigned max_blocks, char *why, size_t len)
{
    for (int i = 0; i < t->nlaunches; i++) {
        const acc_launch *l = &t->launches[i];
        unsigned long long threads = (unsigned long long)l->block[0] * l->block[1] * l->block[2];
        if (!l->grid[0] || !l->grid[1] || !l->grid[2] || l->grid[0] > 2147483647u || l->grid[1] > 65535 ||
            l->grid[2] > 65535 || !threads || threads > 1024 || l->block[2] > 64) {
            snprintf(why, len, "launch %d has a shape no GPU runs", i + 1);
            return 0;
        }
    }
    if (max_blocks && t->max_blocks > max_blocks) {
        snprintf(why, len, "it claims %u blocks per launch where %u were asked for", t->max_blocks, max_blocks);
        return 0;
    }
    for (size_t i = 0; i < t->nreqs; i++) {
        const acc_req *q = &t->reqs[i];
        if (q->launch >= (unsigned)t->nlaunches || q->site >= (unsigned)t->nsites || q->nlanes > 32 ||
            q->lane0 > t->nlanes || q->nlanes > t->nlanes - q->lane0 || q->warp >= 32) {
            snprintf(why, len, "access %zu points outside the trace", i + 1);
            return 0;
        }
        const acc_launch *l = &t->launches[q->launch];
        if ((unsigned long long)q->block >= (unsigned long long)l->grid[0] * l->grid[1] * l->grid[2]) {
            snprintf(why, len, "access %zu is in a block its launch does not have", i + 1);
            return 0;
        }
    }
    for (size_t i = 0; i < t->nlanes; i++)
        if (t->lanes[i].array >= (unsigned)t->narrays || t->lanes[i].lane >= 32) {
            snprintf(why, len, "a lane access points outside the trace");
            return 0;
        }
    for (size_t i = 0; i < t->nwops; i++) {
        const acc_wop *w = &t->wops[i];
        if (w->launch >= (unsigned)t->nlaunches || w->site >= (unsigned)t->nsites || w->nlanes > 32 ||
            w->lane0 > t->nwlanes || w->nlanes > t->nwlanes - w->lane0 || w->warp >= 32) {
            snprintf(why, len, "warp operation %zu points outside the trace", i + 1);
            return 0;
        }
    }
    for (size_t i = 0; i < t->nbars; i++)
        if (t->bars[i].launch >= (unsigned)t->nlaunches || t->bars[i].site >= (unsigned)t->nsites ||
            t->bars[i].threads > 1024) {
            snprintf(why, len, "barrier %zu points outside the trace", i + 1);
            return 0;
        }
    return 1;
}

/* The child's access trace into r->acc (from the descriptor it wrote
 * through, at most a size its bound allows), or why there is none. */
static void read_accesses(int fd, const char *exe, const prog_options *o, prog_result *r)
{
    unsigned long long lanes = o->record_lanes ? o->record_lanes : ACC_DEFAULT_LANES;
    size_t max = (size_t)(64ull << 20) + (size_t)(lanes < (1ull << 24) ? lanes : (1ull << 24)) * 160;
    size_t len;
    int cut;
    char *text = read_back(fd, max, &len, &cut);
    if (!text) {
        snprintf(r->acc_why, sizeof r->acc_why, "the program launched no kernel");
        return;
    }
    if (strncmp(text, "# gpulab access trace", 21) != 0) {
        text[strcspn(text, "\n")] = 0;
        if (strncmp(text, "# not recorded: ", 16) == 0) {
            prog_sanitize(text, strlen(text));
            snprintf(r->acc_why, sizeof r->acc_why, "%.150s", text + 16);
        } else {
            snprintf(r->acc_why, sizeof r->acc_why, "the access trace is empty");
        }
        free(text);
        return;
    }
    FILE *f = fmemopen(text, len, "r");
    r->acc = f ? calloc(1, sizeof *r->acc) : NULL;
    char err[128];
    if (!r->acc || acc_trace_read(f, r->acc, o->record_lanes, err, sizeof err) != 0) {
        snprintf(r->acc_why, sizeof r->acc_why, "%s", r->acc ? err : "out of memory");
        free(r->acc);
        r->acc = NULL;
    } else if (!trace_sane(r->acc, o->record_blocks, err, sizeof err)) {
        snprintf(r->acc_why, sizeof r->acc_why, "the access trace the program wrote is not gpulab's: %s", err);
        acc_trace_free(r->acc);
        free(r->acc);
        r->acc = NULL;
    } else {
        if (cut) r->acc->dropped++;
        acc_trace_resolve(r->acc, exe);
    }
    if (f) fclose(f);
    free(text);
}

/* The environment of a student's build or program: what locates the
 * toolchain and the GPU, the language and gpulab's own settings, and
 * nothing else of the user's (no tokens, no display, no agent sockets);
 * then set[] (NAME=VALUE), which replace. NULL-terminated, malloc'd
 * (prog_env_free). */
char **prog_env(const char *const *set)
{
    extern char **environ;
    static const char *const keep[] = {"PATH=", "LANG=", "LC_", "TZ=", "CUDA_", "NVIDIA_", "LD_LIBRARY_PATH=",
                                       "OMP_", "ASAN_OPTIONS=", "UBSAN_OPTIONS=", "LSAN_OPTIONS=",
                                       "TSAN_OPTIONS=", "GPULAB_", "SOURCE_DATE_EPOCH=", NULL};
    size_t n = 0, ns = 0;
    for (char **e = environ; e && *e; e++) n++;
    for (; set && set[ns]; ns++) {}
    char **env = calloc(n + ns + 1, sizeof *env);
    if (!env) return NULL;
    size_t k = 0;
    for (char **e = environ; e && *e; e++) {
        int ok = 0;
        for (int i = 0; keep[i] && !ok; i++) ok = strncmp(*e, keep[i], strlen(keep[i])) == 0;
        size_t nl = strcspn(*e, "=");
        for (size_t i = 0; ok && i < ns; i++) ok = !(strncmp(set[i], *e, nl) == 0 && set[i][nl] == '=');
        if (ok && !(env[k++] = strdup(*e))) goto oom;
    }
    for (size_t i = 0; i < ns; i++)
        if (!(env[k++] = strdup(set[i]))) goto oom;
    return env;
oom:
    prog_env_free(env);
    return NULL;
}

void prog_env_free(char **env)
{
    for (size_t i = 0; env && env[i]; i++) free(env[i]);
    free(env);
}

/* The folder a program's working directory mirrors: its own, unless that
 * is a folder the sandbox's root is made of. */
static const char *work_folder(const char *dir)
{
    static const char *const sys[] = {"/", "/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc", "/dev", "/proc",
                                      "/sys", "/tmp", "/run", NULL};
    for (int i = 0; sys[i]; i++)
        if (!strcmp(dir, sys[i])) return NULL;
    if (!strncmp(dir, "/proc/", 6) || !strncmp(dir, "/dev/", 5) || !strncmp(dir, "/sys/", 5)) return NULL;
    return dir;
}

struct run_ctx {
    const prog_options *o;
    prog_result *r;
    size_t ocap, ecap;
};

static void on_bytes(void *c, int fd, const char *buf, size_t n)
{
    struct run_ctx *x = c;
    if (x->o->on_output) x->o->on_output(x->o->ctx, fd, buf, n);
    if (fd == 1) keep_bytes(&x->r->out, &x->r->out_len, &x->ocap, buf, n);
    else keep_bytes(&x->r->err, &x->r->err_len, &x->ecap, buf, n);
}

/* One run under way: what prog_run keeps from its start to its end. */
struct prog_task {
    const prog_options *o;
    prog_result *r;
    char exe[PROG_PATH_MAX];
    int res, acc, outf, want_acc;
    struct run_ctx x;
    sbx_run_end e;
    sbx_job job;
};

static void task_close(struct prog_task *t)
{
    int fds[] = {t->res, t->acc, t->outf};
    for (int i = 0; i < 3; i++)
        if (fds[i] >= 0) close(fds[i]);
    t->res = t->acc = t->outf = -1;
}

/* Build (or find) and start: 0 when it runs (t->job), -1 when it could not
 * start (r->msg says why; nothing is left open). */
static int task_start(prog *p, const prog_options *o, prog_result *r, struct prog_task *t)
{
    memset(r, 0, sizeof *r);
    memset(t, 0, sizeof *t);
    t->o = o;
    t->r = r;
    t->res = t->acc = t->outf = -1;
    if (prog_build(p, o, r, t->exe, sizeof t->exe) != 0) return -1;
    const char *exe = t->exe;
    /* what comes back goes through files only gpulab holds: memory files,
     * given to the program as descriptors 3 (results), 4 (the access trace)
     * and 5 (o->output_max: a file it writes for the caller) */
    int want_acc = t->want_acc = o->record_blocks > 0 && o->backend == PROG_SIM;
    int res = t->res = memfd_create("gpulab-result", MFD_CLOEXEC);
    int acc = t->acc = want_acc ? memfd_create("gpulab-trace", MFD_CLOEXEC) : -1;
    int outf = t->outf = o->output_max ? memfd_create("gpulab-output", MFD_CLOEXEC) : -1;
    int nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
    char **env = NULL;
    int rc = -1;
    if (res < 0 || (want_acc && acc < 0) || (o->output_max && outf < 0) || nul < 0) {
        snprintf(r->msg, sizeof r->msg, "cannot make the files the program reports through: %s", strerror(errno));
        goto out;
    }
    char num[3][64], race[32], model[96], check[64], sched[80], threads[48];
    /* a launch from device code (and its cudaMalloc, cudaFree) changes the
     * runtime's state, which a launch's worker threads share: such a
     * program runs each launch's blocks on one worker, in block order */
    snprintf(threads, sizeof threads, "GPULAB_SIM_THREADS=%d", p->device_launches ? 1 : o->sim_threads);
    snprintf(race, sizeof race, "GPULAB_RACE_CHECK=%d", o->race_check ? 1 : 0);
    snprintf(sched, sizeof sched, "GPULAB_SCHEDULE=%d,%llu", o->schedule, o->schedule_seed);
    /* `set check`: the mode's bits and the report's limit (0: the default) */
    snprintf(check, sizeof check, "GPULAB_CHECK=%d,%d", o->check, o->check_limit);
    snprintf(model, sizeof model, "GPULAB_MODEL=%s", o->model && *o->model ? o->model : "");
    snprintf(num[0], sizeof num[0], "GPULAB_ACC_BLOCKS=%u", o->record_blocks);
    snprintf(num[1], sizeof num[1], "GPULAB_ACC_LANES=%llu", o->record_lanes);
    snprintf(num[2], sizeof num[2], "GPULAB_ACC_TRACE=%s", want_acc ? "/dev/fd/4" : "");
#if defined(__SANITIZE_ADDRESS__)
    /* LeakSanitizer stops the world with ptrace at the program's exit,
     * which the sandbox refuses: it would wait until the time limit */
#  define SANITIZER_ENV "ASAN_OPTIONS=detect_leaks=0",
#else
#  define SANITIZER_ENV
#endif
    const char *set[] = {"GPULAB_RESULT=/dev/fd/3", race, check, sched, num[2], num[0], num[1], threads, "HOME=/tmp",
                         "TMPDIR=/tmp", SANITIZER_ENV o->model && *o->model ? model : NULL, NULL};
    env = prog_env(set);
    if (!env) {
        snprintf(r->msg, sizeof r->msg, "out of memory");
        goto out;
    }
    char *argv[66];
    int ac = 0;
    const char *b = strrchr(p->path, '/');
    argv[ac++] = (char *)(b ? b + 1 : p->path);
    for (int i = 0; i < o->argc && ac < 65; i++) argv[ac++] = o->argv[i];
    argv[ac] = NULL;
    char folder[PROG_PATH_MAX], builddir[PROG_PATH_MAX];
    snprintf(folder, sizeof folder, "%.*s", b && b > p->path ? (int)(b - p->path) : 1, p->path);
    snprintf(builddir, sizeof builddir, "%s", exe);
    *strrchr(builddir, '/') = 0;
    sbx_spec sp;
    memset(&sp, 0, sizeof sp);
    sp.path = exe;
    sp.argv = argv;
    sp.env = env;
    sp.ro[sp.nro++] = builddir;
    /* the CUDA libraries it links (cuRAND...), wherever the toolkit is */
    if (p->libs && prog_toolkit_lib()) sp.ro[sp.nro++] = prog_toolkit_lib();
    sp.workdir = work_folder(folder);
    sp.gpu = o->backend == PROG_GPU;
    sp.fd[0] = nul;
    sp.fd[3] = res;
    sp.fd[4] = acc;
    sp.fd[5] = outf;
#if defined(__SANITIZE_ADDRESS__)
    /* the sanitizer build (make asan) builds students' programs with
     * AddressSanitizer too, whose shadow memory reserves terabytes of
     * address space: no address-space limit there */
    const int as_limit = 0;
#else
    const int as_limit = 1;
#endif
    /* every caller gets a memory limit: the one it asks for, else 3/4 of
     * this machine's memory */
    long long mem = o->mem_limit;
    if (mem <= 0) {
        long pages = sysconf(_SC_PHYS_PAGES), pg = sysconf(_SC_PAGESIZE);
        mem = pages > 0 && pg > 0 ? (long long)pages * pg / 4 * 3 : 8ll << 30;
    }
    if (as_limit && o->backend == PROG_SIM) sp.mem_limit = mem;
    sp.file_limit = PROG_FILE_LIMIT;
    sp.tmp_size = PROG_TMP_SIZE;
    sp.nproc = PROG_NPROC;
    t->x.o = o;
    t->x.r = r;
    char err[256];
    if (sbx_job_start(&t->job, &sp, o->merge_output, o->time_limit, o->interrupt, on_bytes, &t->x, &t->e, err,
                      sizeof err) != 0) {
        snprintf(r->msg, sizeof r->msg, "cannot start the program: %s", err);
        goto out;
    }
    rc = 0;
out:
    prog_env_free(env);
    if (nul >= 0) close(nul);
    if (rc != 0) task_close(t);
    return rc;
}

/* The run has ended (t->job.done): what it did, into r. 0 when it ran, -1
 * when it could not start (r->msg). */
static int task_finish(struct prog_task *t)
{
    prog_result *r = t->r;
    const prog_options *o = t->o;
    const char *exe = t->exe;
    sbx_run_end e = t->e;
    int rc = -1;
    r->seconds = e.seconds;
    r->peak_kb = e.end.peak_kb;
    r->timed_out = e.timed_out;
    r->interrupted = e.interrupted;
    r->ran = e.end.started;
    if (!e.end.started) {
        snprintf(r->msg, sizeof r->msg, "the program could not start: %s", e.end.why);
        goto out;
    }
    r->exit_code = e.end.exited ? e.end.code : 0;
    if (!e.timed_out && !e.interrupted) r->signal = e.end.signal;
    if (r->err) prog_sanitize(r->err, r->err_len);
    size_t len;
    char *text = read_back(t->res, 16u << 20, &len, NULL);
    parse_results(text, exe, r);
    free(text);
    if (t->want_acc) read_accesses(t->acc, exe, o, r);
    if (t->outf >= 0) r->output = read_back(t->outf, o->output_max, &r->output_len, &r->output_cut);
    if (r->signal) {
        char what[1400];
        snprintf(what, sizeof what, "the program was killed by %s", sig_words(r->signal));
        if (r->fault[0]) prog_msg_add(what, sizeof what, ", %s", r->fault);
        if (o->backend == PROG_SIM && (r->signal == SIGSEGV || r->signal == SIGABRT) &&
            r->err && (strstr(r->err, "bad_alloc") || strstr(r->err, "cudaErrorMemoryAllocation") ||
                       strstr(r->err, "out of memory")))
            r->out_of_memory = 1;
        snprintf(r->msg, sizeof r->msg, "%s", what);
    }
    rc = 0;
out:
    task_close(t);
    return rc;
}

int prog_run(prog *p, const prog_options *o, prog_result *r)
{
    struct prog_task t;
    if (task_start(p, o, r, &t) != 0) return -1;
    sbx_job *const one[1] = {&t.job};
    while (!t.job.done) sbx_jobs_step(one, 1);
    return task_finish(&t);
}

int prog_run_each(prog *p, const prog_options *o, int n, int jobs,
                  int (*done)(void *ctx, int i, prog_result *r, int rc), void *ctx)
{
    if (n <= 0) return 0;
    if (jobs < 1) jobs = 1;
    if (jobs > SBX_SLOTS) jobs = SBX_SLOTS;
    struct prog_task *t = calloc((size_t)n, sizeof *t);
    prog_result *rs = calloc((size_t)n, sizeof *rs);
    int *rc = calloc((size_t)n, sizeof *rc);
    /* 0: not started, 1: running, 2: ended (rc[i] holds prog_run's value) */
    char *state = calloc((size_t)n, 1);
    if (!t || !rs || !rc || !state) {
        free(t), free(rs), free(rc), free(state);
        /* no room for runs at once: one after the other */
        int seen = 0;
        for (int i = 0; i < n; i++) {
            prog_result r;
            int k = prog_run(p, &o[i], &r);
            int stop = done(ctx, i, &r, k);
            prog_result_free(&r);
            seen++;
            if (stop) break;
        }
        return seen;
    }
    int next = 0, head = 0, running = 0, stop = 0;
    while (head < n && !stop) {
        /* the runs that ended, in index order: done sees each in turn */
        while (head < n && state[head] == 2 && !stop) {
            stop = done(ctx, head, &rs[head], rc[head]);
            prog_result_free(&rs[head]);
            head++;
        }
        if (stop || head >= n) break;
        /* then the next ones, as many as may run at once */
        while (next < n && running < jobs) {
            if (task_start(p, &o[next], &rs[next], &t[next]) == 0) {
                state[next] = 1;
                running++;
            } else {
                rc[next] = -1;
                state[next] = 2;
            }
            next++;
        }
        if (!running) continue;
        sbx_job *js[SBX_SLOTS];
        int at[SBX_SLOTS], nj = 0;
        for (int i = head; i < next && nj < SBX_SLOTS; i++)
            if (state[i] == 1) {
                at[nj] = i;
                js[nj++] = &t[i].job;
            }
        if (sbx_jobs_step(js, nj) == 0) continue;
        for (int k = 0; k < nj; k++)
            if (t[at[k]].job.done) {
                rc[at[k]] = task_finish(&t[at[k]]);
                state[at[k]] = 2;
                running--;
            }
    }
    /* stopped: the runs still under way are killed and not seen */
    for (int i = head; i < next; i++)
        if (state[i] == 1) sbx_job_kill(&t[i].job);
    for (int i = head; i < next; i++) {
        if (state[i] == 1) {
            sbx_job *const one[1] = {&t[i].job};
            while (!t[i].job.done) sbx_jobs_step(one, 1);
            task_finish(&t[i]);
        }
        prog_result_free(&rs[i]);
    }
    free(t), free(rs), free(rc), free(state);
    return head;
}

_Static_assert((int)PROG_CHECK_MEMCHECK == (int)SIM_CHECK_MEMCHECK &&
                   (int)PROG_CHECK_INITCHECK == (int)SIM_CHECK_INITCHECK &&
                   (int)PROG_CHECK_LEAKS == (int)SIM_CHECK_LEAKS && PROG_CHECK_LIMIT_DEFAULT == SIM_CHECK_LIMIT_DEFAULT,
               "program.h's checks are the simulator's");

void prog_schedule(int kind, unsigned long long seed) { sim_schedule_set(kind, seed); }
int prog_schedule_parse(const char *name) { return sim_schedule_parse(name); }
const char *prog_schedule_name(int kind) { return sim_schedule_name(kind); }

int prog_sim_threads(int n) { return sim_set_threads(n); }

void prog_check_mode(int check, int limit)
{
    sim_check_set_mode(check ? check & 7 : SIM_CHECK_DEFAULT);
    sim_report_set_limit(limit > 0 ? (unsigned)limit : 0);
}
