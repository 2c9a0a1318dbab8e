/* program.h - a student's own CUDA program: the source pass, the build and
 * the isolated run (kernels/program/). See docs/programs.md.
 *
 *   prog_translate()  plain CUDA C++ -> the simulator's shim (or, for the GPU,
 *                     the same file with its launches timed), keeping the
 *                     file's line numbers; refuses what cannot run, with the
 *                     line and the reason
 *   prog_build()      compile once per backend and content, cached under
 *                     $XDG_CACHE_HOME/gpulab/programs/
 *   prog_run()        run the binary confined (sandbox.h: namespaces, seccomp,
 *                     limits) with a time and a memory limit; its output
 *                     comes back through a callback, its launches and
 *                     diagnostics through descriptors gpulab made, read with
 *                     size limits and checked
 *
 * Nothing here prints: messages go into the structs and buffers given. */
#ifndef GPULAB_PROGRAM_H
#define GPULAB_PROGRAM_H

#include <signal.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PROG_PATH_MAX 1024
#define PROG_MAX_KERNELS 64
#define PROG_MAX_ISSUES 32
#define PROG_MAX_INCLUDES 32
#define PROG_MAX_LAUNCHES 64
#define PROG_MSG_MAX 4096
#define PROG_MAX_SOURCES 32   /* source files of one program */
#define PROG_MAX_UNITS 160    /* its sources and its own headers */
#define PROG_MAX_OPTIONS 32   /* compiler options given to open */

/* What a student's build or program may use (docs/reliability.md) */
#define PROG_FILE_LIMIT (1ll << 30)   /* bytes a file it writes may reach */
#define PROG_TMP_SIZE (256ll << 20)   /* bytes of its /tmp, and of its working folder */
#define PROG_NPROC 512                /* its processes and threads */
#define PROG_COMPILE_LIMIT 300.0      /* seconds a compiler may run */
#define PROG_SOURCE_MAX (8ll << 20)   /* bytes of a source file or header read */
/* The path a program writes its prog_options.output_max file at */
#define PROG_OUTPUT_PATH "/dev/fd/5"

/* ----------------------------------------------------------- source pass */

enum prog_mode {
    PROG_SIM = 0, /* for g++ and the simulator's shim */
    PROG_GPU      /* for nvcc: unchanged but for timed launches */
};

typedef struct prog_kernel {
    char name[64];
    int line;
} prog_kernel;

/* Something that cannot run on the simulator (or cannot be understood). */
typedef struct prog_issue {
    char file[256]; /* the file's name as the student wrote it */
    int line;
    char msg[320];
} prog_issue;

typedef struct prog_source {
    char *text;                       /* the translated text (malloc'd) */
    size_t len;
    prog_kernel kernels[PROG_MAX_KERNELS];
    int nkernels;
    prog_issue issues[PROG_MAX_ISSUES];
    int nissues;
    char includes[PROG_MAX_INCLUDES][256]; /* "x.cuh": local headers named by #include "..." */
    int nincludes;
    /* the names of the kernels that are templates (a subset of kernels) */
    char template_kernels[PROG_MAX_KERNELS][64];
    int template_kernel_needs[PROG_MAX_KERNELS]; /* their template parameters without a default */
    int ntemplate_kernels;
    /* the names of the template __device__ functions */
    char template_devfns[PROG_MAX_KERNELS][64];
    int ntemplate_devfns;
    int device_launches;              /* launches from device code (dynamic parallelism) */
    int thrust;                       /* includes thrust (built with the toolkit's, on the host backend) */
    int libs;                         /* the CUDA libraries it includes (PROG_LIB_*) */
    int lanes;                        /* kernels given a lane-loop form (prog_lanes) */
} prog_source;

/* the CUDA libraries a program may name by their headers, linked by nvcc */
/* PROG_LIB_CUDA: cuda.h, the driver API (libcuda, which the GPU build links) */
enum { PROG_LIB_CURAND = 1, PROG_LIB_CUBLAS = 2, PROG_LIB_CUFFT = 4, PROG_LIB_CUSPARSE = 8, PROG_LIB_CUDA = 16 };

/* Translate src (len bytes) of the file shown as `shown` (for messages; the
 * #line directive names `path`). 0 ok (issues may still be listed: then the
 * program cannot run on this backend), -1 out of memory. */
