/* progrt.cpp - the host side of the CUDA runtime for a student's program on
 * the simulator, and its report to gpulab.
 *
 * The program runs as gpulab's child. Everything here happens inside it:
 * launches go to the simulator (kernels/sim/launch.cpp) one after another, so every stream
 * is in order and every asynchronous call has finished when it returns;
 * events read the host clock (simulator time, which gpulab marks as such).
 * A kernel fault ends the launch, prints the simulator's explanation on
 * stderr and makes every later runtime call fail with that error, as a GPU
 * does. Launches, faults and crashes are also written, one record per line,
 * to the file named by $GPULAB_RESULT (docs/programs.md describes it), with
 * write(2) so that a record survives a crash of the program. */
#undef _FORTIFY_SOURCE
#include "kernels/program/progrt.h"
#include "kernels/program/progrt_internal.h"

#include "kernels/sim/internal.h"
#include "kernels/sim/acctrace.h"

#include <mutex>
#include <string>
#include <vector>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>


/* the harness's trace recorder, which student programs do not use */
extern "C" int lab_trace_append(lab_trace *, const lab_event *, size_t, char *, size_t) { return 0; }
extern "C" int lab_trace_add_launch(lab_trace *, const char *, const unsigned *, const unsigned *, char *, size_t)
{
    return 0;
}
extern "C" {
volatile sig_atomic_t lab_interrupted;
/* the build links with -u sim_progrt_linked, so this file (its set-up and
 * crash report) is in every program, also one that never calls CUDA */
int sim_progrt_linked = 1;
}

namespace gpulab_sim {

cudaError_t sim_err_value(void);
cudaError_t sim_err_handle(void);

static int prog_fd = -1;            /* the result file */
static lab_config prog_cfg;
static lab_job prog_job;
static const occ_model *prog_model;
static int prog_events_said;
static char prog_exe[1024];
static double prog_t0;              /* when the program started */

static void rec(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void rec(const char *fmt, ...)
{
    if (prog_fd < 0) return;
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n >= sizeof buf) n = sizeof buf - 1;
    /* one record per line: no tabs or newlines inside a field */
    for (int i = 0; i < n - 1; i++)
        if (buf[i] == '\n') buf[i] = ' ';
    ssize_t w = write(prog_fd, buf, (size_t)n);
    (void)w;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* addr2line over our own executable: the source line (and function) of an
 * instruction. The program is linked without PIE, so addresses are final. */
/* gpulab's own headers and the C++ library, which code of the student's
 * is inlined through */
static int runtime_file(const char *loc)
{
    const char *b = sim_basename(loc);
    return strncmp(b, "progrt.h", 8) == 0 || strncmp(b, "shim", 4) == 0 || strstr(loc, "/include/c++/") ||
           strncmp(loc, "/usr/include/", 13) == 0;
}

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

static int where_of(const void *pc, char *func, size_t flen, char *loc, size_t llen)
{
    if (!pc || !prog_exe[0]) return -1;
    char cmd[1400];
    /* -i: the chain of inlined calls, innermost first; the student's line is
     * the first one outside gpulab's headers */
    snprintf(cmd, sizeof cmd, "addr2line -C -f -i -e '%s' %p 2>/dev/null", prog_exe, pc);
    FILE *f = popen(cmd, "r");
    if (!f) return -1;
    char a[512] = "", b[512] = "", fa[512], fb[512];
    int first = 1;
    while (fgets(fa, sizeof fa, f) && fgets(fb, sizeof fb, f)) {
        if (first || (runtime_file(b) && !runtime_file(fb))) {
            snprintf(a, sizeof a, "%s", fa);
            snprintf(b, sizeof b, "%s", fb);
        }
        first = 0;
    }
    pclose(f);
    a[strcspn(a, "\n")] = 0;
    b[strcspn(b, "\n")] = 0;
    if (func) snprintf(func, flen, "%s", a);
    if (loc) {
        /* "path/file.cu:42 (discriminator 3)" -> "file.cu:42" */
        char *sp = strchr(b, ' ');
        if (sp) *sp = 0;
        char shown[512];
        snprintf(loc, llen, "%s", student_file(sim_basename(b), shown, sizeof shown));
    }
    return b[0] && b[0] != '?' ? 0 : -1;
}

/* "void reduce<float>(float const*, ...)" -> "reduce<float>" */
static void short_name(const char *full, char *out, size_t len)
{
    const char *s = full;
    const char *paren = strchr(s, '(');
    size_t n = paren ? (size_t)(paren - s) : strlen(s);
    /* a return type before the name */
    const char *sp = nullptr;
    int ang = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '<') ang++;
        else if (s[i] == '>') ang--;
        else if (s[i] == ' ' && ang == 0) sp = s + i;
    }
    if (sp) {
        n -= (size_t)(sp + 1 - s);
        s = sp + 1;
    }
    snprintf(out, len, "%.*s", (int)n, s);
}

/* The file's kernels by address (the source pass registers them). */
static struct { const void *f; sim_work (*bind)(const void *, void **); const char *name; } prog_kernels[256];
static int prog_nkernels;

int sim_kreg_add(const void *f, sim_work (*bind)(const void *, void **), const char *name)
{
    if (prog_nkernels < 256) prog_kernels[prog_nkernels++] = {f, bind, name};
    return prog_nkernels;
}

const char *sim_kreg_name(const void *f)
{
    for (int i = 0; i < prog_nkernels; i++)
        if (prog_kernels[i].f == f) return prog_kernels[i].name;
    return nullptr;
}

sim_work (*sim_kreg_find(const void *f))(const void *, void **)
{
    for (int i = 0; i < prog_nkernels; i++)
        if (prog_kernels[i].f == f) return prog_kernels[i].bind;
    return nullptr;
}

/* kernels' lane-loop forms by the kernel's address (lanes.c registers
 * them), for a launch through a variable */
static struct { const void *f, *lanes; } prog_lanes[256];
static int prog_nlanes;

int sim_lanes_reg(const void *f, const void *lanes)
{
    if (prog_nlanes < 256) prog_lanes[prog_nlanes++] = {f, lanes};
    return prog_nlanes;
}

const void *sim_lanes_find(const void *f)
{
    for (int i = 0; i < prog_nlanes; i++)
        if (prog_lanes[i].f == f) return prog_lanes[i].lanes;
    return nullptr;
}

