/* program_build.c - a student's program built: the toolchain (nvcc for the
 * GPU, the C++ compiler and the simulator's runtime library for the
 * simulator), the source pass over the file and its local headers, and the
 * cache of builds, one per content and backend, under
 * $XDG_CACHE_HOME/gpulab/programs/. program.c opens a program and runs what
 * is built here. */
#define _GNU_SOURCE
#include "kernels/program/program_build.h"
#include "kernels/program/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernels/intl.h"
#include "kernels/lab.h"
#include "kernels/paths.h"

#ifndef GPULAB_PROGRAM_CXX
#  define GPULAB_PROGRAM_CXX "c++"
#endif
#ifndef GPULAB_PROGRAM_RECORDFLAGS
#  define GPULAB_PROGRAM_RECORDFLAGS ""
#endif
#ifndef GPULAB_PROGRAM_CXXFLAGS
#  define GPULAB_PROGRAM_CXXFLAGS "-std=gnu++17 -O2 -g"
#endif

static int write_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    int rc = fwrite(data, 1, len, f) == len ? 0 : -1;
    if (fclose(f) != 0) rc = -1;
    return rc;
}

static int mkdirs(const char *path)
{
    char buf[PROG_PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(buf, 0700) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(buf, 0700) != 0 && errno != EEXIST) return -1;
    return 0;
}

int prog_cache_dir(const char *name, char *buf, size_t len)
{
    const char *x = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (x && *x == '/') snprintf(buf, len, "%s/gpulab/%s", x, name);
    else if (home && *home) snprintf(buf, len, "%s/.cache/gpulab/%s", home, name);
    else snprintf(buf, len, "/tmp/gpulab-%d/%s", (int)getuid(), name);
    return mkdirs(buf);
}

/* ------------------------------------------------------------- toolchain */

static int find_nvcc(char *buf, size_t len)
{
    const char *cand[] = {getenv("CUDACXX"), "/usr/local/cuda/bin/nvcc", NULL};
    for (int i = 0; i < 2; i++)
        if (cand[i] && *cand[i] && access(cand[i], X_OK) == 0) {
            snprintf(buf, len, "%s", cand[i]);
            return 0;
        }
    const char *path = getenv("PATH");
    if (!path) return -1;
    char dirs[4096];
    snprintf(dirs, sizeof dirs, "%s", path);
    for (char *d = strtok(dirs, ":"); d; d = strtok(NULL, ":")) {
        snprintf(buf, len, "%s/nvcc", d);
        if (access(buf, X_OK) == 0) return 0;
    }
    return -1;
}

/* The CUDA toolkit's folders to look in: CUDA_HOME, CUDA_PATH, the one
 * above nvcc's bin/, /usr/local/cuda; each tried with the file probe
 * (under the root) until one has it: 0, with the root in root */
static int toolkit_with(const char *const *subs, const char *probe, char *found, size_t len)
{
    char roots[4][PROG_PATH_MAX] = {"", "", "", "/usr/local/cuda"}, nvcc[PROG_PATH_MAX];
    if (getenv("CUDA_HOME")) snprintf(roots[0], sizeof roots[0], "%s", getenv("CUDA_HOME"));
    if (getenv("CUDA_PATH")) snprintf(roots[1], sizeof roots[1], "%s", getenv("CUDA_PATH"));
    if (find_nvcc(nvcc, sizeof nvcc) == 0 && realpath(nvcc, roots[2])) {
        for (int up = 0; up < 2; up++) {
            char *sl = strrchr(roots[2], '/');
            if (sl && sl != roots[2]) *sl = 0;
        }
    }
    for (int i = 0; i < 4; i++) {
        if (!roots[i][0]) continue;
        for (int k = 0; subs[k]; k++) {
            char path[PROG_PATH_MAX * 2];
            snprintf(path, sizeof path, "%s%s/%s", roots[i], subs[k], probe);
            if (access(path, R_OK) == 0) {
                snprintf(found, len, "%s%s", roots[i], subs[k]);
                return 0;
            }
        }
    }
    return -1;
}

const char *prog_thrust_dir(void)
{
    static int done;
    static char dir[PROG_PATH_MAX];
    if (done) return dir[0] ? dir : NULL;
    done = 1;
    const char *env = getenv("GPULAB_THRUST_DIR");
    if (env) {
        snprintf(dir, sizeof dir, "%s", env);
        return dir[0] ? dir : NULL;
    }
    /* CUDA 13 keeps thrust in include/cccl, CUDA 12 in include */
    static const char *const subs[] = {"/include/cccl", "/include", NULL};
    return toolkit_with(subs, "thrust/version.h", dir, sizeof dir) == 0 ? dir : NULL;
}

const char *prog_toolkit_include(void)
{
    static int done;
    static char dir[PROG_PATH_MAX];
    if (!done) {
        static const char *const subs[] = {"/include", NULL};
        done = 1;
        if (toolkit_with(subs, "curand.h", dir, sizeof dir) != 0) dir[0] = 0;
    }
    return dir[0] ? dir : NULL;
}

const char *prog_toolkit_lib(void)
{
    static int done;
    static char dir[PROG_PATH_MAX];
    if (!done) {
        static const char *const subs[] = {"/lib64", "/targets/x86_64-linux/lib", "/lib", NULL};
        done = 1;
        if (toolkit_with(subs, "libcurand.so", dir, sizeof dir) != 0) dir[0] = 0;
    }
    return dir[0] ? dir : NULL;
}

