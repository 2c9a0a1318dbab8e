// A kernel's own type names and constants are the same in every thread: a
// typedef, a `using` alias and constexpr sizes at the top of the body name
// the shared tile's type and size, and the tile is read after a barrier and
// summed in a loop of barriers. One block of 8 x 8 threads, for ints and
// for floats (summed in long long and in double).
// EXPECT: int: 0 8 16 24 | 1 9 | 63 | sum 2016
// EXPECT: float: 0 4 8 12 | 0.5 4.5 | 31.5 | sum 1008
// EXPECT: exit status 0
#include <cstdio>

template <class T> struct wide {
    typedef long long type;
};
template <> struct wide<float> {
    typedef double type;
};

// Idea: a tile transposed through shared memory, its elements then summed
// as a tree; the types and sizes are names the body makes before anything
// else.
template <class T>
__global__ void transpose_tile(const T *in, T *out, typename wide<T>::type *total)
{
    typedef typename wide<T>::type W;
    using Elem = T;
    constexpr int TILE = 8;
    constexpr int PAD = TILE + 1;
    __shared__ Elem tile[TILE][PAD];
    __shared__ W sum[TILE * TILE];
    const int x = threadIdx.x, y = threadIdx.y, me = y * TILE + x;
    tile[y][x] = in[me];
    sum[me] = (W)in[me];
    __syncthreads();
    out[me] = tile[x][y];
    for (int d = TILE * TILE / 2; d > 0; d /= 2) {
        if (me < d) sum[me] += sum[me + d];
        __syncthreads();
    }
    if (me == 0) *total = sum[0];
}

int main()
{
    int hi[64], *di, *oi;
    float hf[64], *df, *of;
    long long ti, *dti;
    double tf, *dtf;
    for (int i = 0; i < 64; i++) {
        hi[i] = i;
        hf[i] = 0.5f * (float)i;
    }
    cudaMalloc(&di, sizeof hi);
    cudaMalloc(&oi, sizeof hi);
    cudaMalloc(&df, sizeof hf);
    cudaMalloc(&of, sizeof hf);
    cudaMalloc(&dti, sizeof ti);
    cudaMalloc(&dtf, sizeof tf);
    cudaMemcpy(di, hi, sizeof hi, cudaMemcpyHostToDevice);
    cudaMemcpy(df, hf, sizeof hf, cudaMemcpyHostToDevice);
    transpose_tile<<<1, dim3(8, 8)>>>(di, oi, dti);
    transpose_tile<<<1, dim3(8, 8)>>>(df, of, dtf);
    cudaMemcpy(hi, oi, sizeof hi, cudaMemcpyDeviceToHost);
    cudaMemcpy(hf, of, sizeof hf, cudaMemcpyDeviceToHost);
    cudaMemcpy(&ti, dti, sizeof ti, cudaMemcpyDeviceToHost);
    cudaMemcpy(&tf, dtf, sizeof tf, cudaMemcpyDeviceToHost);
    printf("int: %d %d %d %d | %d %d | %d | sum %lld\n", hi[0], hi[1], hi[2], hi[3], hi[8], hi[9], hi[63], ti);
    printf("float: %g %g %g %g | %g %g | %g | sum %g\n", hf[0], hf[1], hf[2], hf[3], hf[8], hf[9], hf[63], tf);
    cudaFree(di);
    cudaFree(oi);
    cudaFree(df);
    cudaFree(of);
    cudaFree(dti);
    cudaFree(dtf);
    return 0;
}
