/* out.c - the one output module (see out.h). */
#include "out.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static FILE *g_out, *g_err;
static int g_color;

void out_set_streams(FILE *out, FILE *err)
{
    g_out = out;
    g_err = err;
}

FILE *out_stream(void) { return g_out ? g_out : stdout; }
FILE *out_err_stream(void) { return g_err ? g_err : stderr; }
void out_set_color(int on) { g_color = on; }
int out_color_enabled(void) { return g_color; }

const char *out_color(enum out_role r)
{
    static const char *const esc[] = {
        [OUT_RESET] = "\033[0m", [OUT_BOLD] = "\033[1m", [OUT_DIM] = "\033[2m",
        [OUT_ERROR] = "\033[1;31m", [OUT_WARN] = "\033[33m", [OUT_GOOD] = "\033[32m",
        [OUT_ACCENT] = "\033[36m",
    };
    if (!g_color || (int)r < 0 || (size_t)r >= sizeof esc / sizeof esc[0]) return "";
    return esc[r];
}

void out_vprintf(const char *fmt, va_list ap)
{
    vfprintf(out_stream(), fmt, ap);
}

void out_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    out_vprintf(fmt, ap);
    va_end(ap);
}

void out_puts(const char *s)
{
    fputs(s, out_stream());
}

void out_flush(void)
{
    fflush(out_stream());
    fflush(out_err_stream());
}

static void tagged(enum out_role role, const char *tag, const char *fmt, va_list ap)
{
    FILE *e = out_err_stream();
    fflush(out_stream());
    fprintf(e, "%s%s:%s ", out_color(role), tag, out_color(OUT_RESET));
    vfprintf(e, fmt, ap);
    fputc('\n', e);
    fflush(e);
}

void out_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tagged(OUT_ACCENT, "note", fmt, ap);
    va_end(ap);
}

void out_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tagged(OUT_WARN, "warning", fmt, ap);
    va_end(ap);
}

static int g_progress; /* a status line is showing */

void out_progress(const char *fmt, ...)
{
    FILE *e = out_err_stream();
    if (!isatty(fileno(e))) return;
    va_list ap;
    va_start(ap, fmt);
    fputs("\r\033[K", e);
    vfprintf(e, fmt, ap);
    va_end(ap);
    fflush(e);
    g_progress = 1;
}

void out_progress_clear(void)
{
    if (!g_progress) return;
    fputs("\r\033[K", out_err_stream());
    fflush(out_err_stream());
    g_progress = 0;
}

void out_verror(const struct out_loc *loc, const char *fmt, va_list ap)
{
    FILE *e = out_err_stream();
    fflush(out_stream());
    fprintf(e, "%serror:%s ", out_color(OUT_ERROR), out_color(OUT_RESET));
    if (loc && loc->script && loc->line > 0) fprintf(e, "line %d of %s: ", loc->line, loc->script);
    vfprintf(e, fmt, ap);
    fputc('\n', e);
    if (loc && loc->text && loc->pos >= 0) {
        /* The line without its trailing newline, then the caret under the
         * word; tabs are kept in the caret line so the columns agree. */
        const char *t = loc->text;
        size_t tl = strcspn(t, "\r\n");
        if (loc->text_len > 0 && (size_t)loc->text_len < tl) tl = (size_t)loc->text_len;
        int pos = loc->pos, len = loc->len < 1 ? 1 : loc->len;
        if ((size_t)pos > tl + 1) pos = (int)tl + 1;
        fprintf(e, "    %.*s\n    ", (int)tl, t);
        for (int i = 0; i < pos; i++) fputc(t[i] == '\t' ? '\t' : ' ', e);
        fprintf(e, "%s^", out_color(OUT_GOOD));
        for (int i = 1; i < len; i++) fputc('~', e);
        fprintf(e, "%s\n", out_color(OUT_RESET));
    }
    fflush(e);
}

