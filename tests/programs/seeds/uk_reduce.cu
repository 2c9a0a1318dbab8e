// Sum of 2^26 ints (std::mt19937 seeded with 26, each value % 100), after the
// Ukrainian lecture's first example: interleaved addressing (divergent warps)
// and sequential addressing (each thread adds two while loading), checked
// against an OpenMP sum. No thrust row: thrust does not run on the simulator.
// The element count comes from the command line (default 2^26).
// ARGS-SIM: 262144
// EXPECT: openmp
// EXPECT: interleaved
// EXPECT: sequential
// EXPECT-GPU: n = 67108864
// EXPECT-GPU: 3321858913
// EXPECT-SIM: n = 262144
// REJECT: WRONG
#include <omp.h>
#include <random>
#include "timing.cuh"

const int BLOCK = 256;

// threads whose index is a multiple of 2*stride add: half of every warp idles
__global__ void reduce_interleaved(const int *x, long long n, unsigned long long *sum)
{
    __shared__ long long part[BLOCK];
    int t = threadIdx.x;
    long long g = (long long)blockIdx.x * BLOCK + t;
    part[t] = g < n ? x[g] : 0;
    __syncthreads();
    for (int stride = 1; stride < BLOCK; stride <<= 1) {
        if (t % (2 * stride) == 0) part[t] += part[t + stride];
        __syncthreads();
    }
    if (t == 0) atomicAdd(sum, (unsigned long long)part[0]);
}

// the first `stride` threads add, packed in as few warps as possible
__global__ void reduce_sequential(const int *x, long long n, unsigned long long *sum)
{
    __shared__ long long part[BLOCK];
    int t = threadIdx.x;
    long long g = (long long)blockIdx.x * (2 * BLOCK) + t;
    long long v = 0;
    if (g < n) v = x[g];
    if (g + BLOCK < n) v += x[g + BLOCK];
    part[t] = v;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) part[t] += part[t + stride];
        __syncthreads();
    }
    if (t == 0) atomicAdd(sum, (unsigned long long)part[0]);
}

int main(int argc, char **argv)
{
    long long n = 1LL << 26;
    if (argc > 1) n = std::atoll(argv[1]);
    std::vector<int> host(n);
    std::mt19937 rng(26);
    for (long long i = 0; i < n; i++) host[i] = (int)(rng() % 100);

    int *dx;
    unsigned long long *dsum;
    CHECK_CUDA(cudaMalloc(&dx, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&dsum, sizeof *dsum));
    float copy = median_of_runs([&] {
        return gpu_ms([&] { CHECK_CUDA(cudaMemcpy(dx, host.data(), n * sizeof(int), cudaMemcpyHostToDevice)); });
    });
    long long want = 0;
    float cpu = median_of_runs([&] {
        return cpu_ms([&] {
            long long s = 0;
#pragma omp parallel for reduction(+ : s)
            for (long long i = 0; i < n; i++) s += host[i];
            want = s;
        });
    });
    std::printf("n = %lld, host to device copy %.1f ms\n", n, copy);
    std::printf("%9s %8s %7s  %-12s %s\n", "ms", "GB/s", "speedup", "sum", "method");
    auto report = [&](const char *method, float ms, long long got) {
        std::printf("%9.2f %8.1f %7.1f  %-12lld %s%s\n", ms, n * sizeof(int) / ms / 1e6, cpu / ms, got, method,
                    got == want ? "" : "  WRONG");
    };
    report("openmp", cpu, want);
    auto on_gpu = [&](const char *method, auto kernel, int per_block) {
        unsigned grid = (unsigned)((n + per_block - 1) / per_block);
        float ms = median_of_runs([&] {
            return gpu_ms([&] {
                CHECK_CUDA(cudaMemset(dsum, 0, sizeof *dsum));
                kernel<<<grid, BLOCK>>>(dx, n, dsum);
                CHECK_CUDA(cudaGetLastError());
            });
        });
        unsigned long long got = 0;
        CHECK_CUDA(cudaMemcpy(&got, dsum, sizeof got, cudaMemcpyDeviceToHost));
        report(method, ms, (long long)got);
    };
    on_gpu("interleaved", reduce_interleaved, BLOCK);
    on_gpu("sequential", reduce_sequential, 2 * BLOCK);
    CHECK_CUDA(cudaFree(dx));
    CHECK_CUDA(cudaFree(dsum));
    return 0;
}
