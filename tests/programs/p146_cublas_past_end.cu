// A cuBLAS matrix product whose output is one column short: C is M x N
// (column-major, ldc = M) but only M x (N - 1) floats were allocated for it.
// On an H200 (2026-12-03) cublasSgemm returns success, the program prints
// C[0] = 4 and nothing is wrong to see; compute-sanitizer names the
// writes of the last column (64 floats) by cuBLAS's kernel past the 768-byte
// allocation. The simulator checks each operand before the call runs and
// refuses it, naming the call, the operand, the allocation and both sizes;
// the program sees CUBLAS_STATUS_EXECUTION_FAILED (13).
// EXPECT-SIM: simulator: line 35: cublasSgemm: 1024 bytes from the output
// EXPECT-SIM: run past the end of its allocation C (from cudaMalloc at line 30): it holds 768 bytes from there (768 in all)
// EXPECT-SIM: gemm: status 13, no error
// EXPECT-GPU: gemm: status 0, no error, C[0] = 4
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
    // one column short: M * (N - 1) floats for an M x N result
    cudaMalloc(&C, M * (N - 1) * sizeof(float));
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
