/* cublas.h of a student's program on the simulator: cuBLAS's legacy API,
 * which older courses and articles still use (cublasInit, cublasAlloc,
 * routines without a handle that take alpha by value and report errors
 * through cublasGetError). Each routine is the cublas_v2.h one of the same
 * name (include/cublas_v2.h: the same checks, sums and messages) on one
 * handle that cublasInit makes: level 1, gemv, ger and gemm in float and
 * double; cublasSet/GetVector and Set/GetMatrix are cublas_v2.h's. As in the toolkit, a program includes cublas.h or cublas_v2.h,
 * not both. */
#ifndef GPULAB_CUBLAS_H
#define GPULAB_CUBLAS_H
#define GPULAB_CUBLAS_LEGACY 1
#include <cublas_v2.h>

#define CUBLAS_H_

namespace gpulab_sim {
/* the legacy API's one handle and last error (cublasGetError), one for
 * all the program's files */
struct sim_blas_legacy {
    cublasHandle_t h;
    cublasStatus_t last;
};
inline sim_blas_legacy &sim_blas_old()
{
    static sim_blas_legacy s = {nullptr, CUBLAS_STATUS_SUCCESS};
    return s;
}
/* the handle, or NOT_INITIALIZED noted when cublasInit was not called */
static inline cublasHandle_t sim_blas_old_handle()
{
    sim_blas_legacy &s = sim_blas_old();
    if (!s.h) s.last = CUBLAS_STATUS_NOT_INITIALIZED;
    return s.h;
}
static inline void sim_blas_old_note(cublasStatus_t st)
{
    if (st != CUBLAS_STATUS_SUCCESS) sim_blas_old().last = st;
}
static inline cublasOperation_t sim_blas_old_op(char c)
{
    return c == 'T' || c == 't' ? CUBLAS_OP_T : c == 'C' || c == 'c' ? CUBLAS_OP_C : CUBLAS_OP_N;
}
} /* namespace gpulab_sim */

static inline cublasStatus_t gpulab_cublasInit(void)
{
    ::gpulab_sim::sim_blas_legacy &s = ::gpulab_sim::sim_blas_old();
    if (!s.h) return cublasCreate_v2(&s.h);
    return CUBLAS_STATUS_SUCCESS;
}
static inline cublasStatus_t gpulab_cublasShutdown(void)
{
    ::gpulab_sim::sim_blas_legacy &s = ::gpulab_sim::sim_blas_old();
    if (!s.h) return CUBLAS_STATUS_NOT_INITIALIZED;
    cublasDestroy_v2(s.h);
    s.h = nullptr;
    return CUBLAS_STATUS_SUCCESS;
}
/* the first error since the last call, and clears it */
static inline cublasStatus_t gpulab_cublasGetError(void)
{
    ::gpulab_sim::sim_blas_legacy &s = ::gpulab_sim::sim_blas_old();
    cublasStatus_t e = s.last;
    s.last = CUBLAS_STATUS_SUCCESS;
    return e;
}
static inline cublasStatus_t gpulab_cublasGetVersion(int *version)
{
    if (!version) return CUBLAS_STATUS_INVALID_VALUE;
    *version = CUBLAS_VERSION;
    return CUBLAS_STATUS_SUCCESS;
}
static inline cublasStatus_t gpulab_cublasAlloc(int n, int elemSize, void **devicePtr)
{
    if (!devicePtr || n <= 0 || elemSize <= 0) return CUBLAS_STATUS_INVALID_VALUE;
    return cudaMalloc(devicePtr, (size_t)n * (size_t)elemSize) == cudaSuccess ? CUBLAS_STATUS_SUCCESS
                                                                              : CUBLAS_STATUS_ALLOC_FAILED;
}
static inline cublasStatus_t gpulab_cublasFree(void *devicePtr)
{
    return cudaFree(devicePtr) == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_INTERNAL_ERROR;
}
static inline cublasStatus_t gpulab_cublasSetKernelStream(cudaStream_t stream)
{
    cublasHandle_t h = ::gpulab_sim::sim_blas_old_handle();
    return h ? cublasSetStream_v2(h, stream) : CUBLAS_STATUS_NOT_INITIALIZED;
}

/* the routines: the handle's, alpha and beta by value, results returned;
 * GPULAB_OLD_RUN runs call (which names the handle h) and notes its error */
#define GPULAB_OLD_RUN(call)                                                                                       \
    do {                                                                                                           \
        cublasHandle_t h = ::gpulab_sim::sim_blas_old_handle();                                                    \
        if (h) ::gpulab_sim::sim_blas_old_note(call);                                                              \
    } while (0)
