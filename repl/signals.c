/* signals.c - see signals.h. */
#include "signals.h"

#include <string.h>

#include "lab.h"

volatile sig_atomic_t sig_int_count;

static void on_sigint(int sig)
{
    (void)sig;
    sig_int_count++;
    lab_interrupted = 1;
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
}

void sig_clear(void)
{
    sig_int_count = 0;
}
