/* out_table.c - tables at the terminal: columns measured in display
 * columns, fitted to the width (columns left out in a stated order, or cut
 * with an ellipsis), printed through out (see out.h). */
#include "repl/out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repl/i18n.h"

struct out_table {
    int ncols, nrows, cap;
    char **cells;            /* (nrows + 1) * ncols, row 0 = headers */
    unsigned char *roles;    /* colour role per cell */
    char *align;
    int *drop;               /* order of leaving a column out: 1 first; 0 never */
    int *shrink;             /* narrowest a column may be cut to (0: not cut) */
};

static int table_grow(struct out_table *t)
{
    if (t->nrows + 2 <= t->cap) return 0;
    int cap = t->cap ? t->cap * 2 : 16;
    char **c = realloc(t->cells, (size_t)cap * t->ncols * sizeof *c);
    if (!c) return -1;
    t->cells = c;
    unsigned char *r = realloc(t->roles, (size_t)cap * t->ncols);
    if (!r) return -1;
    t->roles = r;
    t->cap = cap;
    return 0;
}

static void table_add(struct out_table *t, const char *const *cells)
{
    if (table_grow(t) != 0) return;
    int base = t->nrows * t->ncols;
    for (int i = 0; i < t->ncols; i++) {
        const char *c = cells[i] ? cells[i] : "-";
        t->cells[base + i] = out_escape(c, strlen(c), NULL); /* a cell is one line */
        t->roles[base + i] = OUT_RESET;
    }
    t->nrows++;
}

struct out_table *out_table_new(int ncols, const char *const *headers, const char *align)
{
    struct out_table *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->ncols = ncols;
    t->align = calloc((size_t)ncols + 1, 1);
    t->drop = calloc((size_t)ncols, sizeof *t->drop);
    t->shrink = calloc((size_t)ncols, sizeof *t->shrink);
    for (int i = 0; i < ncols; i++)
        t->align[i] = align && i < (int)strlen(align) ? align[i] : 'l';
    table_add(t, headers);
    return t;
}

void out_table_row(struct out_table *t, const char *const *cells)
{
    if (t) table_add(t, cells);
}

void out_table_color(struct out_table *t, int col, enum out_role r)
{
    if (!t || t->nrows < 2 || col < 0 || col >= t->ncols) return;
    t->roles[(t->nrows - 1) * t->ncols + col] = (unsigned char)r;
}

void out_table_drop_order(struct out_table *t, const char *const *heads)
{
    if (!t || !t->drop) return;
    for (int k = 0; heads && heads[k]; k++)
        for (int c = 0; c < t->ncols; c++)
            if (strcmp(t->cells[c], heads[k]) == 0 && t->drop[c] == 0) t->drop[c] = k + 1;
}

void out_table_shrink(struct out_table *t, int col, int min)
{
    if (t && t->shrink && col >= 0 && col < t->ncols) t->shrink[col] = min;
}

/* A column with nothing in it: every cell below the header empty or "-"
 * (the simulator's rows have no GB/s, % of peak or speedup). */
static int table_blank(const struct out_table *t, int c)
{
    for (int r = 1; r < t->nrows; r++) {
        const char *s = t->cells[r * t->ncols + c];
        if (s && *s && strcmp(s, "-") != 0) return 0;
    }
    return 1;
}

/* Fit the columns into width: leave out columns in their drop order (the
 * blank ones first: they say nothing), then cut the shrinkable ones, widest
 * first. keep[c] says which stay. */
static void table_fit(struct out_table *t, int *w, int *keep, int width, char *gone, size_t gonelen)
{
    int total = 0;
    for (int c = 0; c < t->ncols; c++) total += w[c] + (c ? 2 : 0);
    while (width > 0 && total > width) {
        int best = -1, best_blank = 0;
        for (int c = 0; c < t->ncols; c++) {
            if (!keep[c] || t->drop[c] <= 0) continue;
            int blank = table_blank(t, c);
            if (best < 0 || blank > best_blank || (blank == best_blank && t->drop[c] < t->drop[best])) {
                best = c;
                best_blank = blank;
            }
        }
        if (best < 0) break;
        keep[best] = 0;
        total -= w[best] + 2;
        size_t l = strlen(gone);
        snprintf(gone + l, gonelen - l, "%s%s", l ? ", " : "", t->cells[best]);
    }
    while (width > 0 && total > width) {
        int best = -1;
        for (int c = 0; c < t->ncols; c++)
            if (keep[c] && t->shrink[c] > 0 && w[c] > t->shrink[c] && (best < 0 || w[c] > w[best])) best = c;
        if (best < 0) break;
        int cut = total - width;
        if (cut > w[best] - t->shrink[best]) cut = w[best] - t->shrink[best];
        w[best] -= cut;
        total -= cut;
    }
}

void out_table_print(struct out_table *t)
{
    if (!t) return;
    int *w = calloc((size_t)t->ncols, sizeof *w);
    int *keep = calloc((size_t)t->ncols, sizeof *keep);
    if (!w || !keep) {
        free(w);
        free(keep);
        return;
    }
    for (int r = 0; r < t->nrows; r++)
        for (int c = 0; c < t->ncols; c++) {
            const char *s = t->cells[r * t->ncols + c];
            int l = s ? out_text_width(s, strlen(s)) : 0;
            if (l > w[c]) w[c] = l;
        }
    for (int c = 0; c < t->ncols; c++) keep[c] = 1;
    char gone[512] = "";
    int width = out_width();
    table_fit(t, w, keep, width, gone, sizeof gone);
    int lastc = t->ncols - 1;
    while (lastc > 0 && !keep[lastc]) lastc--;
    FILE *o = out_stream();
    for (int r = 0; r < t->nrows; r++) {
        if (r == 0) fputs(out_color(OUT_BOLD), o);
        int first = 1;
        for (int c = 0; c < t->ncols; c++) {
            if (!keep[c]) continue;
            const char *s = t->cells[r * t->ncols + c];
            if (!s) s = "";
            int sw = out_text_width(s, strlen(s));
            size_t bytes = strlen(s);
            int cut = sw > w[c];
            if (cut) { /* cut to the column, the last character a "…" */
                bytes = out_fit_len(s, w[c] - 1);
                sw = out_text_width(s, bytes) + 1; /* a wide character may leave a column */
            }
            int pad = w[c] - sw;
            int last = c == lastc;
            enum out_role role = (enum out_role)t->roles[r * t->ncols + c];
            if (!first) fputs("  ", o);
            first = 0;
            if (t->align[c] == 'r')
                for (int i = 0; i < pad; i++) fputc(' ', o);
            if (r > 0 && role != OUT_RESET) fputs(out_color(role), o);
            fwrite(s, 1, bytes, o);
            if (cut) fputs("\u2026", o);
            if (r > 0 && role != OUT_RESET) fputs(out_color(OUT_RESET), o);
            if (t->align[c] != 'r' && !last)
                for (int i = 0; i < pad; i++) fputc(' ', o);
        }
        if (r == 0) fputs(out_color(OUT_RESET), o);
        fputc('\n', o);
    }
    if (gone[0])
        out_wrapf(0, 2, _("%s(left out to fit %d columns: %s; a wider terminal shows them)%s"),
                  out_color(OUT_DIM), width, gone, out_color(OUT_RESET));
    free(w);
    free(keep);
}

void out_table_free(struct out_table *t)
{
    if (!t) return;
    for (int i = 0; i < t->nrows * t->ncols; i++) free(t->cells[i]);
    free(t->cells);
    free(t->roles);
    free(t->align);
    free(t->drop);
    free(t->shrink);
    free(t);
}
