/* gpurt.h - included (nvcc -include) into a student's program built for the
 * GPU. The source pass wraps each launch as
 *     (gpulab_gpu_pre("K", __FILE__, __LINE__, cfg), K<<<cfg>>>(args), gpulab_gpu_post())
 * so gpulab can list the launches and their times as on the simulator. Each
 * launch gets two events on its own stream; nothing waits for them until the
 * program ends, so the program's own order and overlap stay as written. The
 * records go to $GPULAB_RESULT (the format in docs/programs.md). */
#ifndef GPULAB_GPURT_H
#define GPULAB_GPURT_H

#include <cuda_runtime.h>
#include <fcntl.h>
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
static cudaStream_t gpulab_gpu_stream;

/* output that reaches gpulab before a crash, as on the simulator */
__attribute__((constructor)) static void gpulab_gpu_init(void) { setvbuf(stdout, NULL, _IOLBF, 0); }

static inline void gpulab_gpu_write(const char *s)
{
    if (gpulab_gpu_fd >= 0) {
        ssize_t w = write(gpulab_gpu_fd, s, strlen(s));
        (void)w;
    }
}

static void gpulab_gpu_flush(void)
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

static inline void gpulab_gpu_pre(const char *name, const char *file, int line, dim3 g, dim3 b, size_t smem = 0,
                                  cudaStream_t st = 0)
{
    (void)file;
    if (gpulab_gpu_fd == -2) {
        const char *p = getenv("GPULAB_RESULT");
        gpulab_gpu_fd = p && *p ? open(p, O_WRONLY | O_APPEND | O_CLOEXEC) : -1;
        atexit(gpulab_gpu_flush);
    }
    char buf[256];
    snprintf(buf, sizeof buf, "begin\t%s\t%d\n", name, line);
    gpulab_gpu_write(buf);
    if (gpulab_gpu_n == GPULAB_GPU_MAX) gpulab_gpu_flush();
    gpulab_gpu_rec *r = &gpulab_gpu_recs[gpulab_gpu_n++];
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

static inline void gpulab_gpu_post(void)
{
    gpulab_gpu_rec *r = &gpulab_gpu_recs[gpulab_gpu_n - 1];
    /* a launch refused at once (its shape): peek, so the program still sees the error */
    if (cudaPeekAtLastError() != cudaSuccess) r->failed = 1;
    if (r->e0) cudaEventRecord(r->e1, gpulab_gpu_stream);
}

#endif
