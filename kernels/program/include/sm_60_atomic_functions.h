/* sm_60_atomic_functions.h of a student's program on the simulator: gpulab's CUDA runtime
 * (kernels/program/progrt.h, included before the program's first line)
 * declares all of it. */
#include "kernels/program/progrt.h"
