// cuBLAS's legacy API (cublas.h), as older courses and articles use it: the
// library set up with cublasInit, device memory from cublasAlloc, routines
// without a handle that take alpha by value and return their result, errors
// read with cublasGetError. SAXPY on 2^20 elements as the well-known
// "six ways to SAXPY" article writes it, then dot, the index of the largest,
// a norm and a matrix product with a transpose given as a character. The
// values are small integers, so every sum is exact in any order.
// REJECT: simulator:
// EXPECT: saxpy: max error 0
// EXPECT: ddot: 2870
// EXPECT: isamax: 5
// EXPECT: snrm2: 5
// EXPECT: sgemm NT: 5 11 11 25
// EXPECT: errors: 0
// EXPECT: alloc of 0: 7
// EXPECT: exit status 0
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cublas.h>

int main()
{
    const int n = 1 << 20;
    cublasInit();
    float *x = (float *)malloc(n * sizeof(float)), *y = (float *)malloc(n * sizeof(float)), *d_x, *d_y;
    cublasAlloc(n, sizeof(float), (void **)&d_x);
    cublasAlloc(n, sizeof(float), (void **)&d_y);
    for (int i = 0; i < n; i++) {
        x[i] = 1.0f;
        y[i] = 2.0f;
    }
    cublasSetVector(n, sizeof(x[0]), x, 1, d_x, 1);
    cublasSetVector(n, sizeof(y[0]), y, 1, d_y, 1);
    // Idea: y = a*x + y, one call for the whole vector
    cublasSaxpy(n, 3.0f, d_x, 1, d_y, 1);
    cublasGetVector(n, sizeof(y[0]), d_y, 1, y, 1);
    float max_err = 0.0f;
    for (int i = 0; i < n; i++) max_err = fmaxf(max_err, fabsf(y[i] - 5.0f));
    printf("saxpy: max error %g\n", max_err);

    // 1^2 + 2^2 + ... + 20^2 in double
    double h[20], *d;
    for (int i = 0; i < 20; i++) h[i] = i + 1;
    cublasAlloc(20, sizeof(double), (void **)&d);
    cublasSetVector(20, sizeof(double), h, 1, d, 1);
    printf("ddot: %g\n", cublasDdot(20, d, 1, d, 1));

    // the largest |value| is the 5th (cuBLAS counts from 1); |(3, 4)| = 5
    float v[6] = {1, -2, 3, -4, -9, 0}, *dv;
    cublasAlloc(6, sizeof(float), (void **)&dv);
    cublasSetVector(6, sizeof(float), v, 1, dv, 1);
    printf("isamax: %d\n", cublasIsamax(6, dv, 1));
    printf("snrm2: %g\n", cublasSnrm2(2, dv + 2, 1));

    // C = A * A^T for the column-major 2x2 A = [1 2; 3 4]: [5 11; 11 25]
    float A[4] = {1, 3, 2, 4}, C[4], *dA, *dC;
    cublasAlloc(4, sizeof(float), (void **)&dA);
    cublasAlloc(4, sizeof(float), (void **)&dC);
    cublasSetMatrix(2, 2, sizeof(float), A, 2, dA, 2);
    cublasSgemm('N', 'T', 2, 2, 2, 1.0f, dA, 2, dA, 2, 0.0f, dC, 2);
    cublasGetMatrix(2, 2, sizeof(float), dC, 2, C, 2);
    printf("sgemm NT: %g %g %g %g\n", C[0], C[2], C[1], C[3]);
    printf("errors: %d\n", (int)cublasGetError());

    void *none;
    printf("alloc of 0: %d\n", (int)cublasAlloc(0, sizeof(float), &none));
    cublasFree(d_x);
    cublasFree(d_y);
    cublasFree(d);
    cublasFree(dv);
    cublasFree(dA);
    cublasFree(dC);
    cublasShutdown();
    free(x);
    free(y);
    return 0;
}
