// thrust_probe.cu - what makes one thrust::reduce(p, p + n, 0LL) over 64 Mi
// ints cost 0.09 ms in one process and 0.17 ms in another. Each argument
// changes one thing about the process:
//   events-each  create and destroy the two timing events around every call
//                (as the lecture's GpuMs does) instead of once
//   omp          run an OpenMP sum over the data first (worker threads exist)
//   spin|yield|block   cudaSetDeviceFlags(cudaDeviceScheduleSpin/Yield/
//                BlockingSync) before the first CUDA call (default: auto)
// Prints "probe ARGS: median MS (min, max) sum S" for 20 calls after a warm-up.
#include <thrust/device_ptr.h>
#include <thrust/reduce.h>
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#define CK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

int main(int argc, char **argv)
{
    bool each = false, omp = false;
    unsigned flags = cudaDeviceScheduleAuto;
    std::string args;
    for (int i = 1; i < argc; i++) {
        args += std::string(" ") + argv[i];
        if (!std::strcmp(argv[i], "events-each")) each = true;
        else if (!std::strcmp(argv[i], "omp")) omp = true;
        else if (!std::strcmp(argv[i], "spin")) flags = cudaDeviceScheduleSpin;
        else if (!std::strcmp(argv[i], "yield")) flags = cudaDeviceScheduleYield;
        else if (!std::strcmp(argv[i], "block")) flags = cudaDeviceScheduleBlockingSync;
        else { std::fprintf(stderr, "unknown argument %s\n", argv[i]); return 2; }
    }
    CK(cudaSetDeviceFlags(flags));
    const long long n = 1LL << 26;
    std::vector<int> data(n);
    std::mt19937 gen(26);
    for (int &x : data) x = (int)(gen() % 100);
    if (omp) {
        long long s = 0;
#pragma omp parallel for reduction(+ : s)
        for (long long i = 0; i < n; ++i) s += data[i];
        if (s < 0) std::printf("impossible\n");
    }
    int *d;
    CK(cudaMalloc(&d, n * sizeof(int)));
    CK(cudaMemcpy(d, data.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    thrust::device_ptr<int> p(d);
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    long long sum = 0;
    std::vector<float> t;
    for (int i = 0; i < 21; i++) {
        if (each) { CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b)); }
        CK(cudaEventRecord(a));
        sum = thrust::reduce(p, p + n, 0LL);
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, a, b));
        if (each) { CK(cudaEventDestroy(a)); CK(cudaEventDestroy(b)); }
        if (i > 0) t.push_back(ms); /* the first call is the warm-up */
    }
    std::sort(t.begin(), t.end());
    std::printf("probe%s: median %.4f ms (min %.4f, max %.4f) sum %lld\n",
                args.empty() ? " (defaults)" : args.c_str(), 0.5 * (t[9] + t[10]), t[0], t[19], sum);
    return 0;
}
