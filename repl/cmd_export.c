/* cmd_export.c - export: the last table or sweep as CSV or JSON, the last
 * plot or animation frame as SVG, PNG or PDF. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repl/cmd.h"
#include "repl/cmd_profile.h"
#include "repl/explore/cmd_sweep.h"
#include "viz/export.h"
#include "repl/i18n.h"
#include "repl/out.h"
#include "repl/safefile.h"
#include "repl/session.h"
#include "repl/explore/sweep.h"

/* ------------------------------------------------------------ export */

static enum cmd_status do_export(struct session *s, int argc, char **argv)
{
    if (argc != 2 && argc != 4)
        return sess_error(s, argc < 2 ? 1 : 2, _("usage: export FILE.csv|FILE.json|FILE.svg|FILE.png|FILE.pdf [--width N]"));
    const char *path = argv[1];
    const char *dot = strrchr(path, '.');
    if (dot && strchr(dot, '/')) dot = NULL;
    char err[1024];
    long long width = 0;
    if (argc == 4) {
        if (strcmp(argv[2], "--width") != 0 && strcmp(argv[2], "width") != 0)
            return sess_error(s, 2, _("expected --width N here (usage: export FILE [--width N])"));
        if (parse_size(argv[3], 100, 16000, &width, err, sizeof err) != 0)
            return sess_error(s, 3, _("--width: %s (pixels across for PNG, points for SVG and PDF)"), err);
        if (viz_export_format(path) == VIZ_EXPORT_NONE)
            return sess_error(s, 2, _("--width is for pictures (.svg, .png, .pdf); tables have no width"));
    }
    if (viz_export_format(path) != VIZ_EXPORT_NONE) {
        if (!s->picture.c)
            return sess_error(s, 1, _("there is no picture yet: a sweep draws a plot, and animate shows frames"));
        struct safefile w;
        if (sess_open_output(s, &w, path, err, sizeof err) != 0) return sess_error(s, 1, "%s", err);
        if (viz_picture_write(&s->picture, path, w.f, (int)width, err, sizeof err) != 0) {
            safefile_abort(&w);
            return sess_error(s, 1, "%s", err);
        }
        if (safefile_commit(&w, err, sizeof err) != 0) return sess_error(s, 1, "%s", err);
        if (!s->json)
            out_printf(_("wrote %s%s: %s\n"), out_vis(path), w.replaced ? _(" (it replaces the old file)") : "", s->picture.what);
        return CMD_OK;
    }
    int csv = dot && strcasecmp(dot, ".csv") == 0, json = dot && strcasecmp(dot, ".json") == 0;
    if (!csv && !json)
        return sess_error(s, 1, _("export writes .csv or .json (the last table or sweep) and .svg, .png or "
                                  ".pdf (the last plot or animation frame)"));
    const struct sess_output *o = &s->last;
    if (o->kind == SESS_OUTPUT_NONE || (o->kind == SESS_OUTPUT_PROFILE ? o->nprof : o->nrows) == 0)
        return sess_error(s, 1, _("nothing to export yet: run, compare or sweep first"));
    struct safefile w;
    if (sess_open_output(s, &w, path, err, sizeof err) != 0) return sess_error(s, 1, "%s", err);
    FILE *f = w.f;
    int rc;
    time_t now = time(NULL);
    switch (o->kind) {
    case SESS_OUTPUT_PROFILE:
        rc = profile_export(s, f, csv, err, sizeof err);
        break;
    case SESS_OUTPUT_SWEEP:
        rc = csv ? sweep_export_csv(f, o->sweep, err, sizeof err) : sweep_export_json(f, o->sweep, err, sizeof err);
        break;
    default:
        rc = csv ? results_export_csv(f, o->rows, o->nrows, &o->cfg, o->algo, now, err, sizeof err)
                 : results_export_json(f, o->rows, o->nrows, &o->cfg, o->algo, now, err, sizeof err);
        break;
    }
    if (rc != 0) {
        /* the stream's own error is the more exact one (a full disk) */
        if (w.err) snprintf(err, sizeof err, _("cannot write %s: %s"), path, strerror(w.err));
        safefile_abort(&w);
        return sess_error(s, 1, "%s", err);
    }
    if (safefile_commit(&w, err, sizeof err) != 0) return sess_error(s, 1, "%s", err);
    if (!s->json) {
        const char *again = w.replaced ? _(" (it replaces the old file)") : "";
        if (o->kind == SESS_OUTPUT_PROFILE)
            out_printf(_("wrote %s%s: the last profile\n"), out_vis(path), again);
        else if (o->kind == SESS_OUTPUT_SWEEP)
            out_printf(ngettext("wrote %s%s: the sweep of %s, %d point\n", "wrote %s%s: the sweep of %s, %d points\n",
                                (unsigned long)o->sweep->npoints),
                       out_vis(path), again, sweep_axis_name(o->sweep->axis), o->sweep->npoints);
        else
            out_printf(ngettext("wrote %s%s: the last table, %d row\n", "wrote %s%s: the last table, %d rows\n",
                                (unsigned long)o->nrows),
                       out_vis(path), again, o->nrows);
    }
    return CMD_OK;
}

const struct cmd cmd_export[] = {
    {
        .name = "export",
        .usage = N_("export FILE.csv|FILE.json|FILE.svg|FILE.png|FILE.pdf [--width N]"),
        .help = N_("save the last table or sweep (CSV, JSON), or the last plot or frame (SVG, PNG, PDF)"),
        .long_help =
            N_("CSV and JSON hold the last sweep, or the last run/compare table when that came\n"
               "later, with the device, every setting and the date, one column per field. CSV\n"
               "files start with '#' comment lines for those, then one header row.\n"
               "SVG, PNG and PDF draw the last picture shown, for slides: a sweep's plot as a\n"
               "vector plot (axes with ticks and units, log scales for x2 and x4 sweeps, a\n"
               "legend, each variant in its colour), or the current animation frame with its\n"
               "whole caption and without the key line. --width N sets the width: pixels for\n"
               "PNG (plots 1600 by default), points for SVG and PDF (plots 800).\n"),
        .run = do_export,
        .complete = CMP_FILE,
    },
    {0},
};
