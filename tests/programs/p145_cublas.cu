// cuBLAS from a course: vectors and matrices set with cublasSetVector and
// cublasSetMatrix, level-1 routines (axpy, scal, dot, nrm2, asum, the
// index of the largest), a matrix-vector product both ways and a matrix
// product with and without transposes, column-major as cuBLAS defines it.
// The values are small integers, so every sum is exact in any order.
// RUN: set check all
// REJECT: simulator:
// EXPECT: axpy: -2 3 8 13 18 23 28 33
// EXPECT: dot: 768
// EXPECT: asum: 128
// EXPECT: isamax: 8
// EXPECT: nrm2: 5
// EXPECT: scal: 0.5 2 1.5 4 2.5 6 3.5 8
// EXPECT: gemv N: 40 50 60
// EXPECT: gemv T: 170 470 770 1070
// EXPECT: gemm NN: 12 14 17 19 22 24
// EXPECT: gemm NT: 36 42 51 57 66 72
#include <cstdio>
#include <cublas_v2.h>

#define CHECK(call)                                                                  \
    do {                                                                             \
        cublasStatus_t st = (call);                                                  \
        if (st != CUBLAS_STATUS_SUCCESS) {                                           \
            printf("%s: %s (line %d)\n", #call, cublasGetStatusName(st), __LINE__);  \
            return 1;                                                                \
        }                                                                            \
    } while (0)

int main()
{
    const int n = 8, M = 3, K = 4, N = 2;
    float x[n], y[n], r;
    for (int i = 0; i < n; i++) {
        x[i] = (float)(i + 1);
        y[i] = (float)(2 * i - 5);
    }
    cublasHandle_t h;
    CHECK(cublasCreate(&h));
    float *dx, *dy;
    cudaMalloc(&dx, n * sizeof(float));
    cudaMalloc(&dy, n * sizeof(float));
    CHECK(cublasSetVector(n, sizeof(float), x, 1, dx, 1));
    CHECK(cublasSetVector(n, sizeof(float), y, 1, dy, 1));

    float alpha = 3.0f;
    CHECK(cublasSaxpy(h, n, &alpha, dx, 1, dy, 1));   // y = 3x + y
    CHECK(cublasGetVector(n, sizeof(float), dy, 1, y, 1));
    printf("axpy:");
    for (int i = 0; i < n; i++) printf(" %g", y[i]);
    printf("\n");
    CHECK(cublasSdot(h, n, dx, 1, dy, 1, &r));
    printf("dot: %g\n", r);
    CHECK(cublasSasum(h, n, dy, 1, &r));
    printf("asum: %g\n", r);
    int imax;
    CHECK(cublasIsamax(h, n, dy, 1, &imax));
    printf("isamax: %d\n", imax);
    CHECK(cublasSnrm2(h, 2, dx + 2, 1, &r));            // |(3, 4)|
    printf("nrm2: %g\n", r);
    float half = 0.5f;
    CHECK(cublasSscal(h, n / 2, &half, dx, 2));          // every other element
    CHECK(cublasGetVector(n, sizeof(float), dx, 1, x, 1));
    printf("scal:");
    for (int i = 0; i < n; i++) printf(" %g", x[i]);
    printf("\n");

    // A is M x K, column-major: A(i, j) = i + 2j
    double A[M * K], B[K * N], C[M * N], v[K], w[M];
    for (int j = 0; j < K; j++)
        for (int i = 0; i < M; i++) A[j * M + i] = i + 2 * j;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < K; i++) B[j * K + i] = (i == j) ? 2 : 1;
    for (int i = 0; i < K; i++) v[i] = i + 1;
    double *dA, *dB, *dC, *dv, *dw;
    cudaMalloc(&dA, sizeof A);
    cudaMalloc(&dB, sizeof B);
    cudaMalloc(&dC, sizeof C);
    cudaMalloc(&dv, sizeof v);
    cudaMalloc(&dw, sizeof w);
    CHECK(cublasSetMatrix(M, K, sizeof(double), A, M, dA, M));
    CHECK(cublasSetMatrix(K, N, sizeof(double), B, K, dB, K));
    CHECK(cublasSetVector(K, sizeof(double), v, 1, dv, 1));
    double one = 1.0, zero = 0.0;
    CHECK(cublasDgemv(h, CUBLAS_OP_N, M, K, &one, dA, M, dv, 1, &zero, dw, 1));   // w = A v
    CHECK(cublasGetVector(M, sizeof(double), dw, 1, w, 1));
    printf("gemv N: %g %g %g\n", w[0], w[1], w[2]);
    CHECK(cublasDgemv(h, CUBLAS_OP_T, M, K, &one, dA, M, dw, 1, &zero, dv, 1));   // v = A^T w
    CHECK(cublasGetVector(K, sizeof(double), dv, 1, v, 1));
    printf("gemv T: %g %g %g %g\n", v[0], v[1], v[2], v[3]);
    CHECK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &one, dA, M, dB, K, &zero, dC, M));   // C = A B
    CHECK(cublasGetMatrix(M, N, sizeof(double), dC, M, C, M));
    printf("gemm NN:");
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) printf(" %g", C[j * M + i]);
    printf("\n");
    double two = 2.0;
    // C (M x N) = 2 A B + C again, B given transposed: op(B) = (B^T)^T
    double Bt[N * K], *dBt;
    for (int i = 0; i < K; i++)
        for (int j = 0; j < N; j++) Bt[i * N + j] = B[j * K + i];
    cudaMalloc(&dBt, sizeof Bt);
    CHECK(cublasSetMatrix(N, K, sizeof(double), Bt, N, dBt, N));
    CHECK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, M, N, K, &two, dA, M, dBt, N, &one, dC, M));
    CHECK(cublasGetMatrix(M, N, sizeof(double), dC, M, C, M));
    printf("gemm NT:");
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) printf(" %g", C[j * M + i]);
    printf("\n");

    cudaFree(dx); cudaFree(dy); cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dv); cudaFree(dw); cudaFree(dBt);
    CHECK(cublasDestroy(h));
    return 0;
}
