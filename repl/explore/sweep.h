/* sweep.h - exploring block and grid sizes: sweeps, occupancy, suggestions.
 *
 * A sweep runs one or more variants at a list of values of one setting
 * (block, grid or n) and keeps every point: its timing (lab_result), and the
 * occupancy of its main kernel. The engine knows nothing of the terminal:
 * cmd_sweep.c prints, plots and exports what it returns, and the tests drive
 * it directly.
 */
#ifndef GPULAB_SWEEP_H
#define GPULAB_SWEEP_H

#include <stdio.h>
#include <time.h>

#include "kernels/lab.h"

#define SWEEP_MAX_VALUES 64
#define SWEEP_MAX_VARIANTS 16

typedef enum sweep_axis { SWEEP_BLOCK = 0, SWEEP_GRID, SWEEP_N } sweep_axis;

const char *sweep_axis_name(sweep_axis a);            /* "block", "grid", "n" */
int sweep_axis_parse(const char *s, sweep_axis *out); /* 0 ok, -1 unknown */

/* ------------------------------------------------------------ values */

/* The values of a sweep, written as people write them:
 *   32..1024            doubling from the first value (powers of two from 32)
 *   32..1024 step 32    every 32th
 *   1Ki..1Mi step x4    times 4 each time (also *4)
 *   32,96,160           a list
 *   256                 one value
 * Bounds and list items are sizes (64Mi, 2^20, 1e6...). words[0] is the
 * range; a `step S` pair after it is consumed too (*used says how many words
 * were used). The values must be at least 1; at most SWEEP_MAX_VALUES.
 * 0 ok; -1 with a message and *bad, the index of the word at fault. */
int sweep_parse_values(int nwords, char **words, long long *vals, int max, int *count, int *used,
                       char *err, size_t errlen, int *bad);

/* ------------------------------------------------------------ occupancy */

/* The occupancy of one launch: from the CUDA occupancy API on the GPU, or
 * computed for the GPU model of cfg->model on the simulator. */
typedef struct sweep_occ {
    int known;                 /* 0: it could not be worked out (note says why) */
    char source[96];           /* "CUDA occupancy API (NVIDIA H200)" / "model h200" */
    int regs;                  /* registers per thread; -1 unknown */
    long static_smem;          /* bytes per block; -1 unknown */
    long dynamic_smem;
    int threads;               /* threads per block */
    occ_result r;              /* blocks per SM, warps, occupancy, limiters */
    char note[256];            /* where the registers came from, caveats */
    /* the same two in the language of the screen (source and note stay
     * English: they go into exports) */
    char source_words[256], note_words[768];
} sweep_occ;

/* Occupancy of launch l under cfg on backend be (GPU or SIM). */
void sweep_launch_occupancy(const lab_launch_probe *l, const lab_config *cfg, lab_backend be,
                            sweep_occ *out);

/* The launch that does the work: the most threads in one launch (ties: the
 * first). NULL when there is none. */
const lab_launch_probe *sweep_main_launch(const lab_launch_probe *l, int n);

/* The model the simulator's figures use: cfg->model, or h200 when that name
 * is unknown (*fallback set to 1). */
const occ_model *sweep_model(const lab_config *cfg, int *fallback);
/* The dynamic shared memory the kernel of launch l opted in to on model m
 * (0: it did not; it then has the default 48 KiB less its static memory). */
long sweep_optin_limit(const lab_launch_probe *l, const occ_model *m, long static_smem);

/* ------------------------------------------------------------ sweeps */

typedef struct sweep_point {
    long long x;               /* the swept value */
    int variant;               /* index into sweep_data.variants */
    int refused;               /* refused before running (lab_validate, input) */
    lab_result r;              /* r.ran = 0 with r.note saying why */
    char kernel[LAB_NAME_MAX]; /* the main launch's kernel */
    int launches;              /* launch shapes seen */
    sweep_occ occ;
} sweep_point;

