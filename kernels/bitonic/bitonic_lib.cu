/* bitonic_lib.cu - the library rows: thrust::sort and
 * cub::DeviceRadixSort::SortKeys. GPU only: the simulator cannot run vendor
 * library code. For 32-bit keys both are radix sorts, not comparison
 * networks: the rows show what the lecture's network is up against. */
#include "kernels/intl.h"
#include "kernels/kern.h"
#include "kernels/bitonic/bitonic.h"

#include <cub/device/device_radix_sort.cuh>
#include <thrust/device_ptr.h>
#include <thrust/sort.h>

#include <exception>

/* thrust::sort sorts in place, so every repeat first copies the input into
 * the working array (timed with it: a device-to-device copy, a few percent
 * of the sort). */
template <class T>
static int run_thrust(lab_job *job)
{
    const size_t n = (size_t)job->n;
    T *d_in, *d_work;
    TRY(lab_upload(job, &d_in, job->in, n));
    TRY(lab_alloc(job, &d_work, n));
    thrust::device_ptr<T> p(d_work);
    try {
        LAB_TIMED(job) {
            CK(cudaMemcpy(d_work, d_in, n * sizeof(T), cudaMemcpyDeviceToDevice));
            thrust::sort(p, p + n);
        }
    } catch (const std::exception &e) { /* thrust reports errors by throwing */
        snprintf(job->err, sizeof job->err, L_("thrust::sort failed: %s"), e.what());
        return -1;
    }
    CK(cudaGetLastError());
    snprintf(job->note, sizeof job->note, L_("timed with a device copy of the input (thrust::sort sorts in place)"));
    return lab_download(job, job->out, d_work, n);
}

/* CUB sorts from one array into another: the input stays unsorted for the
 * next repeat, and the temporary storage is allocated once, outside the
 * timing. */
template <class T>
static int run_cub(lab_job *job)
{
    const size_t n = (size_t)job->n;
    T *d_in, *d_out;
    TRY(lab_upload(job, &d_in, job->in, n));
    TRY(lab_alloc(job, &d_out, n));
    size_t tmp_bytes = 0;
    CK(cub::DeviceRadixSort::SortKeys((void *)NULL, tmp_bytes, d_in, d_out, (long long)n));
    unsigned char *tmp;
    TRY(lab_alloc(job, &tmp, tmp_bytes));
    LAB_TIMED(job) {
        CK(cub::DeviceRadixSort::SortKeys((void *)tmp, tmp_bytes, d_in, d_out, (long long)n));
    }
    return lab_download(job, job->out, d_out, n);
}

typedef lab_dtypes<int, float> bitonic_dtypes; /* int or float keys */

extern "C" int bitonic_thrust(lab_job *job)
{
    return lab_by_dtype(job, bitonic_dtypes(), [&](auto t) { return run_thrust<decltype(t)>(job); });
}
extern "C" int bitonic_cub(lab_job *job)
{
    return lab_by_dtype(job, bitonic_dtypes(), [&](auto t) { return run_cub<decltype(t)>(job); });
}
