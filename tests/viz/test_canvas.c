/* test_canvas.c - the canvas, UTF-8, styles, and the text backend. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "canvas.h"
#include "term.h"

static char *row(const canvas *c, int y)
{
    static char buf[1024];
    canvas_row_text(c, y, buf, sizeof buf);
    return buf;
}

static void utf8_round_trip(void **state)
{
    (void)state;
    const char *s = "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"; /* a é € 😀 */
    uint32_t want[] = {'a', 0xe9, 0x20ac, 0x1f600, 0};
    const char *p = s;
    for (int i = 0; i < 5; i++) assert_int_equal(viz_utf8_next(&p), want[i]);
    char out[5];
    assert_int_equal(viz_utf8_encode(0x20ac, out), 3);
    assert_memory_equal(out, "\xe2\x82\xac", 3);
    assert_int_equal(viz_utf8_encode(0x1f600, out), 4);
    assert_int_equal(viz_utf8_encode('x', out), 1);
}

static void utf8_invalid_bytes(void **state)
{
    (void)state;
    const char *bad[] = {"\xff", "\xc0\xaf", "\xed\xa0\x80", "\xe2\x82", "\x80"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *p = bad[i];
        assert_int_equal(viz_utf8_next(&p), 0xfffd);
        assert_true(p > bad[i]); /* always moves on */
    }
}

static void widths(void **state)
{
    (void)state;
    assert_int_equal(viz_cp_width('a'), 1);
    assert_int_equal(viz_cp_width(0xe9), 1);
    assert_int_equal(viz_cp_width(0x2500), 1);  /* ─ */
    assert_int_equal(viz_cp_width(0x4e2d), 2);  /* 中 */
    assert_int_equal(viz_cp_width(0x1f600), 2);
    assert_int_equal(viz_cp_width(0x0301), 0);  /* combining acute */
    assert_int_equal(viz_text_width("ab\xe4\xb8\xad"), 4);
}

static void put_and_clip(void **state)
{
    (void)state;
    canvas *c = canvas_new(10, 3);
    assert_non_null(c);
    int end = canvas_text(c, 8, 0, "abcd", VIZ_ROLE_TEXT, 0);
    assert_int_equal(end, 12); /* the width it would have taken */
    assert_string_equal(row(c, 0), "        ab");
    canvas_text(c, -2, 1, "wxyz", VIZ_ROLE_TEXT, 0);
    assert_string_equal(row(c, 1), "yz");
    canvas_text(c, 0, 5, "nowhere", VIZ_ROLE_TEXT, 0); /* below: dropped */
    viz_rect old = canvas_set_clip(c, viz_rect_make(2, 2, 3, 1));
    assert_int_equal(old.w, 10);
    canvas_text(c, 0, 2, "0123456789", VIZ_ROLE_ACTIVE, VIZ_BOLD);
    assert_string_equal(row(c, 2), "  234");
    assert_int_equal(canvas_at(c, 2, 2)->role, VIZ_ROLE_ACTIVE);
    assert_int_equal(canvas_at(c, 2, 2)->attr, VIZ_BOLD);
    assert_int_equal(canvas_at(c, 5, 2)->role, VIZ_ROLE_TEXT);
    assert_null(canvas_at(c, 10, 0));
    assert_null(canvas_at(c, -1, 0));
    canvas_free(c);
}

static void wide_cells(void **state)
{
    (void)state;
    canvas *c = canvas_new(6, 1);
    canvas_put(c, 2, 0, 0x4e2d, VIZ_ROLE_TEXT, 0);
    assert_int_equal(canvas_at(c, 2, 0)->cp, 0x4e2d);
    assert_int_equal(canvas_at(c, 3, 0)->cp, VIZ_CONT);
    assert_string_equal(row(c, 0), "  \xe4\xb8\xad");
    /* writing over its second half blanks the first */
    canvas_put(c, 3, 0, 'x', VIZ_ROLE_TEXT, 0);
    assert_int_equal(canvas_at(c, 2, 0)->cp, ' ');
    assert_string_equal(row(c, 0), "   x");
    /* a wide glyph that does not fit at the edge becomes a blank */
    canvas_put(c, 5, 0, 0x4e2d, VIZ_ROLE_TEXT, 0);
    assert_int_equal(canvas_at(c, 5, 0)->cp, ' ');
    /* combining marks are not given a cell */
    canvas_clear(c);
    canvas_text(c, 0, 0, "e\xcc\x81x", VIZ_ROLE_TEXT, 0);
    assert_string_equal(row(c, 0), "ex");
    /* control characters show as the replacement glyph */
    canvas_put(c, 0, 0, 0x07, VIZ_ROLE_TEXT, 0);
    assert_int_equal(canvas_at(c, 0, 0)->cp, 0xfffd);
    canvas_free(c);
}

