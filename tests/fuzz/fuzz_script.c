/* fuzz_script.c - the script reader on any bytes: the lines of a stream
 * (LF, CRLF or CR ends, NUL bytes, over-long lines, a missing last end) as
 * input_line gives them to the loop, each line split into commands by the
 * tokenizer, as `gpulab FILE`, `source FILE` and a pipe run them. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repl/input.h"
#include "repl/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fmemopen((void *)data, size, "rb");
    if (!f) return 0;
    struct input in = {.f = f};
    size_t seen = 0;
    for (;;) {
        enum input_status st = input_line(&in);
        if (st == INPUT_EOF || st == INPUT_ERROR) break;
        if (st == INPUT_NUL) {
            if (in.col < 1) abort();
            break; /* the loop stops at a NUL */
        }
        if (st == INPUT_LONG) continue;
        if (in.len > INPUT_MAX_LINE || strlen(in.buf) != in.len) abort();
        seen += in.len;
        if (seen > size) abort(); /* no line holds bytes the input did not have */
        char err[256];
        int pos;
        struct tok_line t;
        if (tok_split(in.buf, &t, err, sizeof err, &pos) == 0) tok_line_free(&t);
    }
    input_free(&in);
    fclose(f);
    return 0;
}
