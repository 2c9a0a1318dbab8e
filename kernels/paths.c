/* paths.c - where gpulab's own files are, from where the running program is.
 *
 *   installed    <prefix>/bin/gpulab
 *                <prefix>/lib/gpulab             the runtime of students' programs,
 *                <prefix>/lib/gpulab/include       and the headers it includes
 *                <prefix>/share/gpulab/lessons   lessons and their puzzles
 *                <prefix>/share/gpulab/locale    message catalogs
 *                <prefix>/share/gpulab/kernels   the built-in kernels' sources
 *   build tree   build/gpulab beside build/program-rt and build/locale, and the
 *                source tree's lessons/ and kernels/ (paths compiled in below)
 *
 * Each place is looked up on its own: the installed folder when it is there
 * beside the program, else the build tree's. So a tree that was installed,
 * copied or packaged works wherever it lies, and a test program deep in the
 * build tree finds the build tree's files. */
#define _GNU_SOURCE
#include "kernels/paths.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef GPULAB_BUILD_DIR
#  define GPULAB_BUILD_DIR "."
#endif
#ifndef GPULAB_SOURCE_DIR
#  define GPULAB_SOURCE_DIR "."
#endif

struct place {
    const char *env;       /* overrides */
    const char *installed; /* below <prefix>, where <prefix>/bin holds the program */
    const char *marker;    /* a file the installed folder must hold */
    const char *built;     /* the build tree's (compiled in) */
};

static const struct place places[] = {
    [LAB_PLACE_RUNTIME] = {"GPULAB_PROGRAM_RT", "lib/gpulab", "progrt.h", GPULAB_BUILD_DIR "/program-rt"},
    [LAB_PLACE_HEADERS] = {"GPULAB_PROGRAM_SRC", "lib/gpulab/include", "kernels/sim/shim.h", GPULAB_SOURCE_DIR},
    [LAB_PLACE_LESSONS] = {"GPULAB_LESSONS", "share/gpulab/lessons", "en", GPULAB_SOURCE_DIR "/lessons"},
    [LAB_PLACE_LOCALE] = {"GPULAB_LOCALEDIR", "share/gpulab/locale", NULL, GPULAB_BUILD_DIR "/locale"},
    [LAB_PLACE_KERNELS] = {"GPULAB_KERNELS", "share/gpulab/kernels", "lab.h", GPULAB_SOURCE_DIR "/kernels"},
};

#define NPLACES ((int)(sizeof places / sizeof places[0]))

static int exists(const char *dir, const char *file)
{
    char p[PATH_MAX];
    struct stat sb;
    if (!file) return stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode);
    snprintf(p, sizeof p, "%s/%s", dir, file);
    return stat(p, &sb) == 0;
}

/* <prefix>: the folder above the one that holds the running program, or ""
 * when /proc cannot say (then the build tree's paths hold). */
static const char *prefix(void)
{
    static char pre[PATH_MAX];
    static int done;
    if (done) return pre;
    done = 1;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return pre;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) return pre;
    *slash = '\0';            /* <prefix>/bin */
    slash = strrchr(exe, '/');
    if (!slash) return pre;
    *slash = '\0';            /* <prefix> ("" for a program in /bin) */
    snprintf(pre, sizeof pre, "%s", exe[0] ? exe : "/");
    return pre;
}

const char *lab_path(lab_place place)
{
    static char found[NPLACES][PATH_MAX];
    static int done[NPLACES];
    if ((int)place < 0 || (int)place >= NPLACES) return ".";
    const struct place *p = &places[place];
    const char *env = getenv(p->env);
    if (env && *env) return env;
    if (done[place]) return found[place];
    done[place] = 1;
    const char *pre = prefix();
    if (pre[0]) {
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%s/%s", strcmp(pre, "/") ? pre : "", p->installed);
        if (exists(dir, p->marker)) {
            snprintf(found[place], PATH_MAX, "%s", dir);
            return found[place];
        }
    }
    snprintf(found[place], PATH_MAX, "%s", p->built);
    return found[place];
}
