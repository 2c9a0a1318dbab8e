/* simtest_run.h - what the simulator's test files share: running one test
 * entry point the way the harness does, the line of a marker in the test
 * kernels' source, and checks on message text. */
#ifndef GPULAB_SIMTEST_RUN_H
#define GPULAB_SIMTEST_RUN_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "kernels/family.h"
#include "tests/sim/simtest.h"

/* The last run's configuration, job and error text. */
extern lab_config cfg;
extern lab_job job;
extern char err[LAB_ERR_MAX];

/* Run one entry point on the simulator the way the harness would. */
int run(lab_fn fn, simtest_params *p, void *out, size_t out_bytes, int race, lab_trace *tr);
/* simtest_diag with params.which = which, params.arg = arg */
int run_diag(int which, int arg, int race);
/* The line of the "@name" marker in the kernels' source. */
int marker(const char *name);

#define EXPECT_IN(hay, ...)                                                              \
    do {                                                                                 \
        char needle_[512];                                                               \
        snprintf(needle_, sizeof needle_, __VA_ARGS__);                                  \
        if (!strstr((hay), needle_)) fail_msg("expected\n  %s\nin\n  %s", needle_, (hay)); \
    } while (0)

#define EXPECT_NOT_IN(hay, needle)                                                       \
    do {                                                                                 \
        if (strstr((hay), (needle))) fail_msg("did not expect\n  %s\nin\n  %s", (needle), (hay)); \
    } while (0)

/* The groups of test_sim, each in its own file (cmocka.h comes first). */
extern const struct CMUnitTest simtest_core[], simtest_diag_tests[], simtest_warp[], simtest_trace_tests[];
extern const size_t simtest_ncore, simtest_ndiag, simtest_nwarp, simtest_ntrace;

#endif
