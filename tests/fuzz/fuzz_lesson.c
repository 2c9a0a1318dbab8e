/* fuzz_lesson.c - the lesson reader and renderer on any bytes: the text is
 * cleaned as a file's would be (line ends, control characters, NUL bytes),
 * parsed as a Markdown lesson and as a plain lecture script, and every step
 * of what parses is rendered, with and without colour, into a stream that
 * is thrown away. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repl/lessons/lesson.h"
#include "repl/out.h"

static void render_all(const struct lesson *l)
{
    for (int i = 0; i < l->nsteps; i++) {
        lesson_render_step(NULL, l, i, 30 + i % 70, i % 9);
        for (int q = 0; q < l->steps[i].nquestions; q++) {
            lesson_check_answer(&l->steps[i].questions[q], l->steps[i].title);
            lesson_check_answer(&l->steps[i].questions[q], l->steps[i].questions[q].text);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (!sink) sink = fopen("/dev/null", "w");
    out_set_streams(sink, sink);
    char err[1024];
    for (int kind = 0; kind < 2; kind++) {
        char *text = lesson_text_clean((const char *)data, size, "fuzz.md", err, sizeof err);
        if (!text) return 0; /* a NUL byte: refused with its line */
        struct lesson *l = kind == 0 ? lesson_parse("fuzz.md", text, err, sizeof err)
                                     : lesson_parse_script("fuzz.gl", text, err, sizeof err);
        if (!l) continue;
        out_set_color(0);
        render_all(l);
        out_set_color(1);
        render_all(l);
        lesson_free(l);
    }
    return 0;
}