cudaError_t sim_err_invalid_function(void)
{
    sim_set_last_error(cudaErrorInvalidDeviceFunction);
    return cudaErrorInvalidDeviceFunction;
}

/* Names of kernels launched through a variable (`kernel<<<...>>>` in a
 * generic lambda): found once per address. */
static struct { const void *f; char name[64]; } prog_names[64];
static int prog_nnames;

static const char *kernel_name(const void *func, const char *name)
{
    if (name[0] != '?') return name;
    const char *known = sim_kreg_name(func);
    if (known) return known;
    for (int i = 0; i < prog_nnames; i++)
        if (prog_names[i].f == func) return prog_names[i].name;
    char full[512];
    if (prog_nnames < 64 && where_of(func, full, sizeof full, nullptr, 0) == 0 && full[0] && full[0] != '?') {
        prog_names[prog_nnames].f = func;
        short_name(full, prog_names[prog_nnames].name, sizeof prog_names[0].name);
        return prog_names[prog_nnames++].name;
    }
    return name[1] ? name + 1 : "kernel";
}

/* The automatic access trace (kernels/sim/acctrace.h), when gpulab asked
 * for it: $GPULAB_ACC_TRACE names the file (in a folder of gpulab's own),
 * $GPULAB_ACC_BLOCKS and $GPULAB_ACC_LANES the window. Attached at the
 * first launch: the instrumented code's constructor, which makes the
 * recording available, may run after this file's. */
static void record_accesses(void)
{
    static int tried;
    if (tried) return;
    tried = 1;
    const char *path = getenv("GPULAB_ACC_TRACE");
    if (!path || !*path) return;
    FILE *f = fopen(path, "we");
    if (!f) return;
    const char *b = getenv("GPULAB_ACC_BLOCKS"), *l = getenv("GPULAB_ACC_LANES");
    if (acc_writer_attach(f, b ? (unsigned)strtoul(b, nullptr, 10) : 0, l ? strtoull(l, nullptr, 10) : 0) != 0) {
        fprintf(f, "# not recorded: this build has no access recording\n");
        fclose(f);
        return;
    }
    /* flushed at every launch's end; the file is closed by exit */
}

cudaError_t sim_prog_sticky(void) { return sim_sticky_error(); }

/* Host threads (std::thread, OpenMP) share one simulated GPU: a launch, an
 * allocation and a release run whole, one at a time, and a launch has
 * finished when it returns, so a kernel issued by any thread sees every
 * earlier call of every thread complete -- what the per-thread default
 * stream allows, in the one order the lock gives. */
static std::recursive_mutex prog_lock;
#define PROG_LOCKED() std::lock_guard<std::recursive_mutex> prog_guard_(prog_lock)

int sim_coop_next;
static const occ_model *model(void);
static int occ_blocks(int block, size_t smem);

/* Launches from device code (dynamic parallelism): each runs after the
 * grid that launched it, in the order they were made, before the host's
 * launch returns -- CUDA 12's rule that a parent grid is finished only when
 * its children are, in the one order the simulator runs them. */
struct sim_child {
    const void *func;
    std::string name;
    const char *file;
    int line;
    dim3 grid, block;
    size_t smem;
    sim_work work;
};
static std::vector<sim_child> prog_children;
static cudaError_t sim_prog_launch_now(const void *func, const char *name0, const char *file, int line,
                                       const sim_cfg &cfg, const sim_work &work);

/* every GPU thread's start; a block that may run as lane loops runs so,
 * whole, from its first thread (kernels/sim/lanes.cpp) */
static void run_work(void *p)
{
    const sim_work &w = *static_cast<const sim_work *>(p);
    if (w.has_lanes() && sim_lanes_here()) w.lanes();
    else w();
}

cudaError_t sim_prog_launch(const void *func, const char *name0, const char *file, int line, const sim_cfg &cfg,
                            const sim_work &work)
{
    PROG_LOCKED();
    /* from device code: a program with such launches runs on one worker
     * (program.c), so this is the thread that holds prog_lock */
    if (sim_g.in_launch) {
        prog_children.push_back(sim_child{func, kernel_name(func, name0), file, line, cfg.grid, cfg.block, cfg.smem,
                                          work});
        return cudaSuccess;
    }
    cudaError_t captured;
    if (cfg.stream && sim_captured(cfg.stream, "a kernel launch",
                                   [=]() {
                                       return sim_prog_launch(func, kernel_name(func, name0), file, line,
                                                              sim_cfg(cfg.grid, cfg.block, cfg.smem, nullptr), work);
                                   },
                                   &captured))
        return captured;
    cudaError_t e = sim_prog_launch_now(func, name0, file, line, cfg, work);
    /* the children, and theirs, breadth first */
    while (!prog_children.empty() && e == cudaSuccess) {
        std::vector<sim_child> now;
        now.swap(prog_children);
        for (size_t i = 0; i < now.size() && e == cudaSuccess; i++)
            e = sim_prog_launch_now(now[i].func, now[i].name.c_str(), now[i].file, now[i].line,
                                    sim_cfg(now[i].grid, now[i].block, now[i].smem), now[i].work);
    }
    prog_children.clear();
    return e;
}

