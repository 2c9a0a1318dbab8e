// Modules and cuLaunchKernel, the part of the CUDA driver API that loads GPU
// code (a cubin or PTX), are not simulated: a program that names them is
// refused when it is opened, with the line and what the name is, not left
// to the compiler's "not declared". nvcc compiles it. Its twins:
// p152_driver_guarded.cu (driver code that is not compiled stays silent) and
// p158_driver_vmm.cu (the part of the driver API the simulator has).
// FAILS-SIM
// EXPECT-SIM: p110_driver_api.cu:16: CUmodule is a part of the CUDA driver API that the simulator does not have
// EXPECT-GPU: cuModuleLoad of a missing file fails: yes
#include <cstdio>
#include <cuda.h>

int main()
{
    cuInit(0);
    CUmodule module;
    CUresult r = cuModuleLoad(&module, "missing.cubin");
    printf("cuModuleLoad of a missing file fails: %s\n", r != CUDA_SUCCESS ? "yes" : "no");
    return 0;
}
