/* test_canvas.c - the canvas, UTF-8, styles, two-pixel cells, the text
 * backend, colour pairs and the picture export of two-pixel cells. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cairo.h>
#include <cmocka.h>

#include "viz/canvas.h"
#include "viz/export.h"
#include "viz/term.h"

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
    viz_cell cell = {'x', VIZ_ROLE_IDLE, VIZ_UNDERLINE, VIZ_BG_NONE};
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

/* The roles a two-pixel cell holds, and that they are what was put. */
static void assert_halves(const canvas *c, int x, int y, int top, int bottom)
{
    int t, b;
    assert_true(viz_cell_halves(canvas_at(c, x, y), &t, &b));
    assert_int_equal(t, top);
    assert_int_equal(b, bottom);
}

static void half_cells(void **state)
{
    (void)state;
    canvas *c = canvas_new(10, 2);
    /* two colours: ▀ with the top as ink and the bottom as background */
    viz_put_halves(c, 0, 0, VIZ_ROLE_HEAT3, VIZ_ROLE_HEAT2);
    const viz_cell *p = canvas_at(c, 0, 0);
    assert_int_equal(p->cp, 0x2580);
    assert_int_equal(p->role, VIZ_ROLE_HEAT3);
    assert_int_equal(p->bg, VIZ_ROLE_HEAT2);
    assert_true(p->attr & VIZ_HALVES);
    assert_halves(c, 0, 0, VIZ_ROLE_HEAT3, VIZ_ROLE_HEAT2);
    /* equal halves: a full block; both none: a blank */
    viz_put_halves(c, 1, 0, VIZ_ROLE_HEAT5, VIZ_ROLE_HEAT5);
    assert_int_equal(canvas_at(c, 1, 0)->cp, 0x2588);
    assert_int_equal(canvas_at(c, 1, 0)->bg, VIZ_BG_NONE);
    assert_halves(c, 1, 0, VIZ_ROLE_HEAT5, VIZ_ROLE_HEAT5);
    viz_put_halves(c, 2, 0, VIZ_BG_NONE, VIZ_BG_NONE);
    assert_int_equal(canvas_at(c, 2, 0)->cp, ' ');
    assert_halves(c, 2, 0, VIZ_BG_NONE, VIZ_BG_NONE);
    /* one half none: the other is the ink of ▄ or ▀ on the terminal's background */
    viz_put_halves(c, 3, 0, VIZ_BG_NONE, VIZ_ROLE_HEAT6);
    assert_int_equal(canvas_at(c, 3, 0)->cp, 0x2584);
    assert_int_equal(canvas_at(c, 3, 0)->role, VIZ_ROLE_HEAT6);
    assert_int_equal(canvas_at(c, 3, 0)->bg, VIZ_BG_NONE);
    viz_put_halves(c, 4, 0, VIZ_ROLE_VALUE, VIZ_BG_NONE);
    assert_int_equal(canvas_at(c, 4, 0)->cp, 0x2580);
    assert_halves(c, 4, 0, VIZ_ROLE_VALUE, VIZ_BG_NONE);
    /* only ink can be bright: a bold bottom over a plain top swaps to ▄ */
    viz_put_halves(c, 5, 0, VIZ_ROLE_HEAT6, VIZ_ROLE_HEAT7);
    assert_int_equal(canvas_at(c, 5, 0)->cp, 0x2584);
    assert_int_equal(canvas_at(c, 5, 0)->role, VIZ_ROLE_HEAT7);
    assert_int_equal(canvas_at(c, 5, 0)->bg, VIZ_ROLE_HEAT6);
    assert_halves(c, 5, 0, VIZ_ROLE_HEAT6, VIZ_ROLE_HEAT7);
    /* the terminal's default ink colour cannot be a background */
    viz_put_halves(c, 6, 0, VIZ_ROLE_HEAT3, VIZ_ROLE_VALUE);
    assert_int_equal(canvas_at(c, 6, 0)->cp, 0x2584);
    assert_int_equal(canvas_at(c, 6, 0)->role, VIZ_ROLE_VALUE);
    assert_halves(c, 6, 0, VIZ_ROLE_HEAT3, VIZ_ROLE_VALUE);
    viz_put_halves(c, 7, 0, VIZ_ROLE_VALUE, VIZ_ROLE_HEADING);
    assert_int_equal(canvas_at(c, 7, 0)->cp, 0x2588);
    /* out-of-range roles are none; the clip holds */
    viz_put_halves(c, 8, 0, 999, -4);
    assert_int_equal(canvas_at(c, 8, 0)->cp, ' ');
    canvas_set_clip(c, viz_rect_make(0, 0, 9, 1));
    viz_put_halves(c, 9, 0, VIZ_ROLE_HEAT3, VIZ_ROLE_HEAT2);
    viz_put_halves(c, 0, 1, VIZ_ROLE_HEAT3, VIZ_ROLE_HEAT2);
    assert_int_equal(canvas_at(c, 9, 0)->cp, ' ');
    assert_false(canvas_at(c, 9, 0)->attr & VIZ_HALVES);
    assert_int_equal(canvas_at(c, 0, 1)->cp, ' ');
    canvas_set_clip(c, canvas_bounds(c));
    /* ordinary drawing over a two-pixel cell leaves one colour */
    canvas_put(c, 0, 0, 'x', VIZ_ROLE_OK, VIZ_HALVES | VIZ_BOLD);
    assert_int_equal(canvas_at(c, 0, 0)->bg, VIZ_BG_NONE);
    assert_int_equal(canvas_at(c, 0, 0)->attr, VIZ_BOLD);
    int t, b;
    assert_false(viz_cell_halves(canvas_at(c, 0, 0), &t, &b));
    canvas_restyle(c, viz_rect_make(5, 0, 1, 1), VIZ_ROLE_HIGHLIGHT, 0);
    assert_int_equal(canvas_at(c, 5, 0)->bg, VIZ_BG_NONE);
    assert_false(canvas_at(c, 5, 0)->attr & VIZ_HALVES);
    /* styles: the background role gives the colour, in colour only */
    viz_put_halves(c, 0, 1, VIZ_ROLE_HEAT3, VIZ_ROLE_HEAT2);
    viz_style s = viz_cell_style(canvas_at(c, 0, 1), 1);
    assert_int_equal(s.fg, 2);  /* green */
    assert_int_equal(s.bg, 6);  /* cyan */
    assert_int_equal(s.attr, 0); /* VIZ_HALVES is no terminal attribute */
    s = viz_cell_style(canvas_at(c, 0, 1), 0);
    assert_int_equal(s.bg, -1);
    canvas_free(c);
}

