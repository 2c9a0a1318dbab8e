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
#include "kernels/sim/acctrace.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
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

int prog_open(prog *p, const char *path, char *msg, size_t msglen)
{
    char abs[PROG_PATH_MAX];
    if (!realpath(path, abs)) {
        snprintf(msg, msglen, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (stat(abs, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(msg, msglen, "%s is not a file", path);
        return -1;
    }
    size_t len;
    char *src = prog_read_file(abs, &len);
    if (!src) {
        snprintf(msg, msglen, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    prog_source s;
    const char *slash = strrchr(abs, '/');
    int rc = prog_translate(src, len, abs, slash ? slash + 1 : abs, PROG_SIM, &s);
    free(src);
    if (rc != 0) {
        snprintf(msg, msglen, "out of memory reading %s", path);
        return -1;
    }
    prog_result keep = p->last;
    int had = p->have_last && strcmp(p->path, abs) == 0;
    memset(p, 0, sizeof *p);
    snprintf(p->path, sizeof p->path, "%s", abs);
    snprintf(p->shown, sizeof p->shown, "%s", path);
    memcpy(p->kernels, s.kernels, sizeof s.kernels);
    p->nkernels = s.nkernels;
    memcpy(p->issues, s.issues, sizeof s.issues);
    p->nissues = s.nissues;
    if (had) {
        p->last = keep; /* a reload keeps the launches of the last run for show */
        p->have_last = 1;
    }
    prog_source_free(&s);
    return 0;
}

void prog_close(prog *p)
{
    memset(p, 0, sizeof *p);
}

void prog_result_free(prog_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
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
    case SIGABRT: return "SIGABRT: it called abort(), or an assert in host code failed";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    default: return strsignal(sig);
    }
}

static void parse_results(const char *path, const char *exe, prog_result *r)
{
    size_t len;
    char *text = prog_read_file(path, &len);
    if (!text) return;
    char running[128] = "";
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
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
            snprintf(running, sizeof running, "%s (launched at line %s)", f[1], f[2]);
        } else if (!strcmp(f[0], "launch") && nf >= 8) {
            unsigned g[3] = {1, 1, 1}, b[3] = {1, 1, 1};
            sscanf(f[3], "%u,%u,%u", &g[0], &g[1], &g[2]);
            sscanf(f[4], "%u,%u,%u", &b[0], &b[1], &b[2]);
            add_launch(r, f[1], atoi(f[2]), g, b, (size_t)strtoull(f[5], NULL, 10), atof(f[6]), atoi(f[7]));
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
                        if (at[0] != '?') snprintf(loc, sizeof loc, " at %s (in %s)", b ? b + 1 : at, fn);
                    }
                    pclose(a);
                }
            }
            snprintf(r->fault, sizeof r->fault, "%s%s%s%s%s%s", f[3][0] ? "in kernel " : "in host code",
                     f[3][0] ? f[3] : "", loc, f[4][0] ? ": it " : "", f[4], "");
        }
    }
    snprintf(r->running, sizeof r->running, "%s", running);
    free(text);
}

/* The child's access trace into r->acc, or why there is none. */
static void read_accesses(const char *path, const char *exe, const prog_options *o, prog_result *r)
{
    FILE *f = fopen(path, "re");
    if (!f) {
        snprintf(r->acc_why, sizeof r->acc_why, "the program launched no kernel");
        return;
    }
    char first[160] = "";
    if (!fgets(first, sizeof first, f) || strncmp(first, "# gpulab access trace", 21) != 0) {
        first[strcspn(first, "\n")] = 0;
        snprintf(r->acc_why, sizeof r->acc_why, "%s",
                 strncmp(first, "# not recorded: ", 16) == 0 ? first + 16 : "the access trace is empty");
        fclose(f);
        return;
    }
    rewind(f);
    r->acc = calloc(1, sizeof *r->acc);
    char err[128];
    if (!r->acc || acc_trace_read(f, r->acc, o->record_lanes, err, sizeof err) != 0) {
        snprintf(r->acc_why, sizeof r->acc_why, "%s", r->acc ? err : "out of memory");
        free(r->acc);
        r->acc = NULL;
    } else {
        acc_trace_resolve(r->acc, exe);
    }
    fclose(f);
}

