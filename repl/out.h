/* out.h - all output of the program goes through here.
 *
 * Normal output goes to out's stdout stream, errors and notes to its stderr
 * stream; tests swap both with out_set_streams() (e.g. open_memstream) to
 * capture what a command printed. Colours are decided once (out_set_color)
 * and are never written when off.
 */
#ifndef GPULAB_OUT_H
#define GPULAB_OUT_H

#include <stdarg.h>
#include <stdio.h>

#include "lab.h"

struct json_t; /* jansson's json_t */

/* Streams and colour. Defaults: stdout, stderr, no colour. */
void out_set_streams(FILE *out, FILE *err);
FILE *out_stream(void);
FILE *out_err_stream(void);
void out_set_color(int on);
int out_color_enabled(void);

/* Colour roles; out_color() gives the escape sequence, "" when colour is off. */
enum out_role {
    OUT_RESET = 0,
    OUT_BOLD,
    OUT_DIM,
    OUT_ERROR,   /* red */
    OUT_WARN,    /* yellow */
    OUT_GOOD,    /* green */
    OUT_ACCENT   /* cyan: names, headings */
};
const char *out_color(enum out_role r);

/* Plain output (stdout stream). */
void out_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void out_vprintf(const char *fmt, va_list ap);
void out_puts(const char *s);      /* no newline added */
void out_flush(void);

/* Notes and warnings (stderr stream): "note: ...", "warning: ...". */
void out_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void out_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A transient status line on a terminal ("running sequential on sim..."),
 * erased by out_progress_clear(); nothing at all when stderr is not a tty. */
void out_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void out_progress_clear(void);

/* Where an error happened, for out_error. */
struct out_loc {
    const char *script;  /* "line N of SCRIPT" when script and line are set */
    int line;
    const char *text;    /* the input line, or NULL for no caret */
    int text_len;        /* bytes of text to show; 0: up to the end of the line */
    int pos, len;        /* caret under text[pos .. pos+len) */
};

/* "error: [line N of FILE: ]message", then the line and a caret ^~~~ under
 * the offending word. loc may be NULL. */
void out_error(const struct out_loc *loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void out_verror(const struct out_loc *loc, const char *fmt, va_list ap);

/* ---- tables: columns aligned, a header row, optional footnotes */

struct out_table;
/* align: one char per column, 'l' or 'r'. */
struct out_table *out_table_new(int ncols, const char *const *headers, const char *align);
/* Add a row of ncols cells (copied; NULL is printed as "-"). */
void out_table_row(struct out_table *t, const char *const *cells);
/* Colour of the last added row's cell col (e.g. OUT_ERROR for a wrong result). */
void out_table_color(struct out_table *t, int col, enum out_role r);
void out_table_print(struct out_table *t);
void out_table_free(struct out_table *t);

/* ---- JSON lines */

/* Print obj compactly on one line and drop the reference (steals it). */
void out_json(struct json_t *obj);
/* One row of run/compare as a JSON object: the keys documented in
 * docs/commands.md (algo, variant, backend, n, dtype, ... ran, note). */
struct json_t *out_result_json(const lab_result *r);
void out_json_result(const lab_result *r);

#endif
