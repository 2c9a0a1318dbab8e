/* cmd_sweep.h - what the commands that explore launch shapes share: sweep
 * (cmd_sweep.c), occupancy and suggest (cmd_occupancy.c), export
 * (cmd_export.c). The measuring is in sweep.c, the pictures in viz/. */
#ifndef GPULAB_CMD_SWEEP_H
#define GPULAB_CMD_SWEEP_H

#include <stddef.h>

#include "kernels/lab.h"
#include "repl/explore/sweep.h"

struct session;

/* A resolved n as "1048576 (1Mi)" (ms: parse_fmt_ms, bytes: lab_fmt_bytes). */
void sweep_fmt_n(long long n, char *buf, size_t len);

/* A kernel variant of the current algorithm named by argv[i], or the current
 * variant when i >= argc; NULL after reporting why (cmd names the command). */
const lab_variant *sweep_kernel_variant(struct session *s, int argc, char **argv, int i, const char *cmd);

/* What limits the occupancy, as a sentence for the limiter bits. */
const char *sweep_limiter_sentence(unsigned limiters);

/* The progress line of a sweep (sweep_run's callback; ctx: a
 * struct sweep_progress_ctx). */
struct sweep_progress_ctx {
    struct session *s;
};
void sweep_progress(const sweep_data *d, int value, int variant, void *ctx);

/* A sweep as the table `sweep` prints. */
void sweep_print_table(struct session *s, const sweep_data *d);

/* The GPU models the simulator's occupancy knows (more help of sweep and occupancy). */
void sweep_models_help(struct session *s);

#endif
