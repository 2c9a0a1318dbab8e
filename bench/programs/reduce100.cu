// A student's reduction of 2^20 ints with blocks of 256 threads: sequential
// addressing (the working threads stay packed in whole warps), each thread
// adding two elements while it loads, one atomicAdd per block. The same
// algorithm as gpulab's reduce/sequential, so bench/programs.sh can compare
// the two on the simulator. About a hundred lines, as a first program is.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                             \
    do {                                                                        \
        cudaError_t e_ = (call);                                                \
        if (e_ != cudaSuccess) {                                                \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                    cudaGetErrorString(e_));                                    \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

__global__ void reduce_sequential(const int *in, long long n, unsigned long long *total)
{
    extern __shared__ long long s[];
    int tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x * 2 + tid;
    long long sum = 0;
    if (i < n) sum = in[i];
    if (i + blockDim.x < n) sum += in[i + blockDim.x];
    s[tid] = sum;
    __syncthreads();
    for (int step = blockDim.x / 2; step > 0; step /= 2) {
        if (tid < step) s[tid] += s[tid + step];
        __syncthreads();
    }
    if (tid == 0) atomicAdd(total, (unsigned long long)s[0]);
}

static long long cpu_sum(const std::vector<int> &v)
{
    long long s = 0;
    for (int x : v) s += x;
    return s;
}

int main(int argc, char **argv)
{
    long long n = 1 << 20;
    int block = 256;
    if (argc > 1) n = atoll(argv[1]);
    if (argc > 2) block = atoi(argv[2]);
    if (n < 1 || block < 32 || block > 1024 || (block & (block - 1))) {
        fprintf(stderr, "usage: reduce100 [n [block: a power of two, 32..1024]]\n");
        return 2;
    }

    std::vector<int> host(n);
    unsigned seed = 12345;
    for (long long i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        host[i] = (int)((seed >> 16) % 100);
    }

    int *d_in;
    unsigned long long *d_total;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_total, sizeof(unsigned long long)));
    CHECK(cudaMemcpy(d_in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_total, 0, sizeof(unsigned long long)));

    long long per_block = 2LL * block;
    unsigned grid = (unsigned)((n + per_block - 1) / per_block);
    size_t shared = block * sizeof(long long);

    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start));
    reduce_sequential<<<grid, block, shared>>>(d_in, n, d_total);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));

    unsigned long long total = 0;
    CHECK(cudaMemcpy(&total, d_total, sizeof total, cudaMemcpyDeviceToHost));
    long long want = cpu_sum(host);

    printf("n = %lld, block %d, grid %u\n", n, block, grid);
    printf("sum %llu (CPU %lld) %s\n", total, want, (long long)total == want ? "ok" : "WRONG");
    printf("kernel %.3f ms\n", ms);

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_total));
    return (long long)total == want ? 0 : 1;
}
