// timing.cuh - helpers a student keeps beside the lecture's programs: a
// checked CUDA call, GPU and CPU milliseconds, and the median of five runs
// after one warm-up run.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK_CUDA(expr)                                                          \
    do {                                                                          \
        cudaError_t status = (expr);                                              \
        if (status != cudaSuccess) {                                              \
            std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,    \
                         #expr, cudaGetErrorString(status));                      \
            std::exit(EXIT_FAILURE);                                              \
        }                                                                         \
    } while (0)

template <class Fn> float median_of_runs(Fn measure)
{
    measure();
    std::vector<float> ms(5);
    for (float &m : ms) m = measure();
    std::nth_element(ms.begin(), ms.begin() + 2, ms.end());
    return ms[2];
}

template <class Fn> float gpu_ms(Fn work)
{
    cudaEvent_t begin, end;
    CHECK_CUDA(cudaEventCreate(&begin));
    CHECK_CUDA(cudaEventCreate(&end));
    CHECK_CUDA(cudaEventRecord(begin));
    work();
    CHECK_CUDA(cudaEventRecord(end));
    CHECK_CUDA(cudaEventSynchronize(end));
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, begin, end));
    cudaEventDestroy(begin);
    cudaEventDestroy(end);
    return ms;
}

template <class Fn> float cpu_ms(Fn work)
{
    auto t0 = std::chrono::steady_clock::now();
    work();
    return std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
