/* test_gpurt.cpp - the GPU build's launch records (kernels/program/gpurt.h)
 * without a GPU: the name a cudaLaunchKernel / cudaLaunchCooperativeKernel
 * row gets from the expression the program wrote, and what the two macros
 * turn such a call into. */
#include "kernels/program/gpurt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void expect_name(const char *expr, const char *want)
{
    const char *got = gpulab_gpu_kname(expr);
    if (strcmp(got, want) != 0) {
        printf("FAIL: %s gives \"%s\", want \"%s\"\n", expr, got, want);
        failures++;
    }
    /* the launch keeps its copy in its record for the program's life; here
     * it is ours (expr itself only when malloc failed) */
    if (got != expr) free((void *)got);
}

#define STR2(...) #__VA_ARGS__
#define STR(...) STR2(__VA_ARGS__)

int main(void)
{
    expect_name("grid_sum", "grid_sum");
    expect_name("(void *)grid_sum", "grid_sum");
    expect_name("(const void*)&grid_sum", "grid_sum");
    expect_name("( void * ) reduce<256>", "reduce<256>");
    expect_name("(void *)(kernels[1])", "(kernels[1])");
    expect_name("(k)", "(k)");
    expect_name("&k ", "k");
    /* the macros wrap both launch calls, naming the kernel and the line */
    const char *coop = STR(cudaLaunchCooperativeKernel((void *)grid_sum, g, b, args));
    const char *plain = STR(cudaLaunchKernel(k, 4, 32, args, 0, s));
    if (!strstr(coop, "gpulab_gpu_launch(1, \"(void *)grid_sum\"") || !strstr(plain, "gpulab_gpu_launch(0, \"k\"")) {
        printf("FAIL: the macros give\n  %s\n  %s\n", coop, plain);
        failures++;
    }
    if (!failures) printf("ok\n");
    return failures != 0;
}
