/* cublas_v2.h of a student's program on the simulator: the cuBLAS routines
 * that courses and the CUDA samples use, computed by the simulator on the
 * calling host thread (the simulated device memory is the process's), with
 * cuBLAS's column-major conventions, transposes, strides, alpha and beta,
 * and both pointer modes:
 *
 *   handles, streams, pointer and math modes, status names
 *   cublasSet/GetVector, cublasSet/GetMatrix and their Async forms
 *   level 1 (S and D): axpy, scal, copy, swap, dot, nrm2, asum, iamax, iamin
 *   level 2 (S and D): gemv, ger
 *   level 3 (S and D): gemm, gemmBatched, gemmStridedBatched
 *
 * Every operand is checked to lie inside one allocation before anything is
 * read or written (a GPU's cuBLAS kernel reads or writes past it unseen);
 * a failing check names the call, the operand and the sizes, and the call
 * returns CUBLAS_STATUS_EXECUTION_FAILED. Sums run in a plain order, not
 * cuBLAS's blocked one: floating-point results may differ from a GPU's in
 * the last bits (exactly representable sums are equal). The calls are not
 * launches: `run`'s table and the traces do not show them. Any other cuBLAS
 * name is refused when the program is opened, with its line. */
#ifndef GPULAB_CUBLAS_V2_H
#define GPULAB_CUBLAS_V2_H
#include "kernels/program/progrt.h"
#include <cmath>

/* the toolkit's guards: helper headers (the samples' helper_cuda.h) test them */
#define CUBLAS_API_H_
#define CUBLAS_V2_H_

#define CUBLAS_VER_MAJOR 13
#define CUBLAS_VER_MINOR 0
#define CUBLAS_VER_PATCH 0
#define CUBLAS_VERSION (CUBLAS_VER_MAJOR * 10000 + CUBLAS_VER_MINOR * 100 + CUBLAS_VER_PATCH)

/* the toolkit's values */
typedef enum {
    CUBLAS_STATUS_SUCCESS = 0,
    CUBLAS_STATUS_NOT_INITIALIZED = 1,
    CUBLAS_STATUS_ALLOC_FAILED = 3,
    CUBLAS_STATUS_INVALID_VALUE = 7,
    CUBLAS_STATUS_ARCH_MISMATCH = 8,
    CUBLAS_STATUS_MAPPING_ERROR = 11,
    CUBLAS_STATUS_EXECUTION_FAILED = 13,
    CUBLAS_STATUS_INTERNAL_ERROR = 14,
    CUBLAS_STATUS_NOT_SUPPORTED = 15,
    CUBLAS_STATUS_LICENSE_ERROR = 16
} cublasStatus_t;
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1, CUBLAS_OP_C = 2, CUBLAS_OP_HERMITAN = 2, CUBLAS_OP_CONJG = 3 } cublasOperation_t;
typedef enum { CUBLAS_POINTER_MODE_HOST = 0, CUBLAS_POINTER_MODE_DEVICE = 1 } cublasPointerMode_t;
typedef enum { CUBLAS_ATOMICS_NOT_ALLOWED = 0, CUBLAS_ATOMICS_ALLOWED = 1 } cublasAtomicsMode_t;
typedef enum { CUBLAS_FILL_MODE_LOWER = 0, CUBLAS_FILL_MODE_UPPER = 1, CUBLAS_FILL_MODE_FULL = 2 } cublasFillMode_t;
typedef enum { CUBLAS_DIAG_NON_UNIT = 0, CUBLAS_DIAG_UNIT = 1 } cublasDiagType_t;
typedef enum { CUBLAS_SIDE_LEFT = 0, CUBLAS_SIDE_RIGHT = 1 } cublasSideMode_t;
typedef enum {
    CUBLAS_DEFAULT_MATH = 0,
    CUBLAS_TENSOR_OP_MATH = 1,
    CUBLAS_PEDANTIC_MATH = 2,
    CUBLAS_TF32_TENSOR_OP_MATH = 3,
    CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION = 16
} cublasMath_t;

struct cublasContext {
    cudaStream_t stream;
    cublasPointerMode_t pointer_mode;
    cublasMath_t math_mode;
    cublasAtomicsMode_t atomics;
};
typedef struct cublasContext *cublasHandle_t;