static cudaError_t sim_prog_launch_now(const void *func, const char *name0, const char *file, int line,
                                       const sim_cfg &cfg, const sim_work &work)
{
    const char *name = kernel_name(func, name0);
    cudaError_t sticky = sim_sticky_error();
    if (sticky != cudaSuccess) {
        rec("launch\t%s\t%d\t%u,%u,%u\t%u,%u,%u\t%zu\t0\t1\n", name, line, cfg.grid.x, cfg.grid.y, cfg.grid.z,
            cfg.block.x, cfg.block.y, cfg.block.z, cfg.smem);
        sim_set_last_error(sticky);
        /* say once why nothing runs any more, as a student would ask */
        static int said;
        if (!said++) {
            fflush(stdout);
            fprintf(stderr,
                    "simulator: %s (line %d) did not run: an earlier kernel failed with %s, and as on a GPU that "
                    "error is sticky: the context is broken, so this launch and every later CUDA call (cudaMemcpy, "
                    "cudaDeviceSynchronize, ...) return %s until the program ends\n",
                    name, line, sim_cuda_error_name(sticky), sim_cuda_error_name(sticky));
            fflush(stderr);
        }
        return sticky;
    }
    record_accesses();
    /* the shape and the time, so that a run the time limit stops can say
     * how far it got */
    rec("begin\t%s\t%d\t%u,%u,%u\t%u,%u,%u\t%.3f\n", name, line, cfg.grid.x, cfg.grid.y, cfg.grid.z, cfg.block.x,
        cfg.block.y, cfg.block.z, now_s() - prog_t0);
    prog_job.err[0] = 0;
    double t0 = now_s();
    sim_shared_peak(1); /* this launch's blocks only */
    sim_race_next_stream(cfg.stream, !cfg.stream || !(cfg.stream->flags & cudaStreamNonBlocking));
    const int coop = sim_coop_next;
    sim_coop_next = 0;
    int rc;
    /* the host's locals above this frame: not the kernel's */
    const uintptr_t stack_token = sim_in_fiber() ? 0 : sim_host_stack_begin(__builtin_frame_address(0));
    if (coop) {
        /* the blocks of this shape the modelled GPU holds at once */
        unsigned long long nt = (unsigned long long)cfg.block.x * cfg.block.y * cfg.block.z;
        int per_sm = nt <= 1024 ? occ_blocks((int)nt, cfg.smem) : 0;
        rc = sim_launch_coop_fn(&prog_job, name, file, line, cfg.grid, cfg.block, cfg.smem, run_work, (void *)&work, func,
                                (unsigned long long)per_sm * (unsigned long long)model()->sms);
    } else {
        rc = sim_launch_fn(&prog_job, name, file, line, cfg.grid, cfg.block, cfg.smem, run_work, (void *)&work, func);
    }
    sim_host_stack_end(stack_token);
    double ms = (now_s() - t0) * 1e3;
    /* shared memory a block used: its static __shared__ arrays with the
     * dynamic part (the launch's third argument) */
    size_t smem = sim_shared_peak(1);
    if (smem < cfg.smem) smem = cfg.smem;
    rec("launch\t%s\t%d\t%u,%u,%u\t%u,%u,%u\t%zu\t%.6f\t%d\n", name, line, cfg.grid.x, cfg.grid.y, cfg.grid.z,
        cfg.block.x, cfg.block.y, cfg.block.z, smem, ms, rc != 0);
    if (rc == 0) return cudaSuccess;
    cudaError_t e = sim_cuda_last_error(0);
    static char msg[65536];
    /* memory errors: the whole grouped report (the job's message is cut) */
    const char *report = sim_check_report_take();
    snprintf(msg, sizeof msg, "%s", report && *report ? report : prog_job.err[0] ? prog_job.err : sim_last_diagnostic());
    if (sim_g.fault_pc) {
        char loc[600];
        if (where_of(sim_g.fault_pc, nullptr, 0, loc, sizeof loc) == 0) {
            size_t l = strlen(msg);
            snprintf(msg + l, sizeof msg - l, ", at %s", loc);
        }
    }
    fflush(stdout);
    fprintf(stderr, "simulator: %s\n", msg);
    fflush(stderr);
    rec("fault\t%s\t%s\n", sim_cuda_error_name(e), msg);
    if (sim_race_only()) {
        /* races alone: a GPU would have run the kernel (with whatever
         * values the order gave), so the context stays usable and later
         * launches run and are checked too */
        sim_cuda_last_error(1);
        return cudaSuccess;
    }
    /* a fault inside the kernel poisons the context, as on a GPU; a launch
     * refused before it started (its shape) does not */
    if (e == cudaErrorLaunchFailure || e == cudaErrorIllegalAddress || e == cudaErrorAssert ||
        e == cudaErrorHardwareStackError || e == cudaErrorIllegalInstruction || e == cudaErrorMisalignedAddress)
        sim_set_sticky_error(e);
    return e;
}

/* ------------------------------------------------------------- memory */

cudaError_t sim_prog_malloc(void **p, const char *call, const char *name, int line, size_t bytes, unsigned flags)
{
    PROG_LOCKED();
    (void)flags;
    cudaError_t e = sim_cuda_malloc_named(p, bytes, call, name, line);
    if (e != cudaSuccess && e != sim_sticky_error()) {
        const char *why = sim_diag_take();
        if (why) fprintf(stderr, "simulator: %s\n", why);
    }
    return e;
}

cudaError_t sim_prog_free(void *p, const char *call, const char *name, int line)
{
    PROG_LOCKED();
    (void)name;
    cudaError_t e = sim_cuda_free_at(p, call, line);
    if (e != cudaSuccess) {
        const char *why = sim_diag_take();
        if (why) fprintf(stderr, "simulator: %s (line %d)\n", why, line);
    } else if (strcmp(call, "cudaFreeAsync") != 0)
        sim_graph_mem_freed(p, nullptr, 0); /* cudaFree waits for the device */
    return e;
}

/* thrust's device memory (include/gpulab_thrust.h): device_vector's
 * allocator comes here, so its memory is device memory like cudaMalloc's
 * (cudaMemcpy accepts it; memcheck checks a kernel's accesses to it) and
 * is named after the line that made it. The call chain is kept as return
 * addresses and looked up only when a message needs the line. */
static void frames(uintptr_t *pcs, unsigned *n)
{
    static __thread char *lo, *hi; /* this thread's stack */
    if (!lo) {
        pthread_attr_t at;
        void *addr;
        size_t size;
        if (pthread_getattr_np(pthread_self(), &at) != 0) return;
        if (pthread_attr_getstack(&at, &addr, &size) == 0) {
            lo = (char *)addr;
            hi = lo + size;
        }
        pthread_attr_destroy(&at);
        if (!lo) return;
    }
    char **fp = (char **)__builtin_frame_address(0);
    *n = 0;
    /* the program is built with frame pointers; the chain ends (or turns
     * into something else) where a frame without one begins */
    while (*n < SIM_ORIGIN_PCS && (char *)fp >= lo && (char *)(fp + 2) <= hi && !((uintptr_t)fp & 7)) {
        pcs[(*n)++] = (uintptr_t)fp[1];
        char **next = (char **)fp[0];
        if (next <= fp) break;
        fp = next;
    }
}

