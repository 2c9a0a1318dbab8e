/* matmul_lib.cu - the library row: cublasSgemm. GPU only: the simulator
 * cannot run vendor library code. */
#include <algorithm>
#include <memory>

#include <cublas_v2.h>

#include "kernels/kern.h"
#include "kernels/matmul/matmul.h"
#include "kernels/matmul/matmul_time.h"

struct cublas_handle {
    cublasHandle_t h = nullptr;
    ~cublas_handle()
    {
        if (h) cublasDestroy(h);
    }
};

extern "C" int matmul_cublas(lab_job *job)
{
    const long long n = job->n;
    const size_t nn = (size_t)n * (size_t)n;
    const float *A = (const float *)job->in, *B = A + nn;
    float *dA = NULL, *dB = NULL, *dC = NULL;
    TRY(lab_upload(job, &dA, A, nn));
    TRY(lab_upload(job, &dB, B, nn));
    TRY(lab_alloc(job, &dC, nn));
    cublas_handle handle;
    cublasStatus_t s = cublasCreate(&handle.h);
    if (s != CUBLAS_STATUS_SUCCESS) {
        snprintf(job->err, sizeof job->err, "cublasCreate failed: %s", cublasGetStatusString(s));
        return -1;
    }
    const float one = 1.0f, zero = 0.0f;
    const int in = (int)n;
    return matmul_time(job, dA, dB, dC, [&]() -> int {
        /* cuBLAS is column-major: a row-major matrix is its transpose, and
         * C = A B row-major is C^T = B^T A^T column-major, so B goes first */
        cublasStatus_t st = cublasSgemm(handle.h, CUBLAS_OP_N, CUBLAS_OP_N, in, in, in, &one, dB,
                                        in, dA, in, &zero, dC, in);
        if (st != CUBLAS_STATUS_SUCCESS) {
            snprintf(job->err, sizeof job->err, "cublasSgemm failed: %s", cublasGetStatusString(st));
            return -1;
        }
        return 0;
    });
}