namespace gpulab_sim {

/* a strided vector of n elements: from its first element to its last */
static inline size_t sim_blas_span(int n, int inc, size_t size)
{
    return n <= 0 ? 0 : ((size_t)(n - 1) * (size_t)(inc < 0 ? -inc : inc) + 1) * size;
}
/* a column-major rows x cols matrix with leading dimension ld */
static inline size_t sim_blas_mspan(int rows, int cols, int ld, size_t size)
{
    return rows <= 0 || cols <= 0 ? 0 : ((size_t)ld * (size_t)(cols - 1) + (size_t)rows) * size;
}
/* element i of a vector with increment inc (a negative one walks back from
 * the end, as BLAS defines it) */
template <class T> static inline T &sim_blas_at(T *x, int n, int inc, int i)
{
    return inc >= 0 ? x[(size_t)i * (size_t)inc] : x[(size_t)(n - 1 - i) * (size_t)(-inc)];
}

static inline cublasStatus_t sim_blas_in(const char *call, const void *p, size_t bytes)
{
    return bytes && sim_lib_input(call, p, bytes) != 0 ? CUBLAS_STATUS_EXECUTION_FAILED : CUBLAS_STATUS_SUCCESS;
}
static inline cublasStatus_t sim_blas_out(const char *call, void *p, size_t bytes)
{
    return bytes && sim_lib_output(call, p, bytes) != 0 ? CUBLAS_STATUS_EXECUTION_FAILED : CUBLAS_STATUS_SUCCESS;
}
/* a scalar argument: on the host, or in device memory in the device mode */
template <class T> static inline cublasStatus_t sim_blas_scalar(cublasHandle_t h, const char *call, const T *p, T *v)
{
    if (!p) return CUBLAS_STATUS_INVALID_VALUE;
    if (h->pointer_mode == CUBLAS_POINTER_MODE_DEVICE && sim_blas_in(call, p, sizeof(T)) != CUBLAS_STATUS_SUCCESS)
        return CUBLAS_STATUS_EXECUTION_FAILED;
    *v = *p;
    return CUBLAS_STATUS_SUCCESS;
}
/* a scalar result: to the host, or to device memory in the device mode */
template <class R> static inline cublasStatus_t sim_blas_result(cublasHandle_t h, const char *call, R *p, R v)
{
    if (!p) return CUBLAS_STATUS_INVALID_VALUE;
    if (h->pointer_mode == CUBLAS_POINTER_MODE_DEVICE && sim_blas_out(call, p, sizeof(R)) != CUBLAS_STATUS_SUCCESS)
        return CUBLAS_STATUS_EXECUTION_FAILED;
    *p = v;
    return CUBLAS_STATUS_SUCCESS;
}

#define SIM_BLAS_TRY(x)                                                                                      \
    do {                                                                                                     \
        cublasStatus_t sim_st_ = (x);                                                                        \
        if (sim_st_ != CUBLAS_STATUS_SUCCESS) return sim_st_;                                                \
    } while (0)

/* ---------------------------------------------------------- level 1 */

template <class T>
__attribute__((no_sanitize("thread"))) static inline cublasStatus_t
sim_axpy(cublasHandle_t h, const char *call, int n, const T *alpha, const T *x, int incx, T *y, int incy)
{
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (n <= 0) return CUBLAS_STATUS_SUCCESS;
    T a;
    SIM_BLAS_TRY(sim_blas_scalar(h, call, alpha, &a));
    SIM_BLAS_TRY(sim_blas_in(call, x, sim_blas_span(n, incx, sizeof(T))));
    SIM_BLAS_TRY(sim_blas_out(call, y, sim_blas_span(n, incy, sizeof(T))));
    for (int i = 0; i < n; i++) {
        T &yi = sim_blas_at(y, n, incy, i);
        yi = std::fma(a, sim_blas_at(x, n, incx, i), yi);
    }
    return CUBLAS_STATUS_SUCCESS;
}

template <class T>
__attribute__((no_sanitize("thread"))) static inline cublasStatus_t sim_scal(cublasHandle_t h, const char *call,
                                                                             int n, const T *alpha, T *x, int incx)
{
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (n <= 0 || incx <= 0) return CUBLAS_STATUS_SUCCESS;
    T a;
    SIM_BLAS_TRY(sim_blas_scalar(h, call, alpha, &a));
    SIM_BLAS_TRY(sim_blas_out(call, x, sim_blas_span(n, incx, sizeof(T))));
    for (int i = 0; i < n; i++) x[(size_t)i * (size_t)incx] *= a;
    return CUBLAS_STATUS_SUCCESS;
}

/* copy (swap false) or swap x and y */
template <class T>
__attribute__((no_sanitize("thread"))) static inline cublasStatus_t
sim_copy(cublasHandle_t h, const char *call, int n, T *x, int incx, T *y, int incy, bool swap)
{
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (n <= 0) return CUBLAS_STATUS_SUCCESS;
    if (swap) SIM_BLAS_TRY(sim_blas_out(call, x, sim_blas_span(n, incx, sizeof(T))));
    else SIM_BLAS_TRY(sim_blas_in(call, x, sim_blas_span(n, incx, sizeof(T))));
    SIM_BLAS_TRY(sim_blas_out(call, y, sim_blas_span(n, incy, sizeof(T))));
    for (int i = 0; i < n; i++) {
        T &xi = sim_blas_at(x, n, incx, i), &yi = sim_blas_at(y, n, incy, i);
        T t = yi;
        yi = xi;
        if (swap) xi = t;
    }
    return CUBLAS_STATUS_SUCCESS;
}

template <class T>
__attribute__((no_sanitize("thread"))) static inline cublasStatus_t
sim_dot(cublasHandle_t h, const char *call, int n, const T *x, int incx, const T *y, int incy, T *result)
{
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    T s = 0;
    if (n > 0) {
        SIM_BLAS_TRY(sim_blas_in(call, x, sim_blas_span(n, incx, sizeof(T))));
        SIM_BLAS_TRY(sim_blas_in(call, y, sim_blas_span(n, incy, sizeof(T))));
        for (int i = 0; i < n; i++) s = std::fma(sim_blas_at(x, n, incx, i), sim_blas_at(y, n, incy, i), s);
    }
    return sim_blas_result(h, call, result, s);
}

/* nrm2 (kind 0), asum (1): over n elements of x, an increment <= 0 gives 0 */
template <class T>
__attribute__((no_sanitize("thread"))) static inline cublasStatus_t
sim_norm(cublasHandle_t h, const char *call, int n, const T *x, int incx, T *result, int kind)
{
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    T s = 0;
    if (n > 0 && incx > 0) {
        SIM_BLAS_TRY(sim_blas_in(call, x, sim_blas_span(n, incx, sizeof(T))));
        if (kind == 1) {
            for (int i = 0; i < n; i++) s += std::fabs(x[(size_t)i * (size_t)incx]);
        } else {
            /* scaled, as BLAS does, so that no square overflows */
            T scale = 0, ssq = 1;
            for (int i = 0; i < n; i++) {
                T a = std::fabs(x[(size_t)i * (size_t)incx]);
                if (a == 0) continue;
                if (scale < a) {
                    ssq = 1 + ssq * (scale / a) * (scale / a);
                    scale = a;
                } else {
                    ssq += (a / scale) * (a / scale);
                }
            }
            s = scale * std::sqrt(ssq);
        }
    }
    return sim_blas_result(h, call, result, s);
}

/* the 1-based index of the first largest (or smallest) |x[i]| */
template <class T>
__attribute__((no_sanitize("thread"))) static inline cublasStatus_t
sim_iamax(cublasHandle_t h, const char *call, int n, const T *x, int incx, int *result, bool smallest)
{
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    int best = 0;
    if (n > 0 && incx > 0) {
        SIM_BLAS_TRY(sim_blas_in(call, x, sim_blas_span(n, incx, sizeof(T))));
        T bv = std::fabs(x[0]);
        best = 1;
        for (int i = 1; i < n; i++) {
            T a = std::fabs(x[(size_t)i * (size_t)incx]);
            if (smallest ? a < bv : a > bv) {
                bv = a;
                best = i + 1;
            }
        }
    }
    return sim_blas_result(h, call, result, best);
}

/* ---------------------------------------------------------- level 2 */

template <class T>
__attribute__((no_sanitize("thread"))) static inline cublasStatus_t
sim_gemv(cublasHandle_t h, const char *call, cublasOperation_t trans, int m, int n, const T *alpha, const T *A, int lda,
         const T *x, int incx, const T *beta, T *y, int incy)
{
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (m < 0 || n < 0 || lda < (m > 1 ? m : 1) || incx == 0 || incy == 0 || trans < CUBLAS_OP_N || trans > CUBLAS_OP_C)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
    T a, b;
    SIM_BLAS_TRY(sim_blas_scalar(h, call, alpha, &a));
    SIM_BLAS_TRY(sim_blas_scalar(h, call, beta, &b));
    bool t = trans != CUBLAS_OP_N;
    int lx = t ? m : n, ly = t ? n : m;
    SIM_BLAS_TRY(sim_blas_in(call, A, sim_blas_mspan(m, n, lda, sizeof(T))));
    SIM_BLAS_TRY(sim_blas_in(call, x, sim_blas_span(lx, incx, sizeof(T))));
    SIM_BLAS_TRY(sim_blas_out(call, y, sim_blas_span(ly, incy, sizeof(T))));
    for (int i = 0; i < ly; i++) {
        T s = 0;
        for (int j = 0; j < lx; j++) {
            T aij = t ? A[(size_t)i * (size_t)lda + (size_t)j] : A[(size_t)j * (size_t)lda + (size_t)i];
            s = std::fma(aij, sim_blas_at(x, lx, incx, j), s);
        }
        T &yi = sim_blas_at(y, ly, incy, i);
        yi = b == 0 ? a * s : std::fma(b, yi, a * s);
    }
    return CUBLAS_STATUS_SUCCESS;
}

/* A += alpha x y^T */
template <class T>
__attribute__((no_sanitize("thread"))) static inline cublasStatus_t
sim_ger(cublasHandle_t h, const char *call, int m, int n, const T *alpha, const T *x, int incx, const T *y, int incy,
        T *A, int lda)
{
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (m < 0 || n < 0 || lda < (m > 1 ? m : 1) || incx == 0 || incy == 0) return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
    T a;
    SIM_BLAS_TRY(sim_blas_scalar(h, call, alpha, &a));
    SIM_BLAS_TRY(sim_blas_in(call, x, sim_blas_span(m, incx, sizeof(T))));
    SIM_BLAS_TRY(sim_blas_in(call, y, sim_blas_span(n, incy, sizeof(T))));
    SIM_BLAS_TRY(sim_blas_out(call, A, sim_blas_mspan(m, n, lda, sizeof(T))));
    for (int j = 0; j < n; j++) {
        T ay = a * sim_blas_at(y, n, incy, j);
        for (int i = 0; i < m; i++) {
            T &aij = A[(size_t)j * (size_t)lda + (size_t)i];
            aij = std::fma(sim_blas_at(x, m, incx, i), ay, aij);
        }
    }
    return CUBLAS_STATUS_SUCCESS;
}

/* ---------------------------------------------------------- level 3 */

/* C = alpha op(A) op(B) + beta C, C m x n, op(A) m x k, op(B) k x n */
template <class T>
__attribute__((no_sanitize("thread"))) static inline cublasStatus_t
sim_gemm_check(cublasHandle_t h, const char *call, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
               const T *A, int lda, const T *B, int ldb, T *C, int ldc)
{
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    bool at = ta != CUBLAS_OP_N, bt = tb != CUBLAS_OP_N;
    if (m < 0 || n < 0 || k < 0 || ta < CUBLAS_OP_N || ta > CUBLAS_OP_C || tb < CUBLAS_OP_N || tb > CUBLAS_OP_C ||
        lda < ((at ? k : m) > 1 ? (at ? k : m) : 1) || ldb < ((bt ? n : k) > 1 ? (bt ? n : k) : 1) ||
        ldc < (m > 1 ? m : 1))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
    if (k > 0) {
        SIM_BLAS_TRY(sim_blas_in(call, A, at ? sim_blas_mspan(k, m, lda, sizeof(T)) : sim_blas_mspan(m, k, lda, sizeof(T))));
        SIM_BLAS_TRY(sim_blas_in(call, B, bt ? sim_blas_mspan(n, k, ldb, sizeof(T)) : sim_blas_mspan(k, n, ldb, sizeof(T))));
    }
    return sim_blas_out(call, C, sim_blas_mspan(m, n, ldc, sizeof(T)));
}

template <class T>
__attribute__((no_sanitize("thread"))) static inline void sim_gemm_do(cublasOperation_t ta, cublasOperation_t tb, int m,
                                                                      int n, int k, T a, const T *A, int lda,
                                                                      const T *B, int ldb, T b, T *C, int ldc)
{
    bool at = ta != CUBLAS_OP_N, bt = tb != CUBLAS_OP_N;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            T s = 0;
            for (int l = 0; l < k; l++) {
                T ail = at ? A[(size_t)i * (size_t)lda + (size_t)l] : A[(size_t)l * (size_t)lda + (size_t)i];
                T blj = bt ? B[(size_t)l * (size_t)ldb + (size_t)j] : B[(size_t)j * (size_t)ldb + (size_t)l];
                s = std::fma(ail, blj, s);
            }
            T &c = C[(size_t)j * (size_t)ldc + (size_t)i];
            c = b == 0 ? a * s : std::fma(b, c, a * s);
        }
}

