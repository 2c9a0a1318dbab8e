/* cmd_grade.h - grading (cmd_grade.c): what `puzzle verify` asks of it. */
#ifndef GPULAB_CMD_GRADE_H
#define GPULAB_CMD_GRADE_H

#include "repl/cmd.h"

struct session;

/* puzzle verify DIR: a puzzle folder's reference passes, its skeleton fails
 * and every wrong/NAME.cu fails for the rule its first line names, each
 * checked as `grade` checks a submission, in parallel. */
enum cmd_status puzzle_verify(struct session *s, const char *dir);

#endif
