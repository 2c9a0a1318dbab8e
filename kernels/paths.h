/* paths.h - where gpulab's own files are (kernels/paths.c): found from the
 * running program's location, so an installed gpulab (<prefix>/bin/gpulab)
 * takes <prefix>/lib/gpulab and <prefix>/share/gpulab, and the build
 * tree's program, or a test program of the build tree, takes the build
 * tree's folders. A public part of kernels/ (repl/ includes it). */
#ifndef GPULAB_PATHS_H
#define GPULAB_PATHS_H

#ifdef __cplusplus
extern "C" {
#endif

/* The environment variable in brackets overrides each. */
typedef enum lab_place {
    LAB_PLACE_RUNTIME,  /* what students' programs build with: the simulator's library and
                           precompiled header, the GPU wrapper (GPULAB_PROGRAM_RT) */
    LAB_PLACE_HEADERS,  /* the root of the simulator's headers (kernels/...) that the runtime's
                           header includes (GPULAB_PROGRAM_SRC) */
    LAB_PLACE_LESSONS,  /* lessons/<lang>/, puzzles included (GPULAB_LESSONS) */
    LAB_PLACE_LOCALE,   /* the message catalogs, <lang>/LC_MESSAGES/gpulab.mo (GPULAB_LOCALEDIR) */
    LAB_PLACE_KERNELS,  /* the built-in kernels' sources, for `code` (GPULAB_KERNELS) */
} lab_place;

/* The folder; never NULL. It may be missing when gpulab was moved without
 * its files: the callers' messages then name the path they tried. */
const char *lab_path(lab_place place);

#ifdef __cplusplus
}
#endif

#endif