template <class T>
static inline cublasStatus_t sim_gemm(cublasHandle_t h, const char *call, cublasOperation_t ta, cublasOperation_t tb,
                                      int m, int n, int k, const T *alpha, const T *A, int lda, const T *B, int ldb,
                                      const T *beta, T *C, int ldc)
{
    SIM_BLAS_TRY(sim_gemm_check(h, call, ta, tb, m, n, k, A, lda, B, ldb, C, ldc));
    if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
    T a, b;
    SIM_BLAS_TRY(sim_blas_scalar(h, call, alpha, &a));
    SIM_BLAS_TRY(sim_blas_scalar(h, call, beta, &b));
    sim_gemm_do(ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc);
    return CUBLAS_STATUS_SUCCESS;
}

template <class T>
static inline cublasStatus_t sim_gemm_strided(cublasHandle_t h, const char *call, cublasOperation_t ta,
                                              cublasOperation_t tb, int m, int n, int k, const T *alpha, const T *A,
                                              int lda, long long sa, const T *B, int ldb, long long sb, const T *beta,
                                              T *C, int ldc, long long sc, int count)
{
    if (count < 0) return CUBLAS_STATUS_INVALID_VALUE;
    for (int i = 0; i < count; i++)
        SIM_BLAS_TRY(sim_gemm(h, call, ta, tb, m, n, k, alpha, A + i * sa, lda, B + i * sb, ldb, beta, C + i * sc, ldc));
    return CUBLAS_STATUS_SUCCESS;
}

