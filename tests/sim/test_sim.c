/* test_sim.c - the simulator through its test kernels (simtest_kernels.cu):
 * indices, shared memory, barriers, atomics, cooperative groups, warp
 * collectives against CUDA's documented results, traces, determinism, and
 * every diagnostic it gives for a broken kernel. The groups live in
 * test_sim_core.c, test_sim_diag.c, test_sim_warp.c, test_sim_trace.c.
 *
 *   test_sim core|diag|warp|trace     one group; no argument: all */
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

int main(int argc, char **argv)
{
    static const struct {
        const char *arg, *title;
        const struct CMUnitTest *tests;
        const size_t *n;
    } groups[] = {
        {"core", "sim core", simtest_core, &simtest_ncore},
        {"diag", "sim diagnostics", simtest_diag_tests, &simtest_ndiag},
        {"warp", "sim warp collectives", simtest_warp, &simtest_nwarp},
        {"trace", "sim traces", simtest_trace_tests, &simtest_ntrace},
    };
    const char *g = argc > 1 ? argv[1] : "all";
    int all = strcmp(g, "all") == 0, failed = 0, ran = 0;
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++) {
        if (!all && strcmp(g, groups[i].arg) != 0) continue;
        failed += _cmocka_run_group_tests(groups[i].title, groups[i].tests, *groups[i].n, NULL, NULL);
        ran = 1;
    }
    if (!ran) {
        fprintf(stderr, "usage: test_sim [core|diag|warp|trace]\n");
        return 2;
    }
    return failed ? 1 : 0;
}
