// Host threads that allocate, fill, copy and free at once, as the
// UnifiedMemoryStreams sample's OpenMP tasks do: each task has its own
// managed and device buffers, a stream, a kernel and a cuBLAS call, and
// frees them after. The allocations may be made and freed in any order by
// the threads; every task's result comes out right and nothing leaks. On
// the GPU, gpulab lists every launch as it ran: none is marked failed (each
// thread times its own launch on its own stream).
// EXPECT: 600 tasks right, 0 wrong
// EXPECT: exit status 0
// REJECT: never freed
// REJECT: failed)
#include <cstdio>
#include <cublas_v2.h>
#include <omp.h>

__global__ void square(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * in[i];
}

int main()
{
    const int tasks = 600;
    int right = 0;
#pragma omp parallel for num_threads(4) schedule(dynamic) reduction(+ : right)
    for (int t = 0; t < tasks; t++) {
        int n = 64 + t % 7 * 32;
        float *in, *out;
        cudaMallocManaged(&in, n * sizeof(float));
        cudaMalloc(&out, n * sizeof(float));
        for (int i = 0; i < n; i++) in[i] = (float)(i + t);
        cudaMemset(out, 0, n * sizeof(float));
        cudaStream_t st;
        cudaStreamCreate(&st);
        square<<<(n + 63) / 64, 64, 0, st>>>(in, out, n);
        /* out += 1 * in, by cuBLAS on the task's stream */
        cublasHandle_t h_blas;
        cublasCreate(&h_blas);
        cublasSetStream(h_blas, st);
        const float one = 1.0f;
        cublasSaxpy(h_blas, n, &one, in, 1, out, 1);
        float h[320];
        cudaMemcpyAsync(h, out, n * sizeof(float), cudaMemcpyDeviceToHost, st);
        cudaStreamSynchronize(st);
        int bad = 0;
        for (int i = 0; i < n; i++) bad += h[i] != in[i] * in[i] + in[i];
        cublasDestroy(h_blas);
        right += bad == 0;
        cudaStreamDestroy(st);
        cudaFree(out);
        cudaFree(in);
    }
    printf("%d tasks right, %d wrong\n", right, tasks - right);
    return right == tasks ? 0 : 1;
}
