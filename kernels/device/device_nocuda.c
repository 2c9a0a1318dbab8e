/* device_nocuda.c - the device layer of a gpulab built without the CUDA
 * toolkit (-DGPULAB_CUDA=OFF; device.c is the one with it): there is no GPU,
 * and every row, command and test that needs one says why in these words.
 * The simulator, the CPU rows, lessons, puzzles and students' programs on
 * the simulator do not come here. */
#include "kernels/family.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NO_CUDA                                                                            \
    "this gpulab was built without the CUDA toolkit (-DGPULAB_CUDA=OFF); to use a GPU, "   \
    "install the toolkit and build with `make` (README, \"Which build\")"

static lab_device_info info;

const lab_device_info *lab_device(void)
{
    if (!info.why_not[0]) snprintf(info.why_not, sizeof info.why_not, "%s", NO_CUDA);
    return &info;
}

int lab_gpu_available(void) { return 0; }

const char *lab_device_disabled(void) { return NULL; }

int lab_device_fail(int err, const char *expr, const char *file, int line, char *buf, size_t len)
{
    const char *base = strrchr(file, '/');
    snprintf(buf, len, "%s failed (error %d at %s:%d): %s", expr, err, base ? base + 1 : file, line, NO_CUDA);
    return -1;
}

int lab_device_reserve(size_t bytes, char *msg, size_t len)
{
    (void)bytes;
    snprintf(msg, len, "no GPU memory: %s", NO_CUDA);
    return -1;
}

int lab_device_count(void) { return 0; }

int lab_device_describe(int i, char *name, size_t len, size_t *mem_total)
{
    (void)i, (void)name, (void)len, (void)mem_total;
    return -1;
}

int lab_device_select(int d, char *msg, size_t len)
{
    snprintf(msg, len, "there is no GPU %d: %s", d, NO_CUDA);
    return -1;
}

double lab_device_copy_gbps(void) { return 0; }

void lab_job_free_allocs(lab_job *job)
{
    for (int i = job->nallocs - 1; i >= 0; i--)
        if (job->allocs[i] && job->alloc_free[i]) job->alloc_free[i](job->allocs[i]);
    job->nallocs = 0;
    job->trace_buf_threads = 0;
}