int prog_gpu_available(char *why, size_t len)
{
    char nvcc[PROG_PATH_MAX];
    if (!lab_gpu_available()) {
        const lab_device_info *d = lab_device();
        snprintf(why, len, L_("no GPU: %s"), d->why_not[0] ? d->why_not : L_("none found"));
        return 0;
    }
    if (find_nvcc(nvcc, sizeof nvcc) != 0) {
        snprintf(why, len, "%s", L_("a GPU is present but nvcc (the CUDA compiler) was not found: set CUDACXX or PATH"));
        return 0;
    }
    why[0] = 0;
    return 1;
}

/* Where a compiler runs: confined like the program (sandbox.h), seeing
 * the student's folder, gpulab's runtime and the toolchain read-only and
 * writing only the build's own folder of the cache. */
struct tool_ctx {
    const prog_options *o;
    const char *ro[24];
    int nro;
    const char *rw;
};

static void to_log(void *c, int fd, const char *buf, size_t n)
{
    (void)fd;
    char *log = ((char **)c)[0];
    size_t loglen = (size_t)((char **)c)[1];
    size_t l = strlen(log);
    if (l + n + 1 > loglen) n = loglen > l + 1 ? loglen - l - 1 : 0;
    memcpy(log + l, buf, n);
    log[l + n] = 0;
}

/* The folder a tool lives in, two levels up ("/opt/cuda" of
 * /opt/cuda/bin/nvcc), when it is not under /usr: the sandbox shows it. */
static void tool_root(const char *tool, char *buf, size_t len)
{
    char real[PROG_PATH_MAX];
    buf[0] = 0;
    if (tool[0] != '/' || !realpath(tool, real) || !strncmp(real, "/usr/", 5)) return;
    for (int up = 0; up < 2; up++) {
        char *sl = strrchr(real, '/');
        if (sl && sl != real) *sl = 0;
    }
    snprintf(buf, len, "%s", real);
}

/* Run argv (no shell) confined, with the compile time limit, its output
 * (stdout and stderr) appended to log; returns the exit status, 128 + the
 * signal, 124 past the time limit, 130 on Ctrl-C, or -1 when it could not
 * start. */
static int run_tool(char *const argv[], const struct tool_ctx *t, char *log, size_t loglen)
{
    /* the compilers speak English whatever language gpulab speaks: their
     * messages are parsed ("file:line: error:") before they are shown */
    const char *set[] = {"LC_ALL=C", "HOME=/tmp", "TMPDIR=/tmp", NULL};
    char **env = prog_env(set);
    if (!env) return -1;
    for (size_t i = 0, j = 0;; i++) { /* no LANGUAGE: it would override LC_ALL */
        if (env[i] && !strncmp(env[i], "LANGUAGE=", 9)) {
            free(env[i]);
            continue;
        }
        env[j++] = env[i];
        if (!env[i]) break;
    }
    sbx_spec sp;
    memset(&sp, 0, sizeof sp);
    char tool[PROG_PATH_MAX] = "", found[PROG_PATH_MAX], troot[PROG_PATH_MAX];
    /* the compiler by its path, found here (the sandbox has no shell) */
    if (strchr(argv[0], '/')) {
        snprintf(tool, sizeof tool, "%s", argv[0]);
    } else {
        const char *path = getenv("PATH");
        char dirs[4096];
        snprintf(dirs, sizeof dirs, "%s", path ? path : "/usr/bin:/bin");
        for (char *d = strtok(dirs, ":"); d; d = strtok(NULL, ":")) {
            snprintf(found, sizeof found, "%s/%s", d, argv[0]);
            if (access(found, X_OK) == 0) {
                snprintf(tool, sizeof tool, "%s", found);
                break;
            }
        }
    }
    if (!tool[0]) {
        prog_env_free(env);
        snprintf(log + strlen(log), loglen - strlen(log), L_("cannot run %s: not found on the PATH\n"), argv[0]);
        return 127;
    }
    sp.path = tool;
    sp.argv = argv;
    sp.env = env;
    for (int i = 0; i < t->nro && sp.nro < SBX_MAX_PATHS - 1; i++)
        if (t->ro[i] && t->ro[i][0] == '/') sp.ro[sp.nro++] = t->ro[i];
    tool_root(tool, troot, sizeof troot);
    if (troot[0]) sp.ro[sp.nro++] = troot;
    sp.rw[sp.nrw++] = t->rw;
    sp.gpu = t->o->backend == PROG_GPU; /* nvcc -arch=native asks the GPU what it is */
    sp.fd[0] = open("/dev/null", O_RDONLY | O_CLOEXEC);
    sp.fd[3] = sp.fd[4] = sp.fd[5] = -1;
    sp.file_limit = PROG_FILE_LIMIT;
    sp.tmp_size = 4 * PROG_TMP_SIZE;
    sp.nproc = PROG_NPROC;
    char *c[2] = {log, (char *)(size_t)loglen};
    sbx_run_end e;
    char err[256];
    int rc = sbx_run(&sp, 1, PROG_COMPILE_LIMIT, t->o->interrupt, to_log, c, &e, err, sizeof err);
    if (sp.fd[0] >= 0) close(sp.fd[0]);
    prog_env_free(env);
    if (rc != 0) {
        snprintf(log + strlen(log), loglen - strlen(log), L_("cannot run %s: %s\n"), argv[0], err);
        return -1;
    }
    if (e.timed_out) {
        snprintf(log + strlen(log), loglen - strlen(log),
                 L_("the compiler ran longer than %g s and was stopped (templates or constexpr loops that never "
                    "end?)\n"), PROG_COMPILE_LIMIT);
        return 124;
    }
    if (e.interrupted) {
        snprintf(log + strlen(log), loglen - strlen(log), "%s", L_("the build was stopped by Ctrl-C\n"));
        return 130;
    }
    if (!e.end.started) {
        snprintf(log + strlen(log), loglen - strlen(log), L_("cannot run %s: %s\n"), argv[0], e.end.why);
        return 127;
    }
    return e.end.exited ? e.end.code : 128 + e.end.signal;
}

