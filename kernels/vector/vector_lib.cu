/* vector_lib.cu - the library rows of the vector family: what one thrust
 * call does with the same data. GPU only: the simulator cannot run vendor
 * library code. thrust reports errors by throwing; they become the row's
 * note. */
#include "kernels/intl.h"
#include "kernels/kern.h"
#include "kernels/vector/vector.h"

#include <math.h>
#include <thrust/device_ptr.h>
#include <thrust/functional.h>
#include <thrust/inner_product.h>
#include <thrust/transform.h>

#include <exception>

template <class T>
struct times_two {
    __host__ __device__ T operator()(T x) const { return x * (T)2; }
};

template <class T>
struct squared_diff {
    __host__ __device__ T operator()(T x, T y) const
    {
        T d = x - y;
        return d * d;
    }
};

template <class T>
static int run_scale_thrust(lab_job *job)
{
    const long long n = job->n;
    T *d_a = NULL, *d_c = NULL;
    TRY(lab_upload(job, &d_a, job->in, n));
    TRY(lab_alloc(job, &d_c, n));
    thrust::device_ptr<T> a(d_a), c(d_c);
    try {
        LAB_TIMED(job) {
            thrust::transform(a, a + n, c, times_two<T>());
        }
    } catch (const std::exception &e) {
        snprintf(job->err, sizeof job->err, L_("thrust::transform failed: %s"), e.what());
        return -1;
    }
    CK(cudaGetLastError());
    TRY(lab_download(job, job->out, d_c, n));
    return 0;
}

template <class T>
static int run_vecdiff_thrust(lab_job *job)
{
    const long long n = job->n;
    const T *h_a = (const T *)job->in;
    vec_report *rep = (vec_report *)job->out;
    memset(rep, 0, sizeof *rep);
    T *d_a = NULL, *d_b = NULL, *d_c = NULL;
    TRY(lab_upload(job, &d_a, h_a, n));
    TRY(lab_upload(job, &d_b, h_a + n, n));
    TRY(lab_alloc(job, &d_c, n));
    CK(cudaMemset(d_c, vec_poison_byte(job->cfg->dtype), sizeof(T) * n));
    thrust::device_ptr<T> a(d_a), b(d_b), c(d_c);
    try {
        LAB_TIMED(job) {
            thrust::transform(a, a + n, b, c, thrust::minus<T>());
        }
    } catch (const std::exception &e) {
        snprintf(job->err, sizeof job->err, L_("thrust::transform failed: %s"), e.what());
        return -1;
    }
    CK(cudaGetLastError());
    TRY(lab_download(job, (T *)(rep + 1), d_c, n));
    return 0;
}

template <class T>
static int run_distance_thrust(lab_job *job)
{
    const long long n = job->n;
    const T *h_a = (const T *)job->in;
    T *d_a = NULL, *d_b = NULL;
    TRY(lab_upload(job, &d_a, h_a, n));
    TRY(lab_upload(job, &d_b, h_a + n, n));
    thrust::device_ptr<T> a(d_a), b(d_b);
    T sum = 0;
    try {
        LAB_TIMED(job) {
            sum = thrust::inner_product(a, a + n, b, (T)0, thrust::plus<T>(), squared_diff<T>());
        }
    } catch (const std::exception &e) {
        snprintf(job->err, sizeof job->err, L_("thrust::inner_product failed: %s"), e.what());
        return -1;
    }
    CK(cudaGetLastError());
    dist_out *o = (dist_out *)job->out;
    o->sumsq = (double)sum;
    o->dist = sqrt((double)sum);
    return 0;
}

extern "C" int scale_thrust(lab_job *job)
{
    return lab_by_dtype(job, lab_dtypes<int, float, double>(), [&](auto t) { return run_scale_thrust<decltype(t)>(job); });
}
extern "C" int vecdiff_thrust(lab_job *job)
{
    return lab_by_dtype(job, lab_dtypes<int, float, double>(),
                        [&](auto t) { return run_vecdiff_thrust<decltype(t)>(job); });
}
extern "C" int distance_thrust(lab_job *job)
{
    return lab_by_dtype(job, lab_dtypes<float, double>(), [&](auto t) { return run_distance_thrust<decltype(t)>(job); });
}