/* the arrays of pointers are in device memory */
template <class T>
static inline cublasStatus_t sim_gemm_batched(cublasHandle_t h, const char *call, cublasOperation_t ta,
                                              cublasOperation_t tb, int m, int n, int k, const T *alpha,
                                              const T *const A[], int lda, const T *const B[], int ldb,
                                              const T *beta, T *const C[], int ldc, int count)
{
    if (count < 0) return CUBLAS_STATUS_INVALID_VALUE;
    if (count == 0) return CUBLAS_STATUS_SUCCESS;
    SIM_BLAS_TRY(sim_blas_in(call, A, (size_t)count * sizeof *A));
    SIM_BLAS_TRY(sim_blas_in(call, B, (size_t)count * sizeof *B));
    SIM_BLAS_TRY(sim_blas_in(call, C, (size_t)count * sizeof *C));
    for (int i = 0; i < count; i++)
        SIM_BLAS_TRY(sim_gemm(h, call, ta, tb, m, n, k, alpha, A[i], lda, B[i], ldb, beta, C[i], ldc));
    return CUBLAS_STATUS_SUCCESS;
}

/* ------------------------------------------------- moving data */

/* rows x cols elements of size `size`, column by column; a vector is one
 * row of n with its increments as the leading dimensions */
__attribute__((no_sanitize("thread"))) static inline cublasStatus_t
sim_blas_move(const char *call, int rows, int cols, int size, const void *src, int lds, void *dst, int ldd,
              bool to_device, bool vector)
{
    if (rows < 0 || cols < 0 || size <= 0 || lds <= 0 || ldd <= 0 || (!vector && (lds < rows || ldd < rows)))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (rows == 0 || cols == 0) return CUBLAS_STATUS_SUCCESS;
    size_t span_s = vector ? sim_blas_span(cols, lds, (size_t)size) : sim_blas_mspan(rows, cols, lds, (size_t)size);
    size_t span_d = vector ? sim_blas_span(cols, ldd, (size_t)size) : sim_blas_mspan(rows, cols, ldd, (size_t)size);
    if (to_device) SIM_BLAS_TRY(sim_blas_out(call, dst, span_d));
    else SIM_BLAS_TRY(sim_blas_in(call, src, span_s));
    const char *s = (const char *)src;
    char *d = (char *)dst;
    for (int j = 0; j < cols; j++)
        memcpy(d + (size_t)j * (size_t)ldd * (size_t)size, s + (size_t)j * (size_t)lds * (size_t)size,
               (size_t)rows * (size_t)size);
    return CUBLAS_STATUS_SUCCESS;
}

} /* namespace gpulab_sim */