void *sim_thrust_alloc(size_t bytes, const char *what)
{
    PROG_LOCKED();
    uintptr_t pcs[SIM_ORIGIN_PCS];
    unsigned n = 0;
    frames(pcs, &n);
    void *p = nullptr;
    /* memory written by thrust's own algorithms (host code here) is not
     * watched, so initcheck leaves it alone, as it does managed memory */
    if (sim_cuda_malloc_named(&p, bytes, what, nullptr, 0) != cudaSuccess) {
        sim_diag_take();
        return nullptr;
    }
    sim_mem_set_origin(p, pcs, n);
    return p;
}

void sim_thrust_free(void *p)
{
    PROG_LOCKED();
    /* after a sticky error nothing is freed (the leak report lists it) */
    if (sim_cuda_free_at(p, "thrust's free", 0) != cudaSuccess) sim_diag_take();
}

/* A file of the student's, not a header of thrust's, the toolkit's, the
 * compiler's or gpulab's runtime (the debug information names the
 * student's files as the source pass's #line does) */
static int student_source(const char *path)
{
    if (!path[0] || path[0] == '?' || runtime_file(path)) return 0;
    /* gpulab's own runtime (kernels/sim, kernels/program), by the folder
     * this file was compiled from */
    static const char *const self = __FILE__;
    static const size_t kernels = strlen(self) >= strlen("program/progrt.cpp") ? strlen(self) - strlen("program/progrt.cpp") : 0;
    if (kernels && strncmp(path, self, kernels) == 0) return 0;
    static const char *const lib[] = {"/thrust/", "/cccl/", "/cub/", "/cuda/std/", "/libcudacxx/", "/usr/local/cuda",
                                      "/program-rt/", "/lib/gpulab/", "gpulab_thrust.h", nullptr};
    for (int i = 0; lib[i]; i++)
        if (strstr(path, lib[i])) return 0;
    return 1;
}

/* The first frame of pcs (innermost first, each with its inlined calls)
 * in the student's source: one addr2line for all of them. */
static int origin_where(const uintptr_t *pcs, unsigned n, char *file, size_t flen, int *line)
{
    if (!prog_exe[0] || !n) return -1;
    std::string cmd = "addr2line -a -i -e '" + std::string(prog_exe) + "'";
    char a[32];
    for (unsigned i = 0; i < n; i++) {
        snprintf(a, sizeof a, " %#lx", (unsigned long)(pcs[i] - 1));
        cmd += a;
    }
    cmd += " 2>/dev/null";
    FILE *f = popen(cmd.c_str(), "r");
    if (!f) return -1;
    char l[1024];
    int found = -1;
    while (fgets(l, sizeof l, f)) {
        if (found == 0 || (l[0] == '0' && l[1] == 'x')) continue;
        l[strcspn(l, " \n")] = 0;
        char *colon = strrchr(l, ':');
        if (!colon) continue;
        *colon = 0;
        if (!student_source(l) || atoi(colon + 1) <= 0) continue;
        student_file(sim_basename(l), file, flen);
        *line = atoi(colon + 1);
        found = 0;
    }
    pclose(f);
    return found;
}

/* The student's line that called the runtime function running now. */
static int caller_where(char *file, size_t flen, int *line)
{
    uintptr_t pcs[SIM_ORIGIN_PCS];
    unsigned n = 0;
    frames(pcs, &n);
    return origin_where(pcs, n, file, flen, line);
}

cudaError_t sim_prog_pitch(void **p, size_t *pitch, size_t width, size_t height, const char *name, int line)
{
    /* rows start 512 bytes apart at least, as on current GPUs */
    size_t pt = (width + 511) / 512 * 512;
    if (pitch) *pitch = pt;
    return sim_prog_malloc(p, "cudaMallocPitch", name, line, pt * (height ? height : 1), 0);
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         cudaMemcpyKind kind)
{
    if (width > dpitch || width > spitch) return sim_err_value();
    for (size_t r = 0; r < height; r++) {
        cudaError_t e = sim_cuda_memcpy((char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

cudaError_t cudaMemset2D(void *p, size_t pitch, int value, size_t width, size_t height)
{
    if (width > pitch) return sim_err_value();
    for (size_t r = 0; r < height; r++) {
        cudaError_t e = sim_cuda_memset((char *)p + r * pitch, value, width);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

/* ------------------------------------------------------ streams, events */


double sim_prog_clock(void) { return now_s(); }

cudaError_t cudaStreamCreate(cudaStream_t *s) { return cudaStreamCreateWithFlags(s, 0); }
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags) { return cudaStreamCreateWithPriority(s, flags, 0); }
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags, int priority)
{
    SIM_STICKY();
    if (!s) return sim_err_value();
    /* the H200's range: 0 (least) to -5 (greatest); outside it, the nearest */
    if (priority > 0) priority = 0;
    if (priority < -5) priority = -5;
    *s = new sim_stream_s{flags, priority, nullptr, {}};
    return cudaSuccess;
}
cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
    if (least) *least = 0;
    if (greatest) *greatest = -5;
    return cudaSuccess;
}
cudaError_t cudaStreamGetPriority(cudaStream_t s, int *priority)
{
    if (!priority) return sim_err_value();
    *priority = s ? s->priority : 0;
    return cudaSuccess;
}
cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned *flags)
{
    if (!flags) return sim_err_value();
    *flags = s ? s->flags : 0;
    return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    delete s;
    return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
    SIM_STICKY();
    sim_race_stream_sync(s);
    sim_graph_mem_stream_synced(s);
    return cudaSuccess;
}
cudaError_t cudaStreamQuery(cudaStream_t) { SIM_STICKY(); return cudaSuccess; }
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned)
{
    SIM_STICKY();
    if (!e) return sim_err_handle();
    if (s && e->capture) {
        /* an event of a capture: the stream joins it, after the event's nodes */
        if (s->capture && s->capture != e->capture) return sim_err_value();
        s->capture = e->capture;
        s->tail.insert(s->tail.end(), e->at.begin(), e->at.end());
    }
    sim_race_stream_wait(s, e);
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *e) { return cudaEventCreateWithFlags(e, 0); }
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags)
{
    SIM_STICKY();
    if (!e) return sim_err_value();
    *e = new sim_event_s{0, 0, flags, nullptr, {}};
    return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    delete e;
    return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s)
{
    SIM_STICKY();
    if (!e) return sim_err_handle();
    if (s && s->capture) {
        e->capture = s->capture;
        e->at = s->tail;
        return cudaSuccess;
    }
    e->capture = nullptr;
    sim_race_event_record(e, s);
    e->t = now_s();
    e->recorded = 1;
    return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t e)
{
    SIM_STICKY();
    if (e) sim_race_event_sync(e);
    return e ? cudaSuccess : sim_err_handle();
}
cudaError_t cudaEventQuery(cudaEvent_t e)
{
    SIM_STICKY();
    return e ? cudaSuccess : sim_err_handle();
}
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
    SIM_STICKY();
    if (!ms || !a || !b) return sim_err_handle();
    if (!a->recorded || !b->recorded) {
        sim_set_last_error(cudaErrorInvalidResourceHandle);
        return cudaErrorInvalidResourceHandle;
    }
    if ((a->flags | b->flags) & cudaEventDisableTiming) {
        sim_set_last_error(cudaErrorInvalidResourceHandle);
        return cudaErrorInvalidResourceHandle;
    }
    *ms = (float)((b->t - a->t) * 1e3);
    if (!prog_events_said) {
        prog_events_said = 1;
        rec("events\n");
    }
    return cudaSuccess;
}

