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

void sig_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    sigaction(SIGINT, &sa, NULL);
}

void sig_clear(void)
{
    sig_int_count = 0;
}
