// A mistake: this_grid().sync() in a kernel launched with <<< >>>. Only a
// cooperative launch (cudaLaunchCooperativeKernel) makes the blocks resident
// together; in any other launch the grid group is not valid and the CUDA
// headers stop the kernel at sync() (__trap): the launch fails with an
// unspecified launch failure, and so does every later call.
// EXPECT: is_valid: 0
// EXPECT: synchronize: cudaErrorLaunchFailure
// EXPECT-SIM: in a launch that is not cooperative
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void valid(int *out)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) *out = cg::this_grid().is_valid();
}

__global__ void two_phases(int *data)
{
    cg::grid_group grid = cg::this_grid();
    data[blockIdx.x] = blockIdx.x;
    grid.sync();  // not a cooperative launch: undefined, the GPU traps
    if (threadIdx.x == 0) data[blockIdx.x] += data[(blockIdx.x + 1) % gridDim.x];
}

int main()
{
    int *d, v = -1;
    cudaMalloc(&d, 64 * sizeof(int));
    valid<<<4, 32>>>(d);
    cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost);
    printf("is_valid: %d\n", v);
    two_phases<<<4, 32>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    printf("synchronize: %s\n", cudaGetErrorName(e));
    return 0;
}
