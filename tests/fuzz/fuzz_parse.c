/* fuzz_parse.c - the command line parser and the size parser on any bytes:
 * tok_split on the whole input as one line, then parse_size, parse_int,
 * parse_dims, parse_double, parse_bool and parse_lookup on it and on every
 * word it split into. Nothing may crash, read or write out of bounds, or
 * return success without setting its output. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/lab.h" /* lab_fmt_bytes */
#include "repl/parse.h"

static void word(const char *w)
{
    char err[256];
    long long v = -1, x = -1, y = -1;
    double d;
    int b;
    if (parse_size(w, 1, 1LL << 50, &v, err, sizeof err) == 0 && (v < 1 || v > (1LL << 50))) abort();
    if (parse_int(w, -1000, 1000, &v, err, sizeof err) == 0 && (v < -1000 || v > 1000)) abort();
    if (parse_dims(w, 1, 2147483647LL, &x, &y, err, sizeof err) == 0 && (x < 1 || y < 0)) abort();
    parse_double(w, &d, err, sizeof err);
    parse_bool(w, &b, err, sizeof err);
    static const char *const names[] = {"reduce", "reduce2", "bitonic", "histogram", "run", "r"};
    int amb[4], namb = 0;
    int k = parse_lookup(w, names, 6, amb, 4, &namb);
    if (k >= 6 || k < -2) abort();
    parse_edit_distance(w, "histogram");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *line = malloc(size + 1);
    if (!line) return 0;
    memcpy(line, data, size);
    line[size] = 0; /* a NUL inside ends the C string early, as it would in the program */
    char err[256];
    int pos = -1;
    struct tok_line t;
    if (tok_split(line, &t, err, sizeof err, &pos) == 0) {
        for (int i = 0; i < t.ncmds; i++) {
            const struct tok_cmd *c = &t.cmds[i];
            if (c->argc < 1 || c->argv[c->argc] != NULL) abort();
            for (int j = 0; j < c->argc; j++) {
                /* where a word came from lies inside the line */
                if (c->pos[j] < 0 || c->len[j] < 0 || (size_t)(c->pos[j] + c->len[j]) > strlen(line)) abort();
                word(c->argv[j]);
            }
        }
        tok_line_free(&t);
    } else if (pos < -1 || (pos >= 0 && (size_t)pos > strlen(line))) {
        abort();
    }
    word(line);
    char buf[64];
    long long n;
    if (parse_size(line, 0, 1LL << 62, &n, err, sizeof err) == 0) {
        parse_fmt_size(n, buf, sizeof buf);
        lab_fmt_bytes((double)n, buf, sizeof buf);
    }
    free(line);
    return 0;
}
