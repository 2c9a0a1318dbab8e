/* record.h - recording what a built-in variant does (record.c). */
#ifndef GPULAB_RECORD_H
#define GPULAB_RECORD_H

#include <stddef.h>

#include "kernels/lab.h"

struct session;
struct acc_trace;

/* Record a trace of variant v with the current settings (n auto, or n too
 * large to trace: a small instance with the same block and pattern, and
 * s->trace_note says so). Fills *t and *r; 0 ok, -1 with a message in err
 * (e.g. lab_run's refusal when n is too large to trace). */
int record_trace(struct session *s, const lab_variant *v, lab_trace *t, lab_result *r, char *err, size_t errlen);
/* record_trace across cfg.gpus GPUs: a trace for viz_render_multi. */
int record_trace_multi(struct session *s, const lab_variant *v, lab_trace *t, lab_result *r, char *err,
                       size_t errlen);
/* Record v on the simulator with every access of the first trace-blocks
 * blocks of each launch: 0 with acc (its sites named) and the TRACE_*
 * trace t; -1 with err. */
int record_accesses(struct session *s, const lab_variant *v, struct acc_trace *acc, lab_trace *t, char *err,
                    size_t errlen);

#endif
