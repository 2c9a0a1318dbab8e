/* bench_record.c - what the access recording costs: the same kernels on the
 * simulator with nothing attached and with the profile counters attached.
 *   bench_record [BLOCKS]   (blocks of 256 threads; default 4096) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernels/family.h"
#include "kernels/profile/profile.h"
#include "tests/profile/proftest.h"

static double cpu_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double run(int kind, int arg, unsigned blocks, int counting)
{
    lab_config cfg;
    lab_job job;
    proftest_params p = {kind, arg, blocks, 256};
    static float out[64];
    lab_config_defaults(&cfg);
    memset(&job, 0, sizeof job);
    job.cfg = &cfg;
    job.backend = LAB_BACKEND_SIM;
    job.priv = &p;
    job.out = out;
    job.out_bytes = sizeof out;
    prof_session s;
    char msg[256];
    if (counting && prof_begin(&s, msg, sizeof msg) != 0) {
        fprintf(stderr, "%s\n", msg);
        exit(77);
    }
    double t0 = cpu_s();
    int rc = proftest_run_sim(&job);
    double t = cpu_s() - t0;
    if (counting) prof_free(&s);
    lab_job_free_allocs(&job);
    if (rc != 0) {
        fprintf(stderr, "%s\n", job.err);
        exit(1);
    }
    return t;
}

int main(int argc, char **argv)
{
    unsigned blocks = argc > 1 ? (unsigned)atoi(argv[1]) : 4096;
    if (!prof_available()) {
        printf("skipped: no access recording in this build\n");
        return 77;
    }
    static const struct { int kind, arg; const char *name; } k[] = {
        {PROFTEST_COALESCED, 0, "coalesced copy"},
        {PROFTEST_SHARED_STRIDE, 1, "shared store, barrier, load"},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        run(k[i].kind, k[i].arg, blocks, 0); /* warm-up: stacks, pages */
        double off[3], on[3];
        for (int r = 0; r < 3; r++) {
            off[r] = run(k[i].kind, k[i].arg, blocks, 0);
            on[r] = run(k[i].kind, k[i].arg, blocks, 1);
        }
        for (int a = 0; a < 3; a++)
            for (int b = a + 1; b < 3; b++) {
                if (off[b] < off[a]) { double x = off[a]; off[a] = off[b]; off[b] = x; }
                if (on[b] < on[a]) { double x = on[a]; on[a] = on[b]; on[b] = x; }
            }
        printf("%-28s %u threads: %.3f s CPU without recording, %.3f s counting (%.2fx), medians of 3\n",
               k[i].name, blocks * 256, off[1], on[1], on[1] / off[1]);
    }
    return 0;
}
