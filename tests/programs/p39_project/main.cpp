// A program of several files (CMakeLists.txt names them): main.cpp is plain
// C++ that calls the runtime and the launchers of two .cu files; the include
// folder and SCALE_BY come from CMakeLists.txt.
// EXPECT: scaled by 3, sum 3000
// EXPECT: exit status 0
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

#include <p39.h>

int main()
{
    const int n = 1000;
    std::vector<float> h(n, 1.0f);
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    scale_on_device(d, n, SCALE_BY);
    printf("scaled by %d, sum %.0f\n", SCALE_BY, sum_on_device(d, n));
    cudaFree(d);
    return 0;
}
