/* simtest_run.c - the helpers of simtest_run.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/family.h"
#include "kernels/sim/sim.h"
#include "tests/sim/simtest.h"
#include "tests/sim/simtest_run.h"

/* ---------------------------------------------------------------- helpers */

lab_config cfg;
lab_job job;
char err[LAB_ERR_MAX];

int run(lab_fn fn, simtest_params *p, void *out, size_t out_bytes, int race, lab_trace *tr)
{
    lab_config_defaults(&cfg);
    cfg.race_check = race;
    memset(&job, 0, sizeof job);
    job.cfg = &cfg;
    job.backend = LAB_BACKEND_SIM;
    job.priv = p;
    job.out = out;
    job.out_bytes = out_bytes;
    job.trace = tr;
    int rc = fn(&job);
    snprintf(err, sizeof err, "%s", job.err);
    lab_job_free_allocs(&job);
    return rc;
}

int run_diag(int which, int arg, int race)
{
    static simtest_params p;
    static int out[1024];
    memset(&p, 0, sizeof p);
    p.which = which;
    p.arg = arg;
    return run(simtest_diag_sim, &p, out, sizeof out, race, NULL);
}

int marker(const char *name)
{
    FILE *f = fopen(SIMTEST_SRC, "r");
    if (!f) fail_msg("cannot read %s", SIMTEST_SRC);
    char line[512], tag[64];
    snprintf(tag, sizeof tag, "@%s", name);
    int n = 0, found = 0;
    while (fgets(line, sizeof line, f)) {
        n++;
        char *s = strstr(line, tag);
        if (s) {
            char c = s[strlen(tag)];
            if (c == '\n' || c == ' ' || c == 0 || c == '\r') {
                found = n;
                break;
            }
        }
    }
    fclose(f);
    if (!found) fail_msg("no marker %s in %s", tag, SIMTEST_SRC);
    return found;
}
