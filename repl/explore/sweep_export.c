/* sweep_export.c - a sweep, or the rows of the last run/compare, as CSV or
 * JSON files that carry the device, the settings and the date with them. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "repl/i18n.h"
#include "repl/out.h"
#include "repl/settings.h"
#include "repl/explore/sweep.h"

#ifndef GPULAB_VERSION
#define GPULAB_VERSION "?"
#endif

/* ------------------------------------------------------------ settings */

/* The settings a run reads, as name=value pairs, from the settings table
 * (repl/settings.c) in the order `show` lists them. */
typedef struct setting_kv {
    const char *name;
    char value[600];
} setting_kv;

static int settings_list(const lab_config *c, setting_kv *kv, int max)
{
    int n = 0;
    for (int i = 0; setting_at(i) && n < max; i++) {
        const struct setting *st = setting_at(i);
        if (st->home != SETTING_RUN || !st->value) continue;
        kv[n].name = st->name;
        st->value(c, kv[n].value, sizeof kv[n].value);
        n++;
    }
    return n;
}

static json_t *settings_json(const lab_config *c)
{
    setting_kv kv[64];
    int n = settings_list(c, kv, 64);
    json_t *o = json_object();
    for (int i = 0; i < n; i++) json_object_set_new(o, kv[i].name, out_json_text(kv[i].value));
    return o;
}

/* ------------------------------------------------------------ CSV */

static void csv_field(FILE *f, const char *s, int last)
{
    if (strpbrk(s, ",\"\n\r")) {
        fputc('"', f);
        for (const char *p = s; *p; p++) {
            if (*p == '"') fputc('"', f);
            fputc(*p, f);
        }
        fputc('"', f);
    } else {
        fputs(s, f);
    }
    fputc(last ? '\n' : ',', f);
}

static void num(char *buf, size_t len, double v, int known)
{
    if (!known || isnan(v)) buf[0] = 0;
    else snprintf(buf, len, "%.6g", v);
}

static void csv_preamble(FILE *f, const char *kind, const lab_config *c, const lab_algo *a,
                         time_t when, const char *device)
{
    char date[64];
    sweep_date_text(when, date, sizeof date);
    fprintf(f, "# gpulab %s %s\n", GPULAB_VERSION, kind);
    fprintf(f, "# date: %s\n", date);
    fprintf(f, "# device: %s\n", device);
    if (a) fprintf(f, "# algorithm: %s\n", a->name);
    setting_kv kv[64];
    int n = settings_list(c, kv, 64);
    fprintf(f, "# settings:");
    for (int i = 0; i < n; i++) fprintf(f, " %s=%s", kv[i].name, kv[i].value);
    fputc('\n', f);
}

/* The columns every row has; sweeps add theirs in front and behind. */
/* One column per field: a 2D block is block and block_y, never "16x16". */
static const char *const result_cols[] = {"variant", "backend", "n", "dtype", "block", "block_y", "grid",
                                          "grid_y", "ran", "ms", "ms_min", "ms_max", "repeats", "gbps",
                                          "pct_peak", "speedup", "result", "correct", "note"};
#define NRESULT_COLS ((int)(sizeof result_cols / sizeof result_cols[0]))

static void result_cells(const lab_result *r, char cells[NRESULT_COLS][LAB_NOTE_MAX])
{
    int ran = r->ran != 0;
    snprintf(cells[0], LAB_NOTE_MAX, "%s", r->variant);
    snprintf(cells[1], LAB_NOTE_MAX, "%s", lab_backend_name(r->backend));
    snprintf(cells[2], LAB_NOTE_MAX, "%lld", r->n);
    snprintf(cells[3], LAB_NOTE_MAX, "%s", lab_dtype_name(r->dtype));
    cells[4][0] = cells[5][0] = cells[6][0] = cells[7][0] = 0;
    if (r->block > 0) snprintf(cells[4], LAB_NOTE_MAX, "%d", r->block);
    if (r->block_y > 0) snprintf(cells[5], LAB_NOTE_MAX, "%d", r->block_y);
    if (r->grid > 0) snprintf(cells[6], LAB_NOTE_MAX, "%lld", r->grid);
    if (r->grid_y > 0) snprintf(cells[7], LAB_NOTE_MAX, "%lld", r->grid_y);
    snprintf(cells[8], LAB_NOTE_MAX, "%s", ran ? "yes" : "no");
    num(cells[9], LAB_NOTE_MAX, r->ms, ran);
    num(cells[10], LAB_NOTE_MAX, r->ms_min, ran);
    num(cells[11], LAB_NOTE_MAX, r->ms_max, ran);
    snprintf(cells[12], LAB_NOTE_MAX, "%d", ran ? r->repeats : 0);
    num(cells[13], LAB_NOTE_MAX, r->gbps, ran && r->gbps > 0);
    num(cells[14], LAB_NOTE_MAX, r->pct_peak, ran && r->pct_peak >= 0 && r->gbps > 0);
    num(cells[15], LAB_NOTE_MAX, r->speedup, ran && r->speedup > 0);
    snprintf(cells[16], LAB_NOTE_MAX, "%s", ran ? r->result : "");
    snprintf(cells[17], LAB_NOTE_MAX, "%s", !ran || r->correct < 0 ? "" : r->correct ? "yes" : "no");
    snprintf(cells[18], LAB_NOTE_MAX, "%s", r->note);
}