/* ----------------------------------------------------- the API */

static inline cublasStatus_t cublasCreate_v2(cublasHandle_t *handle)
{
    if (!handle) return CUBLAS_STATUS_INVALID_VALUE;
    *handle = new cublasContext{nullptr, CUBLAS_POINTER_MODE_HOST, CUBLAS_DEFAULT_MATH, CUBLAS_ATOMICS_NOT_ALLOWED};
    return CUBLAS_STATUS_SUCCESS;
}
static inline cublasStatus_t cublasDestroy_v2(cublasHandle_t handle)
{
    if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
    delete handle;
    return CUBLAS_STATUS_SUCCESS;
}
static inline cublasStatus_t cublasGetVersion_v2(cublasHandle_t handle, int *version)
{
    if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!version) return CUBLAS_STATUS_INVALID_VALUE;
    *version = CUBLAS_VERSION;
    return CUBLAS_STATUS_SUCCESS;
}
/* a handle's setting (ok: the values it takes): the stream (the calls run
 * at once, in the calling thread, so it orders nothing more), the pointer
 * mode, the math mode (tensor-core modes change nothing: the simulator
 * computes in the type), the atomics mode */
#define GPULAB_BLAS_SETTING(SET, GET, T, field, ok)                                                              \
    static inline cublasStatus_t SET(cublasHandle_t handle, T v)                                                 \
    {                                                                                                            \
        if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;                                                       \
        if (!(ok)) return CUBLAS_STATUS_INVALID_VALUE;                                                           \
        handle->field = v;                                                                                       \
        return CUBLAS_STATUS_SUCCESS;                                                                            \
    }                                                                                                            \
    static inline cublasStatus_t GET(cublasHandle_t handle, T *v)                                                \
    {                                                                                                            \
        if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;                                                       \
        if (!v) return CUBLAS_STATUS_INVALID_VALUE;                                                              \
        *v = handle->field;                                                                                      \
        return CUBLAS_STATUS_SUCCESS;                                                                            \
    }
