/* render_multi.h - the reduction across GPUs (animate with gpus > 1). It
 * draws a trace whose parts are each GPU's trace over its slice (lab_trace's
 * gpus, parts and multi), so it is chosen by the REPL for such a trace and
 * is not in the list that viz_renderer_find searches by algorithm. */
#ifndef GPULAB_VIZ_RENDER_MULTI_H
#define GPULAB_VIZ_RENDER_MULTI_H

#include "viz/render.h"

extern const viz_renderer viz_render_multi;

#endif
