// The helper header of p36_cuda_headers.cu, in the style of the CUDA samples'
// helpers: each part compiles only when the header it needs was included.
#ifndef P36_CHECKS_H
#define P36_CHECKS_H
#include <stdio.h>

#ifdef __DRIVER_TYPES_H__
static const char *p36_error_name(cudaError_t e) { return cudaGetErrorName(e); }
#define P36_HAVE_DRIVER_TYPES 1
#else
#define P36_HAVE_DRIVER_TYPES 0
#endif

#ifdef __CUDA_RUNTIME_H__
#define P36_HAVE_RUNTIME 1
template <class T> int p36_check(T result, const char *file, int line)
{
    if (result == cudaSuccess) return 0;
    const char *f = file;
    for (const char *c = file; *c; c++)
        if (*c == '/') f = c + 1;
    printf("bad copy: %s at %s:%d\n", p36_error_name(result), f, line);
    return 1;
}
#define P36_CHECK(x) p36_check((x), __FILE__, __LINE__)
#else
#define P36_HAVE_RUNTIME 0
#endif

#endif
