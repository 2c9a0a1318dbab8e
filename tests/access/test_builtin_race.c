/* Every built-in kernel variant on the simulator with the race check on:
 * no race is reported, the result is still right, at two sizes (one that is
 * not a multiple of the block or of 16 bytes). A variant the race check
 * flags fails here with the report (the variants wrong on purpose are held
 * to no race only). The larger size runs again under the reverse schedule
 * (blocks from the last, threads from the highest: the "last block" is
 * block 0) and a random one, where a race check that trusted the fixed
 * order would say more. Exit 77 where the build has no recording. */
#include <stdio.h>
#include <string.h>

#include "kernels/lab.h"
#include "kernels/sim/race.h"
#include "kernels/sim/record.h"

static int run_variant(const lab_algo *al, const lab_variant *v, long long n, int sched, int *ran)
{
    sim_schedule_set(sched, 0x2a);
    lab_config cfg;
    lab_config_defaults(&cfg);
    cfg.backend = LAB_BACKEND_SIM;
    cfg.repeats = 1;
    cfg.race_check = 1;
    cfg.dtype = al->dtype_default;
    unsigned dts = v->dtypes ? v->dtypes : al->dtypes;
    if (dts && !(dts & LAB_DT(cfg.dtype)))
        for (int d = 0; d < LAB_NDTYPES; d++)
            if (dts & LAB_DT(d)) {
                cfg.dtype = (lab_dtype)d;
                break;
            }
    cfg.n = n;
    char err[LAB_ERR_MAX];
    if (lab_validate(al, v, &cfg, err, sizeof err) != 0) return 0; /* not at this size: nothing to check */
    lab_input *in = lab_input_new(al, &cfg, err, sizeof err);
    if (!in) {
        printf("FAIL %s/%s n=%lld: %s\n", al->name, v->name, n, err);
        return 1;
    }
    lab_result r;
    int rc = lab_run(in, v, &r, NULL);
    lab_input_delete(in);
    sim_schedule_set(SIM_SCHED_FIXED, 0);
    if (strstr(r.note, "data race") || strstr(r.note, "before any thread of the block")) {
        printf("FAIL %s/%s n=%lld schedule %s: %s\n", al->name, v->name, n, sim_schedule_name(sched), r.note);
        return 1;
    }
    if (rc != 0 || !r.ran) return 0; /* refused at this size (its note says why): nothing ran */
    if (r.correct == 0 && !(v->flags & LAB_WRONG_ON_PURPOSE)) {
        printf("FAIL %s/%s n=%lld schedule %s: wrong result with the race check on: %s\n", al->name, v->name, n,
               sim_schedule_name(sched), r.note);
        return 1;
    }
    (*ran)++;
    return 0;
}

int main(void)
{
    if (!sim_rec_available()) {
        printf("skipped: this build has no access recording\n");
        return 77;
    }
    int fails = 0, ran = 0;
    for (int a = 0; a < lab_algo_count(); a++) {
        const lab_algo *al = lab_algo_at(a);
        for (int i = 0; i < al->nvariants; i++) {
            const lab_variant *v = &al->variants[i];
            if (v->kind != LAB_ROW_KERNEL || !v->sim) continue;
            long long n = al->trace_n > 0 ? al->trace_n : 64;
            fails += run_variant(al, v, n, SIM_SCHED_FIXED, &ran);
            fails += run_variant(al, v, 3 * n + 5, SIM_SCHED_FIXED, &ran);
            fails += run_variant(al, v, 3 * n + 5, SIM_SCHED_REVERSE, &ran);
            fails += run_variant(al, v, n, SIM_SCHED_RANDOM, &ran);
        }
    }
    printf("%d runs of built-in variants with the race check, %d failed\n", ran, fails);
    return fails ? 1 : 0;
}