/* ------------------------------------------------------------- device */

static const occ_model *model(void)
{
    if (!prog_model) {
        const char *m = getenv("GPULAB_MODEL");
        prog_model = m && *m ? occ_model_find(m) : nullptr;
        if (!prog_model) prog_model = occ_model_at(0);
    }
    return prog_model;
}

/* the memory of the modelled GPU, from its title ("..., 141 GB HBM3e") */
static size_t model_memory(void)
{
    const char *t = model()->title;
    const char *g = strstr(t, " GB");
    if (!g) return (size_t)16 << 30;
    const char *s = g;
    while (s > t && (s[-1] >= '0' && s[-1] <= '9')) s--;
    return (size_t)atol(s) * 1000ull * 1000ull * 1000ull;
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    SIM_STICKY();
    size_t total = model_memory(), used = sim_mem_in_use();
    if (total_bytes) *total_bytes = total;
    if (free_bytes) *free_bytes = used < total ? total - used : 0;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceCount(int *n)
{
    sim_runtime_used(1); /* the runtime's first call initialises the driver */
    if (n) *n = 1;
    return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int *v) { if (v) *v = 13000; return cudaSuccess; }
cudaError_t cudaRuntimeGetVersion(int *v) { if (v) *v = 13000; return cudaSuccess; }

cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int device)
{
    sim_runtime_used(1);
    if (!p) return sim_err_value();
    if (device != 0) {
        sim_set_last_error(cudaErrorInvalidDevice);
        return cudaErrorInvalidDevice;
    }
    const occ_model *m = model();
    memset(p, 0, sizeof *p);
    const char *comma = strchr(m->title, ',');
    snprintf(p->name, sizeof p->name, "%.*s (simulated)", comma ? (int)(comma - m->title) : 200, m->title);
    p->totalGlobalMem = model_memory();
    p->sharedMemPerBlock = (size_t)m->smem_per_block;
    p->sharedMemPerBlockOptin = (size_t)m->smem_per_block_optin;
    p->sharedMemPerMultiprocessor = (size_t)m->smem_per_sm;
    p->regsPerBlock = m->regs_per_block;
    p->regsPerMultiprocessor = m->regs_per_sm;
    p->warpSize = m->warp_size;
    p->memPitch = 2147483647;
    p->maxThreadsPerBlock = m->max_threads_per_block;
    p->maxThreadsDim[0] = 1024;
    p->maxThreadsDim[1] = 1024;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 2147483647;
    p->maxGridSize[1] = 65535;
    p->maxGridSize[2] = 65535;
    p->totalConstMem = 65536;
    p->major = m->cc_major;
    p->minor = m->cc_minor;
    p->multiProcessorCount = m->sms;
    p->maxThreadsPerMultiProcessor = m->max_threads_per_sm;
    p->maxBlocksPerMultiProcessor = m->max_blocks_per_sm;
    p->concurrentKernels = 1;
    p->unifiedAddressing = 1;
    p->managedMemory = 1;
    p->cooperativeLaunch = 1;
    p->canMapHostMemory = 1;
    /* what the simulator has as the GPU has it: one memory for host and
     * device, streams with priorities, memory pools, no L2 to keep data in */
    p->deviceOverlap = 1;
    p->asyncEngineCount = 2;
    p->streamPrioritiesSupported = 1;
    p->globalL1CacheSupported = 1;
    p->localL1CacheSupported = 1;
    p->hostNativeAtomicSupported = 1;
    /* pageableMemoryAccess 0, as on the GPUs measured (the H200: 2026-12-07):
     * a kernel that touches malloc's memory fails (progrt_host.cpp) */
    p->concurrentManagedAccess = 1;
    p->canUseHostPointerForRegisteredMem = 1;
    p->directManagedMemAccessFromHost = 1;
    p->memoryPoolsSupported = 1;
    p->hostRegisterSupported = 1;
    p->unifiedFunctionPointers = 1;
    p->textureAlignment = 512;
    p->texturePitchAlignment = 32;
    p->surfaceAlignment = 512;
    p->maxTexture1D = 131072;
    p->maxTexture2D[0] = 131072;
    p->maxTexture2D[1] = 65536;
    p->maxTexture3D[0] = p->maxTexture3D[1] = p->maxTexture3D[2] = 16384;
    /* the other texture and surface limits, as an H200 reports them
     * (cudaGetDeviceProperties, nvcc 13.0, driver 580.159.04, 2026-12-07) */
    p->maxSurface1D = 32768;
    p->maxSurface2D[0] = 131072;
    p->maxSurface2D[1] = 65536;
    p->maxSurface3D[0] = p->maxSurface3D[1] = p->maxSurface3D[2] = 16384;
    p->maxTexture1DMipmap = 32768;
    p->maxTexture2DMipmap[0] = p->maxTexture2DMipmap[1] = 32768;
    p->maxTexture2DLinear[0] = 131072;
    p->maxTexture2DLinear[1] = 65000;
    p->maxTexture2DLinear[2] = 2097120;
    p->maxTexture2DGather[0] = p->maxTexture2DGather[1] = 32768;
    p->maxTexture3DAlt[0] = 8192;
    p->maxTexture3DAlt[1] = 8192;
    p->maxTexture3DAlt[2] = 32768;
    p->maxTextureCubemap = p->maxSurfaceCubemap = 32768;
    p->maxTexture1DLayered[0] = p->maxSurface1DLayered[0] = 32768;
    p->maxTexture1DLayered[1] = p->maxSurface1DLayered[1] = 2048;
    p->maxTexture2DLayered[0] = p->maxTexture2DLayered[1] = 32768;
    p->maxSurface2DLayered[0] = p->maxSurface2DLayered[1] = 32768;
    p->maxTexture2DLayered[2] = p->maxSurface2DLayered[2] = 2048;
    p->maxTextureCubemapLayered[0] = p->maxSurfaceCubemapLayered[0] = 32768;
    p->maxTextureCubemapLayered[1] = p->maxSurfaceCubemapLayered[1] = 2046;
    /* a simulated device: no IPC, no RDMA, no sparse arrays, no PCI
     * identity; the host's NUMA node and read-only registration as the
     * H200's */
    p->hostRegisterReadOnlySupported = 1;
    p->deviceNumaId = -1;
    p->hostNumaId = 0;
    /* the model's L2 as the GPU reports it; the simulator has no cache, so
     * the access-policy windows a program sets change nothing but are kept */
    p->l2CacheSize = (int)m->l2_bytes;
    p->persistingL2CacheMaxSize = (int)m->l2_persist_max;
    p->accessPolicyMaxWindowSize = (int)m->l2_window_max;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *v, cudaDeviceAttr a, int device)
{
    sim_runtime_used(1);
    if (!v) return sim_err_value();
    if (device != 0) {
        sim_set_last_error(cudaErrorInvalidDevice);
        return cudaErrorInvalidDevice;
    }
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    switch (a) {
    case cudaDevAttrMaxThreadsPerBlock: *v = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *v = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *v = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *v = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *v = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *v = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *v = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *v = (int)p.sharedMemPerBlock; break;
    case cudaDevAttrTotalConstantMemory: *v = (int)p.totalConstMem; break;
    case cudaDevAttrWarpSize: *v = p.warpSize; break;
    case cudaDevAttrMaxRegistersPerBlock: *v = p.regsPerBlock; break;
    case cudaDevAttrMultiProcessorCount: *v = p.multiProcessorCount; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *v = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrComputeCapabilityMajor: *v = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *v = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *v = (int)p.sharedMemPerMultiprocessor; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *v = p.regsPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: *v = 1; break;
    case cudaDevAttrCooperativeLaunch: *v = 1; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *v = (int)p.sharedMemPerBlockOptin; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *v = p.maxBlocksPerMultiProcessor; break;
    /* what the simulator does as the GPU does: one device, shared by the
     * program's host threads, with unified addressing, mapped host memory
     * (host and device are one memory), streams with priorities, memory pools */
    case cudaDevAttrComputeMode: *v = cudaComputeModeDefault; break;
    case cudaDevAttrIntegrated: *v = 0; break;
    case cudaDevAttrCanMapHostMemory:
    case cudaDevAttrConcurrentKernels:
    case cudaDevAttrUnifiedAddressing:
    case cudaDevAttrStreamPrioritiesSupported:
    case cudaDevAttrConcurrentManagedAccess:
    case cudaDevAttrHostRegisterSupported:
    case cudaDevAttrMemoryPoolsSupported: *v = 1; break;
    /* as the GPUs measured: a kernel may not touch the host's malloc'd memory */
    case cudaDevAttrPageableMemoryAccess: *v = 0; break;
    case cudaDevAttrMaxPitch: *v = (int)p.memPitch; break;
    /* the texture and surface limits, as cudaGetDeviceProperties gives them */
    case cudaDevAttrMaxTexture1DWidth: *v = p.maxTexture1D; break;
    case cudaDevAttrMaxTexture2DWidth: *v = p.maxTexture2D[0]; break;
    case cudaDevAttrMaxTexture2DHeight: *v = p.maxTexture2D[1]; break;
    case cudaDevAttrMaxTexture3DWidth: *v = p.maxTexture3D[0]; break;
    case cudaDevAttrMaxTexture3DHeight: *v = p.maxTexture3D[1]; break;
    case cudaDevAttrMaxTexture3DDepth: *v = p.maxTexture3D[2]; break;
    case cudaDevAttrMaxTexture2DLayeredWidth: *v = p.maxTexture2DLayered[0]; break;
    case cudaDevAttrMaxTexture2DLayeredHeight: *v = p.maxTexture2DLayered[1]; break;
    case cudaDevAttrMaxTexture2DLayeredLayers: *v = p.maxTexture2DLayered[2]; break;
    case cudaDevAttrMaxTexture1DLayeredWidth: *v = p.maxTexture1DLayered[0]; break;
    case cudaDevAttrMaxTexture1DLayeredLayers: *v = p.maxTexture1DLayered[1]; break;
    case cudaDevAttrMaxTexture2DGatherWidth: *v = p.maxTexture2DGather[0]; break;
    case cudaDevAttrMaxTexture2DGatherHeight: *v = p.maxTexture2DGather[1]; break;
    case cudaDevAttrMaxTexture3DWidthAlt: *v = p.maxTexture3DAlt[0]; break;
    case cudaDevAttrMaxTexture3DHeightAlt: *v = p.maxTexture3DAlt[1]; break;
    case cudaDevAttrMaxTexture3DDepthAlt: *v = p.maxTexture3DAlt[2]; break;
    case cudaDevAttrTexturePitchAlignment: *v = (int)p.texturePitchAlignment; break;
    case cudaDevAttrMaxTextureCubemapWidth: *v = p.maxTextureCubemap; break;
    case cudaDevAttrMaxTextureCubemapLayeredWidth: *v = p.maxTextureCubemapLayered[0]; break;
    case cudaDevAttrMaxTextureCubemapLayeredLayers: *v = p.maxTextureCubemapLayered[1]; break;
    case cudaDevAttrMaxSurface1DWidth: *v = p.maxSurface1D; break;
    case cudaDevAttrMaxSurface2DWidth: *v = p.maxSurface2D[0]; break;
    case cudaDevAttrMaxSurface2DHeight: *v = p.maxSurface2D[1]; break;
    case cudaDevAttrMaxSurface3DWidth: *v = p.maxSurface3D[0]; break;
    case cudaDevAttrMaxSurface3DHeight: *v = p.maxSurface3D[1]; break;
    case cudaDevAttrMaxSurface3DDepth: *v = p.maxSurface3D[2]; break;
    case cudaDevAttrMaxSurface1DLayeredWidth: *v = p.maxSurface1DLayered[0]; break;
    case cudaDevAttrMaxSurface1DLayeredLayers: *v = p.maxSurface1DLayered[1]; break;
    case cudaDevAttrMaxSurface2DLayeredWidth: *v = p.maxSurface2DLayered[0]; break;
    case cudaDevAttrMaxSurface2DLayeredHeight: *v = p.maxSurface2DLayered[1]; break;
    case cudaDevAttrMaxSurface2DLayeredLayers: *v = p.maxSurface2DLayered[2]; break;
    case cudaDevAttrMaxSurfaceCubemapWidth: *v = p.maxSurfaceCubemap; break;
    case cudaDevAttrMaxSurfaceCubemapLayeredWidth: *v = p.maxSurfaceCubemapLayered[0]; break;
    case cudaDevAttrMaxSurfaceCubemapLayeredLayers: *v = p.maxSurfaceCubemapLayered[1]; break;
    case cudaDevAttrMaxTexture2DLinearWidth: *v = p.maxTexture2DLinear[0]; break;
    case cudaDevAttrMaxTexture2DLinearHeight: *v = p.maxTexture2DLinear[1]; break;
    case cudaDevAttrMaxTexture2DLinearPitch: *v = p.maxTexture2DLinear[2]; break;
    case cudaDevAttrMaxTexture2DMipmappedWidth: *v = p.maxTexture2DMipmap[0]; break;
    case cudaDevAttrMaxTexture2DMipmappedHeight: *v = p.maxTexture2DMipmap[1]; break;
    case cudaDevAttrMaxTexture1DMipmappedWidth: *v = p.maxTexture1DMipmap; break;
    case cudaDevAttrL2CacheSize: *v = p.l2CacheSize; break;
    case cudaDevAttrMaxPersistingL2CacheSize: *v = p.persistingL2CacheMaxSize; break;
    case cudaDevAttrMaxAccessPolicyWindowSize: *v = p.accessPolicyMaxWindowSize; break;
    default: *v = 0; break; /* clock rates and the like: not modelled */
    }
    return cudaSuccess;
}

