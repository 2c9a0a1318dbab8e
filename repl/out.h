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

#include "kernels/lab.h"

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

/* ---- control characters made visible
 *
 * Text that comes from files or from the user (lessons, scripts, typed
 * words echoed in errors, paths, table cells) is shown through these, so an
 * escape sequence in it cannot clear the screen, set the clipboard (OSC 52)
 * or retitle the terminal. C0 controls and DEL are written in caret
 * notation (ESC is ^[, DEL ^?); the C1 controls U+0080..U+009F as the
 * ESC sequence they stand for (U+009B, CSI, is ^[[). Characters in keep
 * (e.g. "\n\t") stay as they are. */

/* Bytes of the control character at s[0..n): 1 for a C0 control or DEL,
 * 2 for a C1 control, 0 when s does not start with one. */
int out_is_control(const char *s, size_t n);
/* A malloc'd copy of s[0..n) with controls made visible (NULL: out of memory). */
char *out_escape(const char *s, size_t n, const char *keep);
/* s made visible for a printf argument: a pointer into one of a few
 * rotating static buffers (a result stays valid for the next 7 calls), cut
 * at 4 KiB with "..." (NULL: "(null)"). */
const char *out_vis(const char *s);

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

/* ---- the terminal's size, and text that fits it */

/* Columns to fit output into: the terminal's width when out's stream is a
 * terminal, else $COLUMNS, else 0 (unknown: a pipe or a file, where nothing
 * is wrapped or left out). out_set_width(n) fixes it (tests: 80); -1 undoes. */
int out_width(void);
int out_height(void);            /* rows, the same way; 0 unknown */
void out_set_width(int cols);
/* Display columns of s[0..len): UTF-8 characters, colour escapes left out. */
int out_text_width(const char *s, size_t len);
/* Bytes of the characters of s that fit in cols display columns. */
size_t out_fit_len(const char *s, int cols);
/* Bytes of the next unit a line may not break inside, at s (not a space):
 * a word up to the next space or newline, or, in Chinese text, one character
 * with the closing punctuation that follows it. Bytes 1 to 7 are a caller's
 * style markers (repl/lessons/lesson_render.c): the even ones close a style and stay
 * with the character before them. At least 1. */
size_t out_unit_len(const char *s, size_t len);
/* s padded with spaces to width display columns (a label in a column of
 * labels: "%-10s" counts bytes, and a translated label may not be ASCII).
 * A pointer into one of a few rotating static buffers, as out_vis. */
const char *out_pad(const char *s, int width);
/* Print text wrapped at word boundaries to width columns (0: as it is),
 * each line of it starting at `indent` spaces, its continuation lines at
 * `hang`. A newline is added at the end. */
void out_wrap_to(FILE *f, const char *text, int width, int indent, int hang);
void out_wrapped(const char *text, int indent, int hang); /* out_stream, out_width */
void out_wrapf(int indent, int hang, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- the pager: output longer than the screen goes through $PAGER (less -R
 * when unset; "" or cat: none) at an interactive terminal, as git does; never
 * in pipes and scripts. out_page_begin() starts collecting a command's
 * output (1 when it does), out_page_end() shows it. `set pager off` turns it off. */
void out_set_pager(int on);
int out_pager_enabled(void);
int out_page_begin(void);
void out_page_end(void);

/* ---- tables: columns aligned, a header row, optional footnotes.
 * A table never wraps: at out_width() columns it leaves out columns in the
 * order given by out_table_drop_order (then cuts shrinkable ones with "…")
 * and says below it which ones it left out. */

struct out_table;
/* align: one char per column, 'l' or 'r'. */
struct out_table *out_table_new(int ncols, const char *const *headers, const char *align);
/* Add a row of ncols cells (copied; NULL is printed as "-"). */
void out_table_row(struct out_table *t, const char *const *cells);
/* Colour of the last added row's cell col (e.g. OUT_ERROR for a wrong result). */
void out_table_color(struct out_table *t, int col, enum out_role r);
/* The columns that may be left out when the table is too wide, by header
 * text, first to go first; NULL-terminated. Headers not named stay. */
void out_table_drop_order(struct out_table *t, const char *const *heads);
/* Column col may be cut down to min display columns (its end shown as "…"). */
void out_table_shrink(struct out_table *t, int col, int min);
void out_table_print(struct out_table *t);
void out_table_free(struct out_table *t);

/* ---- JSON lines */

/* A JSON string of s even when s is not UTF-8 (a path from another
 * locale): bytes that are not characters become the text \xNN, so nothing
 * is dropped. NULL s: null. */
struct json_t *out_json_text(const char *s);

/* Print obj compactly on one line and drop the reference (steals it). */
void out_json(struct json_t *obj);
/* One row of run/compare as a JSON object: the keys documented in
 * docs/commands.md (algo, variant, backend, n, dtype, ... ran, note). */
struct json_t *out_result_json(const lab_result *r);
void out_json_result(const lab_result *r);

#endif
