/* lanes_gen.c - the simulator's source of one of gpulab's own kernel files,
 * with the lane-loop forms of lanes.c (a build step: kernels/CMakeLists.txt).
 *
 *     gpulab-lanes-gen KERNELS.cu OUT.sim.cpp
 *
 * OUT is KERNELS.cu under its own name and lines (#line), compiled with
 * GPULAB_SIM, where every kernel the pass can prove safe also has its form
 * K__sim_lanes and the launches of such kernels give both (LAUNCH_LANES in
 * kernels/kern.h). The same pass as a student's program's, so the built-in
 * lessons' kernels and a student's copy of them run alike. */
#define _GNU_SOURCE
#include "kernels/program/program.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 65536;
            char *nb = realloc(buf, cap);
            if (!nb) break;
            buf = nb;
        }
        size_t r = fread(buf + n, 1, cap - n - 1, fp);
        n += r;
        if (r == 0) break;
    }
    int bad = ferror(fp) || !buf;
    fclose(fp);
    if (bad) {
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s KERNELS.cu OUT.sim.cpp\n", argv[0]);
        return 2;
    }
    size_t len = 0;
    char *src = slurp(argv[1], &len);
    if (!src) {
        perror(argv[1]);
        return 1;
    }
    prog_source *ps = calloc(1, sizeof *ps);
    if (!ps || asprintf(&ps->text, "#line 1 \"%s\"\n%s", argv[1], src) < 0) {
        fprintf(stderr, "%s: out of memory\n", argv[0]);
        return 1;
    }
    ps->len = strlen(ps->text);
    if (prog_lanes_builtin(ps) != 0) {
        fprintf(stderr, "%s: out of memory\n", argv[0]);
        return 1;
    }
    char *out = NULL;
    if (asprintf(&out, "/* generated from %s for the CPU simulator: %d kernel%s with a lane-loop form */\n"
                       "#define GPULAB_SIM 1\n%s",
                 argv[1], ps->lanes, ps->lanes == 1 ? "" : "s", ps->text) < 0) {
        fprintf(stderr, "%s: out of memory\n", argv[0]);
        return 1;
    }
    FILE *fp = fopen(argv[2], "wb");
    if (!fp || fwrite(out, 1, strlen(out), fp) != strlen(out) || fclose(fp) != 0) {
        perror(argv[2]);
        return 1;
    }
    free(out);
    free(src);
    free(ps->text);
    free(ps);
    return 0;
}