static int finish(FILE *f, char *err, size_t len)
{
    if (fflush(f) != 0 || ferror(f)) {
        snprintf(err, len, _("cannot write the file: %s"), strerror(errno ? errno : EIO));
        return -1;
    }
    return 0;
}

int results_export_csv(FILE *f, const lab_result *rows, int n, const lab_config *cfg, const lab_algo *a,
                       time_t when, char *err, size_t len)
{
    char device[256];
    sweep_device_text(cfg, device, sizeof device);
    csv_preamble(f, "results", cfg, a, when, device);
    for (int k = 0; k < NRESULT_COLS; k++) csv_field(f, result_cols[k], k == NRESULT_COLS - 1);
    static char cells[NRESULT_COLS][LAB_NOTE_MAX];
    for (int i = 0; i < n; i++) {
        result_cells(&rows[i], cells);
        for (int k = 0; k < NRESULT_COLS; k++) csv_field(f, cells[k], k == NRESULT_COLS - 1);
    }
    return finish(f, err, len);
}

static const char *const occ_cols[] = {"kernel", "regs", "static_smem", "dynamic_smem",
                                       "blocks_per_sm", "occupancy", "limited_by", "occupancy_from"};
#define NOCC_COLS ((int)(sizeof occ_cols / sizeof occ_cols[0]))

static void occ_cells(const sweep_point *p, char cells[NOCC_COLS][160])
{
    for (int k = 0; k < NOCC_COLS; k++) cells[k][0] = 0;
    snprintf(cells[0], 160, "%s", p->kernel);
    if (!p->occ.known) return;
    if (p->occ.regs >= 0) snprintf(cells[1], 160, "%d", p->occ.regs);
    if (p->occ.static_smem >= 0) snprintf(cells[2], 160, "%ld", p->occ.static_smem);
    snprintf(cells[3], 160, "%ld", p->occ.dynamic_smem);
    snprintf(cells[4], 160, "%d", p->occ.r.blocks_per_sm);
    snprintf(cells[5], 160, "%.4f", p->occ.r.occupancy);
    occ_limiters_text(p->occ.r.limiters, cells[6], 160);
    snprintf(cells[7], 160, "%s", p->occ.source);
}

int sweep_export_csv(FILE *f, const sweep_data *d, char *err, size_t len)
{
    char kind[600];
    size_t off = (size_t)snprintf(kind, sizeof kind, "sweep of %s over", sweep_axis_name(d->axis));
    for (int j = 0; j < d->nvariants && off < sizeof kind; j++)
        off += (size_t)snprintf(kind + off, sizeof kind - off, "%s%s", j ? ", " : " ", d->variants[j]->name);
    if (d->interrupted && off < sizeof kind)
        snprintf(kind + off, sizeof kind - off, " (interrupted: %d of %d points)", d->npoints,
                 d->nvalues * d->nvariants);
    csv_preamble(f, kind, &d->cfg, d->algo, d->when, d->device);
    /* the swept value first, named apart from the row's own block, grid and n */
    char axis[32];
    snprintf(axis, sizeof axis, "swept_%s", sweep_axis_name(d->axis));
    csv_field(f, axis, 0);
    for (int k = 0; k < NRESULT_COLS - 1; k++) csv_field(f, result_cols[k], 0);
    for (int k = 0; k < NOCC_COLS; k++) csv_field(f, occ_cols[k], 0);
    csv_field(f, "note", 1);
    static char cells[NRESULT_COLS][LAB_NOTE_MAX];
    char oc[NOCC_COLS][160], x[32];
    for (int i = 0; i < d->npoints; i++) {
        const sweep_point *p = &d->points[i];
        snprintf(x, sizeof x, "%lld", p->x);
        csv_field(f, x, 0);
        result_cells(&p->r, cells);
        for (int k = 0; k < NRESULT_COLS - 1; k++) csv_field(f, cells[k], 0);
        occ_cells(p, oc);
        for (int k = 0; k < NOCC_COLS; k++) csv_field(f, oc[k], 0);
        csv_field(f, cells[NRESULT_COLS - 1], 1);
    }
    return finish(f, err, len);
}

