/* program_build.h - within kernels/program/: the build that prog_run()
 * starts with (program_build.c), and the small helpers program.c and
 * program_build.c share. Not for repl/ (program.h is the public face). */
#ifndef GPULAB_PROGRAM_BUILD_H
#define GPULAB_PROGRAM_BUILD_H

#include <stddef.h>

#include "kernels/program/program.h"

/* Build p for o's backend, or find it built in the cache. 0 with the
 * executable's path in exe (r->cached when it was there, r->build_seconds
 * when it was built); -1 with the reason in r->msg. */
int prog_build(prog *p, const prog_options *o, prog_result *r, char *exe, size_t exelen);
/* The folder of the CUDA toolkit's thrust headers (the one holding
 * thrust/version.h), or NULL when there is none; GPULAB_THRUST_DIR names
 * it (empty: none). */
const char *prog_thrust_dir(void);
/* The CUDA toolkit's include folder (the one holding curand.h), or NULL */
const char *prog_toolkit_include(void);
/* The folder of the toolkit's libraries (the one holding libcurand.so), or
 * NULL: a program that links a CUDA library reads it at run time */
const char *prog_toolkit_lib(void);

/* The program's files through the source pass for mode: its sources and
 * every header of its own they include (found beside the including file, in
 * the -I folders of options, beside the sources), each translated once.
 * Fills p's kernels and issues; with h, hashes every file's name and text
 * into *h. With u (an array of PROG_MAX_UNITS, freed with
 * prog_units_free), keeps the translated texts. Returns the number of
 * issues, -1 with msg when a file cannot be read. */
struct prog_unit {
    char path[PROG_PATH_MAX]; /* the file, absolute */
    char out[300];            /* the translated copy's name in the build folder */
    int source;               /* a source file (compiled on its own), not a header */
    char *text;               /* translated */
    size_t len;
};
int prog_translate_all(prog *p, enum prog_mode mode, const char *const *options, struct prog_unit *u, int *nu,
                       unsigned long long *h, char *msg, size_t msglen);
void prog_units_free(struct prog_unit *u, int nu);

/* The compiler's messages (in) as the student should read them (out): the
 * columns of lines the source pass rewrote back to the student's text (u:
 * the build's files), the include chain and notes of gpulab's runtime (the
 * folders in runtime, NULL-terminated) left out, gpulab's namespaces off
 * the CUDA names. */
void prog_tidy_log(const char *in, char *out, size_t cap, const struct prog_unit *u, int nu,
                   const char *const *runtime);

/* A whole regular file of at most PROG_SOURCE_MAX bytes, NUL-terminated,
 * its length in *len (malloc'd; NULL with errno set when it cannot be
 * read). A FIFO or a device is refused without waiting (EINVAL). */
char *prog_read_file(const char *path, size_t *len);
/* Why prog_read_file failed, from its errno: not a regular file (EINVAL),
 * past PROG_SOURCE_MAX (EFBIG), or the system's word. */
const char *prog_read_error(int e);
/* printf at the end of what msg already holds, cut to len. */
void prog_msg_add(char *msg, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Control characters of text from a program or a compiler made '?'. */
void prog_sanitize(char *t, size_t n);
/* The environment of a student's build or program (set[]: NAME=VALUE to
 * add), malloc'd; prog_env_free frees it. */
char **prog_env(const char *const *set);
void prog_env_free(char **env);
/* The monotonic clock in seconds. */
double prog_now_s(void);

#endif
