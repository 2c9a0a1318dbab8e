/* lab_output.h - a row's output kept for comparing runs (lab.c): `set
 * schedules N` runs a simulator row again under other orders of its threads
 * and compares the outputs element by element (repl/cmd_run.c). Apart from
 * lab.h so that the kernels, which include lab.h, do not depend on it. */
#ifndef GPULAB_LAB_OUTPUT_H
#define GPULAB_LAB_OUTPUT_H

#include "kernels/lab.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Keep the output buffer of each row run over in (on: 1; one input at a
 * time) until the next row, lab_input_keep_output(in, 0) or
 * lab_input_delete(in). */
void lab_input_keep_output(lab_input *in, int on);
/* The last kept output and its size; NULL (0 bytes) when none. */
const void *lab_input_output(const lab_input *in, size_t *bytes);

#ifdef __cplusplus
}
#endif
#endif