/* ------------------------------------------------------------ JSON */

static int dump(FILE *f, json_t *root, char *err, size_t len)
{
    int rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    json_decref(root);
    if (rc != 0) {
        snprintf(err, len, _("cannot write the JSON: %s"), strerror(errno ? errno : EIO));
        return -1;
    }
    fputc('\n', f);
    return finish(f, err, len);
}

static json_t *header_json(const char *kind, const lab_config *c, const lab_algo *a, time_t when,
                           const char *device)
{
    char date[64];
    sweep_date_text(when, date, sizeof date);
    json_t *o = json_object();
    json_object_set_new(o, "gpulab", json_string(GPULAB_VERSION));
    json_object_set_new(o, "kind", json_string(kind));
    json_object_set_new(o, "date", json_string(date));
    json_object_set_new(o, "device", json_string(device));
    json_object_set_new(o, "algo", a ? json_string(a->name) : json_null());
    json_object_set_new(o, "settings", settings_json(c));
    return o;
}

int results_export_json(FILE *f, const lab_result *rows, int n, const lab_config *cfg,
                        const lab_algo *a, time_t when, char *err, size_t len)
{
    char device[256];
    sweep_device_text(cfg, device, sizeof device);
    json_t *root = header_json("results", cfg, a, when, device);
    json_t *arr = json_array();
    for (int i = 0; i < n; i++) json_array_append_new(arr, out_result_json(&rows[i]));
    json_object_set_new(root, "rows", arr);
    return dump(f, root, err, len);
}

json_t *sweep_occ_json(const char *kernel, const sweep_occ *o)
{
    if (!o->known) return json_null();
    char lim[96];
    json_t *j = json_object();
    json_object_set_new(j, "kernel", json_string(kernel));
    json_object_set_new(j, "from", json_string(o->source));
    json_object_set_new(j, "regs", o->regs >= 0 ? json_integer(o->regs) : json_null());
    json_object_set_new(j, "static_smem", o->static_smem >= 0 ? json_integer(o->static_smem) : json_null());
    json_object_set_new(j, "dynamic_smem", json_integer(o->dynamic_smem));
    json_object_set_new(j, "threads", json_integer(o->threads));
    json_object_set_new(j, "blocks_per_sm", json_integer(o->r.blocks_per_sm));
    json_object_set_new(j, "warps_per_sm", json_integer(o->r.active_warps));
    json_object_set_new(j, "max_warps", json_integer(o->r.max_warps));
    json_object_set_new(j, "occupancy", json_real(o->r.occupancy));
    json_object_set_new(j, "limited_by", json_string(occ_limiters_text(o->r.limiters, lim, sizeof lim)));
    json_object_set_new(j, "note", json_string(o->note));
    return j;
}

json_t *sweep_point_json(const sweep_data *d, const sweep_point *p)
{
    json_t *o = out_result_json(&p->r);
    json_object_set_new(o, "axis", json_string(sweep_axis_name(d->axis)));
    json_object_set_new(o, "x", json_integer(p->x));
    json_object_set_new(o, "refused", json_boolean(p->refused));
    json_object_set_new(o, "occupancy", sweep_occ_json(p->kernel, &p->occ));
    return o;
}

int sweep_export_json(FILE *f, const sweep_data *d, char *err, size_t len)
{
    json_t *root = header_json("sweep", &d->cfg, d->algo, d->when, d->device);
    json_object_set_new(root, "axis", json_string(sweep_axis_name(d->axis)));
    json_t *vs = json_array(), *xs = json_array(), *pts = json_array();
    for (int j = 0; j < d->nvariants; j++) json_array_append_new(vs, json_string(d->variants[j]->name));
    for (int i = 0; i < d->nvalues; i++) json_array_append_new(xs, json_integer(d->values[i]));
    json_object_set_new(root, "variants", vs);
    json_object_set_new(root, "values", xs);
    json_object_set_new(root, "interrupted", json_boolean(d->interrupted));
    for (int i = 0; i < d->npoints; i++) json_array_append_new(pts, sweep_point_json(d, &d->points[i]));
    json_object_set_new(root, "points", pts);
    return dump(f, root, err, len);
}
