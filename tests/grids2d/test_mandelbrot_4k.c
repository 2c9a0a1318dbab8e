/* The lecture's second Mandelbrot size, 3840 x 2160, on the CPU with
 * OpenMP: its total must be the lecture's 2138019184. Two runs (a warm-up and
 * one timed) of about 4 s each on two cores: label slow. */
#include <stdio.h>
#include <string.h>

#include "kernels/family.h"

int main(void)
{
    lab_config cfg;
    lab_config_defaults(&cfg);
    cfg.width = 3840;
    cfg.height = 2160;
    cfg.repeats = 1;
    const lab_algo *a = NULL;
    for (int i = 0; i < lab_algo_count(); i++)
        if (strcmp(lab_algo_at(i)->name, "mandelbrot") == 0) a = lab_algo_at(i);
    lab_input in;
    lab_result r;
    char msg[LAB_ERR_MAX];
    if (a) cfg.dtype = a->dtype_default;
    if (!a || lab_input_prepare(&in, a, &cfg, msg, sizeof msg) != 0) {
        printf("FAIL: could not prepare 3840x2160\n");
        return 1;
    }
    lab_run(&in, lab_variant_find(a, "cpu-omp"), &r, NULL);
    lab_input_free(&in);
    printf("cpu-omp 3840x2160: %s in %.0f ms (%s)\n", r.result, r.ms, r.note);
    if (!r.ran || strcmp(r.result, "2138019184") != 0 || r.correct != 1) {
        printf("FAIL: the lecture's total is 2138019184\n");
        printf("0 passed, 1 failed\n");
        return 1;
    }
    printf("1 passed, 0 failed\n");
    return 0;
}
