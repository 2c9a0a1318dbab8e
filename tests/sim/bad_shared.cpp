/* bad_shared.cpp - must NOT compile: on the simulator a bare __shared__ would
 * be one variable for every block, so the shim refuses it and names the
 * macros to use instead (test sim_shared_keyword_refused). */
#define GPULAB_SIM 1
#include "kernels/kern.h"

static __global__ void bad_k(int *out)
{
    __shared__ int x[4];
    x[threadIdx.x] = 1;
    out[threadIdx.x] = x[0];
}