/* Without colour a two-pixel cell is one glyph chosen from the two halves'
 * ink: a half block where exactly one half is solid, else the mean shade. */
static void mono_stand_ins(void **state)
{
    (void)state;
    static const struct {
        int top, bottom;
        uint32_t cp;
        int role;
    } want[] = {
        {VIZ_ROLE_VALUE, VIZ_BG_NONE, 0x2580, VIZ_ROLE_VALUE},
        {VIZ_BG_NONE, VIZ_ROLE_VALUE, 0x2584, VIZ_ROLE_VALUE},
        {VIZ_ROLE_VALUE, VIZ_ROLE_HEAT7, 0x2580, VIZ_ROLE_VALUE},
        {VIZ_ROLE_HEAT5, VIZ_ROLE_VALUE, 0x2584, VIZ_ROLE_VALUE},
        {VIZ_ROLE_VALUE, VIZ_ROLE_VALUE, 0x2588, VIZ_ROLE_VALUE},
        {VIZ_ROLE_HEAT2, VIZ_ROLE_HEAT2, 0x2591, VIZ_ROLE_HEAT2},
        {VIZ_ROLE_HEAT4, VIZ_ROLE_HEAT5, 0x2592, VIZ_ROLE_HEAT5},
        {VIZ_ROLE_HEAT7, VIZ_ROLE_HEAT6, 0x2593, VIZ_ROLE_HEAT7},
        {VIZ_ROLE_HEAT1, VIZ_BG_NONE, '.', VIZ_ROLE_HEAT1},
        {VIZ_ROLE_HEAT1, VIZ_ROLE_HEAT2, 0x2591, VIZ_ROLE_HEAT2},
        {VIZ_BG_NONE, VIZ_BG_NONE, ' ', VIZ_BG_NONE},
    };
    canvas *c = canvas_new(1, 1);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        viz_put_halves(c, 0, 0, want[i].top, want[i].bottom);
        viz_cell m = viz_cell_mono(canvas_at(c, 0, 0));
        assert_int_equal(m.cp, want[i].cp);
        assert_int_equal(m.role, want[i].role);
        assert_int_equal(m.bg, VIZ_BG_NONE);
        assert_false(m.attr & VIZ_HALVES);
    }
    /* an ordinary cell keeps its glyph and role */
    canvas_put(c, 0, 0, 0x2580, VIZ_ROLE_ARROW, VIZ_UNDERLINE);
    viz_cell m = viz_cell_mono(canvas_at(c, 0, 0));
    assert_int_equal(m.cp, 0x2580);
    assert_int_equal(m.role, VIZ_ROLE_ARROW);
    assert_int_equal(m.attr, VIZ_UNDERLINE);
    assert_int_equal(viz_role_ink(VIZ_ROLE_TEXT), 0);
    assert_int_equal(viz_role_ink(VIZ_ROLE_HEAT0 + 5), 5);
    assert_int_equal(viz_role_ink(VIZ_ROLE_WRONG), 8);
    canvas_free(c);
}