int prog_run(prog *p, const prog_options *o, prog_result *r)
{
    memset(r, 0, sizeof *r);
    char exe[PROG_PATH_MAX];
    if (prog_build(p, o, r, exe, sizeof exe) != 0) return -1;
    char res[] = "/tmp/gpulab-result-XXXXXX";
    int rfd = mkstemp(res);
    if (rfd < 0) {
        snprintf(r->msg, sizeof r->msg, "cannot make a result file in /tmp: %s", strerror(errno));
        return -1;
    }
    close(rfd);
    /* the access trace goes to a folder only this user can read */
    char accdir[] = "/tmp/gpulab-acc-XXXXXX", accfile[sizeof accdir + 8] = "";
    int want_acc = o->record_blocks > 0 && o->backend == PROG_SIM;
    if (want_acc) {
        if (mkdtemp(accdir)) snprintf(accfile, sizeof accfile, "%s/trace", accdir);
        else snprintf(r->acc_why, sizeof r->acc_why, "cannot make a folder in /tmp: %s", strerror(errno));
    }
    int po[2], pe[2];
    if (pipe(po) != 0 || pipe(pe) != 0) {
        snprintf(r->msg, sizeof r->msg, "cannot make pipes: %s", strerror(errno));
        unlink(res);
        if (accfile[0]) rmdir(accdir);
        return -1;
    }
    double t0 = prog_now_s();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(r->msg, sizeof r->msg, "cannot start the program: %s", strerror(errno));
        close(po[0]); close(po[1]); close(pe[0]); close(pe[1]);
        unlink(res);
        if (accfile[0]) rmdir(accdir);
        return -1;
    }
    if (pid == 0) {
        setpgid(0, 0);
        signal(SIGINT, SIG_DFL);
        signal(SIGPIPE, SIG_DFL);
        dup2(po[1], 1);
        dup2(o->merge_output ? po[1] : pe[1], 2);
        close(po[0]); close(po[1]); close(pe[0]); close(pe[1]);
        int nul = open("/dev/null", O_RDONLY);
        if (nul >= 0) { dup2(nul, 0); close(nul); }
        setenv("GPULAB_RESULT", res, 1);
        setenv("GPULAB_RACE_CHECK", o->race_check ? "1" : "0", 1);
        if (o->model && *o->model) setenv("GPULAB_MODEL", o->model, 1);
        if (accfile[0]) {
            char num[32];
            setenv("GPULAB_ACC_TRACE", accfile, 1);
            snprintf(num, sizeof num, "%u", o->record_blocks);
            setenv("GPULAB_ACC_BLOCKS", num, 1);
            snprintf(num, sizeof num, "%llu", o->record_lanes);
            setenv("GPULAB_ACC_LANES", num, 1);
        } else {
            unsetenv("GPULAB_ACC_TRACE");
        }
        struct rlimit rl = {0, 0};
        setrlimit(RLIMIT_CORE, &rl);
#if defined(__SANITIZE_ADDRESS__)
        /* the sanitizer build (make asan) builds students' programs with
         * AddressSanitizer too, whose shadow memory reserves terabytes of
         * address space: no address-space limit there */
        const int as_limit = 0;
#else
        const int as_limit = 1;
#endif
        if (as_limit && o->mem_limit > 0 && o->backend == PROG_SIM) {
            rl.rlim_cur = rl.rlim_max = (rlim_t)o->mem_limit;
            setrlimit(RLIMIT_AS, &rl);
        }
        char *argv[66];
        int ac = 0;
        const char *b = strrchr(p->path, '/');
        argv[ac++] = (char *)(b ? b + 1 : p->path);
        for (int i = 0; i < o->argc && ac < 65; i++) argv[ac++] = o->argv[i];
        argv[ac] = NULL;
        execv(exe, argv);
        fprintf(stderr, "cannot start %s: %s\n", exe, strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);
    close(po[1]);
    close(pe[1]);
    size_t ocap = 0, ecap = 0;
    struct pollfd pf[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
    int open_fds = 2, killed = 0;
    double killed_at = 0;
    while (open_fds > 0) {
        int k = poll(pf, 2, 50);
        if (k > 0) {
            for (int i = 0; i < 2; i++) {
                if (pf[i].fd < 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
                char buf[8192];
                ssize_t n = read(pf[i].fd, buf, sizeof buf);
                if (n > 0) {
                    if (o->on_output) o->on_output(o->ctx, i + 1, buf, (size_t)n);
                    if (i == 0) keep_bytes(&r->out, &r->out_len, &ocap, buf, (size_t)n);
                    else keep_bytes(&r->err, &r->err_len, &ecap, buf, (size_t)n);
                } else if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
                    close(pf[i].fd);
                    pf[i].fd = -1;
                    open_fds--;
                }
            }
        }
        if (!killed && o->time_limit > 0 && prog_now_s() - t0 > o->time_limit) {
            r->timed_out = 1;
            kill(-pid, SIGKILL);
            killed = 1;
        }
        if (!killed && o->interrupt && *o->interrupt) {
            r->interrupted = 1;
            kill(-pid, SIGKILL);
            killed = 1;
        }
        if (killed && !killed_at) killed_at = prog_now_s();
        /* a grandchild may hold the pipes open: do not wait for it long */
        if (killed_at && prog_now_s() - killed_at > 2.0) break;
    }
    for (int i = 0; i < 2; i++)
        if (pf[i].fd >= 0) close(pf[i].fd);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    r->seconds = prog_now_s() - t0;
    r->ran = 1;
    if (WIFEXITED(st)) {
        r->exit_code = WEXITSTATUS(st);
        if (r->exit_code == 127 && r->err && strstr(r->err, "cannot start")) r->ran = 0;
    } else if (WIFSIGNALED(st)) {
        r->signal = WTERMSIG(st);
    }
    parse_results(res, exe, r);
    unlink(res);
    if (accfile[0]) {
        read_accesses(accfile, exe, o, r);
        unlink(accfile);
        rmdir(accdir);
    }
    if (r->signal && !r->timed_out && !r->interrupted) {
        char what[1400];
        snprintf(what, sizeof what, "the program was killed by %s", sig_words(r->signal));
        if (r->fault[0]) prog_msg_add(what, sizeof what, " %s", r->fault);
        if (o->mem_limit > 0 && o->backend == PROG_SIM && (r->signal == SIGSEGV || r->signal == SIGABRT) &&
            r->err && (strstr(r->err, "bad_alloc") || strstr(r->err, "cudaErrorMemoryAllocation") ||
                       strstr(r->err, "out of memory")))
            r->out_of_memory = 1;
        snprintf(r->msg, sizeof r->msg, "%s", what);
    }
    (void)sig_words;
    return 0;
}
