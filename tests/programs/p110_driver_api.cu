// The CUDA driver API (cu* calls, CU* types) is not simulated: the
// simulator runs the runtime API on the program's own kernels. A program
// that names a driver type is refused when it is opened, with the line and
// what the name is, not left to the compiler's "not declared". nvcc
// compiles it. Its twin, p152_driver_guarded.cu, stays silent.
// FAILS-SIM
// EXPECT-SIM: p110_driver_api.cu:14: CUdevice is the CUDA driver API (contexts, modules, cuLaunchKernel), which the simulator does not have
// EXPECT-GPU: device handle 0
#include <cstdio>
#include <cuda.h>

int main()
{
    CUdevice dev = 0;
    printf("device handle %d\n", (int)dev);
    return 0;
}
