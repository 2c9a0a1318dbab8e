/* canvas.c - the cell grid, UTF-8, and the colour and monochrome schemes. */
#include "viz/canvas.h"

#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define REPLACEMENT 0xFFFDu

viz_rect viz_rect_intersect(viz_rect a, viz_rect b)
{
    int x0 = a.x > b.x ? a.x : b.x, y0 = a.y > b.y ? a.y : b.y;
    int x1 = a.x + a.w < b.x + b.w ? a.x + a.w : b.x + b.w;
    int y1 = a.y + a.h < b.y + b.h ? a.y + a.h : b.y + b.h;
    return viz_rect_make(x0, y0, x1 - x0, y1 - y0);
}

/* ------------------------------------------------------------ lifetime */

canvas *canvas_new(int w, int h)
{
    canvas *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    if (canvas_resize(c, w, h) != 0) {
        free(c);
        return NULL;
    }
    return c;
}

void canvas_free(canvas *c)
{
    if (!c) return;
    free(c->cells);
    free(c);
}

int canvas_resize(canvas *c, int w, int h)
{
    if (w < 0) w = 0;
    if (h < 0) h = 0;
    size_t n = (size_t)w * (size_t)h;
    if (n > (size_t)c->w * (size_t)c->h || !c->cells) {
        viz_cell *cells = realloc(c->cells, (n ? n : 1) * sizeof *cells);
        if (!cells) return -1;
        c->cells = cells;
    }
    c->w = w;
    c->h = h;
    canvas_clear(c);
    return 0;
}

void canvas_clear(canvas *c)
{
    size_t n = (size_t)c->w * (size_t)c->h;
    for (size_t i = 0; i < n; i++) {
        c->cells[i].cp = ' ';
        c->cells[i].role = VIZ_ROLE_TEXT;
        c->cells[i].attr = 0;
        c->cells[i].bg = VIZ_BG_NONE;
    }
    c->clip = canvas_bounds(c);
}

/* --------------------------------------------------------------- clip */

viz_rect canvas_bounds(const canvas *c)
{
    return viz_rect_make(0, 0, c->w, c->h);
}

viz_rect canvas_set_clip(canvas *c, viz_rect r)
{
    viz_rect old = c->clip;
    c->clip = viz_rect_intersect(r, canvas_bounds(c));
    return old;
}

static int in_clip(const canvas *c, int x, int y)
{
    return x >= c->clip.x && y >= c->clip.y && x < c->clip.x + c->clip.w &&
           y < c->clip.y + c->clip.h;
}

/* ---------------------------------------------------------- reading */

const viz_cell *canvas_at(const canvas *c, int x, int y)
{
    if (x < 0 || y < 0 || x >= c->w || y >= c->h) return NULL;
    return &c->cells[(size_t)y * c->w + x];
}

size_t canvas_row_text(const canvas *c, int y, char *buf, size_t len)
{
    size_t off = 0, keep = 0;
    if (len == 0) return 0;
    for (int x = 0; y >= 0 && y < c->h && x < c->w; x++) {
        uint32_t cp = c->cells[(size_t)y * c->w + x].cp;
        if (cp == VIZ_CONT) continue;
        char u[4];
        int k = viz_utf8_encode(cp, u);
        if (off + (size_t)k + 1 > len) break;
        memcpy(buf + off, u, (size_t)k);
        off += (size_t)k;
        if (cp != ' ') keep = off;
    }
    buf[keep] = '\0';
    return keep;
}

/* ---------------------------------------------------------- drawing */

static viz_cell *cell(canvas *c, int x, int y)
{
    return &c->cells[(size_t)y * c->w + x];
}

/* Writing over half of a wide character blanks its other half. */
static void break_wide(canvas *c, int x, int y)
{
    viz_cell *p = cell(c, x, y);
    if (p->cp == VIZ_CONT && x > 0) cell(c, x - 1, y)->cp = ' ';
    if (x + 1 < c->w && cell(c, x + 1, y)->cp == VIZ_CONT) cell(c, x + 1, y)->cp = ' ';
}

static void set(canvas *c, int x, int y, uint32_t cp, int role, unsigned attr)
{
    viz_cell *p = cell(c, x, y);
    p->cp = cp;
    p->role = (uint8_t)role;
    p->attr = (uint8_t)(attr & ~VIZ_HALVES);
    p->bg = VIZ_BG_NONE;
}

