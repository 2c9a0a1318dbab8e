/* expect.h - the check of the GPU test programs (plain executables, so that
 * they can run on a GPU machine without a test framework): a failed EXPECT
 * prints where and why and is counted; main returns failures ? 1 : 0. */
#ifndef GPULAB_TEST_EXPECT_H
#define GPULAB_TEST_EXPECT_H

#include <stdio.h>

static int failures;
static int checks __attribute__((unused));

#define EXPECT(cond, ...)                                   \
    do {                                                    \
        checks++;                                           \
        if (!(cond)) {                                      \
            failures++;                                     \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);     \
            printf(__VA_ARGS__);                            \
            printf("\n");                                   \
        }                                                   \
    } while (0)

#endif