int prog_translate(const char *src, size_t len, const char *path, const char *shown, enum prog_mode mode,
                   prog_source *out);

/* What the pass over one file of a program of several files needs to know
 * from outside it. */
typedef struct prog_tx_opts {
    /* #include NAME (angle: <NAME>) of the file being translated: the name
     * of the translated copy to include instead (written into buf), 0; or -1
     * to leave the directive to the compiler (a system or CUDA header) */
    int (*resolve)(void *ctx, const char *name, int angle, char *buf, size_t len);
    void *ctx;
    /* kernels declared as templates anywhere in the program: a launch that
     * names one without its template arguments lets the compiler deduce them */
    const char (*template_kernels)[64];
    const int *template_kernel_needs; /* their template parameters without a default */
    int ntemplate_kernels;
    /* template __device__ functions anywhere in the program: a shared array
     * given to one goes as its address */
    const char (*template_devfns)[64];
    int ntemplate_devfns;
    /* contract a*b + c in device code into fused multiply-adds, as nvcc does
     * by default (-fmad=true): the simulator's device functions are compiled
     * with PROG_SIM_FMAD_ATTR (prog_sim_fmad says where) */
    int fmad;
} prog_tx_opts;
#define PROG_SIM_FMAD_ATTR "__attribute__((target(\"fma\")))"
/* 1 where the simulator's device code gets fused multiply-adds: an x86-64
 * CPU with FMA, and no -fmad=false among the program's options */
int prog_sim_fmad(const char *const *options);
int prog_translate_opts(const char *src, size_t len, const char *path, const char *shown, enum prog_mode mode,
                        const prog_tx_opts *opts, prog_source *out);
void prog_source_free(prog_source *s);
/* The simulator's second step (lanes.c): a kernel whose barriers split it
 * into regions the pass can prove safe also gets K__sim_lanes, each region
 * a loop over the block's threads, and its launches in this file get both.
 * 0 (s->lanes: how many), -1 out of memory (s unchanged). */
int prog_lanes(prog_source *s);
/* The same for one of gpulab's own kernel files (kernels/kern.h's SHARED and
 * TRACE_ macros), whose LAUNCH(kernel, ...) lines become LAUNCH_LANES(kernel,
 * form, ...); lanes_gen.c runs it at build time. */
int prog_lanes_builtin(prog_source *s);

/* ------------------------------------------------------------- programs */

typedef struct prog_launch {
    char kernel[64];
    int line;                 /* where it was launched, in the student's file */
    unsigned grid[3], block[3];
    size_t smem;
    int count;                /* launches of this kernel at this line with this shape */
    double ms;                /* their total time (simulator: host time) */
    int failed;               /* launches that failed */
} prog_launch;

typedef struct prog_result {
    int ran;                  /* 0: could not build or start; msg says why */
    int exit_code;            /* exit status when it exited */
    int signal;               /* the signal that ended it, 0 if none */
    int timed_out;            /* it hit the time limit */
    int interrupted;          /* stopped by Ctrl-C */
    int out_of_memory;        /* hit the memory limit (as far as we can tell) */
    double seconds;           /* wall time of the run */
    double build_seconds;     /* time to build (0 when cached) */
    int cached;
    prog_launch launches[PROG_MAX_LAUNCHES];
    int nlaunches;
    int launches_dropped;
    char running[128];        /* the kernel running when it ended abnormally ("" if none) */
    unsigned long long running_threads; /* its threads (grid x block) */
    double running_since;     /* when it was launched, seconds after the program started */
    char fault[1024];         /* the simulator's explanation of a crash, with the source line */
    int used_events;          /* it timed with CUDA events (simulator: simulator time) */
    char *out;                /* everything it wrote to stdout (malloc'd) */
    size_t out_len;
    char *err;                /* everything it wrote to stderr (malloc'd) */
    size_t err_len;
    char msg[PROG_MSG_MAX];   /* build errors (as the compiler printed them), refusals, ... */
    /* the automatic access trace (kernels/sim/acctrace.h) when the options
     * asked for it and the build records (malloc'd; NULL otherwise) */
    struct acc_trace *acc;
    char acc_why[160];        /* why there is none, when one was asked for */
    char *output;             /* what it wrote at PROG_OUTPUT_PATH (malloc'd; NULL: nothing) */
    size_t output_len;
    int output_cut;           /* it wrote more than output_max */
    long peak_kb;             /* the largest resident size of its processes, KiB (0: not known) */
} prog_result;