void canvas_put(canvas *c, int x, int y, uint32_t cp, int role, unsigned attr)
{
    if (!in_clip(c, x, y)) return;
    if (role < 0 || role >= VIZ_ROLE_COUNT) role = VIZ_ROLE_TEXT;
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || cp > 0x10ffff) cp = REPLACEMENT;
    int w = viz_cp_width(cp);
    if (w == 0) return; /* combining marks: cells hold one code point each */
    if (w == 2 && !in_clip(c, x + 1, y)) {
        w = 1;
        cp = ' ';
    }
    break_wide(c, x, y);
    if (w == 2) break_wide(c, x + 1, y);
    set(c, x, y, cp, role, attr);
    if (w == 2) set(c, x + 1, y, VIZ_CONT, role, attr);
}

static int bold_in_colour(int role)
{
    return (viz_role_style(role, 1).attr & VIZ_BOLD) != 0;
}

void viz_put_halves(canvas *c, int x, int y, int top, int bottom)
{
    if (!in_clip(c, x, y)) return;
    if (top < 0 || top >= VIZ_ROLE_COUNT) top = VIZ_BG_NONE;
    if (bottom < 0 || bottom >= VIZ_ROLE_COUNT) bottom = VIZ_BG_NONE;
    /* A role whose ink is the terminal's default colour cannot be a
     * background (no escape code names that colour): such halves look alike
     * and make a full block, or take the ink against a coloured half. */
    int tdef = top != VIZ_BG_NONE && viz_role_ink_colour(top) < 0;
    int bdef = bottom != VIZ_BG_NONE && viz_role_ink_colour(bottom) < 0;
    uint32_t cp;
    int ink, bg = VIZ_BG_NONE;
    if (top == bottom || (tdef && bdef)) {
        cp = top == VIZ_BG_NONE ? ' ' : 0x2588; /* █ */
        ink = top;
    } else if (top == VIZ_BG_NONE) {
        cp = 0x2584; /* ▄ */
        ink = bottom;
    } else if (bottom == VIZ_BG_NONE) {
        cp = 0x2580; /* ▀ */
        ink = top;
    } else if (bdef || (!tdef && bold_in_colour(bottom) && !bold_in_colour(top))) {
        cp = 0x2584;
        ink = bottom;
        bg = top;
    } else {
        cp = 0x2580;
        ink = top;
        bg = bottom;
    }
    break_wide(c, x, y);
    viz_cell *p = cell(c, x, y);
    p->cp = cp;
    p->role = (uint8_t)ink;
    p->attr = VIZ_HALVES;
    p->bg = (uint8_t)bg;
}

int canvas_text(canvas *c, int x, int y, const char *s, int role, unsigned attr)
{
    uint32_t cp;
    while ((cp = viz_utf8_next(&s)) != 0) {
        if (cp == '\t') cp = ' ';
        int w = viz_cp_width(cp);
        if (w == 0) continue;
        if (c) canvas_put(c, x, y, cp, role, attr);
        x += w;
    }
    return x;
}

int canvas_textn(canvas *c, int x, int y, int maxw, const char *s, int role, unsigned attr)
{
    if (maxw <= 0) return x;
    if (viz_text_width(s) <= maxw) return canvas_text(c, x, y, s, role, attr);
    int end = x + maxw - 1;
    uint32_t cp;
    while ((cp = viz_utf8_next(&s)) != 0) {
        if (cp == '\t') cp = ' ';
        int w = viz_cp_width(cp);
        if (w == 0) continue;
        if (x + w > end) break;
        canvas_put(c, x, y, cp, role, attr);
        x += w;
    }
    canvas_put(c, x, y, 0x2026, role, attr); /* … */
    return x + 1;
}

int canvas_printf(canvas *c, int x, int y, int role, unsigned attr, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return canvas_text(c, x, y, buf, role, attr);
}

void canvas_fill(canvas *c, viz_rect r, uint32_t cp, int role, unsigned attr)
{
    r = viz_rect_intersect(r, c->clip);
    int w = viz_cp_width(cp) == 2 ? 2 : 1;
    for (int y = r.y; y < r.y + r.h; y++)
        for (int x = r.x; x + w <= r.x + r.w; x += w) canvas_put(c, x, y, cp, role, attr);
}

