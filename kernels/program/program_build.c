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
    const char *ro[8];
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

struct unit {
    char rel[256];              /* path relative to the main file's folder */
    char *text;                 /* translated */
    size_t len;
};

/* Translate the main file and every local header it names (recursively),
 * hashing their contents. Issues go to msg; returns their count, -1 on a
 * read error. */
static int translate_all(const prog *p, enum prog_mode mode, struct unit *u, int *nu, int max,
                         unsigned long long *hash, char *msg, size_t msglen)
{
    char dir[PROG_PATH_MAX];
    snprintf(dir, sizeof dir, "%s", p->path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    const char *base = slash ? slash + 1 : p->path;
    int issues = 0;
    *nu = 0;
    snprintf(u[0].rel, sizeof u[0].rel, "%s", slash ? p->path + (slash - dir) + 1 : p->path);
    (void)base;
    *nu = 1;
    for (int i = 0; i < *nu; i++) {
        char path[PROG_PATH_MAX * 2];
        snprintf(path, sizeof path, "%s/%s", dir, u[i].rel);
        size_t len;
        char *src = prog_read_file(path, &len);
        if (!src) {
            snprintf(msg, msglen, L_("cannot read %s: %s"), path, prog_read_error(errno));
            return -1;
        }
        *hash = prog_hash(*hash, u[i].rel, strlen(u[i].rel) + 1);
        *hash = prog_hash(*hash, src, len);
        prog_source s;
        if (prog_translate(src, len, path, u[i].rel, mode, &s) != 0) {
            free(src);
            snprintf(msg, msglen, "%s", L_("out of memory"));
            return -1;
        }
        free(src);
        for (int k = 0; k < s.nissues; k++) {
            prog_msg_add(msg, msglen, "%s:%d: %s\n", s.issues[k].file, s.issues[k].line, s.issues[k].msg);
            issues++;
        }
        u[i].text = s.text;
        u[i].len = s.len;
        s.text = NULL;
        /* local headers: relative to this file's folder */
        char sub[256] = "";
        const char *sl = strrchr(u[i].rel, '/');
        if (sl) snprintf(sub, sizeof sub, "%.*s/", (int)(sl - u[i].rel), u[i].rel);
        for (int k = 0; k < s.nincludes && *nu < max; k++) {
            char rel[300], full[PROG_PATH_MAX * 2];
            snprintf(rel, sizeof rel, "%s%s", sub, s.includes[k]);
            snprintf(full, sizeof full, "%s/%s", dir, rel);
            if (strstr(rel, "..") || access(full, R_OK) != 0) continue; /* not beside the file: left to the compiler */
            int seen = 0;
            for (int j = 0; j < *nu; j++) seen |= strcmp(u[j].rel, rel) == 0;
            if (seen) continue;
            snprintf(u[*nu].rel, sizeof u[*nu].rel, "%s", rel);
            u[*nu].text = NULL;
            (*nu)++;
        }
    }
    return issues;
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
    static char held[8][PROG_PATH_MAX];
    memset(t, 0, sizeof *t);
    t->o = o;
    t->rw = dir;
    for (int i = 1; argv[i] && t->nro < 8; i++) {
        const char *a = argv[i], *path = NULL;
        int folder = 1;
        if (!strncmp(a, "-I", 2) && a[2]) path = a + 2;
        else if (!strncmp(a, "-iquote", 7) && a[7]) path = a + 7;
        else if (!strcmp(a, "-include") && argv[i + 1]) path = argv[++i], folder = 0;
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
static int run_compiler(char *const argv[], const struct tool_ctx *t, prog_result *r)
{
    char *log = calloc(1, PROG_MSG_MAX);
    if (!log) {
        snprintf(r->msg, sizeof r->msg, "%s", L_("out of memory"));
        return -1;
    }
    int st = run_tool(argv, t, log, PROG_MSG_MAX);
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

/* Build p for mode, or find it built. 0 with exe set; -1 with r->msg. */
int prog_build(prog *p, const prog_options *o, prog_result *r, char *exe, size_t exelen)
{
    struct unit u[PROG_MAX_INCLUDES + 1];
    int nu = 0;
    unsigned long long h = prog_hash(0, "gpulab-program-1", 16);
    h = prog_hash(h, o->backend == PROG_GPU ? "gpu" : "sim", 4);
    const char *rt = lab_path(LAB_PLACE_RUNTIME);
    char lib[PROG_PATH_MAX], hdr[PROG_PATH_MAX], gpuhdr[PROG_PATH_MAX];
    snprintf(lib, sizeof lib, "%s/libgpulab_progrt.a", rt);
    snprintf(hdr, sizeof hdr, "%s/progrt.h", rt);
    snprintf(gpuhdr, sizeof gpuhdr, "%s/gpurt.h", rt);
    if (o->backend == PROG_SIM) {
        h = file_identity(h, lib);
        h = file_identity(h, hdr);
    } else {
        h = file_identity(h, gpuhdr);
    }
    for (int i = 0; o->defines && o->defines[i]; i++) h = prog_hash(h, o->defines[i], strlen(o->defines[i]) + 1);
    if (o->backend == PROG_SIM) {
        h = prog_hash(h, GPULAB_PROGRAM_CXXFLAGS, strlen(GPULAB_PROGRAM_CXXFLAGS));
        h = prog_hash(h, GPULAB_PROGRAM_RECORDFLAGS, strlen(GPULAB_PROGRAM_RECORDFLAGS));
    }
    r->msg[0] = 0;
    int issues = translate_all(p, o->backend, u, &nu, PROG_MAX_INCLUDES + 1, &h, r->msg, sizeof r->msg);
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
    if (access(exe, X_OK) == 0) {
        r->cached = 1;
        rc = 0;
        goto out;
    }
    double t0 = prog_now_s();
    char src[PROG_PATH_MAX * 2];
    snprintf(src, sizeof src, "%s/src", dir);
    if (mkdirs(src) != 0) {
        snprintf(r->msg, sizeof r->msg, L_("cannot make %s: %s"), src, strerror(errno));
        goto out;
    }
    char mainsrc[PROG_PATH_MAX * 2];
    for (int i = 0; i < nu; i++) {
        char path[PROG_PATH_MAX * 3];
        if (i == 0) {
            const char *b = strrchr(u[0].rel, '/');
            snprintf(path, sizeof path, "%s/%s%s", src, b ? b + 1 : u[0].rel, o->backend == PROG_GPU ? ".cu" : ".cpp");
            snprintf(mainsrc, sizeof mainsrc, "%s", path);
        } else {
            snprintf(path, sizeof path, "%s/%s", src, u[i].rel);
            char *sl = strrchr(path, '/');
            if (sl) { *sl = 0; mkdirs(path); *sl = '/'; }
        }
        if (write_file(path, u[i].text, u[i].len) != 0) {
            snprintf(r->msg, sizeof r->msg, L_("cannot write %s: %s"), path, strerror(errno));
            goto out;
        }
    }
    char odir[PROG_PATH_MAX];
    snprintf(odir, sizeof odir, "%s", p->path);
    char *sl = strrchr(odir, '/');
    if (sl) *sl = 0;
    char tmp[PROG_PATH_MAX * 2];
    snprintf(tmp, sizeof tmp, "%s/prog.%d", dir, (int)getpid());
    char *argv[64];
    int ac = 0;
    char flags[512], incs[3][PROG_PATH_MAX + 8], nvcc[PROG_PATH_MAX];
    /* the recording's instrumentation is for the compiler only: given to
     * the link, g++ would link ThreadSanitizer's runtime, which the
     * simulator's own entry points replace (kernels/sim/record.h). So with
     * it the program is compiled and linked in two steps. */
    char obj[PROG_PATH_MAX * 2 + 4], rflags[256];
    int two_steps = o->backend == PROG_SIM && GPULAB_PROGRAM_RECORDFLAGS[0];
    snprintf(obj, sizeof obj, "%s.o", tmp);
    snprintf(flags, sizeof flags, "%s", GPULAB_PROGRAM_CXXFLAGS);
    snprintf(rflags, sizeof rflags, "%s", GPULAB_PROGRAM_RECORDFLAGS);
    if (o->backend == PROG_SIM) {
        const char *cxx = getenv("GPULAB_PROGRAM_CXX");
        argv[ac++] = (char *)(cxx && *cxx ? cxx : GPULAB_PROGRAM_CXX);
        for (char *w = strtok(flags, " "); w && ac < 36; w = strtok(NULL, " ")) argv[ac++] = w;
        int nflags = ac;
        for (char *w = strtok(rflags, " "); w && ac < 40; w = strtok(NULL, " ")) argv[ac++] = w;
        snprintf(incs[0], sizeof incs[0], "-I%s", rt);
        snprintf(incs[1], sizeof incs[1], "-I%s", lab_path(LAB_PLACE_HEADERS));
        snprintf(incs[2], sizeof incs[2], "-iquote%s", odir);
        argv[ac++] = incs[0];
        argv[ac++] = incs[1];
        argv[ac++] = incs[2];
        argv[ac++] = "-include";
        argv[ac++] = hdr;
        for (int i = 0; o->defines && o->defines[i] && ac < 56; i++) argv[ac++] = (char *)o->defines[i];
        if (two_steps) {
            argv[ac++] = "-c";
            argv[ac++] = "-o";
            argv[ac++] = obj;
            argv[ac++] = mainsrc;
            argv[ac] = NULL;
            struct tool_ctx t;
            tool_ctx_of(&t, o, argv, dir);
            if (run_compiler(argv, &t, r) != 0) {
                unlink(obj);
                goto out;
            }
            ac = nflags; /* the link: the same compiler and flags, without the instrumentation */
        }
        argv[ac++] = "-o";
        argv[ac++] = tmp;
        argv[ac++] = two_steps ? obj : mainsrc;
        argv[ac++] = lib;
        argv[ac++] = "-no-pie";
        argv[ac++] = "-Wl,-u,sim_progrt_linked";
        argv[ac++] = "-pthread";
        argv[ac++] = "-lm";
    } else {
        if (find_nvcc(nvcc, sizeof nvcc) != 0) {
            snprintf(r->msg, sizeof r->msg, "%s", L_("nvcc (the CUDA compiler) was not found: set CUDACXX or PATH"));
            goto out;
        }
        argv[ac++] = nvcc;
        argv[ac++] = "-arch=native";
        argv[ac++] = "-O2";
        argv[ac++] = "-lineinfo";
        argv[ac++] = "-Xcompiler";
        argv[ac++] = "-fopenmp";
        argv[ac++] = "-std=c++17";
        snprintf(incs[0], sizeof incs[0], "-I%s", odir);
        argv[ac++] = incs[0];
        argv[ac++] = "-include";
        argv[ac++] = gpuhdr;
        for (int i = 0; o->defines && o->defines[i] && ac < 56; i++) argv[ac++] = (char *)o->defines[i];
        argv[ac++] = "-o";
        argv[ac++] = tmp;
        argv[ac++] = mainsrc;
    }
    argv[ac] = NULL;
    struct tool_ctx t;
    tool_ctx_of(&t, o, argv, dir);
    int st = run_compiler(argv, &t, r);
    if (two_steps) unlink(obj);
    if (st != 0) {
        unlink(tmp);
        goto out;
    }
    /* the build is not to be changed: by the program (its sandbox shows the
     * cache read-only) nor by mistake */
    chmod(tmp, 0500);
    if (rename(tmp, exe) != 0) {
        snprintf(r->msg, sizeof r->msg, L_("cannot store the build in %s: %s"), dir, strerror(errno));
        unlink(tmp);
        goto out;
    }
    r->build_seconds = prog_now_s() - t0;
    rc = 0;
out:
    for (int i = 0; i < nu; i++) free(u[i].text);
    return rc;
}
