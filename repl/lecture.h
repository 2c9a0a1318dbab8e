/* lecture.h - the hook behind `gpulab --lecture FILE`.
 *
 * main.c parses --lecture FILE, stores it in s->lecture and calls
 * lecture_main() once the session is ready. The lessons module owns the real
 * implementation (it replaces repl/lecture.c); the version here runs FILE as
 * a script, so the option works before that lands.
 */
#ifndef GPULAB_LECTURE_H
#define GPULAB_LECTURE_H

struct session;

/* Run a lecture from path in session s. Returns the process exit status:
 * 0 when everything went well, 1 when something failed. */
int lecture_main(struct session *s, const char *path);

#endif
