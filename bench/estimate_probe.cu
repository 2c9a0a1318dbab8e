/* estimate_probe.cu - the GPU's own figures behind the estimated time (est ms,
 * docs/profile.md), measured apart from the variants the estimate is checked
 * against: the cost of scheduling a block, the latency of a DRAM load and of
 * a shared-memory load, a dependent FP32 instruction and a block barrier.
 *
 *   nvcc -O3 -arch=sm_90 -o estimate_probe bench/estimate_probe.cu && ./estimate_probe
 *
 * One JSON object per line. Times are medians of 11 runs after a warm-up,
 * with CUDA events. */
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                               \
    do {                                                                                       \
        cudaError_t e_ = (x);                                                                  \
        if (e_ != cudaSuccess) {                                                               \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

/* Scheduling alone: blocks that do nothing but exit. */
__global__ void empty_k(int *never)
{
    if (never && threadIdx.x == 1024) *never = 1;
}

/* A dependent chain of loads: each address comes from the previous load, so
 * one load at a time is in flight and the time per step is the latency. */
__global__ void chase_k(const unsigned *next, unsigned steps, unsigned *out)
{
    unsigned i = 0;
    for (unsigned s = 0; s < steps; s++) i = next[i];
    *out = i;
}

/* The same chain in shared memory; clock64 counts this SM's cycles. */
__global__ void chase_shared_k(unsigned steps, unsigned long long *cycles, unsigned *out)
{
    __shared__ unsigned next[1024];
    for (int k = threadIdx.x; k < 1024; k += blockDim.x) next[k] = (k * 97 + 13) & 1023;
    __syncthreads();
    if (threadIdx.x) return;
    unsigned i = 0;
    long long t0 = clock64();
    for (unsigned s = 0; s < steps; s++) i = next[i];
    long long t1 = clock64();
    *cycles = (unsigned long long)(t1 - t0);
    *out = i;
}

/* A dependent chain of FP32 FMAs: each waits for the one before. */
__global__ void fadd_chain_k(unsigned steps, float x, unsigned long long *cycles, float *out)
{
    float acc = 0.0f;
    long long t0 = clock64();
    for (unsigned s = 0; s < steps; s++) acc = fmaf(acc, 0.999f, x);
    long long t1 = clock64();
    *cycles = (unsigned long long)(t1 - t0);
    *out = acc;
}

/* Atomics from every thread of a full grid on `addrs` counters (a hash
 * spreads them), the result unused (RED), as a histogram does. */
__global__ void atomics_k(unsigned *counters, unsigned addrs, long long n)
{
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += stride) {
        unsigned h = (unsigned)i * 2654435761u;
        atomicAdd(&counters[(h >> 8) % addrs], 1u);
    }
}

/* The chain again, timed inside (the global timer, in ns), to run beside
 * a copy that keeps the memory busy: the latency of a load in a queue. */
__global__ void chase_timed_k(const unsigned *next, unsigned steps, unsigned *out, unsigned long long *ns)
{
    unsigned long long t0, t1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    unsigned i = 0;
    for (unsigned s = 0; s < steps; s++) i = next[i];
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
    *out = i;
    *ns = t1 - t0;
}

__global__ void copy_k(float4 *dst, const float4 *src, long long n, int times)
{
    long long stride = (long long)gridDim.x * blockDim.x;
    for (int t = 0; t < times; t++)
        for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += stride) dst[i] = src[i];
}

/* Block barriers in a loop, all 1024 threads. */
__global__ void barrier_k(unsigned rounds, unsigned long long *cycles)
{
    long long t0 = clock64();
    for (unsigned r = 0; r < rounds; r++) __syncthreads();
    long long t1 = clock64();
    if (threadIdx.x == 0) *cycles = (unsigned long long)(t1 - t0);
}

template <class F>
static double median_ms(F launch)
{
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    launch();
    CHECK(cudaDeviceSynchronize());
    std::vector<float> t;
    for (int r = 0; r < 11; r++) {
        CHECK(cudaEventRecord(a));
        launch();
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms);
    }
    CHECK(cudaGetLastError());
    std::sort(t.begin(), t.end());
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return t[t.size() / 2];
}

