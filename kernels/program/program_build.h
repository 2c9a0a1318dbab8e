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
