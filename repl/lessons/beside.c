/* beside.c - the lecture's numbers of a lesson step beside this session's
 * last results, matched by meaning.
 *
 * A lecture block's rows are `LABEL: VALUE`. Two labels describe the block
 * instead of a row: `size:` (the lecture's n, or WIDTHxHEIGHT) and
 * `pattern:` (its input: photo, flat...). Every other label names a variant
 * (or algo/variant). What the value is decides what it is set beside:
 *   "1.17 ms", "0.3 s"    a time   -> our row's median time
 *   "286.0 GB/s"          a rate   -> our row's GB/s
 *   "3321858913"          a result -> our row's result (a sum, a total)
 * Rows of another input (the block's pattern is not the last run's) are not
 * compared, and when the sizes differ both are said. */
#include "repl/i18n.h"
#include "repl/lessons/lesson.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repl/out.h"
#include "repl/parse.h"
#include "repl/session.h"
#include "repl/lessons/beside.h"

enum meaning { M_TIME, M_RATE, M_RESULT };

static enum meaning value_meaning(const char *v)
{
    size_t n = strlen(v);
    while (n > 0 && isspace((unsigned char)v[n - 1])) n--;
    if (n >= 4 && strncmp(v + n - 4, "GB/s", 4) == 0) return M_RATE;
    if (n >= 2 && strncmp(v + n - 2, "ms", 2) == 0) return M_TIME;
    if (n >= 2 && isdigit((unsigned char)v[n - 2]) && v[n - 1] == 's') return M_TIME;
    if (n >= 3 && v[n - 2] == ' ' && v[n - 1] == 's') return M_TIME;
    return M_RESULT;
}

static const char *meta(const struct lesson_lecture *lc, const char *key)
{
    for (int r = 0; r < lc->nrows; r++)
        if (strcmp(lc->rows[r].label, key) == 0) return lc->rows[r].value;
    return NULL;
}

/* The size the last results ran at, as the lecture would write it. */
static void our_size(const struct session *s, char *b, size_t len)
{
    const lab_config *c = &s->last.cfg;
    if (c->width > 0 && c->height > 0) snprintf(b, len, "%dx%d", c->width, c->height);
    else snprintf(b, len, "%lld", s->last.nrows > 0 ? s->last.rows[0].n : c->n);
}

/* Same size? "64Mi" and "67108864" are; "1280x720" is compared as written. */
static int same_size(const char *lecture, const char *ours)
{
    long long a, b;
    char err[128];
    if (strchr(lecture, 'x') || strchr(ours, 'x')) return strcmp(lecture, ours) == 0;
    if (parse_size(lecture, 0, (1LL << 62), &a, err, sizeof err) != 0) return 0;
    if (parse_size(ours, 0, (1LL << 62), &b, err, sizeof err) != 0) return 0;
    return a == b;
}

static const lab_result *find_row(const struct session *s, const char *label)
{
    for (int j = 0; j < s->last.nrows; j++) {
        const lab_result *res = &s->last.rows[j];
        char full[2 * LAB_NAME_MAX + 2];
        snprintf(full, sizeof full, "%s/%s", res->algo, res->variant);
        if (strcmp(label, res->variant) == 0 || strcmp(label, full) == 0) return res;
    }
    return NULL;
}

static void ours(const lab_result *res, enum meaning m, const char *lecture, char *b, size_t len)
{
    if (!res->ran) {
        snprintf(b, len, "%s", _("not run"));
        return;
    }
    const int sim = res->backend == LAB_BACKEND_SIM;
    switch (m) {
    case M_TIME:
        /* on the simulator the comparable time is the estimate of GPU time
         * from the counted accesses; the simulator's own time is CPU time */
        if (!sim) snprintf(b, len, "%.3g ms", res->ms);
        else if (res->est_ms > 0) snprintf(b, len, _("%.3g ms (estimated)"), res->est_ms);
        else snprintf(b, len, "%s", _("- (not estimated on the simulator)"));
        break;
    case M_RATE:
        if (res->gbps > 0) snprintf(b, len, "%.1f GB/s", res->gbps);
        else snprintf(b, len, "%s", _("- (no GB/s on the simulator)"));
        break;
    case M_RESULT: {
        /* "123000064.0" and "123000064" say the same */
        char *end;
        double lv = strtod(lecture, &end);
        int same = end != lecture && res->result[0] && strtod(res->result, NULL) == lv;
        snprintf(b, len, same ? _("%s (the same)") : "%s", res->result[0] ? res->result : "-");
        break;
    }
    }
}

static int any_sim(const struct session *s)
{
    for (int j = 0; j < s->last.nrows; j++)
        if (s->last.rows[j].ran && s->last.rows[j].backend == LAB_BACKEND_SIM) return 1;
    return 0;
}

void lesson_print_beside(struct session *s, const struct lesson_step *st)
{
    if (!st || st->nlectures == 0) {
        out_printf(_("this step has no lecture numbers to compare with\n"));
        return;
    }
    const char *pattern = s->last.cfg.pattern[0] ? s->last.cfg.pattern : NULL;
    char size[64];
    our_size(s, size, sizeof size);
    for (int k = 0; k < st->nlectures; k++) {
        const struct lesson_lecture *lc = &st->lectures[k];
        const char *lsize = meta(lc, "size"), *lpat = meta(lc, "pattern");
        const int other_input = lpat && (!pattern || strcmp(lpat, pattern) != 0);
        const char *hdr[] = {_("row"), _("the lecture"), _("here")};
        struct out_table *t = out_table_new(3, hdr, "lrr");
        int matched = 0;
        for (int r = 0; r < lc->nrows; r++) {
            const char *label = lc->rows[r].label, *value = lc->rows[r].value;
            if (strcmp(label, "size") == 0 || strcmp(label, "pattern") == 0) continue;
            char here[LAB_NAME_MAX + 64] = "-";
            const lab_result *res = find_row(s, label);
            if (res && other_input) {
                if (pattern) snprintf(here, sizeof here, _("- (the last run's input is %s)"), pattern);
                else snprintf(here, sizeof here, "%s", _("- (the last run's input is another)"));
            } else if (res) {
                ours(res, value_meaning(value), value, here, sizeof here);
                matched++;
            }
            const char *cells[] = {label, value, here};
            out_table_row(t, cells);
        }
        out_printf(_("The lecture measured these (%s)"), lc->source);
        if (lsize && !same_size(lsize, size))
            out_printf(_("; the lecture's size is %s, the last run's %s"), lsize, size);
        else if (lsize)
            out_printf(_("; both at %s"), lsize);
        if (lpat) out_printf(_("; %s input"), lpat);
        out_printf(":\n");
        out_table_print(t);
        out_table_free(t);
        if (!matched && !other_input)
            out_printf(_("(no row of the last run matches: run the step's commands first)\n"));
        else if (other_input)
            out_printf(_("(run with `set pattern %s` to compare these)\n"), lpat);
        else if (any_sim(s))
            out_wrapf(0, 1, "%s",
                      _("(on the simulator, \"here\" is the GPU time estimated from the counted accesses, est ms: "
                        "an estimate for the model GPU, not a measurement; the lecture's GPU was another)"));
    }
}
