/* signals.h - Ctrl-C. The handler only sets flags; the loops act on them.
 * While a command runs, Ctrl-C sets lab_interrupted so long runs stop between
 * repeats; at the prompt it abandons the line being typed (readline.c). */
#ifndef GPULAB_SIGNALS_H
#define GPULAB_SIGNALS_H

#include <signal.h>

/* SIGINTs received since the last sig_clear(). */
extern volatile sig_atomic_t sig_int_count;

/* Install the SIGINT handler (without SA_RESTART, so a blocking read returns
 * EINTR and the loop can look at the flag). Not interactive: a second
 * Ctrl-C ends the program the default way. */
void sig_install(int interactive);
void sig_clear(void);

#endif
