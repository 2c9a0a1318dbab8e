/* sandbox.h - within kernels/program/: a student's build or program run
 * confined (sandbox.c; docs/reliability.md says what it allows).
 *
 * The confinement, from the strongest the kernel grants:
 *   namespaces   user, mount, PID, network, IPC, UTS: the process sees a root
 *                made of the system's programs and libraries (read-only),
 *                the paths given (read-only or writable), a private /tmp and
 *                working directory, its own /proc and a /dev of the harmless
 *                devices (plus the GPU's); no network; its whole process
 *                tree dies with the namespace's first process
 *   seccomp      no network sockets, no ptrace, mount, keyring, BPF,
 *                io_uring, nested namespaces, terminal input injection; a
 *                forbidden call ends the program with SIGSYS
 *   limits       processes, address space (the simulator), file size, no
 *                core dumps; a new session without a terminal; standard
 *                input /dev/null, output through the descriptors given
 * Where the kernel refuses namespaces (some containers), the rest applies
 * and sbx_state() says what is missing. */
#ifndef GPULAB_SANDBOX_H
#define GPULAB_SANDBOX_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

#define SBX_MAX_PATHS 24

typedef struct sbx_spec {
    const char *path;             /* the absolute path of what runs (NULL: argv[0]) */
    char *const *argv;
    char *const *env;             /* its whole environment, NULL-terminated */
    const char *ro[SBX_MAX_PATHS];/* visible read-only at their own place */
    int nro;
    const char *rw[4];            /* visible writable at their own place */
    int nrw;
    /* the working directory: this folder's path, a private writable folder
     * whose entries lead (read-only) to the real folder's; NULL: /tmp */
    const char *workdir;
    int gpu;                      /* the GPU's devices (/dev/nvidia*) and /sys */
    int fd[6];                    /* become descriptors 0..5 (-1: closed) */
    long long mem_limit;          /* bytes of address space; 0: none */
    long long file_limit;         /* bytes a file written may reach; 0: none */
    long long tmp_size;           /* bytes of /tmp and of the working folder */
    int nproc;                    /* processes and threads; 0: none */
} sbx_spec;

/* Runs at once at most (sbx_start refuses more). */
#define SBX_SLOTS 8

typedef struct sbx_proc {
    pid_t pid;                    /* gpulab's child (kill it and all goes) */
    int status_fd;                /* how it ended, or why it could not start */
    int life_fd;                  /* the lifeline's end gpulab holds while it runs */
    int isolated;                 /* in namespaces */
    int slot;                     /* which of the SBX_SLOTS (and its cgroup) */
    int reaped;                   /* gpulab has waited for it already */
    long peak_kb;                 /* once reaped: the most memory (RSS) one of its processes held */
} sbx_proc;

/* How the program ended, as the sandbox's first process saw it. */
typedef struct sbx_end {
    int started;                  /* 0: it could not start; why says why */
    int exited, code;             /* exit status */
    int signal;                   /* the signal that ended it, 0 if none */
    long peak_kb;                 /* the largest resident size of its processes, KiB */
    char why[256];
} sbx_end;

/* What this machine enforces: 1 all, 0 without namespaces (why says why,
 * once found; the first call probes, a few milliseconds). */
int sbx_state(char *why, size_t len);
/* set sandbox off: no namespaces, no seccomp (limits and the session stay). */
void sbx_set_enabled(int on);
int sbx_enabled(void);

/* Start spec's argv confined. 0 with p filled; -1 with the reason. */
int sbx_start(const sbx_spec *spec, sbx_proc *p, char *err, size_t errlen);
/* Stop it and every process it started (async-signal-safe). */
void sbx_kill(const sbx_proc *p);
/* Wait for its end (after sbx_kill, or when its output has closed). */
void sbx_wait(sbx_proc *p, sbx_end *e);

/* Run spec confined to its end: standard output and error (spec's fd[1]
 * and fd[2] are made here; merge: one pipe for both, in the order written)
 * go to out as they come, fd 1 or 2; killed at time_limit seconds (0: never)
 * or when *interrupt becomes nonzero. 0 when it ran (e says how it ended),
 * -1 with the reason when it could not start. */
typedef struct sbx_run_end {
    sbx_end end;
    int timed_out, interrupted;
    double seconds;
} sbx_run_end;
int sbx_run(sbx_spec *spec, int merge, double time_limit, volatile sig_atomic_t *interrupt,
            void (*out)(void *ctx, int fd, const char *buf, size_t n), void *ctx, sbx_run_end *r, char *err,
            size_t errlen);

/* sbx_run in parts, so that several runs go on at once (each in its own
 * sandbox, slot and cgroup): sbx_job_start starts one (0, or -1 with the
 * reason: then the job is not started); sbx_jobs_step waits at most 50 ms
 * for output or an end of any of the jobs not done, passes output on,
 * applies each job's limits, and finishes the jobs that ended (done set,
 * r filled, as sbx_run fills it); it returns how many it finished.
 * sbx_job_kill stops one (it ends at a later step, interrupted). sbx_run is
 * sbx_job_start and steps until done. */
typedef struct sbx_job {
    sbx_proc p;
    int fd[3];                    /* its output, its errors (-1: merged), the end of p (pidfd; -1: none) */
    int open_fds, merge, killed, done;
    double t0, killed_at, time_limit;
    volatile sig_atomic_t *interrupt;
    void (*out)(void *ctx, int fd, const char *buf, size_t n);
    void *ctx;
    sbx_run_end *r;
} sbx_job;
int sbx_job_start(sbx_job *j, sbx_spec *spec, int merge, double time_limit, volatile sig_atomic_t *interrupt,
                  void (*out)(void *ctx, int fd, const char *buf, size_t n), void *ctx, sbx_run_end *r, char *err,
                  size_t errlen);
int sbx_jobs_step(sbx_job *const *jobs, int n);
void sbx_job_kill(sbx_job *j);

/* The sandboxes running now, killed (for gpulab's SIGTERM/SIGHUP/SIGQUIT
 * handlers; async-signal-safe). */
void sbx_kill_current(void);

#endif
