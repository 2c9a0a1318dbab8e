// The CUDA driver API (cu* calls, CU* types) is not simulated: the
// simulator runs the runtime API on the program's own kernels. A program
// that names a driver type stops at the compiler, and the note says what
// the name is, not only that it was not declared. nvcc compiles it.
// FAILS-SIM
// EXPECT-SIM: note: CUdevice is the CUDA driver API, which gpulab's simulator does not have
// EXPECT-GPU: device handle 0
#include <cstdio>
#include <cuda.h>

int main()
{
    CUdevice dev = 0;
    printf("device handle %d\n", (int)dev);
    return 0;
}