#define GPULAB_OLD_OP(c) ::gpulab_sim::sim_blas_old_op(c)
#define GPULAB_BLAS_OLD(P, p, T)                                                                                   \
    static inline void gpulab_cublas##P##axpy(int n, T alpha, const T *x, int incx, T *y, int incy)               \
    {                                                                                                              \
        GPULAB_OLD_RUN(cublas##P##axpy_v2(h, n, &alpha, x, incx, y, incy));                                        \
    }                                                                                                              \
    static inline void gpulab_cublas##P##scal(int n, T alpha, T *x, int incx)                                     \
    {                                                                                                              \
        GPULAB_OLD_RUN(cublas##P##scal_v2(h, n, &alpha, x, incx));                                                 \
    }                                                                                                              \
    static inline void gpulab_cublas##P##copy(int n, const T *x, int incx, T *y, int incy)                        \
    {                                                                                                              \
        GPULAB_OLD_RUN(cublas##P##copy_v2(h, n, x, incx, y, incy));                                                \
    }                                                                                                              \
    static inline void gpulab_cublas##P##swap(int n, T *x, int incx, T *y, int incy)                              \
    {                                                                                                              \
        GPULAB_OLD_RUN(cublas##P##swap_v2(h, n, x, incx, y, incy));                                                \
    }                                                                                                              \
    static inline T gpulab_cublas##P##dot(int n, const T *x, int incx, const T *y, int incy)                      \
    {                                                                                                              \
        T r = 0;                                                                                                   \
        GPULAB_OLD_RUN(cublas##P##dot_v2(h, n, x, incx, y, incy, &r));                                             \
        return r;                                                                                                  \
    }                                                                                                              \
    static inline T gpulab_cublas##P##nrm2(int n, const T *x, int incx)                                           \
    {                                                                                                              \
        T r = 0;                                                                                                   \
        GPULAB_OLD_RUN(cublas##P##nrm2_v2(h, n, x, incx, &r));                                                     \
        return r;                                                                                                  \
    }                                                                                                              \
    static inline T gpulab_cublas##P##asum(int n, const T *x, int incx)                                           \
    {                                                                                                              \
        T r = 0;                                                                                                   \
        GPULAB_OLD_RUN(cublas##P##asum_v2(h, n, x, incx, &r));                                                     \
        return r;                                                                                                  \
    }                                                                                                              \
    static inline int gpulab_cublasI##p##amax(int n, const T *x, int incx)                                        \
    {                                                                                                              \
        int r = 0;                                                                                                 \
        GPULAB_OLD_RUN(cublasI##p##amax_v2(h, n, x, incx, &r));                                                    \
        return r;                                                                                                  \
    }                                                                                                              \
    static inline int gpulab_cublasI##p##amin(int n, const T *x, int incx)                                        \
    {                                                                                                              \
        int r = 0;                                                                                                 \
        GPULAB_OLD_RUN(cublasI##p##amin_v2(h, n, x, incx, &r));                                                    \
        return r;                                                                                                  \
    }                                                                                                              \
    static inline void gpulab_cublas##P##gemv(char trans, int m, int n, T alpha, const T *A, int lda, const T *x, \
                                              int incx, T beta, T *y, int incy)                                    \
    {                                                                                                              \
        GPULAB_OLD_RUN(cublas##P##gemv_v2(h, GPULAB_OLD_OP(trans), m, n, &alpha, A, lda, x, incx, &beta, y, incy)); \
    }                                                                                                              \
    static inline void gpulab_cublas##P##ger(int m, int n, T alpha, const T *x, int incx, const T *y, int incy,   \
                                             T *A, int lda)                                                        \
    {                                                                                                              \
        GPULAB_OLD_RUN(cublas##P##ger_v2(h, m, n, &alpha, x, incx, y, incy, A, lda));                              \
    }                                                                                                              \
    static inline void gpulab_cublas##P##gemm(char transa, char transb, int m, int n, int k, T alpha, const T *A, \
                                              int lda, const T *B, int ldb, T beta, T *C, int ldc)                 \
    {                                                                                                              \
        GPULAB_OLD_RUN(cublas##P##gemm_v2(h, GPULAB_OLD_OP(transa), GPULAB_OLD_OP(transb), m, n, k, &alpha, A,     \
                                          lda, B, ldb, &beta, C, ldc));                                            \
    }
GPULAB_BLAS_OLD(S, s, float)
GPULAB_BLAS_OLD(D, d, double)
#undef GPULAB_BLAS_OLD
#undef GPULAB_OLD_RUN
#undef GPULAB_OLD_OP

/* the names programs use; each call notes its line first, for the
 * simulator's messages */
#define GPULAB_OLD(name) (::gpulab_sim::sim_lib_at(__LINE__), gpulab_##name)
#define cublasInit GPULAB_OLD(cublasInit)
#define cublasShutdown GPULAB_OLD(cublasShutdown)
#define cublasGetError GPULAB_OLD(cublasGetError)
#define cublasGetVersion GPULAB_OLD(cublasGetVersion)
#define cublasAlloc GPULAB_OLD(cublasAlloc)
#define cublasFree GPULAB_OLD(cublasFree)
#define cublasSetKernelStream GPULAB_OLD(cublasSetKernelStream)
#define cublasSaxpy GPULAB_OLD(cublasSaxpy)
#define cublasDaxpy GPULAB_OLD(cublasDaxpy)
#define cublasSscal GPULAB_OLD(cublasSscal)
#define cublasDscal GPULAB_OLD(cublasDscal)
#define cublasScopy GPULAB_OLD(cublasScopy)
#define cublasDcopy GPULAB_OLD(cublasDcopy)
#define cublasSswap GPULAB_OLD(cublasSswap)
#define cublasDswap GPULAB_OLD(cublasDswap)
#define cublasSdot GPULAB_OLD(cublasSdot)
#define cublasDdot GPULAB_OLD(cublasDdot)
#define cublasSnrm2 GPULAB_OLD(cublasSnrm2)
#define cublasDnrm2 GPULAB_OLD(cublasDnrm2)
#define cublasSasum GPULAB_OLD(cublasSasum)
#define cublasDasum GPULAB_OLD(cublasDasum)
#define cublasIsamax GPULAB_OLD(cublasIsamax)
#define cublasIdamax GPULAB_OLD(cublasIdamax)
#define cublasIsamin GPULAB_OLD(cublasIsamin)
#define cublasIdamin GPULAB_OLD(cublasIdamin)
#define cublasSgemv GPULAB_OLD(cublasSgemv)
#define cublasDgemv GPULAB_OLD(cublasDgemv)
#define cublasSger GPULAB_OLD(cublasSger)
#define cublasDger GPULAB_OLD(cublasDger)
#define cublasSgemm GPULAB_OLD(cublasSgemm)
#define cublasDgemm GPULAB_OLD(cublasDgemm)
#endif
