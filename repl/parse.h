/* parse.h - pure parsing helpers of the REPL: the tokenizer, sizes as people
 * write them, numbers, on/off, and name lookup by unique prefix.
 *
 * Nothing here prints or touches the session: each function returns 0 on
 * success or -1 with a message in err (and sometimes a position), so unit
 * tests can call them directly.
 */
#ifndef GPULAB_PARSE_H
#define GPULAB_PARSE_H

#include <stddef.h>

/* ------------------------------------------------------------ tokenizer */

/* One command of a line: its words after quote removal, and where each word
 * came from in the line (byte offset and length, quotes included), so errors
 * can put a caret under the word. argv[argc] is NULL. */
struct tok_cmd {
    int argc;
    char **argv;
    int *pos, *len;
};

/* A line split at `;` into commands. Empty commands are dropped. */
struct tok_line {
    int ncmds;
    struct tok_cmd *cmds;
};

/* Split line into commands and words. Words are separated by blanks; 'single'
 * quotes keep everything literally; "double" quotes allow \" \\ \n \t; a
 * backslash outside quotes escapes the next character; `;` outside quotes
 * ends a command; `#` at the start of a word starts a comment that runs to
 * the end of the line. 0 ok; -1 with err and *errpos (offset of the bad
 * character, e.g. the opening quote of an unterminated string). */
int tok_split(const char *line, struct tok_line *out, char *err, size_t errlen, int *errpos);
void tok_line_free(struct tok_line *t);

/* ---------------------------------------------------------------- sizes */

/* The forms accepted by parse_size, for messages. */
/* (repl/cmd_set.c spells it out in the help of n, for xgettext's sake) */
#define PARSE_SIZE_FORMS "1000000, 1e6, 64Mi, 4k, 2^26, 1<<26 or 3*2^20"

/* A size as people write it:
 *   1000000   1_000_000   0x100000
 *   1e6   2.5e6          (the result must be a whole number)
 *   4k  2M  1G  1T        decimal suffixes: 10^3, 10^6, 10^9, 10^12 (K too)
 *   64Ki  64Mi  1Gi  1Ti  binary suffixes: 2^10, 2^20, 2^30, 2^40
 *   2^26   2**26   1<<26  powers and shifts
 *   3*2^20                products of the above
 * The value must lie in [min, max]; negatives, overflow and garbage are
 * refused with a message that names the accepted forms. */
int parse_size(const char *s, long long min, long long max, long long *out,
               char *err, size_t errlen);

/* A plain integer (decimal or 0x hex, sizes forms allowed) in [min, max]. */
int parse_int(const char *s, long long min, long long max, long long *out,
              char *err, size_t errlen);

/* A finite floating-point number (1.23, -4, 1e-3, inf refused). */
int parse_double(const char *s, double *out, char *err, size_t errlen);

/* on/off, also yes/no, true/false, 1/0. */
int parse_bool(const char *s, int *out, char *err, size_t errlen);

/* "auto" (case-insensitive). */
int parse_is_auto(const char *s);

/* Two numbers written AxB (e.g. 16x16) or one number (y = 0). */
int parse_dims(const char *s, long long min, long long max, long long *x, long long *y,
               char *err, size_t errlen);

/* ---------------------------------------------------------- name lookup */

/* Find word among names: an exact match first, then a unique prefix.
 * Returns the index, -1 when nothing matches, -2 when the prefix is
 * ambiguous (then *amb, when not NULL, gets up to namb indices of candidates
 * and *namb_out how many there are in all). */
int parse_lookup(const char *word, const char *const *names, int count,
                 int *amb, int namb, int *namb_out);

/* Levenshtein distance, for "did you mean" hints (capped at 100). */
int parse_edit_distance(const char *a, const char *b);

/* Milliseconds with about four significant digits: 0.0123, 1.234, 12.34,
 * 123.4 (the tables of run, compare and sweep). Byte counts: lab_fmt_bytes. */
void parse_fmt_ms(double ms, char *buf, size_t len);

/* Format a count compactly: 67108864 -> "64Mi", 1000000 -> "1000000",
 * 33177600 -> "33177600" (no 32400Ki). */
void parse_fmt_size(long long n, char *buf, size_t len);

#endif