GPULAB_BLAS_SETTING(cublasSetStream_v2, cublasGetStream_v2, cudaStream_t, stream, true)
GPULAB_BLAS_SETTING(cublasSetPointerMode_v2, cublasGetPointerMode_v2, cublasPointerMode_t, pointer_mode,
                    v == CUBLAS_POINTER_MODE_HOST || v == CUBLAS_POINTER_MODE_DEVICE)
GPULAB_BLAS_SETTING(cublasSetMathMode, cublasGetMathMode, cublasMath_t, math_mode, true)
GPULAB_BLAS_SETTING(cublasSetAtomicsMode, cublasGetAtomicsMode, cublasAtomicsMode_t, atomics, true)
#undef GPULAB_BLAS_SETTING
static inline const char *cublasGetStatusName(cublasStatus_t s)
{
    switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
    }
    return "CUBLAS_STATUS_UNKNOWN";
}
static inline const char *cublasGetStatusString(cublasStatus_t s)
{
    switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
    case CUBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
    case CUBLAS_STATUS_INVALID_VALUE: return "an invalid numeric value was used as an argument";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "an absent device architectural feature is required";
    case CUBLAS_STATUS_MAPPING_ERROR: return "an access to GPU memory space failed";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "the GPU program failed to execute";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "an internal operation failed";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "the functionality requested is not supported";
    case CUBLAS_STATUS_LICENSE_ERROR: return "error detected trying to check the license";
    }
    return "unknown error";
}

static inline cublasStatus_t cublasSetVector(int n, int elemSize, const void *x, int incx, void *y, int incy)
{
    return ::gpulab_sim::sim_blas_move("cublasSetVector", 1, n, elemSize, x, incx, y, incy, true, true);
}
static inline cublasStatus_t cublasGetVector(int n, int elemSize, const void *x, int incx, void *y, int incy)
{
    return ::gpulab_sim::sim_blas_move("cublasGetVector", 1, n, elemSize, x, incx, y, incy, false, true);
}
static inline cublasStatus_t cublasSetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb)
{
    return ::gpulab_sim::sim_blas_move("cublasSetMatrix", rows, cols, elemSize, A, lda, B, ldb, true, false);
}
static inline cublasStatus_t cublasGetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb)
{
    return ::gpulab_sim::sim_blas_move("cublasGetMatrix", rows, cols, elemSize, A, lda, B, ldb, false, false);
}
static inline cublasStatus_t cublasSetVectorAsync(int n, int elemSize, const void *x, int incx, void *y, int incy,
                                                  cudaStream_t)
{
    return cublasSetVector(n, elemSize, x, incx, y, incy);
}
static inline cublasStatus_t cublasGetVectorAsync(int n, int elemSize, const void *x, int incx, void *y, int incy,
                                                  cudaStream_t)
{
    return cublasGetVector(n, elemSize, x, incx, y, incy);
}
static inline cublasStatus_t cublasSetMatrixAsync(int rows, int cols, int elemSize, const void *A, int lda, void *B,
                                                  int ldb, cudaStream_t)
{
    return cublasSetMatrix(rows, cols, elemSize, A, lda, B, ldb);
}
static inline cublasStatus_t cublasGetMatrixAsync(int rows, int cols, int elemSize, const void *A, int lda, void *B,
                                                  int ldb, cudaStream_t)
{
    return cublasGetMatrix(rows, cols, elemSize, A, lda, B, ldb);
}

