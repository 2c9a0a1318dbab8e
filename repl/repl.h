/* repl.h - the input loop (repl.c): a line split into commands and each
 * one run through the command table, scripts read the same way. */
#ifndef GPULAB_REPL_H
#define GPULAB_REPL_H

#include <stdio.h>

#include "repl/cmd.h"
#include "repl/parse.h"

struct session;

/* Run one line: split it into commands and run each one. Returns CMD_QUIT
 * when a command asked to quit, CMD_ERROR when some command failed (and the
 * session should stop because of --bail, or the line did not parse),
 * else CMD_OK. */
enum cmd_status repl_exec_line(struct session *s, const char *line);

/* Run one command already split into words. */
enum cmd_status repl_exec_cmd(struct session *s, const struct tok_cmd *c);

/* Run a script from a stream (no prompt, no history); name is used in error
 * messages ("line N of NAME"). Returns as repl_exec_line. */
enum cmd_status repl_run_stream(struct session *s, FILE *f, const char *name);

/* Open and run a script file. CMD_ERROR when it cannot be opened. */
enum cmd_status repl_run_file(struct session *s, const char *path);

#endif
