/* The reduction across real GPUs. `gpu_multi 1` (label gpu): one GPU, every
 * kernel and library row, every combine, NCCL among them, against the exact
 * sum; `gpu_multi all` (label multigpu): the same on 2 GPUs up to all of the
 * machine's. Exit 77 when the machine has too few GPUs, or when NCCL cannot
 * be loaded and nothing else failed (the nccl row then says why). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/family.h"

#include "tests/common/expect.h"

static int no_nccl;

static void across(int gpus)
{
    const lab_algo *a = lab_algo_find("reduce");
    static const long long sizes[] = {7, 65539, (1LL << 24) + 3};
    static const lab_dtype types[] = {LAB_INT, LAB_FLOAT, LAB_DOUBLE};
    for (int vi = 0; vi < a->nvariants; vi++) {
        const lab_variant *v = &a->variants[vi];
        if (v->kind == LAB_ROW_CPU) continue;
        for (size_t si = 0; si < 3; si++) {
            lab_config cfg;
            lab_config_defaults(&cfg);
            cfg.backend = LAB_BACKEND_GPU;
            cfg.repeats = 3;
            cfg.gpus = gpus;
            cfg.n = sizes[si];
            cfg.dtype = types[si];
            snprintf(cfg.pattern, sizeof cfg.pattern, "%s", si % 2 ? "random" : "lecture");
            lab_input in;
            lab_multi m;
            char msg[LAB_ERR_MAX];
            if (lab_input_prepare(&in, a, &cfg, msg, sizeof msg) != 0) {
                EXPECT(0, "prepare: %s", msg);
                continue;
            }
            int rc = lab_multi_run(&in, v, &m, NULL, msg, sizeof msg);
            lab_input_free(&in);
            EXPECT(rc == 0, "%s gpus=%d n=%lld: %s", v->name, gpus, cfg.n, msg);
            if (rc != 0) continue;
            for (int d = 0; d < gpus; d++)
                EXPECT(m.part[d].ran && m.part[d].correct == 1 && m.part[d].ms > 0,
                       "%s gpus=%d n=%lld GPU %d: %s %s", v->name, gpus, cfg.n, d, m.part[d].result,
                       m.part[d].note);
            EXPECT(m.one.ran && m.one.correct == 1, "%s one GPU: %s", v->name, m.one.note);
            for (int k = 0; k < LAB_NCOMBINES; k++) {
                const lab_multi_combine *c = &m.comb[k];
                if (k == LAB_COMBINE_NCCL && !c->ran && strstr(c->note, "NCCL")) {
                    if (!no_nccl) printf("nccl: %s\n", c->note);
                    no_nccl = 1;
                    continue;
                }
                EXPECT(c->ran && c->timed && c->correct == 1 && c->ms > 0 && c->total_ms > 0 && c->speedup > 0,
                       "%s gpus=%d n=%lld %s: ran=%d result=%s note=%s", v->name, gpus, cfg.n,
                       lab_combine_name(c->way), c->ran, c->result, c->note);
                if (k == LAB_COMBINE_NCCL && c->ran)
                    EXPECT(c->algbw > 0 && c->busbw == c->algbw * 2.0 * (gpus - 1) / gpus,
                           "%s nccl: algbw %g busbw %g", v->name, c->algbw, c->busbw);
            }
        }
    }
}

int main(int argc, char **argv)
{
    int all = argc > 1 && strcmp(argv[1], "all") == 0;
    if (!lab_gpu_available()) {
        printf("no GPU: %s\n", lab_device()->why_not);
        return 77;
    }
    int count = lab_device_count();
    if (all && count < 2) {
        printf("%d GPU: the multigpu tests need 2 or more\n", count);
        return 77;
    }
    if (all)
        for (int g = 2; g <= count && g <= LAB_MAX_GPUS; g++) across(g);
    else
        across(1);
    printf("%s: %d failure(s) in %d checks\n", failures ? "FAILED" : "ok", failures, checks);
    if (failures) return 1;
    return no_nccl ? 77 : 0;
}
