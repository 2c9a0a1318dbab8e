/* registry.c - every algorithm gpulab knows, in the order `list` shows them.
 * The REPL, completion, help and the tests read this list and nothing else. */
#include "kernels/lab.h"

#include <string.h>

extern const lab_algo lab_algo_scale, lab_algo_vecdiff, lab_algo_distance;
extern const lab_algo lab_algo_reduce;
extern const lab_algo lab_algo_bitonic;
extern const lab_algo lab_algo_histogram;
extern const lab_algo lab_algo_transpose, lab_algo_mandelbrot, lab_algo_matmul;

static const lab_algo *const algos[] = {
    &lab_algo_scale, &lab_algo_vecdiff, &lab_algo_distance,
    &lab_algo_reduce,
    &lab_algo_bitonic,
    &lab_algo_histogram,
    &lab_algo_transpose, &lab_algo_mandelbrot, &lab_algo_matmul,
};

int lab_algo_count(void) { return (int)(sizeof algos / sizeof algos[0]); }

const lab_algo *lab_algo_at(int i)
{
    return i >= 0 && i < lab_algo_count() ? algos[i] : NULL;
}

const lab_algo *lab_algo_find(const char *name)
{
    for (int i = 0; i < lab_algo_count(); i++)
        if (strcmp(algos[i]->name, name) == 0) return algos[i];
    return NULL;
}