/* `set check`: the simulator's memory checks (kernels/sim/check.h's
 * SIM_CHECK_* bits), as compute-sanitizer's tools. */
enum { PROG_CHECK_MEMCHECK = 1, PROG_CHECK_INITCHECK = 2, PROG_CHECK_LEAKS = 4, PROG_CHECK_SET = 0x100 };
#define PROG_CHECK_DEFAULT (PROG_CHECK_MEMCHECK | PROG_CHECK_LEAKS)
#define PROG_CHECK_LIMIT_DEFAULT 20
/* The checks of the built-in variants' launches in this process from now
 * on (check 0: the default; limit 0: 20 distinct errors per launch). A
 * student's program gets them through prog_options. */
void prog_check_mode(int check, int limit);
/* `set schedule`: the order the simulator runs the built-in variants'
 * threads and blocks in (kernels/sim/race.h) */
void prog_schedule(int kind, unsigned long long seed);
/* the schedules (kernels/sim/race.h's SIM_SCHED_*, in the same order) and
 * their names: fixed, random, reverse, adversarial; parse: -1 unknown */
enum { PROG_SCHED_FIXED = 0, PROG_SCHED_RANDOM, PROG_SCHED_REVERSE, PROG_SCHED_ADVERSARIAL };
int prog_schedule_parse(const char *name);
/* `set sim-threads`: worker threads of the built-in variants' launches
 * (0: one per core); -1 out of range. A student's program gets it through
 * prog_options. */
int prog_sim_threads(int n);
const char *prog_schedule_name(int kind);

typedef struct prog_options {
    enum prog_mode backend;
    double time_limit;        /* seconds; 0: none */
    long long mem_limit;      /* bytes of address space (simulator only); 0: 3/4 of this machine's memory */
    int race_check;
    int schedule;             /* the simulator's schedule (SIM_SCHED_*, kernels/sim/race.h) and its seed */
    unsigned long long schedule_seed;
    int check, check_limit;   /* memory checks: PROG_CHECK_* | PROG_CHECK_SET, and distinct errors per launch (0: the defaults) */
    int sim_threads;          /* worker threads of a launch on the simulator (0: one per core) */
    const char *model;        /* the GPU model the simulator describes ("h200") */
    int argc;                 /* arguments for the program's main */
    char **argv;
    /* the compiler options given to open, NULL-terminated, or NULL:
     * -DNAME[=VALUE], -UNAME, -IFOLDER (absolute), -std=..., -O0..3 */
    const char *const *defines;
    int merge_output;         /* stderr into stdout, in the order written (out holds both) */
    /* output as it comes: fd 1 or 2 */
    void (*on_output)(void *ctx, int fd, const char *buf, size_t n);
    void *ctx;
    volatile sig_atomic_t *interrupt; /* set (by a SIGINT handler) to stop the program */
    /* simulator: record every access of the first record_blocks blocks of
     * each launch (0: none), at most record_lanes lane accesses (0: the
     * default bound), into prog_result.acc */
    unsigned record_blocks;
    unsigned long long record_lanes;
    /* > 0: the program may write a file of up to this many bytes at
     * PROG_OUTPUT_PATH (give it in argv); it comes back in prog_result.output */
    size_t output_max;
} prog_options;

/* The open program: its path and what the last translation found. */
typedef struct prog {
    char path[PROG_PATH_MAX];  /* absolute; the first of its source files */
    char shown[256];           /* as typed */
    char srcs[PROG_MAX_SOURCES][PROG_PATH_MAX]; /* every source file, absolute (srcs[0] is path) */
    int nsrcs;
    int nheaders;              /* the program's own headers that the source pass read */
    int device_launches;       /* it launches kernels from device code: nvcc needs -rdc */
    int thrust;                /* it includes thrust: on the simulator, the toolkit's thrust on its C++ backend */
    int libs;                  /* the CUDA libraries it includes (PROG_LIB_*) */
    int lanes;                 /* its kernels given a lane-loop form by the last translation (lanes.c) */
    int no_lanes;              /* translate without lane-loop forms (the build's second try) */
    prog_kernel kernels[PROG_MAX_KERNELS];
    int nkernels;
    prog_issue issues[PROG_MAX_ISSUES];  /* what cannot run on the simulator */
    int nissues;
    prog_result last;          /* the last run (launches for show) */
    int have_last;
    int last_backend;
} prog;

