/* histogram_lib.cu - the library row: cub::DeviceHistogram::HistogramEven
 * with 257 levels from 0 to 256, one bin per 8-bit value. GPU only: the
 * simulator cannot run vendor library code. */
#include "kernels/intl.h"
#include "kernels/kern.h"
#include "kernels/histogram/histogram.h"

#include <cub/device/device_histogram.cuh>

extern "C" int hist_cub(lab_job *job)
{
    if (job->cfg->dtype != LAB_U8) {
        snprintf(job->err, sizeof job->err, "%s", L_("histogram counts 8-bit pixels (u8)"));
        return -1;
    }
    const int n = (int)job->n; /* prepare() keeps images below 2^31 pixels */
    unsigned char *d_pixels;
    unsigned *d_hist;
    TRY(lab_upload(job, &d_pixels, job->in, (size_t)n));
    TRY(lab_alloc(job, &d_hist, HIST_BINS));
    size_t tmp_bytes = 0;
    CK(cub::DeviceHistogram::HistogramEven((void *)NULL, tmp_bytes, d_pixels, d_hist,
                                           HIST_BINS + 1, 0, HIST_BINS, n));
    unsigned char *tmp;
    TRY(lab_alloc(job, &tmp, tmp_bytes));
    /* HistogramEven zeroes the counters itself, so nothing else is timed */
    LAB_TIMED(job) {
        CK(cub::DeviceHistogram::HistogramEven((void *)tmp, tmp_bytes, d_pixels, d_hist,
                                               HIST_BINS + 1, 0, HIST_BINS, n));
    }
    CK(cudaGetLastError());
    hist_out *o = (hist_out *)job->out;
    TRY(lab_download(job, o->bins, d_hist, HIST_BINS));
    return 0;
}
