/* reduce_lib.cu - the library rows: thrust::reduce and cub::DeviceReduce::Sum.
 * GPU only: the simulator cannot run vendor library code. Ints are summed
 * into 64 bits, as the lecture's thrust::reduce(p, p + n, 0LL) does. */
#include "kernels/intl.h"
#include "kernels/kern.h"
#include "kernels/reduce/reduce.h"

#include <cub/device/device_reduce.cuh>
#include <thrust/device_ptr.h>
#include <thrust/reduce.h>

#include <exception>

template <class T, class A>
static int run_thrust(lab_job *job)
{
    T *d_in;
    TRY(lab_upload(job, &d_in, job->in, job->n));
    thrust::device_ptr<T> p(d_in);
    A sum = 0;
    try {
        LAB_TIMED(job) {
            sum = thrust::reduce(p, p + job->n, (A)0);
        }
    } catch (const std::exception &e) { /* thrust reports errors by throwing */
        snprintf(job->err, sizeof job->err, L_("thrust::reduce failed: %s"), e.what());
        return -1;
    }
    CK(cudaGetLastError());
    reduce_out *o = (reduce_out *)job->out;
    o->sum = (double)sum;
    o->isum = (long long)sum;
    return 0;
}

template <class T, class A>
static int run_cub(lab_job *job)
{
    T *d_in;
    A *d_out;
    void *d_tmp = NULL;
    size_t tmp_bytes = 0;
    TRY(lab_upload(job, &d_in, job->in, job->n));
    TRY(lab_alloc(job, &d_out, 1));
    /* the output type sets the accumulator type: long long for ints */
    CK(cub::DeviceReduce::Sum(d_tmp, tmp_bytes, d_in, d_out, job->n));
    unsigned char *tmp;
    TRY(lab_alloc(job, &tmp, tmp_bytes));
    d_tmp = tmp;
    LAB_TIMED(job) {
        CK(cub::DeviceReduce::Sum(d_tmp, tmp_bytes, d_in, d_out, job->n));
    }
    A sum;
    TRY(lab_download(job, &sum, d_out, 1));
    reduce_out *o = (reduce_out *)job->out;
    o->sum = (double)sum;
    o->isum = (long long)sum;
    return 0;
}

typedef lab_dtypes<int, float, double> reduce_dtypes;

extern "C" int reduce_thrust(lab_job *job)
{
    return lab_by_dtype(job, reduce_dtypes(), [&](auto t) {
        return run_thrust<decltype(t), typename Acc<decltype(t)>::type>(job);
    });
}
extern "C" int reduce_cub(lab_job *job)
{
    return lab_by_dtype(job, reduce_dtypes(), [&](auto t) {
        return run_cub<decltype(t), typename Acc<decltype(t)>::type>(job);
    });
}