void out_error(const struct out_loc *loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    out_verror(loc, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------------ tables */

struct out_table {
    int ncols, nrows, cap;
    char **cells;            /* (nrows + 1) * ncols, row 0 = headers */
    unsigned char *roles;    /* colour role per cell */
    char *align;
};

/* Display width of a UTF-8 string: count the bytes that start a character. */
static int utf8_width(const char *s)
{
    int w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80) w++;
    return w;
}

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
        t->cells[base + i] = strdup(cells[i] ? cells[i] : "-");
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

void out_table_print(struct out_table *t)
{
    if (!t) return;
    int *w = calloc((size_t)t->ncols, sizeof *w);
    if (!w) return;
    for (int r = 0; r < t->nrows; r++)
        for (int c = 0; c < t->ncols; c++) {
            const char *s = t->cells[r * t->ncols + c];
            int l = s ? utf8_width(s) : 0;
            if (l > w[c]) w[c] = l;
        }
    FILE *o = out_stream();
    for (int r = 0; r < t->nrows; r++) {
        if (r == 0) fputs(out_color(OUT_BOLD), o);
        for (int c = 0; c < t->ncols; c++) {
            const char *s = t->cells[r * t->ncols + c];
            if (!s) s = "";
            int pad = w[c] - utf8_width(s);
            int last = c == t->ncols - 1;
            enum out_role role = (enum out_role)t->roles[r * t->ncols + c];
            if (c) fputs("  ", o);
            if (t->align[c] == 'r')
                for (int i = 0; i < pad; i++) fputc(' ', o);
            if (r > 0 && role != OUT_RESET) fputs(out_color(role), o);
            fputs(s, o);
            if (r > 0 && role != OUT_RESET) fputs(out_color(OUT_RESET), o);
            if (t->align[c] != 'r' && !last)
                for (int i = 0; i < pad; i++) fputc(' ', o);
        }
        if (r == 0) fputs(out_color(OUT_RESET), o);
        fputc('\n', o);
    }
    free(w);
}

void out_table_free(struct out_table *t)
{
    if (!t) return;
    for (int i = 0; i < t->nrows * t->ncols; i++) free(t->cells[i]);
    free(t->cells);
    free(t->roles);
    free(t->align);
    free(t);
}

/* -------------------------------------------------------------------- JSON */

void out_json(struct json_t *obj)
{
    if (!obj) return;
    char *s = json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
    if (s) {
        fputs(s, out_stream());
        fputc('\n', out_stream());
        free(s);
    }
    json_decref(obj);
}

/* A number, or null when the value is unknown (negative) or not finite. */
static json_t *num_or_null(double v, int known)
{
    if (!known || v != v || v > 1e308 || v < -1e308) return json_null();
    return json_real(v);
}

json_t *out_result_json(const lab_result *r)
{
    json_t *o = json_object();
    int ran = r->ran != 0;
    json_object_set_new(o, "algo", json_string(r->algo));
    json_object_set_new(o, "variant", json_string(r->variant));
    json_object_set_new(o, "backend", json_string(lab_backend_name(r->backend)));
    json_object_set_new(o, "n", json_integer(r->n));
    json_object_set_new(o, "dtype", json_string(lab_dtype_name(r->dtype)));
    json_object_set_new(o, "block", json_integer(r->block));
    json_object_set_new(o, "grid", json_integer(r->grid));
    if (r->block_y > 0) json_object_set_new(o, "block_y", json_integer(r->block_y));
    if (r->grid_y > 0) json_object_set_new(o, "grid_y", json_integer(r->grid_y));
    json_object_set_new(o, "ran", json_boolean(ran));
    json_object_set_new(o, "ms", num_or_null(r->ms, ran));
    json_object_set_new(o, "ms_min", num_or_null(r->ms_min, ran));
    json_object_set_new(o, "ms_max", num_or_null(r->ms_max, ran));
    json_object_set_new(o, "gbps", num_or_null(r->gbps, ran && r->gbps > 0));
    json_object_set_new(o, "pct_peak", num_or_null(r->pct_peak, ran && r->pct_peak >= 0));
    json_object_set_new(o, "speedup", num_or_null(r->speedup, ran && r->speedup > 0));
    json_object_set_new(o, "result", ran && r->result[0] ? json_string(r->result) : json_null());
    json_object_set_new(o, "correct",
                        !ran || r->correct < 0 ? json_null() : json_boolean(r->correct != 0));
    json_object_set_new(o, "rel_error", num_or_null(r->rel_error, ran && r->rel_error >= 0));
    json_object_set_new(o, "gflops", num_or_null(r->gflops, ran && r->gflops > 0));
    json_object_set_new(o, "repeats", json_integer(ran ? r->repeats : 0));
    json_object_set_new(o, "note", json_string(r->note));
    return o;
}

void out_json_result(const lab_result *r)
{
    out_json(out_result_json(r));
}
