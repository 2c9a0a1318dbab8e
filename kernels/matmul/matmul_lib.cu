/* matmul_lib.cu - the library row: cublasSgemm. GPU only: the simulator
 * cannot run vendor library code.
 *
 * cuBLAS is loaded when this row first runs (dlopen), not linked: linking it
 * made every start of gpulab map and relocate libcublas and libcublasLt
 * (about 600 MB, 26000 page faults, 0.17 s of CPU time), also on machines
 * without a GPU and for sessions that never run this row. */
#include "kernels/intl.h"
#include <dlfcn.h>

#include <algorithm>
#include <memory>

#include <cublas_v2.h>

#include "kernels/kern.h"
#include "kernels/matmul/matmul.h"
#include "kernels/matmul/matmul_time.h"

#define MATMUL_STR2(x) #x
#define MATMUL_STR(x) MATMUL_STR2(x)
#define MATMUL_CUBLAS_SO "libcublas.so." MATMUL_STR(CUBLAS_VER_MAJOR)

/* the four entry points this row calls */
static struct {
    decltype(&cublasCreate_v2) create;
    decltype(&cublasDestroy_v2) destroy;
    decltype(&cublasSgemm_v2) sgemm;
    decltype(&cublasGetStatusString) status;
} blas;

/* 0, or -1 with job->err saying what could not be loaded */
static int load_cublas(lab_job *job)
{
    if (blas.sgemm) return 0;
    /* the search path first ($LD_LIBRARY_PATH, the linker's cache), then the
     * folder of the toolkit gpulab was built with, then the usual one */
    const char *names[] = {MATMUL_CUBLAS_SO, GPULAB_CUDA_LIBDIR "/" MATMUL_CUBLAS_SO,
                           "/usr/local/cuda/lib64/" MATMUL_CUBLAS_SO};
    void *h = nullptr;
    for (const char *n : names)
        if ((h = dlopen(n, RTLD_NOW | RTLD_LOCAL)) != nullptr) break;
    if (!h) {
        snprintf(job->err, sizeof job->err, L_("cannot load cuBLAS (%s): %s"), MATMUL_CUBLAS_SO, dlerror());
        return -1;
    }
    blas.create = (decltype(blas.create))dlsym(h, "cublasCreate_v2");
    blas.destroy = (decltype(blas.destroy))dlsym(h, "cublasDestroy_v2");
    blas.status = (decltype(blas.status))dlsym(h, "cublasGetStatusString");
    blas.sgemm = (decltype(blas.sgemm))dlsym(h, "cublasSgemm_v2");
    if (!blas.create || !blas.destroy || !blas.status || !blas.sgemm) {
        snprintf(job->err, sizeof job->err, L_("%s lacks cublasSgemm_v2 or its companions"), MATMUL_CUBLAS_SO);
        blas.sgemm = nullptr;
        return -1;
    }
    return 0;
}

struct cublas_handle {
    cublasHandle_t h = nullptr;
    ~cublas_handle()
    {
        if (h) blas.destroy(h);
    }
};

extern "C" int matmul_cublas(lab_job *job)
{
    const long long n = job->n;
    const size_t nn = (size_t)n * (size_t)n;
    const float *A = (const float *)job->in, *B = A + nn;
    float *dA = NULL, *dB = NULL, *dC = NULL;
    if (load_cublas(job) != 0) return -1;
    TRY(lab_upload(job, &dA, A, nn));
    TRY(lab_upload(job, &dB, B, nn));
    TRY(lab_alloc(job, &dC, nn));
    cublas_handle handle;
    cublasStatus_t s = blas.create(&handle.h);
    if (s != CUBLAS_STATUS_SUCCESS) {
        snprintf(job->err, sizeof job->err, L_("cublasCreate failed: %s"), blas.status(s));
        return -1;
    }
    const float one = 1.0f, zero = 0.0f;
    const int in = (int)n;
    return matmul_time(job, dA, dB, dC, [&]() -> int {
        /* cuBLAS is column-major: a row-major matrix is its transpose, and
         * C = A B row-major is C^T = B^T A^T column-major, so B goes first */
        cublasStatus_t st = blas.sgemm(handle.h, CUBLAS_OP_N, CUBLAS_OP_N, in, in, in, &one, dB, in, dA, in, &zero,
                                       dC, in);
        if (st != CUBLAS_STATUS_SUCCESS) {
            snprintf(job->err, sizeof job->err, L_("cublasSgemm failed: %s"), blas.status(st));
            return -1;
        }
        return 0;
    });
}
