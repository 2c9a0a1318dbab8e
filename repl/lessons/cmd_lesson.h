/* cmd_lesson.h - the lesson runner (cmd_lesson.c): what lecture mode and
 * the prompt ask of it. */
#ifndef GPULAB_CMD_LESSON_H
#define GPULAB_CMD_LESSON_H

#include <stddef.h>

struct session;

/* What `lesson` and `lecture` take, as a path (malloc'd): a file, a number
 * from `lessons`, a lesson's name or a prefix of it, or an algorithm it is
 * about. NULL with a message in err. */
char *lesson_resolve(struct session *s, const char *what, char *err, size_t errlen);

/* Is line, as Enter sent it, the lesson's command that the prompt offered,
 * unedited? Then it runs as a lesson's command (confined to the current
 * directory when it writes a file). The offer moves on to the step's next
 * command only when this one ran: sent as offered, or edited (not replaced:
 * replaced is 1 when typing wiped the offer) into the same command.
 * Forgets the offer either way. */
int lesson_offered(struct session *s, const char *line, int replaced);

/* What the prompt pre-fills before it reads a line: the step's first command
 * not run yet, then "next", then nothing (NULL; NULL too when no lesson is
 * under way or the session is not interactive). */
const char *lesson_offer_next(struct session *s);

#endif
