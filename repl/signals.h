/* signals.h - Ctrl-C, and the signals that end gpulab.
 *
 * SIGINT: the handler only sets flags; the loops act on them. While a
 * command runs, Ctrl-C sets lab_interrupted so long runs stop between
 * repeats; at the prompt it abandons the line being typed (readline.c).
 *
 * SIGTERM, SIGHUP and SIGQUIT end gpulab as they should, but on a sane
 * terminal: the handler puts back the terminal settings gpulab found when
 * it started (readline's prompt and lecture mode switch echo and canonical
 * mode off), turns bracketed paste off, removes a half-written temporary
 * file (safefile.h; the history and progress files are whole, since each is
 * written at once after every command), and raises the signal again with
 * its default action. Everything it calls is async-signal-safe
 * (tcsetattr, write, unlink, raise). The player has its own handlers while
 * an animation is on screen. */
#ifndef GPULAB_SIGNALS_H
#define GPULAB_SIGNALS_H

#include <signal.h>

/* SIGINTs received since the last sig_clear(). */
extern volatile sig_atomic_t sig_int_count;

/* Install the SIGINT handler (without SA_RESTART, so a blocking read returns
 * EINTR and the loop can look at the flag). Not interactive: a second
 * Ctrl-C ends the program the default way. Also installs the handler of
 * the ending signals and, when standard input is a terminal whose settings
 * were not yet saved, saves them as the ones to restore. */
void sig_install(int interactive);
void sig_clear(void);

#endif
