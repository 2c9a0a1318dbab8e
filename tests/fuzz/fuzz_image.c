/* fuzz_image.c - the PGM and PNG readers on any bytes, through the same
 * entry point `set image FILE` uses (hist_load_image). The bytes are put in
 * an anonymous memory file (memfd), so every run reads a real file without
 * touching the disk. Whatever the header claims, nothing may be decoded or
 * allocated past the limits (libFuzzer's -rss_limit_mb catches that), and a
 * success must give an image of the size it reports. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kernels/histogram/histogram.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        fd = memfd_create("gpulab-fuzz-image", 0);
        if (fd < 0) abort();
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size) abort();
    unsigned char *px = NULL;
    int w = 0, h = 0, maxval = 0;
    char err[512];
    /* the limit the histogram passes on a small machine */
    if (hist_load_image(path, &px, &w, &h, &maxval, 1LL << 24, err, sizeof err) == 0) {
        if (!px || w < 1 || h < 1 || (long long)w * h > (1LL << 24) || maxval < 1 || maxval > 65535) abort();
        unsigned sum = 0;
        for (long long i = 0; i < (long long)w * h; i++) sum += px[i]; /* every pixel is there */
        (void)sum;
        free(px);
    } else if (px || !err[0]) {
        abort();
    }
    return 0;
}