/* the S (float) and D (double) forms of each routine */
#define GPULAB_BLAS_TYPED(P, p, T)                                                                                    \
    static inline cublasStatus_t cublas##P##axpy_v2(cublasHandle_t h, int n, const T *alpha, const T *x, int incx, \
                                                    T *y, int incy)                                               \
    {                                                                                                              \
        return ::gpulab_sim::sim_axpy(h, "cublas" #P "axpy", n, alpha, x, incx, y, incy);                          \
    }                                                                                                              \
    static inline cublasStatus_t cublas##P##scal_v2(cublasHandle_t h, int n, const T *alpha, T *x, int incx)       \
    {                                                                                                              \
        return ::gpulab_sim::sim_scal(h, "cublas" #P "scal", n, alpha, x, incx);                                   \
    }                                                                                                              \
    static inline cublasStatus_t cublas##P##copy_v2(cublasHandle_t h, int n, const T *x, int incx, T *y, int incy) \
    {                                                                                                              \
        return ::gpulab_sim::sim_copy(h, "cublas" #P "copy", n, (T *)x, incx, y, incy, false);                     \
    }                                                                                                              \
    static inline cublasStatus_t cublas##P##swap_v2(cublasHandle_t h, int n, T *x, int incx, T *y, int incy)       \
    {                                                                                                              \
        return ::gpulab_sim::sim_copy(h, "cublas" #P "swap", n, x, incx, y, incy, true);                           \
    }                                                                                                              \
    static inline cublasStatus_t cublas##P##dot_v2(cublasHandle_t h, int n, const T *x, int incx, const T *y,     \
                                                   int incy, T *result)                                            \
    {                                                                                                              \
        return ::gpulab_sim::sim_dot(h, "cublas" #P "dot", n, x, incx, y, incy, result);                           \
    }                                                                                                              \
    static inline cublasStatus_t cublas##P##nrm2_v2(cublasHandle_t h, int n, const T *x, int incx, T *result)      \
    {                                                                                                              \
        return ::gpulab_sim::sim_norm(h, "cublas" #P "nrm2", n, x, incx, result, 0);                               \
    }                                                                                                              \
    static inline cublasStatus_t cublas##P##asum_v2(cublasHandle_t h, int n, const T *x, int incx, T *result)      \
    {                                                                                                              \
        return ::gpulab_sim::sim_norm(h, "cublas" #P "asum", n, x, incx, result, 1);                               \
    }                                                                                                              \
    static inline cublasStatus_t cublasI##p##amax_v2(cublasHandle_t h, int n, const T *x, int incx, int *result)   \
    {                                                                                                              \
        return ::gpulab_sim::sim_iamax(h, "cublasI" #p "amax", n, x, incx, result, false);                         \
    }                                                                                                              \
    static inline cublasStatus_t cublasI##p##amin_v2(cublasHandle_t h, int n, const T *x, int incx, int *result)   \
    {                                                                                                              \
        return ::gpulab_sim::sim_iamax(h, "cublasI" #p "amin", n, x, incx, result, true);                          \
    }                                                                                                              \
    static inline cublasStatus_t cublas##P##gemv_v2(cublasHandle_t h, cublasOperation_t trans, int m, int n,       \
                                                    const T *alpha, const T *A, int lda, const T *x, int incx,     \
                                                    const T *beta, T *y, int incy)                                 \
    {                                                                                                              \
        return ::gpulab_sim::sim_gemv(h, "cublas" #P "gemv", trans, m, n, alpha, A, lda, x, incx, beta, y, incy);  \
    }                                                                                                              \
    static inline cublasStatus_t cublas##P##ger_v2(cublasHandle_t h, int m, int n, const T *alpha, const T *x,     \
                                                   int incx, const T *y, int incy, T *A, int lda)                  \
    {                                                                                                              \
        return ::gpulab_sim::sim_ger(h, "cublas" #P "ger", m, n, alpha, x, incx, y, incy, A, lda);                 \
    }                                                                                                              \
    static inline cublasStatus_t cublas##P##gemm_v2(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,  \
                                                    int m, int n, int k, const T *alpha, const T *A, int lda,      \
                                                    const T *B, int ldb, const T *beta, T *C, int ldc)             \
    {                                                                                                              \
        return ::gpulab_sim::sim_gemm(h, "cublas" #P "gemm", ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C,      \
                                      ldc);                                                                        \
    }                                                                                                              \
    static inline cublasStatus_t cublas##P##gemmStridedBatched(                                                    \
        cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const T *alpha,         \
        const T *A, int lda, long long sa, const T *B, int ldb, long long sb, const T *beta, T *C, int ldc,        \
        long long sc, int count)                                                                                   \
    {                                                                                                              \
        return ::gpulab_sim::sim_gemm_strided(h, "cublas" #P "gemmStridedBatched", ta, tb, m, n, k, alpha, A, lda, \
                                              sa, B, ldb, sb, beta, C, ldc, sc, count);                            \
    }                                                                                                              \
    static inline cublasStatus_t cublas##P##gemmBatched(cublasHandle_t h, cublasOperation_t ta,                    \
                                                        cublasOperation_t tb, int m, int n, int k, const T *alpha, \
                                                        const T *const A[], int lda, const T *const B[], int ldb,  \
                                                        const T *beta, T *const C[], int ldc, int count)           \
    {                                                                                                              \
        return ::gpulab_sim::sim_gemm_batched(h, "cublas" #P "gemmBatched", ta, tb, m, n, k, alpha, A, lda, B,     \
                                              ldb, beta, C, ldc, count);                                           \
    }
GPULAB_BLAS_TYPED(S, s, float)
GPULAB_BLAS_TYPED(D, d, double)
#undef GPULAB_BLAS_TYPED

/* the names programs use, as the toolkit's cublas_v2.h maps them; each
 * call notes its line first, for the simulator's messages (the legacy
 * cublas.h has its own routines of these names: not there) */
#if !defined(GPULAB_CUBLAS_LEGACY)
#define cublasCreate (::gpulab_sim::sim_lib_at(__LINE__), cublasCreate_v2)
#define cublasDestroy (::gpulab_sim::sim_lib_at(__LINE__), cublasDestroy_v2)
#define cublasGetVersion (::gpulab_sim::sim_lib_at(__LINE__), cublasGetVersion_v2)
#define cublasSetStream (::gpulab_sim::sim_lib_at(__LINE__), cublasSetStream_v2)
#define cublasGetStream (::gpulab_sim::sim_lib_at(__LINE__), cublasGetStream_v2)
#define cublasSetPointerMode (::gpulab_sim::sim_lib_at(__LINE__), cublasSetPointerMode_v2)
#define cublasGetPointerMode (::gpulab_sim::sim_lib_at(__LINE__), cublasGetPointerMode_v2)
#define cublasSaxpy (::gpulab_sim::sim_lib_at(__LINE__), cublasSaxpy_v2)
#define cublasDaxpy (::gpulab_sim::sim_lib_at(__LINE__), cublasDaxpy_v2)
#define cublasSscal (::gpulab_sim::sim_lib_at(__LINE__), cublasSscal_v2)
#define cublasDscal (::gpulab_sim::sim_lib_at(__LINE__), cublasDscal_v2)
#define cublasScopy (::gpulab_sim::sim_lib_at(__LINE__), cublasScopy_v2)
#define cublasDcopy (::gpulab_sim::sim_lib_at(__LINE__), cublasDcopy_v2)
#define cublasSswap (::gpulab_sim::sim_lib_at(__LINE__), cublasSswap_v2)
#define cublasDswap (::gpulab_sim::sim_lib_at(__LINE__), cublasDswap_v2)
#define cublasSdot (::gpulab_sim::sim_lib_at(__LINE__), cublasSdot_v2)
#define cublasDdot (::gpulab_sim::sim_lib_at(__LINE__), cublasDdot_v2)
#define cublasSnrm2 (::gpulab_sim::sim_lib_at(__LINE__), cublasSnrm2_v2)
#define cublasDnrm2 (::gpulab_sim::sim_lib_at(__LINE__), cublasDnrm2_v2)
#define cublasSasum (::gpulab_sim::sim_lib_at(__LINE__), cublasSasum_v2)
#define cublasDasum (::gpulab_sim::sim_lib_at(__LINE__), cublasDasum_v2)
#define cublasIsamax (::gpulab_sim::sim_lib_at(__LINE__), cublasIsamax_v2)
#define cublasIdamax (::gpulab_sim::sim_lib_at(__LINE__), cublasIdamax_v2)
#define cublasIsamin (::gpulab_sim::sim_lib_at(__LINE__), cublasIsamin_v2)
#define cublasIdamin (::gpulab_sim::sim_lib_at(__LINE__), cublasIdamin_v2)
#define cublasSgemv (::gpulab_sim::sim_lib_at(__LINE__), cublasSgemv_v2)
#define cublasDgemv (::gpulab_sim::sim_lib_at(__LINE__), cublasDgemv_v2)
#define cublasSger (::gpulab_sim::sim_lib_at(__LINE__), cublasSger_v2)
#define cublasDger (::gpulab_sim::sim_lib_at(__LINE__), cublasDger_v2)
#define cublasSgemm (::gpulab_sim::sim_lib_at(__LINE__), cublasSgemm_v2)
#define cublasDgemm (::gpulab_sim::sim_lib_at(__LINE__), cublasDgemm_v2)
#endif
#define cublasSgemmStridedBatched (::gpulab_sim::sim_lib_at(__LINE__), cublasSgemmStridedBatched)
#define cublasDgemmStridedBatched (::gpulab_sim::sim_lib_at(__LINE__), cublasDgemmStridedBatched)
#define cublasSgemmBatched (::gpulab_sim::sim_lib_at(__LINE__), cublasSgemmBatched)
#define cublasDgemmBatched (::gpulab_sim::sim_lib_at(__LINE__), cublasDgemmBatched)
#define cublasSetVector (::gpulab_sim::sim_lib_at(__LINE__), cublasSetVector)
#define cublasGetVector (::gpulab_sim::sim_lib_at(__LINE__), cublasGetVector)
#define cublasSetMatrix (::gpulab_sim::sim_lib_at(__LINE__), cublasSetMatrix)
#define cublasGetMatrix (::gpulab_sim::sim_lib_at(__LINE__), cublasGetMatrix)
#define cublasSetVectorAsync (::gpulab_sim::sim_lib_at(__LINE__), cublasSetVectorAsync)
#define cublasGetVectorAsync (::gpulab_sim::sim_lib_at(__LINE__), cublasGetVectorAsync)
#define cublasSetMatrixAsync (::gpulab_sim::sim_lib_at(__LINE__), cublasSetMatrixAsync)
#define cublasGetMatrixAsync (::gpulab_sim::sim_lib_at(__LINE__), cublasGetMatrixAsync)
#endif