/* ------------------------------------------------------------------ build */

/* Where the program's own headers are looked for, as the compiler does:
 * "name" beside the including file, then in the -I folders, then beside the
 * sources; <name> in the -I folders, then beside the sources. A header
 * found there is the program's (translated); any other (the C++ library,
 * the CUDA headers, a file under /usr) is left to the compiler. */
struct resolver {
    prog *p;
    const char *const *options;
    struct prog_unit *u;
    int *nu;
    const char *cur;          /* the folder of the file being translated */
    int full;                 /* PROG_MAX_UNITS reached */
    char nonreg[PROG_PATH_MAX]; /* the first header named that is no regular file (a FIFO, a device) */
};

static int try_header(struct resolver *rv, const char *dir, const char *name, char *buf, size_t len)
{
    char cand[PROG_PATH_MAX * 2], abs[PROG_PATH_MAX];
    if (name[0] == '/') snprintf(cand, sizeof cand, "%s", name);
    else snprintf(cand, sizeof cand, "%s/%s", dir, name);
    struct stat st;
    if (stat(cand, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode) && !rv->nonreg[0])
        snprintf(rv->nonreg, sizeof rv->nonreg, "%s", name);
    if (stat(cand, &st) != 0 || !S_ISREG(st.st_mode) || !realpath(cand, abs)) return -1;
    if (strncmp(abs, "/usr/", 5) == 0) return -1;
    for (int j = 0; j < *rv->nu; j++)
        if (strcmp(rv->u[j].path, abs) == 0) {
            snprintf(buf, len, "%s", rv->u[j].out);
            return 0;
        }
    if (*rv->nu >= PROG_MAX_UNITS) {
        rv->full = 1;
        return -1;
    }
    struct prog_unit *n = &rv->u[(*rv->nu)++];
    memset(n, 0, sizeof *n);
    snprintf(n->path, sizeof n->path, "%s", abs);
    const char *b = strrchr(abs, '/');
    snprintf(n->out, sizeof n->out, "u%d-%s", *rv->nu - 1, b ? b + 1 : abs);
    snprintf(buf, len, "%s", n->out);
    return 0;
}

static int resolve_header(void *ctx, const char *name, int angle, char *buf, size_t len)
{
    struct resolver *rv = ctx;
    if (name[0] == '/') return try_header(rv, "", name, buf, len);
    if (!angle && try_header(rv, rv->cur, name, buf, len) == 0) return 0;
    for (int i = 0; rv->options && rv->options[i]; i++)
        if (strncmp(rv->options[i], "-I", 2) == 0 && try_header(rv, rv->options[i] + 2, name, buf, len) == 0) return 0;
    for (int i = 0; i < rv->p->nsrcs; i++) {
        char dir[PROG_PATH_MAX];
        snprintf(dir, sizeof dir, "%s", rv->p->srcs[i]);
        char *sl = strrchr(dir, '/');
        if (sl) *sl = 0;
        if (try_header(rv, dir, name, buf, len) == 0) return 0;
    }
    return -1;
}

/* a file's name in messages: relative to the first source's folder when
 * under it */
static void shown_name(const prog *p, const char *path, char *buf, size_t len)
{
    size_t dl = strrchr(p->path, '/') ? (size_t)(strrchr(p->path, '/') - p->path) : 0;
    if (dl && strncmp(path, p->path, dl) == 0 && path[dl] == '/') snprintf(buf, len, "%s", path + dl + 1);
    else snprintf(buf, len, "%s", path);
}

void prog_units_free(struct prog_unit *u, int nu)
{
    for (int i = 0; i < nu; i++) {
        free(u[i].text);
        u[i].text = NULL;
    }
}

/* the template parameters without a default of the first pass's template
 * kernels (beside its list of their names) */
static int tmpl_needs[PROG_MAX_KERNELS];