/* The text backend: both colours as SGR codes; the stand-ins without them. */
static void text_backend_halves(void **state)
{
    (void)state;
    canvas *c = canvas_new(4, 1);
    viz_put_halves(c, 0, 0, VIZ_ROLE_HEAT3, VIZ_ROLE_HEAT2);  /* green over cyan */
    viz_put_halves(c, 1, 0, VIZ_ROLE_HEAT6, VIZ_ROLE_HEAT7);  /* red over bright red: ▄ */
    viz_put_halves(c, 2, 0, VIZ_ROLE_VALUE, VIZ_BG_NONE);     /* ▀ in the default colour */
    viz_text_opts colour = {VIZ_TEXT_COLOUR, 0, 1};
    char *s = viz_text_render(c, &colour, NULL);
    assert_string_equal(s, "\x1b[0;32;46m\xe2\x96\x80"      /* fg 32 green, bg 46 cyan */
                           "\x1b[0;1;31;41m\xe2\x96\x84"    /* bold red ink on red */
                           "\x1b[0m\xe2\x96\x80\n");
    free(s);
    viz_text_opts mono = {VIZ_TEXT_MONO, 0, 1};
    s = viz_text_render(c, &mono, NULL);
    /* ░ (mean of levels 3 and 2) plain like HEAT3; ▓ reverse bold like HEAT7; ▀ */
    assert_string_equal(s, "\xe2\x96\x91\x1b[0;1;7m\xe2\x96\x93\x1b[0m\xe2\x96\x80\n");
    assert_null(strstr(s, "[0;3"));
    free(s);
    viz_text_opts plain = {VIZ_TEXT_PLAIN, 0, 1};
    s = viz_text_render(c, &plain, NULL);
    assert_string_equal(s, "\xe2\x96\x91\xe2\x96\x93\xe2\x96\x80\n");
    free(s);
    /* ASCII has no half blocks: the stand-in, in its ink colour alone */
    viz_text_opts ascii = {VIZ_TEXT_COLOUR, 1, 1};
    s = viz_text_render(c, &ascii, NULL);
    assert_string_equal(s, "\x1b[0;32m:\x1b[0;1;31m#\x1b[0m#\n"); /* ░ in HEAT3 green */
    free(s);
    /* a blank two-pixel cell with colour behind it shows at the end of a line */
    canvas_clear(c);
    viz_put_halves(c, 0, 0, VIZ_ROLE_HEAT2, VIZ_ROLE_HEAT3);
    s = viz_text_render(c, &colour, NULL);
    assert_string_equal(s, "\x1b[0;36;42m\xe2\x96\x80\x1b[0m\n");
    free(s);
    canvas_free(c);
}

/* ncurses colour pairs: made on first use, one per combination, and -1 once
 * the terminal has none left. */
static void colour_pairs(void **state)
{
    (void)state;
    viz_pairs p;
    int fresh;
    viz_pairs_init(&p, 4); /* pairs 1, 2 and 3 */
    assert_int_equal(viz_pairs_get(&p, -1, -1, &fresh), 0);
    assert_int_equal(fresh, 0);
    assert_int_equal(viz_pairs_get(&p, 2, -1, &fresh), 1);
    assert_int_equal(fresh, 1);
    assert_int_equal(viz_pairs_get(&p, 2, 6, &fresh), 2);
    assert_int_equal(fresh, 1);
    assert_int_equal(viz_pairs_get(&p, 2, -1, &fresh), 1);
    assert_int_equal(fresh, 0);
    assert_int_equal(viz_pairs_get(&p, 6, 2, &fresh), 3);
    assert_int_equal(viz_pairs_get(&p, 7, 0, &fresh), -1);
    assert_int_equal(fresh, 0);
    assert_int_equal(viz_pairs_get(&p, 7, 0, &fresh), -1);
    assert_int_equal(viz_pairs_get(&p, 2, 6, &fresh), 2);
    assert_int_equal(viz_pairs_get(&p, 8, 0, &fresh), -1);
    viz_pairs_failed(&p, 2, 6);
    assert_int_equal(viz_pairs_get(&p, 2, 6, &fresh), -1);
    /* a terminal with 256 pairs has one for every combination */
    viz_pairs_init(&p, 256);
    int most = 0;
    for (short f = -1; f < 8; f++)
        for (short b = -1; b < 8; b++) {
            int n = viz_pairs_get(&p, f, b, &fresh);
            assert_true(f < 0 && b < 0 ? n == 0 : n >= 1);
            if (n > most) most = n;
        }
    assert_int_equal(most, 80);
    viz_pairs_init(&p, 0); /* no pairs at all */
    assert_int_equal(viz_pairs_get(&p, 1, -1, &fresh), -1);
}

