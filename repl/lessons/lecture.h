/* lecture.h - lecture mode, behind `gpulab --lecture FILE` and the REPL's
 * `lecture FILE`: a lesson (.md) or a plain script shown one step per key
 * press on a terminal, or rehearsed start to end without one (lecture.c).
 */
#ifndef GPULAB_LECTURE_H
#define GPULAB_LECTURE_H

struct session;

/* Run a lecture from path (a lesson file or a script, as lesson_resolve()
 * of the lesson runner finds it) in session s. Returns 0 when everything
 * went well, 1 when a command failed, 2 when the file could not be read (the
 * error is printed and counted in s->errors). Lecture mode never calls back
 * into the lesson runner. */
int lecture_main(struct session *s, const char *path);

#endif