static int translate_pass(prog *p, enum prog_mode mode, const char *const *options, struct prog_unit *u, int *nu,
                          const prog_tx_opts *base, unsigned long long *h, char *msg, size_t msglen,
                          char (*tmpl)[64], int *ntmpl, char (*tdev)[64], int *ntdev)
{
    struct resolver rv = {p, options, u, nu, NULL, 0, {0}};
    int issues = 0;
    *nu = 0;
    for (int i = 0; i < p->nsrcs; i++) {
        struct prog_unit *n = &u[(*nu)++];
        memset(n, 0, sizeof *n);
        snprintf(n->path, sizeof n->path, "%s", p->srcs[i]);
        const char *b = strrchr(p->srcs[i], '/');
        /* g++ compiles a .cu file as C++ when told so; nvcc compiles a .cpp
         * file as host code, as it does for the student */
        snprintf(n->out, sizeof n->out, "s%d-%s%s", i, b ? b + 1 : p->srcs[i], mode == PROG_SIM ? ".cpp" : "");
        n->source = 1;
    }
    p->nkernels = 0;
    p->nissues = 0;
    p->lanes = 0;
    p->device_launches = 0;
    p->thrust = 0;
    p->libs = 0;
    for (int i = 0; i < *nu; i++) {
        size_t len;
        char *src = prog_read_file(u[i].path, &len);
        if (!src) {
            snprintf(msg, msglen, L_("cannot read %s: %s"), u[i].path, prog_read_error(errno));
            return -1;
        }
        if (h) {
            *h = prog_hash(*h, u[i].out, strlen(u[i].out) + 1);
            *h = prog_hash(*h, u[i].path, strlen(u[i].path) + 1);
            *h = prog_hash(*h, src, len);
        }
        char dir[PROG_PATH_MAX], shown[256];
        snprintf(dir, sizeof dir, "%s", u[i].path);
        char *sl = strrchr(dir, '/');
        if (sl) *sl = 0;
        rv.cur = dir;
        shown_name(p, u[i].path, shown, sizeof shown);
        prog_tx_opts o = *base;
        o.resolve = resolve_header;
        o.ctx = &rv;
        prog_source *s = malloc(sizeof *s);
        if (!s || prog_translate_opts(src, len, u[i].path, shown, mode, &o, s) != 0) {
            free(src);
            free(s);
            snprintf(msg, msglen, "%s", L_("out of memory"));
            return -1;
        }
        free(src);
        /* the last pass's text gets the lane-loop forms */
        if (h && mode == PROG_SIM && !p->no_lanes && prog_lanes(s) != 0) {
            prog_source_free(s);
            free(s);
            snprintf(msg, msglen, "%s", L_("out of memory"));
            return -1;
        }
        p->lanes += s->lanes;
        /* the key holds what the compiler gets: a pass that changes
         * (another gpulab) makes a new build */
        if (h) *h = prog_hash(*h, s->text, s->len);
        for (int k = 0; k < s->nissues; k++) {
            prog_msg_add(msg, msglen, "%s:%d: %s\n", s->issues[k].file, s->issues[k].line, s->issues[k].msg);
            if (p->nissues < PROG_MAX_ISSUES) p->issues[p->nissues++] = s->issues[k];
            issues++;
        }
        for (int k = 0; k < s->nkernels && p->nkernels < PROG_MAX_KERNELS; k++) {
            int dup = 0;
            for (int j = 0; j < p->nkernels; j++) dup |= strcmp(p->kernels[j].name, s->kernels[k].name) == 0;
            if (!dup) p->kernels[p->nkernels++] = s->kernels[k];
        }
        p->device_launches += s->device_launches;
        p->thrust |= s->thrust;
        p->libs |= s->libs;
        for (int k = 0; tmpl && k < s->ntemplate_kernels && *ntmpl < PROG_MAX_KERNELS; k++) {
            tmpl_needs[*ntmpl] = s->template_kernel_needs[k];
            snprintf(tmpl[(*ntmpl)++], 64, "%s", s->template_kernels[k]);
        }
        for (int k = 0; tdev && k < s->ntemplate_devfns && *ntdev < PROG_MAX_KERNELS; k++)
            snprintf(tdev[(*ntdev)++], 64, "%s", s->template_devfns[k]);
        free(u[i].text);
        u[i].text = s->text;
        u[i].len = s->len;
        free(s);
    }
    if (rv.nonreg[0]) { /* never handed to the compiler: a FIFO would hold the build */
        snprintf(msg, msglen, L_("cannot read %s: %s"), rv.nonreg, prog_read_error(EINVAL));
        return -1;
    }
    if (rv.full) prog_msg_add(msg, msglen, L_("(more than %d files: the rest are left to the compiler as they are)\n"),
                              PROG_MAX_UNITS);
    p->nheaders = *nu - p->nsrcs;
    return issues;
}

int prog_translate_all(prog *p, enum prog_mode mode, const char *const *options, struct prog_unit *u, int *nu,
                       unsigned long long *h, char *msg, size_t msglen)
{
    /* first the kernels that are templates, wherever they are declared (a
     * header may declare one that the source launches); then the pass that
     * knows them, cheap next to a compile */
    static char tmpl[PROG_MAX_KERNELS][64], tdev[PROG_MAX_KERNELS][64];
    int ntmpl = 0, ntdev = 0;
    prog_tx_opts o = {0};
    o.fmad = mode == PROG_SIM && prog_sim_fmad(options);
    int rc = translate_pass(p, mode, options, u, nu, &o, NULL, msg, msglen, tmpl, &ntmpl, tdev, &ntdev);
    if (rc < 0) return rc;
    o.template_kernels = (const char(*)[64])tmpl;
    o.template_kernel_needs = tmpl_needs;
    o.ntemplate_kernels = ntmpl;
    o.template_devfns = (const char(*)[64])tdev;
    o.ntemplate_devfns = ntdev;
    msg[0] = 0;
    prog_units_free(u, *nu); /* the second pass makes every unit's text anew */
    return translate_pass(p, mode, options, u, nu, &o, h, msg, msglen, NULL, NULL, NULL, NULL);
}

static unsigned long long file_identity(unsigned long long h, const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        h = prog_hash(h, &st.st_size, sizeof st.st_size);
        h = prog_hash(h, &st.st_mtime, sizeof st.st_mtime);
    }
    return prog_hash(h, path, strlen(path));
}

/* The folders a compile reads, from its own command line: those of -I,
 * -iquote and -include, and of the libraries it links; dir is written. */
static void tool_ctx_of(struct tool_ctx *t, const prog_options *o, char *const argv[], const char *dir)
{
    static char held[24][PROG_PATH_MAX];
    memset(t, 0, sizeof *t);
    t->o = o;
    t->rw = dir;
    for (int i = 1; argv[i] && t->nro < 24; i++) {
        const char *a = argv[i], *path = NULL;
        int folder = 1;
        if (!strncmp(a, "-I", 2) && a[2]) path = a + 2;
        else if (!strncmp(a, "-iquote", 7) && a[7]) path = a + 7;
        else if (!strcmp(a, "-include") && argv[i + 1]) path = argv[++i], folder = 0;
        else if (!strcmp(a, "-isystem") && argv[i + 1]) path = argv[++i];
        else if (a[0] == '/' && strlen(a) > 2 && !strcmp(a + strlen(a) - 2, ".a")) path = a, folder = 0;
        if (!path || path[0] != '/') continue;
        snprintf(held[t->nro], sizeof held[0], "%s", path);
        if (!folder) {
            char *sl = strrchr(held[t->nro], '/');
            if (sl && sl != held[t->nro]) *sl = 0;
        }
        int seen = 0;
        for (int k = 0; k < t->nro; k++) seen |= !strcmp(held[k], held[t->nro]);
        if (!seen) {
            t->ro[t->nro] = held[t->nro];
            t->nro++;
        }
    }
}

