/* cmd_profile.h - what export needs of the last profile (cmd_profile.c). */
#ifndef GPULAB_CMD_PROFILE_H
#define GPULAB_CMD_PROFILE_H

#include <stdio.h>

#include "kernels/lab.h"
#include "kernels/profile/profile.h"

struct session;

/* Write the last output's profile rows as CSV (csv 1) or JSON. 0 ok, -1 with err. */
int profile_export(const struct session *s, FILE *f, int csv, char *err, size_t errlen);
/* The run's arithmetic, for the estimate (from the row's ops). */
void profile_work_of(const lab_result *r, lab_dtype dt, prof_work *w);

#endif