/* The picture export fills each half of a two-pixel cell with its colour. */
static void export_halves(void **state)
{
    (void)state;
    char path[] = "/tmp/gpulab-halves-XXXXXX.png";
    int fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    FILE *out = fdopen(fd, "wb");
    assert_non_null(out);
    canvas *c = canvas_new(3, 1);
    viz_put_halves(c, 0, 0, VIZ_ROLE_HEAT3, VIZ_ROLE_HEAT2); /* green over cyan */
    viz_put_halves(c, 1, 0, VIZ_BG_NONE, VIZ_ROLE_HEAT6);    /* paper over red */
    viz_put_halves(c, 2, 0, VIZ_ROLE_HEAT6, VIZ_ROLE_HEAT6); /* red, both */
    char err[256];
    assert_int_equal(viz_export_canvas(c, 1, path, out, err, sizeof err), 0);
    assert_int_equal(fclose(out), 0);
    cairo_surface_t *img = cairo_image_surface_create_from_png(path);
    assert_int_equal(cairo_surface_status(img), CAIRO_STATUS_SUCCESS);
    unlink(path);
    int w = cairo_image_surface_get_width(img), h = cairo_image_surface_get_height(img);
    int stride = cairo_image_surface_get_stride(img);
    const unsigned char *px = cairo_image_surface_get_data(img);
    /* the page is 12 points of margin around 3 x 1 cells, drawn at scale 2 */
    double cw = (w / 2.0 - 24) / 3, ch = h / 2.0 - 24;
    /* green (0.10, 0.55, 0.15), cyan (0.00, 0.52, 0.60), red (0.78, 0.12, 0.12), paper */
    static const struct {
        int cell, bottom;
        double r, g, b;
    } want[] = {
        {0, 0, 0.10, 0.55, 0.15}, {0, 1, 0.00, 0.52, 0.60}, {1, 0, 1, 1, 1},
        {1, 1, 0.78, 0.12, 0.12}, {2, 0, 0.78, 0.12, 0.12}, {2, 1, 0.78, 0.12, 0.12},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        int x = (int)(2 * (12 + cw * (want[i].cell + 0.5)));
        int y = (int)(2 * (12 + ch * (want[i].bottom ? 0.75 : 0.25)));
        uint32_t v = *(const uint32_t *)(px + (size_t)y * stride + (size_t)x * 4); /* ARGB */
        double r = ((v >> 16) & 0xff) / 255.0, g = ((v >> 8) & 0xff) / 255.0, b = (v & 0xff) / 255.0;
        if (r - want[i].r > 0.02 || want[i].r - r > 0.02 || g - want[i].g > 0.02 ||
            want[i].g - g > 0.02 || b - want[i].b > 0.02 || want[i].b - b > 0.02)
            fail_msg("cell %d %s half: %.2f %.2f %.2f, want %.2f %.2f %.2f", want[i].cell,
                     want[i].bottom ? "bottom" : "top", r, g, b, want[i].r, want[i].g, want[i].b);
    }
    cairo_surface_destroy(img);
    canvas_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(utf8_round_trip),  cmocka_unit_test(utf8_invalid_bytes),
        cmocka_unit_test(widths),           cmocka_unit_test(put_and_clip),
        cmocka_unit_test(wide_cells),       cmocka_unit_test(textn_and_wrap),
        cmocka_unit_test(fill_box_restyle), cmocka_unit_test(roles_and_monochrome),
        cmocka_unit_test(colour_wanted),    cmocka_unit_test(text_backend),
        cmocka_unit_test(ascii_glyphs),     cmocka_unit_test(half_cells),
        cmocka_unit_test(mono_stand_ins),   cmocka_unit_test(text_backend_halves),
        cmocka_unit_test(colour_pairs),     cmocka_unit_test(export_halves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
