/* signals.c - see signals.h. */
#include "repl/signals.h"

#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "kernels/lab.h"
#include "kernels/program/program.h"
#include "repl/safefile.h"

volatile sig_atomic_t sig_int_count;

static struct termios g_sane;   /* the terminal as gpulab found it */
static int g_have_sane;
static int g_tty_out;

static void on_sigint(int sig)
{
    (void)sig;
    sig_int_count++;
    lab_interrupted = 1;
}

/* SA_RESETHAND put the default action back before this ran, and SA_NODEFER
 * lets raise() deliver it at once: the process ends the way the sender
 * meant (a core for SIGQUIT), after the terminal is sane again. */
static void on_fatal(int sig)
{
    prog_kill_running(); /* a student's program and all it started end with gpulab */
    if (g_have_sane) tcsetattr(STDIN_FILENO, TCSANOW, &g_sane);
    if (g_tty_out) {
        static const char off[] = "\033[?2004l"; /* readline's bracketed paste */
        ssize_t w = write(STDOUT_FILENO, off, sizeof off - 1);
        (void)w;
    }
    safefile_signal_cleanup();
    raise(sig);
}

void sig_install(int interactive)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    /* In scripts and pipes the first Ctrl-C stops between repeats and ends
     * the script; the kernel then restores the default action, so a second
     * Ctrl-C ends a gpulab that is stuck in a long step. */
    sa.sa_flags = interactive ? 0 : SA_RESETHAND;
    sigaction(SIGINT, &sa, NULL);

    if (!g_have_sane && isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &g_sane) == 0) g_have_sane = 1;
    g_tty_out = isatty(STDOUT_FILENO);
    static const int ending[] = {SIGTERM, SIGHUP, SIGQUIT};
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND | SA_NODEFER;
    for (size_t i = 0; i < sizeof ending / sizeof ending[0]; i++) {
        struct sigaction old;
        /* a signal ignored by whoever started gpulab (nohup) stays ignored */
        if (sigaction(ending[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        sigaction(ending[i], &sa, NULL);
    }
}

void sig_clear(void)
{
    sig_int_count = 0;
}