cudaError_t sim_func_attributes(cudaFuncAttributes *a, const void *f)
{
    if (!a || !f) return sim_err_value();
    memset(a, 0, sizeof *a);
    a->maxThreadsPerBlock = 1024;
    a->numRegs = 32; /* unknown on the simulator: what nvcc gives a small kernel */
    a->maxDynamicSharedSizeBytes = (int)model()->smem_per_block;
    return cudaSuccess;
}

/* Resident blocks of `block` threads and smem bytes on one SM of the model,
 * at 32 registers per thread. */
static int occ_blocks(int block, size_t smem)
{
    const occ_model *m = model();
    if (block < 1 || block > m->max_threads_per_block) return 0;
    int warps = (block + 31) / 32;
    int by_threads = m->max_threads_per_sm / (warps * 32);
    int by_regs = m->regs_per_sm / (warps * 32 * 32);
    long per = (long)((smem + (size_t)m->smem_alloc_unit - 1) / (size_t)m->smem_alloc_unit * (size_t)m->smem_alloc_unit) +
               m->smem_reserved_per_block;
    int by_smem = smem == 0 ? m->max_blocks_per_sm : (int)(m->smem_per_sm / (per ? per : 1));
    int b = m->max_blocks_per_sm;
    if (by_threads < b) b = by_threads;
    if (by_regs < b) b = by_regs;
    if (by_smem < b) b = by_smem;
    return b < 0 ? 0 : b;
}

