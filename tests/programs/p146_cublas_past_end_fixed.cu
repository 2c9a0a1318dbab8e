// The twin of p146_cublas_past_end: C has room for the whole M x N result,
// and the product is computed on both backends with no report.
// EXPECT: gemm: status 0, no error, C[0] = 4
// REJECT: run past the end
#include <cstdio>
#include <cublas_v2.h>

int main()
{
    const int M = 64, N = 4, K = 8;
    float hA[M * K], hB[K * N];
    for (int i = 0; i < M * K; i++) hA[i] = 1.0f;
    for (int i = 0; i < K * N; i++) hB[i] = 0.5f;
    cublasHandle_t h;
    cublasCreate(&h);
    float *A, *B, *C;
    cudaMalloc(&A, sizeof hA);
    cudaMalloc(&B, sizeof hB);
    cudaMemcpy(A, hA, sizeof hA, cudaMemcpyHostToDevice);
    cudaMemcpy(B, hB, sizeof hB, cudaMemcpyHostToDevice);
    // room for the whole M x N result
    cudaMalloc(&C, M * N * sizeof(float));
    const float one = 1.0f, zero = 0.0f;
    cublasStatus_t st;
    float first;
    // C = A B: every element is K * 0.5
    st = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &one, A, M, B, K, &zero, C, M);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(&first, C, sizeof first, cudaMemcpyDeviceToHost);
    printf("gemm: status %d, %s, C[0] = %g\n", (int)st, cudaGetErrorString(e), first);
    cublasDestroy(h);
    cudaFree(A);
    cudaFree(B);
    cudaFree(C);
    return 0;
}
