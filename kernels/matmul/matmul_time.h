/* matmul_time.h - the timing every GPU row of the matrix multiply shares
 * (kernels and cuBLAS alike), after kern.h: the time of the multiply alone,
 * which is the row's time, and the time with the copies of A and B to the
 * GPU and of C back, as the article measures both. C++ only; include
 * <algorithm> and <memory> before kern.h. */
#ifndef GPULAB_MATMUL_TIME_H
#define GPULAB_MATMUL_TIME_H

#include "kernels/intl.h"
#include "kernels/matmul/matmul.h"

struct matmul_free {
    void operator()(void *p) const { free(p); }
};

static double matmul_median(const lab_job *job)
{
    double s[LAB_MAX_REPEATS];
    const int n = job->nsamples;
    if (n <= 0) return -1;
    std::copy(job->samples, job->samples + n, s);
    std::sort(s, s + n);
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

/* run() does the multiply on the device (dA, dB -> dC) and returns 0 or -1.
 * dA and dB already hold A and B. The result is widened into job->out. */
template <class Run>
static int matmul_time(lab_job *job, float *dA, float *dB, float *dC, Run run)
{
    const size_t nn = (size_t)job->n * (size_t)job->n;
    const float *A = (const float *)job->in, *B = A + nn;
    std::unique_ptr<float, matmul_free> c((float *)malloc(nn * sizeof(float) + 1));
    if (!c) {
        snprintf(job->err, sizeof job->err, "%s", L_("out of host memory for C"));
        return -1;
    }
    double with_copies = -1;
#if !defined(GPULAB_SIM)
    if (!job->trace) {
        LAB_TIMED(job) {
            CK(cudaMemcpy(dA, A, nn * sizeof(float), cudaMemcpyHostToDevice));
            CK(cudaMemcpy(dB, B, nn * sizeof(float), cudaMemcpyHostToDevice));
            TRY(run());
            CK(cudaMemcpy(c.get(), dC, nn * sizeof(float), cudaMemcpyDeviceToHost));
        }
        with_copies = matmul_median(job);
    }
#else
    (void)A;
    (void)B;
#endif
    LAB_TIMED(job) {
        TRY(run());
    }
    CK(cudaMemcpy(c.get(), dC, nn * sizeof(float), cudaMemcpyDeviceToHost));
    double *out = (double *)job->out;
    for (size_t i = 0; i < nn; i++) out[i] = c.get()[i];
    if (with_copies > 0)
        snprintf(job->note, sizeof job->note,
                 L_("with the copies of A and B to the GPU and C back: %.3f ms"), with_copies);
    return 0;
}

#endif