cudaError_t sim_occ_blocks(int *blocks, int block, size_t smem)
{
    if (!blocks) return sim_err_value();
    *blocks = occ_blocks(block, smem);
    return cudaSuccess;
}

cudaError_t sim_occ_suggest(int *min_grid, int *block, size_t smem, int limit)
{
    if (!min_grid || !block) return sim_err_value();
    const occ_model *m = model();
    int best = 0, best_b = 32, lim = limit > 0 && limit < m->max_threads_per_block ? limit : m->max_threads_per_block;
    for (int b = 32; b <= lim; b += 32) {
        int t = occ_blocks(b, smem) * b;
        if (t >= best) {
            best = t;
            best_b = b;
        }
    }
    *block = best_b;
    *min_grid = occ_blocks(best_b, smem) * m->sms;
    return cudaSuccess;
}

cudaError_t sim_err_value(void)
{
    sim_set_last_error(cudaErrorInvalidValue);
    return cudaErrorInvalidValue;
}

cudaError_t sim_err_handle(void)
{
    sim_set_last_error(cudaErrorInvalidResourceHandle);
    return cudaErrorInvalidResourceHandle;
}

/* ------------------------------------------------------------- crashes */

extern "C" char __executable_start[], etext[];

/* Is the instruction at pc the student's own host code: in the program
 * (not the C library) and, by the line tables, from a file of the
 * student's, not the runtime's or a library header's (thrust's algorithms
 * read device memory from host code here)? Asked from the fault handler,
 * once per instruction. */
static int student_code_at(const void *pc)
{
    static std::mutex lk;
    static struct { const void *pc; int yes; } seen[64];
    static unsigned nseen;
    if ((const char *)pc < __executable_start || (const char *)pc >= etext || !prog_exe[0]) return 0;
    std::lock_guard<std::mutex> g(lk);
    for (unsigned i = 0; i < nseen && i < 64; i++)
        if (seen[i].pc == pc) return seen[i].yes;
    char cmd[1400];
    /* the innermost of the inlined calls: its function and its line (a
     * header included after the source pass's #line may be named with the
     * student's file, so the function's namespace decides too) */
    snprintf(cmd, sizeof cmd, "addr2line -C -f -i -e '%s' %p 2>/dev/null", prog_exe, pc);
    int yes = 0;
    FILE *f = popen(cmd, "r");
    if (f) {
        char fn[1024], l[1024];
        if (fgets(fn, sizeof fn, f) && fgets(l, sizeof l, f)) {
            /* namespaces, and the C APIs' prefixes (the runtime's cuBLAS and
             * cuRAND define their routines in headers) */
            static const char *const lib[] = {"gpulab_sim::", "thrust::", "cub::", "std::", "__gnu_cxx::", "nvcuda::",
                                              "cooperative_groups::", "cuda", "cublas", "curand", "cusparse",
                                              "cufft", nullptr};
            l[strcspn(l, " \n")] = 0;
            char *colon = strrchr(l, ':');
            if (colon) {
                *colon = 0;
                yes = student_source(l) && atoi(colon + 1) > 0;
            }
            /* the function's own name: "ns::f(...)", or "void ns::f<float>(...)" */
            const char *paren = strchr(fn, '(');
            for (int i = 0; lib[i]; i++)
                for (const char *at = strstr(fn, lib[i]); at && (!paren || at < paren); at = strstr(at + 1, lib[i]))
                    if (at == fn || at[-1] == ' ') yes = 0;
        }
        while (fgets(l, sizeof l, f)) {}
        pclose(f);
    }
    seen[nseen++ % 64] = {pc, yes};
    return yes;
}