void canvas_restyle(canvas *c, viz_rect r, int role, unsigned attr)
{
    r = viz_rect_intersect(r, c->clip);
    for (int y = r.y; y < r.y + r.h; y++)
        for (int x = r.x; x < r.x + r.w; x++) {
            /* one style for the whole cell: a two-pixel cell keeps its glyph
             * but no longer its second colour */
            cell(c, x, y)->role = (uint8_t)role;
            cell(c, x, y)->attr = (uint8_t)(attr & ~VIZ_HALVES);
            cell(c, x, y)->bg = VIZ_BG_NONE;
        }
}

void canvas_hline(canvas *c, int x, int y, int len, uint32_t cp, int role, unsigned attr)
{
    for (int i = 0; i < len; i++) canvas_put(c, x + i, y, cp, role, attr);
}

void canvas_vline(canvas *c, int x, int y, int len, uint32_t cp, int role, unsigned attr)
{
    for (int i = 0; i < len; i++) canvas_put(c, x, y + i, cp, role, attr);
}

void canvas_box(canvas *c, viz_rect r, const char *title, int role, unsigned attr)
{
    if (r.w < 2 || r.h < 2) return;
    int x1 = r.x + r.w - 1, y1 = r.y + r.h - 1;
    canvas_hline(c, r.x + 1, r.y, r.w - 2, 0x2500, role, attr);
    canvas_hline(c, r.x + 1, y1, r.w - 2, 0x2500, role, attr);
    canvas_vline(c, r.x, r.y + 1, r.h - 2, 0x2502, role, attr);
    canvas_vline(c, x1, r.y + 1, r.h - 2, 0x2502, role, attr);
    canvas_put(c, r.x, r.y, 0x250c, role, attr);
    canvas_put(c, x1, r.y, 0x2510, role, attr);
    canvas_put(c, r.x, y1, 0x2514, role, attr);
    canvas_put(c, x1, y1, 0x2518, role, attr);
    if (title && *title && r.w > 6) {
        canvas_put(c, r.x + 2, r.y, ' ', role, attr);
        int e = canvas_textn(c, r.x + 3, r.y, r.w - 6, title, VIZ_ROLE_HEADING, attr);
        canvas_put(c, e, r.y, ' ', role, attr);
    }
}

/* Width of the next word (up to a space, newline or the end). */
static int word_width(const char *s, const char **end)
{
    int w = 0;
    const char *p = s;
    for (;;) {
        const char *q = p;
        uint32_t cp = viz_utf8_next(&q);
        if (cp == 0 || cp == ' ' || cp == '\n') break;
        w += viz_cp_width(cp);
        p = q;
    }
    *end = p;
    return w;
}

int canvas_wrap(canvas *c, viz_rect r, const char *s, int role, unsigned attr)
{
    if (r.w <= 0) return 0;
    int line = 0, col = 0;
    const char *p = s;
    while (*p) {
        if (*p == '\n') {
            line++;
            col = 0;
            p++;
            continue;
        }
        if (*p == ' ') {
            p++;
            continue;
        }
        const char *end;
        int w = word_width(p, &end);
        if (col > 0 && col + 1 + w > r.w) {
            line++;
            col = 0;
        }
        if (col > 0) col++; /* the space between words */
        /* Words longer than the line are broken anywhere. */
        while (p < end) {
            const char *q = p;
            uint32_t cp = viz_utf8_next(&q);
            int cw = viz_cp_width(cp);
            if (col + cw > r.w && col > 0) {
                line++;
                col = 0;
            }
            if (c && line < r.h) canvas_put(c, r.x + col, r.y + line, cp, role, attr);
            col += cw;
            p = q;
        }
    }
    return col > 0 || line > 0 ? line + (col > 0) : 0;
}

/* ------------------------------------------------------------- UTF-8 */