int main()
{
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    int clock_khz = 0, sms = 0;
    CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    printf("{\"probe\":\"device\",\"name\":\"%s\",\"sms\":%d,\"clock_khz\":%d}\n", p.name, sms, clock_khz);

    /* blocks: the launch of one block, then many blocks of each size */
    const int shapes[][2] = {{1, 32}, {524288, 32}, {131072, 128}, {65536, 256}, {16384, 1024}, {4096, 1024}};
    for (auto &s : shapes) {
        double ms = median_ms([&] { empty_k<<<s[0], s[1]>>>(nullptr); });
        printf("{\"probe\":\"empty\",\"grid\":%d,\"block\":%d,\"ms\":%.5f}\n", s[0], s[1], ms);
    }

    /* launches back to back, as a host loop of steps issues them */
    for (int blocks : {1, 256}) {
        const int launches = 136;
        double ms = median_ms([&] {
            for (int l = 0; l < launches; l++) empty_k<<<blocks, 256>>>(nullptr);
        });
        printf("{\"probe\":\"launches\",\"launches\":%d,\"grid\":%d,\"block\":256,\"ms\":%.5f,\"us_per_launch\":%.3f}\n",
               launches, blocks, ms, ms * 1e3 / launches);
    }

    /* atomics on few or many addresses */
    {
        unsigned *d_cnt;
        const long long n_atom = 1 << 24;
        CHECK(cudaMalloc(&d_cnt, sizeof(unsigned) << 20));
        CHECK(cudaMemset(d_cnt, 0, sizeof(unsigned) << 20));
        for (unsigned addrs : {1u, 8u, 32u, 256u, 4096u, 1u << 20}) {
            double ms = median_ms([&] { atomics_k<<<132 * 8, 256>>>(d_cnt, addrs, n_atom); });
            printf("{\"probe\":\"atomics\",\"addresses\":%u,\"atomics\":%lld,\"ms\":%.5f,\"ns_per_atomic\":%.4f}\n",
                   addrs, n_atom, ms, ms * 1e6 / n_atom);
        }
        cudaFree(d_cnt);
    }

    /* DRAM latency: a random cycle through 1 GiB (far past the 50 MiB L2),
     * one sector per step */
    const size_t n = (size_t)1 << 28;
    const size_t stride = 8; /* one 32-byte sector per element visited */
    const size_t m = n / stride;
    std::vector<unsigned> perm(m);
    for (size_t i = 0; i < m; i++) perm[i] = (unsigned)i;
    srand(1);
    for (size_t i = m - 1; i > 0; i--) std::swap(perm[i], perm[(size_t)rand() % (i + 1)]);
    std::vector<unsigned> next(n, 0);
    for (size_t i = 0; i < m; i++) next[perm[i] * stride] = perm[(i + 1) % m] * (unsigned)stride;
    unsigned *d_next, *d_out;
    CHECK(cudaMalloc(&d_next, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_out, sizeof(unsigned)));
    CHECK(cudaMemcpy(d_next, next.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    const unsigned steps = 20000;
    double ms = median_ms([&] { chase_k<<<1, 1>>>(d_next, steps, d_out); });
    double one = median_ms([&] { chase_k<<<1, 1>>>(d_next, 1, d_out); });
    printf("{\"probe\":\"dram_latency\",\"steps\":%u,\"ms\":%.5f,\"ms_one_step\":%.5f,\"ns\":%.1f}\n", steps, ms,
           one, (ms - one) * 1e6 / (steps - 1));

    unsigned long long *d_cyc, cyc = 0;
    CHECK(cudaMalloc(&d_cyc, sizeof cyc));

    /* the same chain while a copy on another stream keeps the memory busy
     * (6 of 8 blocks of 256 per SM, so the chain's block finds a slot) */
    {
        const long long nv = (long long)1 << 27; /* 2 GiB each way */
        float4 *s4, *d4;
        CHECK(cudaMalloc(&s4, nv * sizeof(float4)));
        CHECK(cudaMalloc(&d4, nv * sizeof(float4)));
        CHECK(cudaMemset(s4, 0, nv * sizeof(float4)));
        cudaStream_t a, b;
        CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
        CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
        cudaEvent_t e0, e1;
        CHECK(cudaEventCreate(&e0));
        CHECK(cudaEventCreate(&e1));
        const int times = 8;
        CHECK(cudaEventRecord(e0, a));
        copy_k<<<sms * 6, 256, 0, a>>>(d4, s4, nv, times);
        CHECK(cudaEventRecord(e1, a));
        chase_timed_k<<<1, 1, 0, b>>>(d_next, 4000, d_out, d_cyc);
        CHECK(cudaDeviceSynchronize());
        float cms;
        CHECK(cudaEventElapsedTime(&cms, e0, e1));
        unsigned long long ns = 0;
        CHECK(cudaMemcpy(&ns, d_cyc, sizeof ns, cudaMemcpyDeviceToHost));
        printf("{\"probe\":\"dram_latency_loaded\",\"steps\":4000,\"ns\":%.1f,\"copy_ms\":%.3f,\"copy_gbps\":%.0f}\n",
               ns / 4000.0, cms, 2.0 * nv * sizeof(float4) * times / (cms * 1e6));
        cudaFree(s4);
        cudaFree(d4);
    }
    chase_shared_k<<<1, 1024>>>(4096, d_cyc, d_out);
    CHECK(cudaMemcpy(&cyc, d_cyc, sizeof cyc, cudaMemcpyDeviceToHost));
    printf("{\"probe\":\"shared_latency\",\"steps\":4096,\"cycles\":%llu,\"cycles_per_load\":%.1f}\n", cyc,
           cyc / 4096.0);
    float *d_f;
    CHECK(cudaMalloc(&d_f, sizeof(float)));
    fadd_chain_k<<<1, 1>>>(4096, 1.5f, d_cyc, d_f);
    CHECK(cudaMemcpy(&cyc, d_cyc, sizeof cyc, cudaMemcpyDeviceToHost));
    printf("{\"probe\":\"fp32_chain\",\"steps\":4096,\"cycles\":%llu,\"cycles_per_step\":%.1f}\n", cyc,
           cyc / 4096.0);
    barrier_k<<<1, 1024>>>(4096, d_cyc);
    CHECK(cudaMemcpy(&cyc, d_cyc, sizeof cyc, cudaMemcpyDeviceToHost));
    printf("{\"probe\":\"barrier\",\"block\":1024,\"rounds\":4096,\"cycles\":%llu,\"cycles_per_barrier\":%.1f}\n",
           cyc, cyc / 4096.0);
    CHECK(cudaGetLastError());
    return 0;
}