/* Open (or reload) a program: read it, translate it for the simulator to
 * list its kernels and refusals. 0 ok, -1 with msg. */
int prog_open(prog *p, const char *path, char *msg, size_t msglen);
/* Open a program of n source files (paths as typed), with the compiler
 * options it will be built with (NULL-terminated, or NULL; -I folders
 * absolute): their own headers are found as the compiler finds them, and
 * what cannot run is listed from all of them. 0 ok, -1 with msg. */
int prog_open_sources(prog *p, const char *const *paths, int n, const char *const *options, char *msg,
                      size_t msglen);
void prog_close(prog *p);

/* What open was given, as source files and compiler options: a file, a
 * folder (its CMakeLists.txt, else its Makefile, else its .cu/.cpp/.cc
 * files), a CMakeLists.txt (add_executable's files, include_directories,
 * compile definitions, CMAKE_CUDA_STANDARD) or a Makefile (the source files
 * and -I/-D/-std words it names), or an option (-I, -D, -U, -std=, -O). */
typedef struct prog_project {
    char files[PROG_MAX_SOURCES][PROG_PATH_MAX];
    int nfiles;
    char options[PROG_MAX_OPTIONS][PROG_PATH_MAX + 8]; /* -I folders absolute */
    int noptions;
    char note[256];           /* something to tell (a CMakeLists.txt of several programs) */
} prog_project;
/* Add arg (relative to the folder base, or to the working folder when base
 * is NULL) to pr. 0 ok, -1 with msg. */
int prog_project_add(prog_project *pr, const char *arg, const char *base, char *msg, size_t msglen);
/* 1 when arg is a compiler option open accepts. */
int prog_option_ok(const char *arg);
/* 1 when a line of the compiler's messages is a source excerpt under a
 * message ("   12 |   code", "      |   ^~~") */
int prog_log_snippet(const char *line, size_t len);

/* Build (or find in the cache) and run. Fills r (free with prog_result_free).
 * 0 when it ran (whatever its exit status), -1 when it could not (r->msg). */
int prog_run(prog *p, const prog_options *o, prog_result *r);
void prog_result_free(prog_result *r);
/* n runs of p, run i with o[i], at most jobs at once (each in its own
 * sandbox; started in index order), as though each were
 *     rc = prog_run(p, &o[i], &r); if (done(ctx, i, &r, rc)) stop;
 * in turn: done sees the runs strictly in index order, each once the runs
 * before it were seen; nonzero from done stops the rest (runs under way
 * are killed and not seen). r is freed after done returns. jobs 1: exactly
 * the loop above. Returns how many runs done saw. */
int prog_run_each(prog *p, const prog_options *o, int n, int jobs,
                  int (*done)(void *ctx, int i, prog_result *r, int rc), void *ctx);

/* The GPU toolchain: 1 when nvcc is found and a GPU is present; else 0 with
 * the reason in why. */
int prog_gpu_available(char *why, size_t len);

/* The sandbox on this machine: 2 when it is whole; 1 with namespaces but
 * without the process limit (root where no pids cgroup can be made), why
 * says so; 0 without namespaces (the kernel refuses them, or `set sandbox
 * off`), why says why. prog_sandbox_set(0) runs programs with limits only. */
int prog_sandbox_state(char *why, size_t len);
void prog_sandbox_set(int on);
/* Without namespaces: the Landlock ABI that confines the program's files
 * instead (1 or more), 0 when the kernel has none (or namespaces hold). */
int prog_sandbox_landlock(void);
int prog_sandbox_on(void);
/* The program or build running now, killed with every process it started
 * (for gpulab's handlers of SIGTERM, SIGHUP, SIGQUIT: async-signal-safe). */
void prog_kill_running(void);

/* A folder of gpulab's cache, made with the folders above it (mode 0700):
 * $XDG_CACHE_HOME/gpulab/NAME, else ~/.cache/gpulab/NAME, else
 * /tmp/gpulab-UID/NAME. Builds are cached in "programs", the puzzles'
 * checks work in "puzzles". 0 ok, -1 with errno. */
int prog_cache_dir(const char *name, char *buf, size_t len);

/* 64-bit FNV-1a, for content hashes. */
unsigned long long prog_hash(unsigned long long h, const void *data, size_t n);

#ifdef __cplusplus
}
#endif
#endif
