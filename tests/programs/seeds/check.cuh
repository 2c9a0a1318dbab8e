// check.cuh - the CHECK macro of the article's error header, in a student's words.
#pragma once
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                            \
    do {                                                                       \
        const cudaError_t code = (call);                                       \
        if (code != cudaSuccess) {                                             \
            printf("CUDA error in %s, line %d: %d (%s)\n", __FILE__, __LINE__, \
                   (int)code, cudaGetErrorString(code));                       \
            exit(1);                                                           \
        }                                                                      \
    } while (0)
