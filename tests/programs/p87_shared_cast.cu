// A shared array seen through a pointer of another type, as the CUDA
// samples do: a template kernel takes its dynamic shared memory as T through
// a cast (`(T *)smem`), and a histogram clears its byte array 16 bytes at a
// time through `reinterpret_cast<uint4 *>`. The cast pointer keeps the
// array's bounds: the clearing loop's `i <= 64` makes thread 64 write the 16
// bytes after the array. On a GPU nothing stops it (the block's next shared
// variable, or its padding, is overwritten); the simulator names the array,
// its size, the line and the thread.
// EXPECT: sum of 256 floats: 256.0
// EXPECT: sum of 256 ints: 256
// EXPECT-SIM: hist: block 0, thread 64, at line 48 writes 16 bytes 0 bytes past the end of shared array raw[1024] (1024 bytes, declared at line 40), through a pointer
// EXPECT-SIM: histogram: cudaErrorIllegalAddress
#include <cstdio>

// Idea: one dynamic shared array serves every T: cast it to the T you need.
template <class T> struct SharedMemory {
    __device__ operator T *()
    {
        extern __shared__ int smem[];
        return (T *)smem;
    }
};

template <class T> __global__ void sum(const T *in, T *out)
{
    T *s = SharedMemory<T>();
    unsigned t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
        if (t < half) s[t] += s[t + half];
        __syncthreads();
    }
    if (t == 0) *out = s[0];
}

// Idea: bytes counted as words: a cast pointer sees the array's bytes, no more.
__global__ void hist(const unsigned char *in, unsigned *out, int n)
{
    __shared__ __align__(16) unsigned char raw[256 * sizeof(unsigned)];
    __shared__ unsigned total;
    uint4 *z = reinterpret_cast<uint4 *>(raw);
    unsigned *bins = (unsigned *)raw;
    if (threadIdx.x == 0) total = 0;
#ifdef CORRECT
    for (int i = threadIdx.x; i < 64; i += blockDim.x) z[i] = make_uint4(0, 0, 0, 0);
#else
    for (int i = threadIdx.x; i <= 64; i += blockDim.x) z[i] = make_uint4(0, 0, 0, 0);
#endif
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += blockDim.x) atomicAdd(&bins[in[i]], 1u);
    __syncthreads();
    out[threadIdx.x] = bins[threadIdx.x];
    atomicAdd(&total, bins[threadIdx.x]);
    __syncthreads();
    if (threadIdx.x == 0) out[256] = total;
}

int main()
{
    float hf[256], *df, rf;
    int hi[256], *di, ri;
    for (int i = 0; i < 256; i++) hf[i] = 1.0f, hi[i] = 1;
    cudaMalloc(&df, sizeof hf);
    cudaMalloc(&di, sizeof hi);
    cudaMemcpy(df, hf, sizeof hf, cudaMemcpyHostToDevice);
    cudaMemcpy(di, hi, sizeof hi, cudaMemcpyHostToDevice);
    sum<float><<<1, 256, 256 * sizeof(float)>>>(df, df);
    cudaMemcpy(&rf, df, sizeof rf, cudaMemcpyDeviceToHost);
    sum<int><<<1, 256, 256 * sizeof(int)>>>(di, di);
    cudaMemcpy(&ri, di, sizeof ri, cudaMemcpyDeviceToHost);
    printf("sum of 256 floats: %.1f\nsum of 256 ints: %d\n", rf, ri);

    const int n = 4096;
    unsigned char hb[n], *db;
    unsigned hr[257], *dr;
    for (int i = 0; i < n; i++) hb[i] = (unsigned char)(i * 7 % 256);
    cudaMalloc(&db, n);
    cudaMalloc(&dr, sizeof hr);
    cudaMemcpy(db, hb, n, cudaMemcpyHostToDevice);
    hist<<<1, 256>>>(db, dr, n);
    printf("histogram: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaMemcpy(hr, dr, sizeof hr, cudaMemcpyDeviceToHost);
    printf("bin 0: %u, bin 255: %u, total: %u\n", hr[0], hr[255], hr[256]);
    cudaFree(df);
    cudaFree(di);
    cudaFree(db);
    cudaFree(dr);
    return 0;
}
// MEMCHECK: what it expects comes from the simulator's memory checks