typedef struct sweep_data {
    sweep_axis axis;
    const lab_algo *algo;
    int nvariants;
    const lab_variant *variants[SWEEP_MAX_VARIANTS];
    int nvalues;
    long long values[SWEEP_MAX_VALUES];
    int npoints;               /* points measured or refused (values x variants, in order) */
    sweep_point *points;       /* nvalues * nvariants, value-major */
    lab_config cfg;            /* the settings it ran with */
    lab_backend backend;       /* of the kernel rows */
    char device[256];          /* "NVIDIA H200" or "simulator (model h200)" */
    int interrupted;           /* Ctrl-C stopped it: points past npoints were not measured */
    time_t when;
} sweep_data;

/* Called before each point (value index, variant index); may print progress. */
typedef void (*sweep_progress_fn)(const sweep_data *d, int value, int variant, void *ctx);

/* Run the sweep. The input is prepared once per value of n (once in all for
 * block and grid sweeps); each point is validated first, and one that is
 * refused keeps the reason. lab_interrupted stops it between points (and
 * between repeats); what was measured stays. 0 ok (possibly interrupted),
 * -1 with a message when nothing could start. Free with sweep_free. */
int sweep_run(const lab_algo *a, const lab_variant *const *vs, int nv, const lab_config *cfg,
              sweep_axis axis, const long long *vals, int nvals, sweep_data *d,
              sweep_progress_fn progress, void *ctx, char *err, size_t errlen);
void sweep_free(sweep_data *d);

/* The point of value i and variant j. */
static inline const sweep_point *sweep_at(const sweep_data *d, int i, int j)
{
    return &d->points[i * d->nvariants + j];
}

/* What the plot shows. */
typedef enum sweep_metric { SWEEP_METRIC_AUTO = 0, SWEEP_METRIC_TIME, SWEEP_METRIC_GBPS,
                            SWEEP_METRIC_OCCUPANCY } sweep_metric;
int sweep_metric_parse(const char *s, sweep_metric *out);
/* AUTO: GB/s when some point has it, else time. */
sweep_metric sweep_metric_resolve(const sweep_data *d, sweep_metric m);
/* A point's value of metric m, or a negative number when it has none. */
double sweep_point_metric(const sweep_point *p, sweep_metric m);

/* ------------------------------------------------------------ export */

/* The device and the date, for exports: "NVIDIA H200" and "2025-01-31T12:00:00+0100". */
void sweep_device_text(const lab_config *cfg, char *buf, size_t len);
/* The same in the language of the screen (sweep_device_text's is English:
 * it goes into exports). */
void sweep_device_words(const lab_config *cfg, char *buf, size_t len);
/* occ_limiters_text in the language of the screen: "registers and warps". */
char *sweep_limiters_words(unsigned limiters, char *buf, size_t len);
void sweep_date_text(time_t when, char *buf, size_t len);

/* Write a sweep, or result rows, as CSV (comment lines with the device, the
 * settings and the date, then a header row and one row per point) or JSON
 * (one object). 0 ok, -1 with a message. */
int sweep_export_csv(FILE *f, const sweep_data *d, char *err, size_t errlen);
int sweep_export_json(FILE *f, const sweep_data *d, char *err, size_t errlen);
int results_export_csv(FILE *f, const lab_result *rows, int n, const lab_config *cfg,
                       const lab_algo *a, time_t when, char *err, size_t errlen);
int results_export_json(FILE *f, const lab_result *rows, int n, const lab_config *cfg,
                        const lab_algo *a, time_t when, char *err, size_t errlen);

/* One point as a JSON object: the row's keys (out_result_json), then the
 * axis, x, refused and occupancy ({kernel, regs, ..., limited_by} or null). */
struct json_t;
struct json_t *sweep_point_json(const sweep_data *d, const sweep_point *p);
/* The occupancy of a launch as a JSON object (kernel name given). */
struct json_t *sweep_occ_json(const char *kernel, const sweep_occ *o);

#endif
