// A 256-bin brightness histogram after the Ukrainian lecture's second example:
// a "photo" (left-to-right gradient 60..200 plus normal noise of sigma 12,
// std::mt19937 seeded with 8) and a "flat" image (every pixel 128), counted by
// OpenMP threads with private histograms, by global atomics, and by per-block
// histograms in shared memory; 8 blocks of 256 threads per SM. The image size
// comes from the command line (default 8K: 7680 x 4320).
// ARGS-SIM: 640 360
// EXPECT-GPU: image 7680 x 4320
// EXPECT-SIM: image 640 x 360
// EXPECT: photo: global and shared match the CPU
// EXPECT: flat: global and shared match the CPU
// REJECT: DIFFER
#include <omp.h>
#include <cstring>
#include <random>
#include "timing.cuh"

const int BINS = 256;

// every pixel is one atomic on the global histogram: contention on busy bins
__global__ void hist_global(const unsigned char *px, int n, unsigned *hist)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&hist[px[i]], 1u);
}

// atomics on a block-private histogram in shared memory, one add per bin at the end
__global__ void hist_shared(const unsigned char *px, int n, unsigned *hist)
{
    __shared__ unsigned mine[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) mine[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&mine[px[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (mine[b]) atomicAdd(&hist[b], mine[b]);
}

static void hist_cpu(const std::vector<unsigned char> &px, unsigned *hist)
{
    std::memset(hist, 0, BINS * sizeof *hist);
    long n = (long)px.size();
#pragma omp parallel
    {
        unsigned mine[BINS] = {0};
#pragma omp for
        for (long i = 0; i < n; i++) mine[px[i]]++;
#pragma omp critical
        for (int b = 0; b < BINS; b++) hist[b] += mine[b];
    }
}

int main(int argc, char **argv)
{
    int w = 7680, h = 4320;
    if (argc > 2) { w = std::atoi(argv[1]); h = std::atoi(argv[2]); }
    int n = w * h;
    std::vector<unsigned char> photo(n), flat(n, 128);
    std::mt19937 rng(8);
    std::normal_distribution<float> noise(0.0f, 12.0f);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            photo[(long)y * w + x] = (unsigned char)std::clamp(60.0f + 140.0f * x / w + noise(rng), 0.0f, 255.0f);
    int sms = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    int grid = 8 * sms, block = 256;
    unsigned char *dpx;
    unsigned *dhist;
    CHECK_CUDA(cudaMalloc(&dpx, n));
    CHECK_CUDA(cudaMalloc(&dhist, BINS * sizeof(unsigned)));
    std::printf("image %d x %d, grid %d blocks of %d threads\n", w, h, grid, block);
    std::printf("%10s %10s %10s  (ms, median of 5)\n", "openmp", "global", "shared");
    const std::vector<unsigned char> *images[2] = {&photo, &flat};
    const char *names[2] = {"photo", "flat"};
    for (int k = 0; k < 2; k++) {
        unsigned want[BINS], got[BINS];
        float cpu = median_of_runs([&] { return cpu_ms([&] { hist_cpu(*images[k], want); }); });
        CHECK_CUDA(cudaMemcpy(dpx, images[k]->data(), n, cudaMemcpyHostToDevice));
        bool match = true;
        auto time_kernel = [&](auto kernel) {
            float ms = median_of_runs([&] {
                return gpu_ms([&] {
                    CHECK_CUDA(cudaMemset(dhist, 0, sizeof got));
                    kernel<<<grid, block>>>(dpx, n, dhist);
                });
            });
            CHECK_CUDA(cudaMemcpy(got, dhist, sizeof got, cudaMemcpyDeviceToHost));
            match = match && std::memcmp(want, got, sizeof got) == 0;
            return ms;
        };
        float g = time_kernel(hist_global);
        float s = time_kernel(hist_shared);
        std::printf("%10.2f %10.2f %10.2f  %s: global and shared %s\n", cpu, g, s, names[k],
                    match ? "match the CPU" : "DIFFER from the CPU");
    }
    CHECK_CUDA(cudaFree(dpx));
    CHECK_CUDA(cudaFree(dhist));
    return 0;
}