static void textn_and_wrap(void **state)
{
    (void)state;
    canvas *c = canvas_new(20, 4);
    canvas_textn(c, 0, 0, 5, "abcdefgh", VIZ_ROLE_TEXT, 0);
    assert_string_equal(row(c, 0), "abcd\xe2\x80\xa6");
    canvas_textn(c, 0, 1, 8, "short", VIZ_ROLE_TEXT, 0);
    assert_string_equal(row(c, 1), "short");
    assert_int_equal(canvas_wrap(NULL, viz_rect_make(0, 0, 10, 9), "the quick brown fox", 0, 0), 2);
    assert_int_equal(canvas_wrap(NULL, viz_rect_make(0, 0, 4, 9), "abcdefghij", 0, 0), 3);
    canvas_clear(c);
    int lines = canvas_wrap(c, viz_rect_make(1, 1, 10, 2), "one two three four five", VIZ_ROLE_TEXT, 0);
    assert_int_equal(lines, 3); /* needs three, two are drawn */
    assert_string_equal(row(c, 1), " one two");
    assert_string_equal(row(c, 2), " three four");
    assert_string_equal(row(c, 3), "");
    canvas_free(c);
}

static void fill_box_restyle(void **state)
{
    (void)state;
    canvas *c = canvas_new(8, 4);
    canvas_box(c, viz_rect_make(0, 0, 8, 4), "hi", VIZ_ROLE_DIM, 0);
    assert_string_equal(row(c, 0), "\xe2\x94\x8c\xe2\x94\x80 hi \xe2\x94\x80\xe2\x94\x90");
    assert_string_equal(row(c, 3), "\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x94\x98");
    canvas_fill(c, viz_rect_make(1, 1, 6, 2), '#', VIZ_ROLE_OK, 0);
    assert_string_equal(row(c, 1), "\xe2\x94\x82######\xe2\x94\x82");
    canvas_restyle(c, viz_rect_make(1, 1, 2, 1), VIZ_ROLE_WRONG, VIZ_UNDERLINE);
    assert_int_equal(canvas_at(c, 2, 1)->role, VIZ_ROLE_WRONG);
    assert_int_equal(canvas_at(c, 2, 1)->cp, '#');
    assert_int_equal(canvas_at(c, 3, 1)->role, VIZ_ROLE_OK);
    assert_int_equal(canvas_resize(c, 3, 2), 0);
    assert_int_equal(c->w, 3);
    assert_string_equal(row(c, 0), "");
    canvas_free(c);
}

static int same(viz_style a, viz_style b)
{
    return a.fg == b.fg && a.bg == b.bg && a.attr == b.attr;
}

static void roles_and_monochrome(void **state)
{
    (void)state;
    /* The roles one picture must tell apart never look alike, in either scheme. */
    int key[] = {VIZ_ROLE_TEXT, VIZ_ROLE_ACTIVE, VIZ_ROLE_IDLE, VIZ_ROLE_SOURCE, VIZ_ROLE_CONFLICT,
                 VIZ_ROLE_WRONG, VIZ_ROLE_SWAPPED, VIZ_ROLE_HIGHLIGHT};
    int n = sizeof key / sizeof key[0];
    for (int colour = 0; colour <= 1; colour++)
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                assert_false(same(viz_role_style(key[i], colour), viz_role_style(key[j], colour)));
    /* monochrome: no colours at all, only attributes */
    for (int r = 0; r < VIZ_ROLE_COUNT; r++) {
        viz_style s = viz_role_style(r, 0);
        assert_int_equal(s.fg, -1);
        assert_int_equal(s.bg, -1);
        viz_style k = viz_role_style(r, 1);
        assert_true(k.fg >= -1 && k.fg <= 7);
        assert_true(k.bg >= -1 && k.bg <= 7);
    }
    assert_true(same(viz_role_style(999, 1), viz_role_style(VIZ_ROLE_TEXT, 1)));
    viz_cell cell = {'x', VIZ_ROLE_IDLE, VIZ_UNDERLINE};
    assert_int_equal(viz_cell_style(&cell, 0).attr, VIZ_DIMMED | VIZ_UNDERLINE);
    /* palettes and heat levels: distinct glyphs, clamped levels */
    for (int i = 0; i < VIZ_NBLOCK_ROLES; i++)
        for (int j = i + 1; j < VIZ_NBLOCK_ROLES; j++) assert_int_not_equal(viz_block_glyph(i), viz_block_glyph(j));
    assert_int_equal(viz_block_role(9), VIZ_ROLE_BLOCK1);
    assert_int_equal(viz_heat_role(-3), VIZ_ROLE_HEAT0);
    assert_int_equal(viz_heat_role(99), VIZ_ROLE_HEAT7);
    assert_int_equal(viz_heat_glyph(0), ' ');
}

