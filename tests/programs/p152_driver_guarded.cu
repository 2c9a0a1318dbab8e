// The twin of p110_driver_api.cu: driver API code that is not compiled
// (under #ifdef CUDA_DRIVER_API, as the samples' helper_cuda.h has it) and a
// function of the program's own whose name begins with cu are not the
// driver API; the program opens and runs on the simulator.
// EXPECT: cuScaled 6 9 12
#include <cstdio>

#ifdef CUDA_DRIVER_API
static const char *driverErrorName(CUresult error)
{
    const char *name = NULL;
    cuGetErrorName(error, &name);
    return name;
}
#endif

__global__ void cuScaled(int *v, int k)
{
    v[threadIdx.x] = (threadIdx.x + 2) * k;
}

static int cuSum(const int *v, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) s += v[i];
    return s;
}

int main()
{
    int *d, h[3];
    cudaMalloc(&d, sizeof h);
    cuScaled<<<1, 3>>>(d, 3);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    cudaFree(d);
    printf("cuScaled %d %d %d\n", h[0], h[1], h[2]);
    return cuSum(h, 3) == 27 ? 0 : 1;
}