uint32_t viz_utf8_next(const char **sp)
{
    const unsigned char *s = (const unsigned char *)*sp;
    uint32_t cp;
    int n;
    if (s[0] == 0) return 0;
    if (s[0] < 0x80) {
        *sp += 1;
        return s[0];
    } else if ((s[0] & 0xe0) == 0xc0) {
        cp = s[0] & 0x1f;
        n = 1;
    } else if ((s[0] & 0xf0) == 0xe0) {
        cp = s[0] & 0x0f;
        n = 2;
    } else if ((s[0] & 0xf8) == 0xf0) {
        cp = s[0] & 0x07;
        n = 3;
    } else {
        *sp += 1;
        return REPLACEMENT;
    }
    for (int i = 1; i <= n; i++) {
        if ((s[i] & 0xc0) != 0x80) {
            *sp += i;
            return REPLACEMENT;
        }
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    *sp += n + 1;
    /* Overlong forms, surrogates and values past Unicode are not text. */
    static const uint32_t min[4] = {0, 0x80, 0x800, 0x10000};
    if (cp < min[n] || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return REPLACEMENT;
    return cp;
}

int viz_utf8_encode(uint32_t cp, char *out)
{
    unsigned char *o = (unsigned char *)out;
    if (cp == VIZ_CONT) return 0;
    if (cp < 0x80) {
        o[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (unsigned char)(0xc0 | (cp >> 6));
        o[1] = (unsigned char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) cp = REPLACEMENT;
    if (cp < 0x10000) {
        o[0] = (unsigned char)(0xe0 | (cp >> 12));
        o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (unsigned char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (unsigned char)(0xf0 | (cp >> 18));
    o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
    o[3] = (unsigned char)(0x80 | (cp & 0x3f));
    return 4;
}

/* Terminal widths from the Unicode tables, for the ranges that matter in a
 * teaching tool (lesson languages include Chinese). Independent of the C
 * locale, so golden files do not depend on the machine. */
int viz_cp_width(uint32_t cp)
{
    static const uint32_t zero[][2] = {
        {0x0300, 0x036f}, {0x0483, 0x0489}, {0x0591, 0x05bd}, {0x0610, 0x061a},
        {0x064b, 0x065f}, {0x0e31, 0x0e31}, {0x0e34, 0x0e3a}, {0x200b, 0x200f},
        {0x202a, 0x202e}, {0x2060, 0x2064}, {0x20d0, 0x20ff}, {0xfe00, 0xfe0f},
        {0xfe20, 0xfe2f}, {0xfeff, 0xfeff},
    };
    static const uint32_t wide[][2] = {
        {0x1100, 0x115f}, {0x231a, 0x231b}, {0x2329, 0x232a}, {0x23e9, 0x23ec},
        {0x2e80, 0x303e}, {0x3041, 0x33ff}, {0x3400, 0x4dbf}, {0x4e00, 0x9fff},
        {0xa000, 0xa4cf}, {0xa960, 0xa97f}, {0xac00, 0xd7a3}, {0xf900, 0xfaff},
        {0xfe10, 0xfe19}, {0xfe30, 0xfe6f}, {0xff00, 0xff60}, {0xffe0, 0xffe6},
        {0x1f300, 0x1f64f}, {0x1f900, 0x1f9ff}, {0x20000, 0x2fffd}, {0x30000, 0x3fffd},
    };
    if (cp < 0x300) return 1;
    for (size_t i = 0; i < sizeof zero / sizeof zero[0]; i++)
        if (cp >= zero[i][0] && cp <= zero[i][1]) return 0;
    for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++)
        if (cp >= wide[i][0] && cp <= wide[i][1]) return 2;
    return 1;
}

int viz_text_width(const char *s)
{
    int w = 0;
    uint32_t cp;
    while ((cp = viz_utf8_next(&s)) != 0) w += cp == '\t' ? 1 : viz_cp_width(cp);
    return w;
}

char viz_ascii_glyph(uint32_t cp)
{
    if (cp < 0x80) return (char)cp;
    switch (cp) {
    case 0x2190: case 0x25c0: case 0x25c4: case 0x2039: case 0x00ab: return '<';
    case 0x2192: case 0x25b6: case 0x25ba: case 0x203a: case 0x00bb: return '>';
    case 0x2191: case 0x25b2: case 0x25b4: return '^';
    case 0x2193: case 0x25bc: case 0x25be: return 'v';
    case 0x21c4: case 0x21c6: case 0x2194: return '=';
    case 0x2026: case 0x00b7: case 0x2219: case 0x22c5: return '.';
    case 0x2022: case 0x25cf: case 0x25cb: case 0x25ae: case 0x25a0: return '*';
    case 0x2013: case 0x2014: case 0x2212: return '-';
    case 0x00d7: case 0x2717: case 0x2718: return 'x';
    case 0x2713: case 0x2714: return '+';
    case 0x2248: return '~';
    case 0x2264: return '<';
    case 0x2265: return '>';
    case 0x2588: case 0x2593: return '#';
    case 0x2592: return '=';
    case 0x2591: return ':';
    case 0x2580: case 0x2584: return '#';
    case 0x00a0: return ' ';
    default: break;
    }
    if (cp >= 0x2500 && cp <= 0x257f) {
        /* Box drawing: horizontals, verticals, and everything that joins. */
        static const uint16_t h[] = {0x2500, 0x2501, 0x2504, 0x2505, 0x2508, 0x2509,
                                     0x254c, 0x254d, 0x2550, 0x2574, 0x2576, 0x2578, 0x257a};
        static const uint16_t v[] = {0x2502, 0x2503, 0x2506, 0x2507, 0x250a, 0x250b,
                                     0x254e, 0x254f, 0x2551, 0x2575, 0x2577, 0x2579, 0x257b};
        for (size_t i = 0; i < sizeof h / sizeof h[0]; i++)
            if (cp == h[i]) return '-';
        for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
            if (cp == v[i]) return '|';
        return '+';
    }
    if (cp >= 0x2580 && cp <= 0x259f) return '#';
    return '?';
}

/* ------------------------------------------------------------ styles */

enum { BLACK = 0, RED, GREEN, YELLOW, BLUE, MAGENTA, CYAN, WHITE, DEF = -1 };
#define B VIZ_BOLD
#define R VIZ_REVERSE
#define D VIZ_DIMMED
#define U VIZ_UNDERLINE

/* Colour: the eight ANSI colours, which every terminal has. */
static const viz_style colour_styles[VIZ_ROLE_COUNT] = {
    [VIZ_ROLE_TEXT] = {DEF, DEF, 0},
    [VIZ_ROLE_ACTIVE] = {GREEN, DEF, B},
    [VIZ_ROLE_IDLE] = {BLUE, DEF, 0},
    [VIZ_ROLE_SOURCE] = {CYAN, DEF, 0},
    [VIZ_ROLE_SWAPPED] = {MAGENTA, DEF, B},
    [VIZ_ROLE_CONFLICT] = {BLACK, YELLOW, 0},
    [VIZ_ROLE_WRONG] = {WHITE, RED, B},
    [VIZ_ROLE_OK] = {GREEN, DEF, B},
    [VIZ_ROLE_HEADING] = {DEF, DEF, B},
    [VIZ_ROLE_DIM] = {DEF, DEF, D},
    [VIZ_ROLE_VALUE] = {DEF, DEF, 0},
    [VIZ_ROLE_ARROW] = {YELLOW, DEF, B},
    [VIZ_ROLE_WARP] = {MAGENTA, DEF, 0},
    [VIZ_ROLE_HIGHLIGHT] = {BLACK, CYAN, 0},
    [VIZ_ROLE_KEY] = {YELLOW, DEF, B},
    [VIZ_ROLE_WARN] = {YELLOW, DEF, 0},
    [VIZ_ROLE_BLOCK0] = {CYAN, DEF, 0},
    [VIZ_ROLE_BLOCK1] = {YELLOW, DEF, 0},
    [VIZ_ROLE_BLOCK2] = {MAGENTA, DEF, 0},
    [VIZ_ROLE_BLOCK3] = {GREEN, DEF, 0},
    [VIZ_ROLE_BLOCK4] = {RED, DEF, 0},
    [VIZ_ROLE_BLOCK5] = {BLUE, DEF, B},
    [VIZ_ROLE_BLOCK6] = {WHITE, DEF, B},
    [VIZ_ROLE_BLOCK7] = {CYAN, DEF, B},
    [VIZ_ROLE_HEAT0] = {BLUE, DEF, 0},
    [VIZ_ROLE_HEAT1] = {BLUE, DEF, B},
    [VIZ_ROLE_HEAT2] = {CYAN, DEF, 0},
    [VIZ_ROLE_HEAT3] = {GREEN, DEF, 0},
    [VIZ_ROLE_HEAT4] = {YELLOW, DEF, 0},
    [VIZ_ROLE_HEAT5] = {YELLOW, DEF, B},
    [VIZ_ROLE_HEAT6] = {RED, DEF, 0},
    [VIZ_ROLE_HEAT7] = {RED, DEF, B},
};

/* Monochrome: attributes only. The roles a student must tell apart in one
 * picture (active / idle / source / conflict / wrong) never share a look. */
static const viz_style mono_styles[VIZ_ROLE_COUNT] = {
    [VIZ_ROLE_TEXT] = {DEF, DEF, 0},
    [VIZ_ROLE_ACTIVE] = {DEF, DEF, B | R},
    [VIZ_ROLE_IDLE] = {DEF, DEF, D},
    [VIZ_ROLE_SOURCE] = {DEF, DEF, U},
    [VIZ_ROLE_SWAPPED] = {DEF, DEF, R},
    [VIZ_ROLE_CONFLICT] = {DEF, DEF, B | U},
    [VIZ_ROLE_WRONG] = {DEF, DEF, R | U},
    [VIZ_ROLE_OK] = {DEF, DEF, B},
    [VIZ_ROLE_HEADING] = {DEF, DEF, B},
    [VIZ_ROLE_DIM] = {DEF, DEF, D},
    [VIZ_ROLE_VALUE] = {DEF, DEF, 0},
    [VIZ_ROLE_ARROW] = {DEF, DEF, B},
    [VIZ_ROLE_WARP] = {DEF, DEF, D},
    [VIZ_ROLE_HIGHLIGHT] = {DEF, DEF, R | D},
    [VIZ_ROLE_KEY] = {DEF, DEF, B},
    [VIZ_ROLE_WARN] = {DEF, DEF, U},
    [VIZ_ROLE_BLOCK0] = {DEF, DEF, 0},
    [VIZ_ROLE_BLOCK1] = {DEF, DEF, B},
    [VIZ_ROLE_BLOCK2] = {DEF, DEF, U},
    [VIZ_ROLE_BLOCK3] = {DEF, DEF, R},
    [VIZ_ROLE_BLOCK4] = {DEF, DEF, D},
    [VIZ_ROLE_BLOCK5] = {DEF, DEF, B | U},
    [VIZ_ROLE_BLOCK6] = {DEF, DEF, R | B},
    [VIZ_ROLE_BLOCK7] = {DEF, DEF, D | U},
    [VIZ_ROLE_HEAT0] = {DEF, DEF, D},
    [VIZ_ROLE_HEAT1] = {DEF, DEF, D},
    [VIZ_ROLE_HEAT2] = {DEF, DEF, 0},
    [VIZ_ROLE_HEAT3] = {DEF, DEF, 0},
    [VIZ_ROLE_HEAT4] = {DEF, DEF, B},
    [VIZ_ROLE_HEAT5] = {DEF, DEF, B},
    [VIZ_ROLE_HEAT6] = {DEF, DEF, R},
    [VIZ_ROLE_HEAT7] = {DEF, DEF, R | B},
};

viz_style viz_role_style(int role, int colour)
{
    if (role < 0 || role >= VIZ_ROLE_COUNT) role = VIZ_ROLE_TEXT;
    return colour ? colour_styles[role] : mono_styles[role];
}

short viz_role_ink_colour(int role)
{
    viz_style s = viz_role_style(role, 1);
    return (s.attr & VIZ_REVERSE) ? s.bg : s.fg;
}

viz_style viz_cell_style(const viz_cell *c, int colour)
{
    viz_style s = viz_role_style(c->role, colour);
    s.attr |= c->attr & ~VIZ_HALVES;
    if (colour && c->bg != VIZ_BG_NONE) s.bg = viz_role_ink_colour(c->bg);
    return s;
}

int viz_role_ink(int role)
{
    if (role <= VIZ_ROLE_TEXT || role >= VIZ_ROLE_COUNT) return 0;
    if (role >= VIZ_ROLE_HEAT0 && role < VIZ_ROLE_HEAT0 + VIZ_NHEAT_ROLES) return role - VIZ_ROLE_HEAT0;
    return 8;
}

int viz_cell_halves(const viz_cell *c, int *top, int *bottom)
{
    *top = *bottom = VIZ_BG_NONE;
    if (!(c->attr & VIZ_HALVES)) return 0;
    switch (c->cp) {
    case 0x2580: *top = c->role; *bottom = c->bg; break; /* ▀ */
    case 0x2584: *top = c->bg; *bottom = c->role; break; /* ▄ */
    case 0x2588: *top = *bottom = c->role; break;        /* █ */
    default: *top = *bottom = c->bg; break;              /* a blank: the background only */
    }
    return 1;
}

viz_cell viz_cell_mono(const viz_cell *c)
{
    /* ink by eighths of a cell: the shades the image view always used */
    static const uint32_t shade[9] = {' ', '.', 0x2591, 0x2591, 0x2592, 0x2592, 0x2593, 0x2593, 0x2588};
    viz_cell m = *c;
    m.bg = VIZ_BG_NONE;
    m.attr &= (uint8_t)~VIZ_HALVES;
    int top, bot;
    if (!viz_cell_halves(c, &top, &bot)) return m;
    int it = viz_role_ink(top), ib = viz_role_ink(bot);
    if (it == 8 && ib < 8) {
        m.cp = 0x2580;
        m.role = (uint8_t)top;
    } else if (ib == 8 && it < 8) {
        m.cp = 0x2584;
        m.role = (uint8_t)bot;
    } else {
        m.cp = shade[(it + ib + 1) / 2];
        m.role = (uint8_t)(ib > it ? bot : top);
    }
    return m;
}

int viz_colour_wanted(int no_color_flag)
{
    if (no_color_flag) return 0;
    const char *nc = getenv("NO_COLOR");
    if (nc && *nc) return 0;
    const char *term = getenv("TERM");
    if (!term || !*term || strcmp(term, "dumb") == 0) return 0;
    return 1;
}

/* Does a locale name (en_US.UTF-8, C.utf8) say UTF-8? */
static int names_utf8(const char *s)
{
    char low[128];
    size_t i;
    if (!s) return 0;
    for (i = 0; s[i] && i + 1 < sizeof low; i++)
        low[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] - 'A' + 'a' : s[i]);
    low[i] = '\0';
    return strstr(low, "utf-8") || strstr(low, "utf8");
}

int viz_locale_utf8(void)
{
    /* The program may not have called setlocale(): then ask the environment,
     * the way setlocale(LC_CTYPE, "") would. */
    const char *cur = setlocale(LC_CTYPE, NULL);
    if (cur && strcmp(cur, "C") != 0 && strcmp(cur, "POSIX") != 0) {
        const char *cs = nl_langinfo(CODESET);
        return cs && (strcasecmp(cs, "UTF-8") == 0 || strcasecmp(cs, "utf8") == 0);
    }
    const char *vars[] = {"LC_ALL", "LC_CTYPE", "LANG"};
    for (int i = 0; i < 3; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) return names_utf8(v);
    }
    return 0;
}

int viz_block_role(long long b)
{
    if (b < 0) b = -b;
    return VIZ_ROLE_BLOCK0 + (int)(b % VIZ_NBLOCK_ROLES);
}

uint32_t viz_block_glyph(long long b)
{
    static const uint32_t g[VIZ_NBLOCK_ROLES] = {0x2588, 0x2593, 0x2592, 0x2591,
                                                 '#',    '+',    'o',    'x'};
    if (b < 0) b = -b;
    return g[b % VIZ_NBLOCK_ROLES];
}

int viz_heat_role(int level)
{
    if (level < 0) level = 0;
    if (level >= VIZ_NHEAT_ROLES) level = VIZ_NHEAT_ROLES - 1;
    return VIZ_ROLE_HEAT0 + level;
}

uint32_t viz_heat_glyph(int level)
{
    static const uint32_t g[VIZ_NHEAT_ROLES] = {' ', 0x00b7, ':', 0x2591,
                                                0x2592, 0x2593, 0x2588, 0x2588};
    if (level < 0) level = 0;
    if (level >= VIZ_NHEAT_ROLES) level = VIZ_NHEAT_ROLES - 1;
    return g[level];
}
