/* histogram_trace.h - the histogram family's trace vocabulary, public: the
 * bins and the marks its traced kernels record, for the bins renderer
 * (viz/render_histogram.c) and the tests. */
#ifndef GPULAB_HISTOGRAM_TRACE_H
#define GPULAB_HISTOGRAM_TRACE_H

#ifdef __cplusplus
extern "C" {
#endif

#define HIST_BINS 256

/* Marks a traced kernel records (lab_event.kind == LAB_EV_MARK, a = what). */
enum hist_mark {
    /* one per pixel a thread handles, before its atomic: b = bin, v = lanes of
     * the warp whose pixel fell in the same bin in this step (counted with
     * __match_any_sync), v2 = lanes of the warp that update the very same
     * counter (equal to v unless the variant spreads a bin over copies) */
    HIST_MARK_MATCH = 1,
};

#ifdef __cplusplus
}
#endif
#endif