/* Run a compiler; when it fails, its messages go into r->msg. 0 ok. */
struct tidy {
    const struct prog_unit *u;
    int nu;
    const char *runtime[3];
};

static int run_compiler(char *const argv[], const struct tool_ctx *t, prog_result *r, const struct tidy *td)
{
    const size_t cap = 256 * 1024;
    char *log = calloc(1, cap);
    if (!log) {
        snprintf(r->msg, sizeof r->msg, "%s", L_("out of memory"));
        return -1;
    }
    int st = run_tool(argv, t, log, cap);
    if (st != 0 && td) {
        char *tidied = malloc(cap);
        if (tidied) {
            prog_tidy_log(log, tidied, cap, td->u, td->nu, td->runtime);
            memcpy(log, tidied, cap);
            free(tidied);
        }
    }
    if (st != 0 && strstr(log, "undefined reference to `main'")) {
        /* a file of kernels only: the linker's words would not say what to do */
        snprintf(r->msg, sizeof r->msg, "%s",
                 L_("the program has no main(): run, compare, trace and animate run a whole program, "
                    "whose main allocates the arrays, copies them in, launches the kernels and copies "
                    "the results back (docs/programs.md)\n"));
    } else if (st != 0) {
        prog_sanitize(log, strlen(log));
        snprintf(r->msg, sizeof r->msg, "%s", log[0] ? log : L_("the compiler failed without a message\n"));
        if (st == 127 || st < 0) prog_msg_add(r->msg, sizeof r->msg, L_("(could not run %s)\n"), argv[0]);
    }
    free(log);
    return st != 0 ? -1 : 0;
}

/* The files a compile read, from its depfile (make syntax: "target: dep
 * dep \\\n dep"), appended to list as "size mtime path" lines; the build's
 * own translated copies (under skip) are left out, their text is in the key. */
