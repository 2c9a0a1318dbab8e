// A template kernel launched with some of its template arguments: the
// first (Real) is given, the second (Weight) the compiler deduces from the
// call's arguments, as nvcc does (the samples' MC_EstimatePiInlineQ launches
// computeValue<Real> so). Also a kernel whose last parameter has a default.
// EXPECT: scaled: 0.0 1.5 3.0 4.5 6.0 7.5 9.0 10.5
// EXPECT: scaled: 0.0 3.0 6.0 9.0 12.0 15.0 18.0 21.0
// EXPECT: shifted: 7 8 9 10 11 12 13 14
#include <cstdio>

template <typename Real, typename Weight> __global__ void scale(Real *out, const Weight *w, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (Real)i * (Real)w[0];
}

template <typename T, int Shift = 7> __global__ void shift(T *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (T)(i + Shift);
}

template <typename Real> void run(double weight)
{
    const int n = 8;
    Real *out, h[n];
    double *w;
    cudaMalloc(&out, n * sizeof(Real));
    cudaMalloc(&w, sizeof(double));
    cudaMemcpy(w, &weight, sizeof weight, cudaMemcpyHostToDevice);
    scale<Real><<<1, 32>>>(out, w, n);
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    printf("scaled:");
    for (int i = 0; i < n; i++) printf(" %.1f", (double)h[i]);
    printf("\n");
    cudaFree(out);
    cudaFree(w);
}

int main()
{
    run<float>(1.5);
    run<double>(3.0);
    int *o, h[8];
    cudaMalloc(&o, sizeof h);
    shift<int><<<1, 8>>>(o, 8);
    cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
    printf("shifted:");
    for (int i = 0; i < 8; i++) printf(" %d", h[i]);
    printf("\n");
    cudaFree(o);
    return 0;
}
