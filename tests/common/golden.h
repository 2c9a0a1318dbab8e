/* golden.h - compare a text drawing with a golden file, for cmocka tests.
 * With GPULAB_UPDATE_GOLDEN=1 in the environment the file is (re)written
 * instead, to be read by eye and committed. */
#ifndef GPULAB_TEST_GOLDEN_H
#define GPULAB_TEST_GOLDEN_H

#include <stddef.h>

/* Fails the running cmocka test, naming the first line that differs, when
 * the len bytes of got are not exactly the file at path. */
void golden_check(const char *path, const char *got, size_t len);

#endif