static void crash(int sig, siginfo_t *si, void *uctx)
{
    void *pc = nullptr;
#if defined(__x86_64__)
    pc = (void *)((ucontext_t *)uctx)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    pc = (void *)((ucontext_t *)uctx)->uc_mcontext.pc;
#else
    (void)uctx;
#endif
    /* device memory, unreadable while host code runs (memory.cpp): the
     * runtime's own copy, or a library's code, opens it and goes on; the
     * student's host code touching it crashes, as it does on a GPU */
    if ((sig == SIGSEGV || sig == SIGBUS) && sim_mem_closed(si->si_addr) &&
        (sim_g.in_launch || !student_code_at(pc)) && sim_mem_open(si->si_addr))
        return;
    char why[512] = "";
    if (sig == SIGSEGV || sig == SIGBUS) {
        int w = 0;
#if defined(__x86_64__)
        w = (((ucontext_t *)uctx)->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#endif
        if (!sim_mem_explain(si->si_addr, w, why, sizeof why))
            snprintf(why, sizeof why, "%s address %p", w ? "writes" : "reads", si->si_addr);
    }
    const char *k = sim_g.in_launch ? sim_g.kernel : "";
    rec("crash\t%d\t%p\t%s\t%s\n", sig, pc, k ? k : "", why);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Is the SIGSEGV handler in place the runtime's: crash, or a launch's
 * (another host thread's launch may be starting or ending as this asks)? */
static int segv_ours(void)
{
    struct sigaction cur;
    if (sigaction(SIGSEGV, nullptr, &cur) != 0) return 1;
    return (cur.sa_flags & SA_SIGINFO) && (cur.sa_sigaction == crash || cur.sa_sigaction == sim_segv_handler());
}

/* memcheck's access sites: the program's own line through addr2line */
static int site_where(uintptr_t site, char *file, size_t filelen, int *line)
{
    char loc[600];
    if (where_of((const char *)site - 1, nullptr, 0, loc, sizeof loc) != 0) return -1;
    char *colon = strrchr(loc, ':');
    if (!colon) return -1;
    *colon = 0;
    snprintf(file, filelen, "%s", loc);
    *line = atoi(colon + 1);
    return *line > 0 ? 0 : -1;
}

/* Leaks: device memory still allocated when the program ends (or at
 * cudaDeviceReset), as compute-sanitizer --leak-check full lists it. */
void sim_prog_leaks(void)
{
    if (!(sim_check_mode() & SIM_CHECK_LEAKS)) return;
    static char buf[16384];
    unsigned n = sim_check_leaks(buf, sizeof buf);
    if (!n) return;
    fflush(stdout);
    if (sim_sticky_error() != cudaSuccess)
        fprintf(stderr,
                "simulator: %u allocation%s never freed: after the sticky %s, cudaFree frees nothing, as on a GPU "
                "(a leak otherwise: each cudaMalloc needs its cudaFree):\n",
                n, n == 1 ? " was" : "s were", sim_cuda_error_name(sim_sticky_error()));
    else
        fprintf(stderr, "simulator: %u allocation%s never freed (a leak: each cudaMalloc needs its cudaFree):\n", n,
                n == 1 ? " was" : "s were");
    for (char *l = buf; *l;) {
        char *nl = strchr(l, '\n');
        if (nl) *nl = 0;
        fprintf(stderr, "  leaked: %s\n", l);
        if (!nl) break;
        l = nl + 1;
    }
    fflush(stderr);
}

static void report_leaks(void) { sim_prog_leaks(); }

__attribute__((constructor)) static void prog_init(void)
{
    prog_t0 = now_s();
    const char *r = getenv("GPULAB_RESULT");
    if (r && *r) prog_fd = open(r, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    ssize_t n = readlink("/proc/self/exe", prog_exe, sizeof prog_exe - 1);
    prog_exe[n > 0 ? n : 0] = 0;
    setvbuf(stdout, nullptr, _IOLBF, 0);
    const char *rc = getenv("GPULAB_RACE_CHECK");
    prog_cfg.race_check = rc && *rc == '1';
    /* `set check`: "MODE,LIMIT" (0: the default) */
    const char *ck = getenv("GPULAB_CHECK");
    if (ck && *ck) {
        int mode = 0, limit = 0;
        if (sscanf(ck, "%d,%d", &mode, &limit) >= 1 && mode) sim_check_set_mode(mode);
        if (limit > 0) sim_report_set_limit((unsigned)limit);
    }
    const char *sc = getenv("GPULAB_SCHEDULE");
    if (sc && *sc) {
        int kind = 0;
        unsigned long long seed = 0;
        if (sscanf(sc, "%d,%llu", &kind, &seed) >= 1) sim_schedule_set(kind, seed);
    }
    sim_check_set_where(site_where);
    sim_mem_set_origin_resolver(origin_where);
    sim_mem_set_caller_resolver(caller_where);
    sim_mem_set_segv_check(segv_ours);
    atexit(report_leaks);
    prog_cfg.repeats = 1;
    prog_job.cfg = &prog_cfg;
    sim_mem_guarded(1);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = crash;
    sa.sa_flags = SA_SIGINFO; /* crash() resets the handler where it ends the program */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, nullptr);
    sigaction(SIGBUS, &sa, nullptr);
    sigaction(SIGFPE, &sa, nullptr);
    sigaction(SIGILL, &sa, nullptr);
    sigaction(SIGABRT, &sa, nullptr);
}

} /* namespace gpulab_sim */
