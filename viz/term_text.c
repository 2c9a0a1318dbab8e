/* term_text.c - a canvas as lines of text, with or without ANSI styles. */
#include "viz/term.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct buf {
    char *p;
    size_t len, cap;
    int failed;
} buf;

static void put(buf *b, const char *s, size_t n)
{
    if (b->failed) return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1) cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->failed = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void puts_(buf *b, const char *s)
{
    put(b, s, strlen(s));
}

static int same_style(viz_style a, viz_style b)
{
    return a.fg == b.fg && a.bg == b.bg && a.attr == b.attr;
}

static int plain_style(viz_style s)
{
    return s.fg < 0 && s.bg < 0 && s.attr == 0;
}

/* A blank cell still shows when its style paints the background. */
static int visible_blank(viz_style s)
{
    return s.bg >= 0 || (s.attr & (VIZ_REVERSE | VIZ_UNDERLINE));
}

static void sgr(buf *b, viz_style s)
{
    char tmp[48];
    size_t n = 0;
    n += (size_t)snprintf(tmp + n, sizeof tmp - n, "\x1b[0");
    if (s.attr & VIZ_BOLD) n += (size_t)snprintf(tmp + n, sizeof tmp - n, ";1");
    if (s.attr & VIZ_DIMMED) n += (size_t)snprintf(tmp + n, sizeof tmp - n, ";2");
    if (s.attr & VIZ_UNDERLINE) n += (size_t)snprintf(tmp + n, sizeof tmp - n, ";4");
    if (s.attr & VIZ_REVERSE) n += (size_t)snprintf(tmp + n, sizeof tmp - n, ";7");
    if (s.fg >= 0) n += (size_t)snprintf(tmp + n, sizeof tmp - n, ";%d", 30 + s.fg);
    if (s.bg >= 0) n += (size_t)snprintf(tmp + n, sizeof tmp - n, ";%d", 40 + s.bg);
    snprintf(tmp + n, sizeof tmp - n, "m");
    puts_(b, tmp);
}

/* The cell as this output shows it: two-pixel cells need colours and the
 * half-block glyphs; without either they become their one-glyph stand-in. */
static viz_cell shown(const canvas *c, int x, int y, int colour, int ascii)
{
    const viz_cell *cell = canvas_at(c, x, y);
    if ((cell->attr & VIZ_HALVES) && (!colour || ascii)) return viz_cell_mono(cell);
    return *cell;
}

char *viz_text_render(const canvas *c, const viz_text_opts *o, size_t *len)
{
    viz_text_opts def = {VIZ_TEXT_PLAIN, 0, 0};
    if (!o) o = &def;
    int styled = o->mode != VIZ_TEXT_PLAIN, colour = o->mode == VIZ_TEXT_COLOUR;
    buf b = {0};
    put(&b, "", 0);
    int rows = c->h;
    if (o->trim_bottom) {
        while (rows > 0) {
            int blank = 1;
            for (int x = 0; x < c->w && blank; x++) {
                viz_cell cell = shown(c, x, rows - 1, colour, o->ascii);
                if (cell.cp != ' ' || (styled && visible_blank(viz_cell_style(&cell, colour))))
                    blank = 0;
            }
            if (!blank) break;
            rows--;
        }
    }
    for (int y = 0; y < rows; y++) {
        /* The row ends after its last cell that shows anything. */
        int end = 0;
        for (int x = 0; x < c->w; x++) {
            viz_cell cell = shown(c, x, y, colour, o->ascii);
            if ((cell.cp != ' ' && cell.cp != VIZ_CONT) ||
                (styled && visible_blank(viz_cell_style(&cell, colour))))
                end = x + 1;
        }
        viz_style cur = {-1, -1, 0};
        for (int x = 0; x < end; x++) {
            viz_cell cell = shown(c, x, y, colour, o->ascii);
            if (cell.cp == VIZ_CONT) continue;
            if (styled) {
                viz_style s = viz_cell_style(&cell, colour);
                /* Spaces keep the running style unless it would show. */
                if (!same_style(s, cur) && (cell.cp != ' ' || visible_blank(s) || visible_blank(cur))) {
                    if (plain_style(s)) puts_(&b, "\x1b[0m");
                    else sgr(&b, s);
                    cur = s;
                }
            }
            char u[4];
            int k;
            if (o->ascii && cell.cp >= 0x80) {
                u[0] = viz_ascii_glyph(cell.cp);
                k = 1;
            } else {
                k = viz_utf8_encode(cell.cp, u);
            }
            put(&b, u, (size_t)k);
        }
        if (styled && !plain_style(cur)) puts_(&b, "\x1b[0m");
        put(&b, "\n", 1);
    }
    if (b.failed) {
        free(b.p);
        return NULL;
    }
    if (len) *len = b.len;
    return b.p;
}

int viz_text_write(FILE *f, const canvas *c, const viz_text_opts *o)
{
    size_t n = 0;
    char *s = viz_text_render(c, o, &n);
    if (!s) return -1;
    int rc = fwrite(s, 1, n, f) == n ? 0 : -1;
    free(s);
    return rc;
}

viz_text_opts viz_text_opts_for(FILE *f, int no_color_flag)
{
    viz_text_opts o = {VIZ_TEXT_PLAIN, !viz_locale_utf8(), 1};
    const char *term = getenv("TERM");
    if (!isatty(fileno(f)) || !term || !*term || strcmp(term, "dumb") == 0) return o;
    /* NO_COLOR and --no-color take colour away, not bold or reverse. */
    o.mode = viz_colour_wanted(no_color_flag) ? VIZ_TEXT_COLOUR : VIZ_TEXT_MONO;
    return o;
}
