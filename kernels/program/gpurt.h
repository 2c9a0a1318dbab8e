/* gpurt.h - included (nvcc -include) into a student's program built for the
 * GPU. The source pass wraps each launch as
 *     (gpulab_gpu_pre("K", __FILE__, __LINE__, cfg), K<<<cfg>>>(args), gpulab_gpu_post())
 * so gpulab can list the launches and their times as on the simulator. Each
 * launch gets two events on its own stream; nothing waits for them until the
 * program ends, so the program's own order and overlap stay as written.
 * cudaLaunchKernel and cudaLaunchCooperativeKernel are launches too: macros
 * below put the same two events around them. The records go to
 * $GPULAB_RESULT (the format in docs/programs.md). A program's host threads
 * may launch at once (OpenMP tasks, each on its own stream): each thread
 * keeps the launch it is making, and the finished records are added to the
 * list under a lock. */
#ifndef GPULAB_GPURT_H
#define GPULAB_GPURT_H

#include <cuda_runtime.h>
#include <fcntl.h>
#include <mutex>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct gpulab_gpu_rec {
    const char *name;
    int line;
    dim3 g, b;
    size_t smem;
    cudaEvent_t e0, e1;
    int failed;
};
enum { GPULAB_GPU_MAX = 4096 };
static gpulab_gpu_rec gpulab_gpu_recs[GPULAB_GPU_MAX];
static int gpulab_gpu_n, gpulab_gpu_fd = -2;
static std::mutex gpulab_gpu_lock;
/* the launch this thread is making, and its stream */
static thread_local gpulab_gpu_rec gpulab_gpu_cur;
static thread_local cudaStream_t gpulab_gpu_stream;

/* output that reaches gpulab before a crash, as on the simulator */
__attribute__((constructor)) static void gpulab_gpu_init(void) { setvbuf(stdout, NULL, _IOLBF, 0); }

static inline void gpulab_gpu_write(const char *s)
{
    if (gpulab_gpu_fd >= 0) {
        ssize_t w = write(gpulab_gpu_fd, s, strlen(s));
        (void)w;
    }
}

/* with gpulab_gpu_lock held */
static void gpulab_gpu_flush_locked(void)
{
    char buf[512];
    for (int i = 0; i < gpulab_gpu_n; i++) {
        gpulab_gpu_rec *r = &gpulab_gpu_recs[i];
        float ms = 0;
        if (r->e0 && cudaEventSynchronize(r->e1) == cudaSuccess) cudaEventElapsedTime(&ms, r->e0, r->e1);
        snprintf(buf, sizeof buf, "launch\t%s\t%d\t%u,%u,%u\t%u,%u,%u\t%zu\t%.6f\t%d\n", r->name, r->line, r->g.x,
                 r->g.y, r->g.z, r->b.x, r->b.y, r->b.z, r->smem, (double)ms, r->failed);
        gpulab_gpu_write(buf);
    }
    gpulab_gpu_n = 0;
}

static void gpulab_gpu_flush(void)
{
    std::lock_guard<std::mutex> lk(gpulab_gpu_lock);
    gpulab_gpu_flush_locked();
}

static inline void gpulab_gpu_pre(const char *name, const char *file, int line, dim3 g, dim3 b, size_t smem = 0,
                                  cudaStream_t st = 0)
{
    (void)file;
    {
        std::lock_guard<std::mutex> lk(gpulab_gpu_lock);
        if (gpulab_gpu_fd == -2) {
            const char *p = getenv("GPULAB_RESULT");
            gpulab_gpu_fd = p && *p ? open(p, O_WRONLY | O_APPEND | O_CLOEXEC) : -1;
            atexit(gpulab_gpu_flush);
        }
    }
    char buf[256];
    snprintf(buf, sizeof buf, "begin\t%s\t%d\n", name, line);
    gpulab_gpu_write(buf);
    gpulab_gpu_rec *r = &gpulab_gpu_cur;
    r->name = name;
    r->line = line;
    r->g = g;
    r->b = b;
    r->smem = smem;
    r->failed = 0;
    r->e0 = r->e1 = 0;
    if (cudaEventCreate(&r->e0) != cudaSuccess || cudaEventCreate(&r->e1) != cudaSuccess) r->e0 = 0;
    else cudaEventRecord(r->e0, st);
    gpulab_gpu_stream = st;
}

/* failed: the launch returned an error (cudaLaunchKernel's) */
static inline void gpulab_gpu_post(int failed = 0)
{
    gpulab_gpu_rec *r = &gpulab_gpu_cur;
    /* a launch refused at once (its shape): peek, so the program still sees the error */
    if (failed || cudaPeekAtLastError() != cudaSuccess) r->failed = 1;
    if (r->e0) cudaEventRecord(r->e1, gpulab_gpu_stream);
    std::lock_guard<std::mutex> lk(gpulab_gpu_lock);
    if (gpulab_gpu_n == GPULAB_GPU_MAX) gpulab_gpu_flush_locked();
    gpulab_gpu_recs[gpulab_gpu_n++] = *r;
}

/* The kernel of a cudaLaunchKernel as the program wrote it, without a cast
 * or an address-of: "(void *)grid_sum" is grid_sum. Kept until the records
 * are written at exit. */
static const char *gpulab_gpu_kname(const char *expr)
{
    const char *p = expr;
    for (;;) {
        while (*p == ' ' || *p == '&') p++;
        if (*p != '(') break;
        int depth = 0;
        const char *q = p;
        for (; *q; q++) {
            if (*q == '(') depth++;
            else if (*q == ')' && --depth == 0) break;
        }
        if (!*q || !q[1]) break; /* the whole expression in parentheses: keep it */
        p = q + 1;
    }
    size_t n = strlen(p);
    while (n && p[n - 1] == ' ') n--;
    char *s = (char *)malloc(n + 1);
    if (!s) return expr;
    memcpy(s, p, n);
    s[n] = 0;
    return s;
}

template <class F>
static inline cudaError_t gpulab_gpu_launch(int coop, const char *expr, const char *file, int line, F func, dim3 g,
                                            dim3 b, void **args, size_t smem = 0, cudaStream_t st = 0)
{
    gpulab_gpu_pre(gpulab_gpu_kname(expr), file, line, g, b, smem, st);
    cudaError_t e = coop ? cudaLaunchCooperativeKernel(func, g, b, args, smem, st)
                         : cudaLaunchKernel(func, g, b, args, smem, st);
    gpulab_gpu_post(e != cudaSuccess);
    return e;
}
#define cudaLaunchKernel(f, ...) gpulab_gpu_launch(0, #f, __FILE__, __LINE__, f, __VA_ARGS__)
#define cudaLaunchCooperativeKernel(f, ...) gpulab_gpu_launch(1, #f, __FILE__, __LINE__, f, __VA_ARGS__)

#endif
