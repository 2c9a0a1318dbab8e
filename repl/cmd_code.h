/* cmd_code.h - finding a kernel's source (cmd_code.c), for code, trace
 * and the generic animation. */
#ifndef GPULAB_CMD_CODE_H
#define GPULAB_CMD_CODE_H

#include <stddef.h>

/* Find a kernel function of kernels/ by name (template arguments and
 * parentheses around it left out): 0 with its file's text (malloc'd), the
 * path ("kernels/reduce/reduce.cu") and its lines; -1 when not found. */
int code_find_kernel(const char *name, char **text, size_t *len, char *path, size_t pathlen, int *from, int *to);

/* The line of a kernel's source that an event at line belongs to: the
 * statement above a recording line (TRACE_*), which the kernel places right
 * after what it records; line itself otherwise. */
int code_statement_line(const char *text, size_t len, int line);

#endif
