/* mma.h of a student's program on the simulator: nvcuda::wmma, the warp's
 * matrix fragments, on the simulator's threads (kernels/sim/shim_wmma.h). */
#include "kernels/program/progrt.h"
/* as the toolkit's mma.h, it brings half and __nv_bfloat16 */
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include "kernels/sim/shim_wmma.h"
