/* record.h - record a real trace of a reduction variant for the tests. */
#ifndef GPULAB_TESTS_VIZ_RECORD_H
#define GPULAB_TESTS_VIZ_RECORD_H

#include <stddef.h>

#include "kernels/lab.h"

/* Trace ALGO/VARIANT at n with this block (0: the variant's default),
 * dtype and input pattern (NULL: the algorithm's default) on backend
 * (LAB_BACKEND_SIM or LAB_BACKEND_GPU). Fills *t and, when r is not NULL,
 * *r. 0 ok; -1 with a message in err. */
int viz_test_record(const char *algo, const char *variant, long long n, int block, lab_dtype dt,
                    const char *pattern, lab_backend backend, lab_trace *t, lab_result *r, char *err,
                    size_t errlen);

#endif
