// A dynamic shared array declared inside a macro: the CUDA samples make
// their SharedMemory<T> helpers this way, one specialisation per type, each
// with its own `extern __shared__ T name[]` (the arrays of a block all start
// at the same address: the launch's dynamic shared memory). A tree sum per
// block, for ints and floats, through the helper.
// EXPECT: int sums: 32640 98176 163712 229248
// EXPECT: float sums: 16320.0 49088.0 81856.0 114624.0
#include <cstdio>

template <typename T> struct SharedMemory;

#define SHARED_MEMORY_FOR(T, NAME)                 \
    template <> struct SharedMemory<T> {           \
        __device__ T *get()                        \
        {                                          \
            extern __shared__ T NAME[];            \
            return NAME;                           \
        }                                          \
    }

SHARED_MEMORY_FOR(int, s_int);
SHARED_MEMORY_FOR(float, s_float);

// tree reduction in shared memory: each step halves the threads that add
template <typename T> __global__ void block_sum(const T *in, T *out)
{
    T *s = SharedMemory<T>().get();
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
        if (t < half) s[t] += s[t + half];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

template <typename T> void run(const char *label, T scale)
{
    const int blocks = 4, threads = 256, n = blocks * threads;
    T h[n], sums[blocks], *in, *out;
    for (int i = 0; i < n; i++) h[i] = (T)i * scale;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof sums);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    block_sum<T><<<blocks, threads, threads * sizeof(T)>>>(in, out);
    cudaMemcpy(sums, out, sizeof sums, cudaMemcpyDeviceToHost);
    printf("%s sums:", label);
    for (int b = 0; b < blocks; b++) {
        if (scale == (T)1) printf(" %d", (int)sums[b]);
        else printf(" %.1f", (double)sums[b]);
    }
    printf("\n");
    cudaFree(in);
    cudaFree(out);
}

int main()
{
    run<int>("int", 1);
    run<float>("float", 0.5f);
    return 0;
}
