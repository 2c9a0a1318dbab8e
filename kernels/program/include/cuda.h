/* cuda.h of a student's program on the simulator: the runtime API is
 * gpulab's (kernels/program/progrt.h); the driver API (cu* calls) is not
 * simulated, so only the version macro of the toolkit's cuda.h is here. */
#include "kernels/program/progrt.h"
#ifndef CUDA_VERSION
#define CUDA_VERSION 13000
#endif