static void deps_add(const char *depfile, const char *skip, FILE *list)
{
    size_t len;
    char *d = prog_read_file(depfile, &len);
    if (!d) return;
    char *c = strchr(d, ':');
    c = c ? c + 1 : d;
    size_t sl = strlen(skip);
    while (*c) {
        while (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\\') c++;
        if (!*c) break;
        char path[PROG_PATH_MAX];
        size_t n = 0;
        while (*c && *c != ' ' && *c != '\t' && *c != '\n' && n + 1 < sizeof path) {
            if (*c == '\\' && c[1] == ' ') c++;
            else if (*c == '\\' && c[1] == '\n') break;
            path[n++] = *c++;
        }
        path[n] = 0;
        if (n && path[n - 1] == ':') continue; /* a phony target of -MP */
        struct stat st;
        if (strncmp(path, skip, sl) != 0 && stat(path, &st) == 0)
            fprintf(list, "%lld %lld.%09ld %s\n", (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                    st.st_mtim.tv_nsec, path);
    }
    free(d);
}

/* 1 when every file the cached build read is as it was then. */
static int deps_unchanged(const char *list)
{
    FILE *f = fopen(list, "r");
    if (!f) return 0;
    char line[PROG_PATH_MAX + 64];
    int ok = 1;
    while (ok && fgets(line, sizeof line, f)) {
        long long size, sec;
        long nsec;
        int off = 0;
        if (sscanf(line, "%lld %lld.%ld %n", &size, &sec, &nsec, &off) != 3 || !off) { ok = 0; break; }
        char *path = line + off;
        path[strcspn(path, "\n")] = 0;
        struct stat st;
        ok = stat(path, &st) == 0 && st.st_size == size && st.st_mtim.tv_sec == sec && st.st_mtim.tv_nsec == nsec;
    }
    fclose(f);
    return ok;
}

/* the options given to open that go to this compiler: -std below C++17
 * stays the simulator's C++17 (its runtime needs it); the GPU build takes
 * the student's -std and -O instead of its own */
static int user_option(const char *opt, enum prog_mode mode)
{
    if (strncmp(opt, "-fmad=", 6) == 0) return mode != PROG_SIM; /* nvcc's; the simulator's is prog_sim_fmad */
    if (strncmp(opt, "-std=", 5) == 0 && mode == PROG_SIM) {
        const char *v = strchr(opt + 5, '+');
        const char *num = v && v[1] == '+' ? v + 2 : "";
        return strcmp(num, "17") == 0 || strcmp(num, "1z") == 0 || strcmp(num, "20") == 0 ||
               strcmp(num, "2a") == 0 || strcmp(num, "23") == 0 || strcmp(num, "2b") == 0;
    }
    return 1;
}

static const char *user_has(const char *const *opts, const char *prefix)
{
    const char *last = NULL;
    for (int i = 0; opts && opts[i]; i++)
        if (strncmp(opts[i], prefix, strlen(prefix)) == 0) last = opts[i];
    return last;
}

int prog_sim_fmad(const char *const *options)
{
    const char *f = user_has(options, "-fmad=");
    if (f && strcmp(f, "-fmad=false") == 0) return 0;
#if defined(__x86_64__)
    /* the instruction the attribute lets the compiler use */
    __builtin_cpu_init();
    return __builtin_cpu_supports("fma") != 0;
#else
    /* elsewhere the host compiler's default (it contracts everywhere on
     * aarch64, as its builds of the host code do) */
    return 0;
#endif
}

/* nvcc's own macros when it compiles a .cu file (CUDA 13.0's values); the
 * precompiled progrt.h is made with the same (kernels/program/CMakeLists.txt) */
static const char *const nvcc_macros[] = {"-D__CUDACC__=1", "-D__NVCC__=1", "-D__CUDACC_VER_MAJOR__=13",
                                          "-D__CUDACC_VER_MINOR__=0", "-D__CUDACC_VER_BUILD__=88", NULL};

/* a file nvcc compiles as CUDA (.cu, or a .cuh given as a source) */
static int cu_file(const char *path)
{
    const char *dot = strrchr(path, '.');
    return !dot || strncmp(dot, ".cu", 3) == 0 || strchr(dot, '/');
}

static int build_once(prog *p, const prog_options *o, prog_result *r, char *exe, size_t exelen);

/* Build p for mode, or find it built. 0 with exe set; -1 with r->msg. A
 * build whose kernels got lane-loop forms (lanes.c) and did not compile is
 * tried again without them: the pass takes apart only what it proves, and
 * the compiler has the last word; the student sees the plain build's
 * messages. */
int prog_build(prog *p, const prog_options *o, prog_result *r, char *exe, size_t exelen)
{
    p->no_lanes = 0;
    int rc = build_once(p, o, r, exe, exelen);
    if (rc != 0 && p->lanes > 0) {
        p->no_lanes = 1;
        rc = build_once(p, o, r, exe, exelen);
        p->no_lanes = 0;
    }
    return rc;
}

static int build_once(prog *p, const prog_options *o, prog_result *r, char *exe, size_t exelen)
{
    struct prog_unit *u = calloc(PROG_MAX_UNITS, sizeof *u);
    if (!u) {
        snprintf(r->msg, sizeof r->msg, "%s", L_("out of memory"));
        return -1;
    }
    int nu = 0;
    unsigned long long h = prog_hash(0, "gpulab-program-3", 16);
    h = prog_hash(h, o->backend == PROG_GPU ? "gpu" : "sim", 4);
    int fmad = o->backend == PROG_SIM && prog_sim_fmad(o->defines);
    const char *fm = fmad ? "fmad" : "nofmad";
    h = prog_hash(h, fm, strlen(fm) + 1);
    if (o->backend == PROG_SIM && p->no_lanes) h = prog_hash(h, "no-lanes", 9);
    const char *rt = lab_path(LAB_PLACE_RUNTIME);
    char lib[PROG_PATH_MAX], hdr[PROG_PATH_MAX], gpuhdr[PROG_PATH_MAX];
    snprintf(lib, sizeof lib, "%s/libgpulab_progrt.a", rt);
    snprintf(hdr, sizeof hdr, "%s/progrt.h", rt);
    snprintf(gpuhdr, sizeof gpuhdr, "%s/gpurt.h", rt);
    if (o->backend == PROG_SIM) h = file_identity(h, lib);
    for (int i = 0; o->defines && o->defines[i]; i++) h = prog_hash(h, o->defines[i], strlen(o->defines[i]) + 1);
    if (o->backend == PROG_SIM) {
        h = prog_hash(h, GPULAB_PROGRAM_CXXFLAGS, strlen(GPULAB_PROGRAM_CXXFLAGS));
        h = prog_hash(h, GPULAB_PROGRAM_RECORDFLAGS, strlen(GPULAB_PROGRAM_RECORDFLAGS));
    }
    r->msg[0] = 0;
    int issues = prog_translate_all(p, o->backend, o->defines, u, &nu, &h, r->msg, sizeof r->msg);
    int rc = -1;
    char dir[PROG_PATH_MAX], cache[PROG_PATH_MAX / 2];
    if (issues != 0) {
        if (issues > 0) {
            char head[256];
            snprintf(head, sizeof head, "%s cannot run on the simulator:\n", p->shown);
            size_t hl = strlen(head), ml = strlen(r->msg);
            if (hl + ml + 1 < sizeof r->msg) {
                memmove(r->msg + hl, r->msg, ml + 1);
                memcpy(r->msg, head, hl);
            }
        }
        goto out;
    }
    if (prog_cache_dir("programs", cache, sizeof cache) != 0) {
        snprintf(r->msg, sizeof r->msg, L_("cannot make the cache folder %s: %s"), cache, strerror(errno));
        goto out;
    }
    snprintf(dir, sizeof dir, "%s/%016llx-%s", cache, h, o->backend == PROG_GPU ? "gpu" : "sim");
    snprintf(exe, exelen, "%s/prog", dir);
    char deps[PROG_PATH_MAX + 8];
    snprintf(deps, sizeof deps, "%s/deps", dir);
    /* the key holds the program's own files; the deps list every other
     * file the compiler read (the runtime's headers, the system's) */
    if (access(exe, X_OK) == 0 && deps_unchanged(deps)) {
        r->cached = 1;
        rc = 0;
        goto out;
    }
    /* this text's lane-loop forms did not compile before: the build
     * without them (prog_build), at once */
    char nolanes[PROG_PATH_MAX + 16];
    snprintf(nolanes, sizeof nolanes, "%s/lanes-failed", dir);
    if (p->lanes > 0 && !p->no_lanes && access(nolanes, F_OK) == 0) goto out;
    unlink(exe);
    double t0 = prog_now_s();
    char src[PROG_PATH_MAX * 2];
    snprintf(src, sizeof src, "%s/src", dir);
    if (mkdirs(src) != 0) {
        snprintf(r->msg, sizeof r->msg, L_("cannot make %s: %s"), src, strerror(errno));
        goto out;
    }
    for (int i = 0; i < nu; i++) {
        char path[PROG_PATH_MAX * 3];
        snprintf(path, sizeof path, "%s/%s", src, u[i].out);
        if (write_file(path, u[i].text, u[i].len) != 0) {
            snprintf(r->msg, sizeof r->msg, L_("cannot write %s: %s"), path, strerror(errno));
            goto out;
        }
    }
    char tmp[PROG_PATH_MAX * 2];
    snprintf(tmp, sizeof tmp, "%s/prog.%d", dir, (int)getpid());
    char deptmp[PROG_PATH_MAX * 2 + 8];
    snprintf(deptmp, sizeof deptmp, "%s.deps", tmp);
    FILE *dl = fopen(deptmp, "w");
    if (!dl) {
        snprintf(r->msg, sizeof r->msg, L_("cannot write %s: %s"), deptmp, strerror(errno));
        goto out;
    }
    /* every source compiled on its own (with its depfile), then linked */
    char *argv[128];
    char flags[512], rflags[256], incs[4][PROG_PATH_MAX + 16], nvcc[PROG_PATH_MAX];
    char objs[PROG_MAX_SOURCES][PROG_PATH_MAX * 2 + 16], srcpath[PROG_PATH_MAX * 3], depfile[PROG_PATH_MAX * 2 + 16];
    int nobj = 0, st = 0;
    const char *cxx = getenv("GPULAB_PROGRAM_CXX");
    if (o->backend == PROG_GPU && find_nvcc(nvcc, sizeof nvcc) != 0) {
        snprintf(r->msg, sizeof r->msg, "%s", L_("nvcc (the CUDA compiler) was not found: set CUDACXX or PATH"));
        fclose(dl);
        unlink(deptmp);
        goto out;
    }
    const char *srcdir = lab_path(LAB_PLACE_HEADERS);
    char kdir[PROG_PATH_MAX + 16];
    snprintf(kdir, sizeof kdir, "%s/kernels/", srcdir);
    struct tidy td = {u, nu, {rt, kdir, NULL}};
    for (int i = 0; i < nu && st == 0; i++) {
        if (!u[i].source) continue;
        int ac = 0;
        snprintf(srcpath, sizeof srcpath, "%s/%s", src, u[i].out);
        snprintf(objs[nobj], sizeof objs[nobj], "%s.%d.o", tmp, nobj);
        snprintf(depfile, sizeof depfile, "%s.%d.d", tmp, nobj);
        if (o->backend == PROG_SIM) {
            snprintf(flags, sizeof flags, "%s", GPULAB_PROGRAM_CXXFLAGS);
            snprintf(rflags, sizeof rflags, "%s", GPULAB_PROGRAM_RECORDFLAGS);
            argv[ac++] = (char *)(cxx && *cxx ? cxx : GPULAB_PROGRAM_CXX);
            for (char *w = strtok(flags, " "); w && ac < 36; w = strtok(NULL, " ")) argv[ac++] = w;
            /* the recording's instrumentation is for the compiler only: given
             * to the link, g++ would link ThreadSanitizer's runtime, which the
             * simulator's own entry points replace (kernels/sim/record.h) */
            for (char *w = strtok(rflags, " "); w && ac < 44; w = strtok(NULL, " ")) argv[ac++] = w;
            snprintf(incs[0], sizeof incs[0], "-I%s/include", rt);
            snprintf(incs[1], sizeof incs[1], "-I%s", rt);
            snprintf(incs[2], sizeof incs[2], "-I%s", srcdir);
            argv[ac++] = incs[0];
            argv[ac++] = incs[1];
            argv[ac++] = incs[2];
            if (p->thrust && prog_thrust_dir()) {
                /* thrust: the toolkit's own headers on thrust's C++ (host)
                 * backend, after the simulator's CUDA headers; compiled as
                 * host C++ (nvcc's macros would make them expect nvcc),
                 * without the toolkit's half types (the simulator's are
                 * its own) */
                argv[ac++] = "-isystem";
                argv[ac++] = (char *)prog_thrust_dir();
                argv[ac++] = "-DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CPP";
                argv[ac++] = "-DCCCL_DISABLE_FP16_SUPPORT";
                argv[ac++] = "-DCCCL_DISABLE_BF16_SUPPORT";
            }
            if ((p->libs & PROG_LIB_CURAND) && prog_toolkit_include()) {
                /* cuRAND's host API: the toolkit's declarations, after
                 * the simulator's own headers (curand_kernel.h is one) */
                argv[ac++] = "-idirafter";
                argv[ac++] = (char *)prog_toolkit_include();
            }
            if (cu_file(u[i].path)) {
                /* what nvcc does for a .cu file: its own macros, and the
                 * runtime included before the first line; a .cpp file is
                 * host C++ that includes <cuda_runtime.h> itself if it
                 * calls CUDA */
                for (int k = 0; nvcc_macros[k] && !(p->thrust && prog_thrust_dir()); k++)
                    argv[ac++] = (char *)nvcc_macros[k];
                argv[ac++] = "-include";
                argv[ac++] = hdr;
                /* thrust::system_error, which nvcc's CUDA backend of thrust
                 * declares on the way and its C++ backend does not */
                if (p->thrust && prog_thrust_dir()) {
                    argv[ac++] = "-include";
                    argv[ac++] = "thrust/system_error.h";
                    /* device_vector's memory from the simulator's cudaMalloc */
                    argv[ac++] = "-include";
                    argv[ac++] = "gpulab_thrust.h";
                }
            }
            /* where the source pass sends host code's malloc and new
             * (translate.c host_alloc), in a .cpp file too */
            argv[ac++] = "-include";
            argv[ac++] = "gpulab_host.h";
        } else {
            argv[ac++] = nvcc;
            argv[ac++] = "-arch=native";
            argv[ac++] = (char *)(user_has(o->defines, "-O") ? user_has(o->defines, "-O") : "-O2");
            argv[ac++] = "-lineinfo";
            argv[ac++] = "-Xcompiler";
            argv[ac++] = "-fopenmp";
            argv[ac++] = (char *)(user_has(o->defines, "-std=") ? user_has(o->defines, "-std=") : "-std=c++17");
            if (p->nsrcs > 1 || p->device_launches) argv[ac++] = "-rdc=true";
            argv[ac++] = "-include";
            argv[ac++] = gpuhdr;
        }
        for (int k = 0; o->defines && o->defines[k] && ac < 100; k++) {
            const char *d = o->defines[k];
            if (o->backend == PROG_GPU && (strncmp(d, "-O", 2) == 0 || strncmp(d, "-std=", 5) == 0)) continue;
            if (user_option(d, o->backend)) argv[ac++] = (char *)d;
        }
        /* a*b + c fused in device code (translate.c marks its functions),
         * whatever -std= made the default */
        if (fmad) argv[ac++] = "-ffp-contract=fast";
        argv[ac++] = "-MD";
        argv[ac++] = "-MF";
        argv[ac++] = depfile;
        argv[ac++] = "-c";
        argv[ac++] = "-o";
        argv[ac++] = objs[nobj];
        if (o->backend == PROG_GPU && strstr(u[i].out, ".cu") == NULL) {
            argv[ac++] = "-x";
            argv[ac++] = "cu";
        }
        argv[ac++] = srcpath;
        argv[ac] = NULL;
        nobj++;
        struct tool_ctx tc;
        tool_ctx_of(&tc, o, argv, dir);
        st = run_compiler(argv, &tc, r, &td);
        if (st == 0) deps_add(depfile, dir, dl);
        unlink(depfile);
    }
    fclose(dl);
    if (st == 0) {
        int ac = 0;
        if (o->backend == PROG_SIM) {
            snprintf(flags, sizeof flags, "%s", GPULAB_PROGRAM_CXXFLAGS);
            argv[ac++] = (char *)(cxx && *cxx ? cxx : GPULAB_PROGRAM_CXX);
            for (char *w = strtok(flags, " "); w && ac < 36; w = strtok(NULL, " ")) argv[ac++] = w;
        } else {
            argv[ac++] = nvcc;
            argv[ac++] = "-arch=native";
            argv[ac++] = "-Xcompiler";
            argv[ac++] = "-fopenmp";
            if (p->nsrcs > 1 || p->device_launches) argv[ac++] = "-rdc=true";
        }
        argv[ac++] = "-o";
        argv[ac++] = tmp;
        for (int i = 0; i < nobj; i++) argv[ac++] = objs[i];
        if (o->backend != PROG_SIM && p->device_launches) argv[ac++] = "-lcudadevrt"; /* child launches' runtime */
        /* the CUDA libraries the program includes; on the simulator only
         * cuRAND, whose host generators write the simulated memory */
        static const char *const lib_flags[] = {"-lcurand", "-lcublas", "-lcufft", "-lcusparse", "-lcuda"};
        char libdir[PROG_PATH_MAX + 16], rpath[PROG_PATH_MAX + 16];
        if (o->backend == PROG_SIM && (p->libs & PROG_LIB_CURAND) && prog_toolkit_lib()) {
            snprintf(libdir, sizeof libdir, "-L%s", prog_toolkit_lib());
            snprintf(rpath, sizeof rpath, "-Wl,-rpath,%s", prog_toolkit_lib());
            argv[ac++] = libdir;
            argv[ac++] = rpath;
            argv[ac++] = "-lcurand";
        }
        for (int k = 0; k < 5 && o->backend != PROG_SIM; k++)
            if (p->libs & (1 << k)) argv[ac++] = (char *)lib_flags[k];
        if (o->backend != PROG_SIM && p->libs && prog_toolkit_lib()) {
            /* found at run time wherever the toolkit is */
            snprintf(rpath, sizeof rpath, "--linker-options=-rpath,%s", prog_toolkit_lib());
            argv[ac++] = rpath;
        }
        if (o->backend == PROG_SIM) {
            argv[ac++] = lib;
            argv[ac++] = "-no-pie";
            argv[ac++] = "-Wl,-u,sim_progrt_linked";
            argv[ac++] = "-pthread";
            argv[ac++] = "-lm";
        }
        argv[ac] = NULL;
        struct tool_ctx tc;
        tool_ctx_of(&tc, o, argv, dir);
        st = run_compiler(argv, &tc, r, NULL);
    }
    for (int i = 0; i < nobj; i++) unlink(objs[i]);
    if (st != 0) {
        unlink(tmp);
        unlink(deptmp);
        if (p->lanes > 0 && !p->no_lanes) write_file(nolanes, "", 0); /* remembered (above) */
        goto out;
    }
    /* the build is not to be changed: by the program (its sandbox shows the
     * cache read-only) nor by mistake */
    chmod(tmp, 0500);
    if (rename(deptmp, deps) != 0 || rename(tmp, exe) != 0) {
        snprintf(r->msg, sizeof r->msg, L_("cannot store the build in %s: %s"), dir, strerror(errno));
        unlink(tmp);
        goto out;
    }
    r->build_seconds = prog_now_s() - t0;
    rc = 0;
out:
    prog_units_free(u, nu);
    free(u);
    return rc;
}
