/* cooperative_groups/memcpy_async.h of a student's program on the simulator: libcu++'s asynchronous
 * barriers and copies on the simulator's threads (kernels/sim/shim_async.h). */
#include "kernels/program/progrt.h"
#include "kernels/sim/shim_async.h"
