/* assert.h of a student's program on the simulator, whoever includes it (the
 * program, a header outside the source pass, the C++ library): the C
 * library's, then assert made kernel-aware again (progrt.h): in a kernel a
 * failed assert ends the launch with cudaErrorAssert, as on the GPU, not
 * the whole program. Like the C library's, it may be included many times. */
#include_next <assert.h>
#if !defined(NDEBUG) && defined(GPULAB_PROGRT_ASSERT)
#undef assert
#define assert(e) GPULAB_PROGRT_ASSERT(e, #e)
#endif
