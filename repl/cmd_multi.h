/* cmd_multi.h - a run across several GPUs (set gpus N; cmd_multi.c). */
#ifndef GPULAB_CMD_MULTI_H
#define GPULAB_CMD_MULTI_H

#include "kernels/lab.h"
#include "repl/cmd.h"

struct session;

/* run with gpus > 1: v across the GPUs, its two tables. */
enum cmd_status multi_run(struct session *s, const lab_variant *v);
/* The two tables of a run across GPUs (or its JSON lines). */
void multi_print(struct session *s, const lab_multi *m);

#endif
