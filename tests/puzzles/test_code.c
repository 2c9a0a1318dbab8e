/* The code pane (viz/render_code.c): golden renders of a puzzle solution at
 * 80x24 and 120x40, in colour and in monochrome, with a highlighted and a
 * marked line; the highlighted line kept in view in a long file; finding a
 * kernel's definition (with its comment and template line) in gpulab's own
 * source, and not finding calls or declarations.
 * GPULAB_UPDATE_GOLDEN=1 rewrites the golden files, to be read by eye. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "viz/canvas.h"
#include "tests/common/golden.h"
#include "viz/render_code.h"
#include "viz/term.h"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *b = malloc(1 << 20);
    *len = fread(b, 1, (1 << 20) - 1, f);
    b[*len] = 0;
    fclose(f);
    return b;
}

static void golden_render(int w, int h, viz_text_mode mode, const char *name)
{
    size_t len;
    char *src = slurp(SOURCE_DIR "/lessons/en/puzzles/solutions/15-matmul-tiled.cu", &len);
    assert_non_null(src);
    canvas *c = canvas_new(w, h);
    int marks[] = {15};
    viz_code code = {.text = src, .len = len, .first_line = 1, .highlight = 17, .marks = marks, .nmarks = 1,
                     .title = "15-matmul-tiled.cu"};
    int drawn = viz_render_code(c, canvas_bounds(c), &code);
    assert_true(drawn > 0 && drawn <= h - 2);
    viz_text_opts o = {.mode = mode};
    size_t n;
    char *text = viz_text_render(c, &o, &n);
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/puzzles/golden/%s", SOURCE_DIR, name);
    golden_check(path, text, n);
    if (mode == VIZ_TEXT_PLAIN) { /* readable without colour: the marks are glyphs */
        assert_non_null(strstr(text, "\xe2\x96\xb6 17 \xe2\x94\x82")); /* ▶ 17 │ */
        assert_non_null(strstr(text, "\xe2\x80\xa2 15 \xe2\x94\x82")); /* • 15 │ */
    }
    free(text);
    canvas_free(c);
    free(src);
}

static void render_80x24_colour(void **s) { (void)s; golden_render(80, 24, VIZ_TEXT_COLOUR, "code-80x24-colour.txt"); }
static void render_80x24_mono(void **s) { (void)s; golden_render(80, 24, VIZ_TEXT_MONO, "code-80x24-mono.txt"); }
static void render_120x40_colour(void **s) { (void)s; golden_render(120, 40, VIZ_TEXT_COLOUR, "code-120x40-colour.txt"); }
static void render_120x40_mono(void **s) { (void)s; golden_render(120, 40, VIZ_TEXT_MONO, "code-120x40-mono.txt"); }
static void render_plain(void **s) { (void)s; golden_render(80, 24, VIZ_TEXT_PLAIN, "code-80x24-plain.txt"); }

/* In a file longer than the pane the highlighted line is in view. */
static void highlight_in_view(void **state)
{
    (void)state;
    char src[8192] = "";
    for (int i = 1; i <= 200; i++) {
        char l[32];
        snprintf(l, sizeof l, "int line%d;\n", i);
        strcat(src, l);
    }
    canvas *c = canvas_new(60, 12);
    viz_code code = {.text = src, .len = strlen(src), .first_line = 1, .highlight = 150};
    assert_int_equal(viz_render_code(c, canvas_bounds(c), &code), 12);
    viz_text_opts o = {.mode = VIZ_TEXT_PLAIN};
    char *text = viz_text_render(c, &o, NULL);
    assert_non_null(strstr(text, "150 \xe2\x94\x82 int line150;"));
    assert_non_null(strstr(text, "\xe2\x96\xb6 150"));
    assert_null(strstr(text, "  1 \xe2\x94\x82"));
    free(text);
    /* the end of the file: the last line is the pane's last */
    code.highlight = 200;
    canvas_clear(c);
    viz_render_code(c, canvas_bounds(c), &code);
    char row[256];
    canvas_row_text(c, 11, row, sizeof row);
    assert_non_null(strstr(row, "200 \xe2\x94\x82 int line200;"));
    canvas_free(c);
}

static void find_function(void **state)
{
    (void)state;
    size_t len;
    char *src = slurp(SOURCE_DIR "/kernels/reduce/reduce.cu", &len);
    assert_non_null(src);
    int from, to;
    assert_int_equal(viz_code_find_function(src, len, "reduce_sequential_k", &from, &to), 0);
    /* from: the kernel's comment; the range holds the signature and ends at a brace */
    int line = 1;
    const char *p = src, *start_from = NULL, *start_to = NULL;
    for (; *p; p++) {
        if (line == from && !start_from) start_from = p;
        if (line == to && !start_to) start_to = p;
        if (*p == '\n') line++;
    }
    assert_non_null(start_from);
    assert_true(strncmp(start_from, "/*", 2) == 0 || strncmp(start_from, "//", 2) == 0 ||
                strncmp(start_from, "template", 8) == 0);
    assert_true(start_to[0] == '}');
    const char *sig = strstr(src, "reduce_sequential_k(");
    int sig_line = 1;
    for (const char *q = src; q < sig; q++) sig_line += *q == '\n';
    assert_true(sig_line >= from && sig_line <= to);
    free(src);
    /* a call and a declaration are not the definition */
    const char *t = "void k(int);\nint main() { k(3); }\n// k(\nvoid k(int x)\n{\n    x++;\n}\n";
    assert_int_equal(viz_code_find_function(t, strlen(t), "k", &from, &to), 0);
    assert_int_equal(from, 3); /* with the comment above it */
    assert_int_equal(to, 7);
    assert_int_equal(viz_code_find_function(t, strlen(t), "nothere", &from, &to), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(render_80x24_colour), cmocka_unit_test(render_80x24_mono),
        cmocka_unit_test(render_120x40_colour), cmocka_unit_test(render_120x40_mono),
        cmocka_unit_test(render_plain), cmocka_unit_test(highlight_in_view),
        cmocka_unit_test(find_function),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