static void colour_wanted(void **state)
{
    (void)state;
    setenv("TERM", "xterm-256color", 1);
    unsetenv("NO_COLOR");
    assert_int_equal(viz_colour_wanted(0), 1);
    assert_int_equal(viz_colour_wanted(1), 0); /* --no-color */
    setenv("NO_COLOR", "1", 1);
    assert_int_equal(viz_colour_wanted(0), 0);
    setenv("NO_COLOR", "", 1); /* empty means unset (no-color.org) */
    assert_int_equal(viz_colour_wanted(0), 1);
    setenv("TERM", "dumb", 1);
    assert_int_equal(viz_colour_wanted(0), 0);
    unsetenv("TERM");
    assert_int_equal(viz_colour_wanted(0), 0);
    setenv("TERM", "xterm-256color", 1);
}

static void text_backend(void **state)
{
    (void)state;
    canvas *c = canvas_new(8, 3);
    canvas_text(c, 0, 0, "ab", VIZ_ROLE_ACTIVE, 0);
    canvas_text(c, 3, 0, "\xe4\xb8\xad\xe2\x97\x84", VIZ_ROLE_TEXT, 0); /* 中◄ */
    viz_text_opts plain = {VIZ_TEXT_PLAIN, 0, 0};
    size_t len;
    char *s = viz_text_render(c, &plain, &len);
    assert_string_equal(s, "ab \xe4\xb8\xad\xe2\x97\x84\n\n\n");
    assert_int_equal(len, strlen(s));
    free(s);
    plain.trim_bottom = 1;
    s = viz_text_render(c, &plain, NULL);
    assert_string_equal(s, "ab \xe4\xb8\xad\xe2\x97\x84\n");
    free(s);
    viz_text_opts ascii = {VIZ_TEXT_PLAIN, 1, 1};
    s = viz_text_render(c, &ascii, NULL);
    assert_string_equal(s, "ab ?<\n");
    free(s);
    viz_text_opts colour = {VIZ_TEXT_COLOUR, 0, 1};
    s = viz_text_render(c, &colour, NULL);
    /* the blank after "ab" looks the same in either style: no escape for it */
    assert_string_equal(s, "\x1b[0;1;32mab \x1b[0m\xe4\xb8\xad\xe2\x97\x84\n");
    free(s);
    viz_text_opts mono = {VIZ_TEXT_MONO, 0, 1};
    s = viz_text_render(c, &mono, NULL);
    assert_string_equal(s, "\x1b[0;1;7mab\x1b[0m \xe4\xb8\xad\xe2\x97\x84\n"); /* reverse shows blanks */
    free(s);
    /* a styled blank that shows (reverse) is kept at the end of a line */
    canvas_clear(c);
    canvas_fill(c, viz_rect_make(0, 1, 2, 1), ' ', VIZ_ROLE_HIGHLIGHT, 0);
    s = viz_text_render(c, &mono, NULL);
    assert_string_equal(s, "\n\x1b[0;2;7m  \x1b[0m\n");
    free(s);
    s = viz_text_render(c, &plain, NULL);
    assert_string_equal(s, "");
    free(s);
    canvas_free(c);
}

static void ascii_glyphs(void **state)
{
    (void)state;
    assert_int_equal(viz_ascii_glyph(0x2500), '-');
    assert_int_equal(viz_ascii_glyph(0x2502), '|');
    assert_int_equal(viz_ascii_glyph(0x2518), '+');
    assert_int_equal(viz_ascii_glyph(0x25b2), '^');
    assert_int_equal(viz_ascii_glyph(0x2713), '+');
    assert_int_equal(viz_ascii_glyph('q'), 'q');
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(utf8_round_trip),  cmocka_unit_test(utf8_invalid_bytes),
        cmocka_unit_test(widths),           cmocka_unit_test(put_and_clip),
        cmocka_unit_test(wide_cells),       cmocka_unit_test(textn_and_wrap),
        cmocka_unit_test(fill_box_restyle), cmocka_unit_test(roles_and_monochrome),
        cmocka_unit_test(colour_wanted),    cmocka_unit_test(text_backend),
        cmocka_unit_test(ascii_glyphs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
