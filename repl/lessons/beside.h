/* beside.h - the lecture's numbers beside the session's (beside.c). */
#ifndef GPULAB_BESIDE_H
#define GPULAB_BESIDE_H

struct session;
struct lesson_step;

/* The lecture's numbers of step st beside the session's last results. */
void lesson_print_beside(struct session *s, const struct lesson_step *st);

#endif
