/* readline.h - the interactive prompt (readline.c). */
#ifndef GPULAB_READLINE_H
#define GPULAB_READLINE_H

struct session;

/* The interactive loop on a terminal: prompt, completion, history, Ctrl-C.
 * Returns when the user quits or at end of input. */
void readline_loop(struct session *s);

#endif
