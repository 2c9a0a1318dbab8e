/* out.c - the one output module (see out.h). */
#define _GNU_SOURCE /* vasprintf */
#include "repl/out.h"

#include "viz/canvas.h" /* viz_cp_width: the display width of a character */

#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "repl/i18n.h"

static FILE *g_out, *g_err;
static int g_color;
static int g_width_override = -1, g_pager = 1;
static char *g_line; /* a line being printed, until its newline (see out_stream) */
static size_t g_line_len, g_line_cap;
static int stream_width(FILE *f);
static void line_flush(void);

void out_set_streams(FILE *out, FILE *err)
{
    if (g_line_len) line_flush(); /* pending text belongs to the old stream */
    g_out = out;
    g_err = err;
}

/* Text printed at a terminal whose width is known is kept line by line, and
 * a line wider than the terminal is wrapped at word boundaries (its
 * continuation indented) instead of being broken mid-word by the terminal.
 * Whatever writes to out's stream directly finds the pending text written. */

static FILE *raw_out(void) { return g_out ? g_out : stdout; }

FILE *out_stream(void)
{
    if (g_line_len) line_flush();
    return raw_out();
}

static void line_flush(void)
{
    if (!g_line_len) return;
    fwrite(g_line, 1, g_line_len, raw_out());
    g_line_len = 0;
}

/* Append text; every whole line of it goes out, wrapped to width. */
static void line_add(const char *t, size_t n, int width)
{
    if (g_line_len + n + 1 > g_line_cap) {
        size_t cap = (g_line_len + n + 1) * 2;
        char *b = realloc(g_line, cap);
        if (!b) {
            line_flush();
            fwrite(t, 1, n, raw_out());
            return;
        }
        g_line = b;
        g_line_cap = cap;
    }
    memcpy(g_line + g_line_len, t, n);
    g_line_len += n;
    g_line[g_line_len] = 0;
    char *nl;
    while (g_line_len && (nl = memchr(g_line, '\n', g_line_len)) != NULL) {
        *nl = 0;
        size_t l = (size_t)(nl - g_line);
        if (out_text_width(g_line, l) <= width) {
            fwrite(g_line, 1, l, raw_out());
            fputc('\n', raw_out());
        } else {
            int lead = (int)strspn(g_line, " ");
            out_wrap_to(raw_out(), g_line, width, 0, lead + 2);
        }
        memmove(g_line, nl + 1, g_line_len - l - 1);
        g_line_len -= l + 1;
        g_line[g_line_len] = 0;
    }
}

static void out_text(const char *t, size_t n)
{
    int w = stream_width(raw_out());
    if (w <= 0) {
        line_flush();
        fwrite(t, 1, n, raw_out());
        return;
    }
    line_add(t, n, w);
}

FILE *out_err_stream(void) { return g_err ? g_err : stderr; }
void out_set_color(int on) { g_color = on; }
int out_color_enabled(void) { return g_color; }

const char *out_color(enum out_role r)
{
    static const char *const esc[] = {
        [OUT_RESET] = "\033[0m", [OUT_BOLD] = "\033[1m", [OUT_DIM] = "\033[2m",
        [OUT_ERROR] = "\033[1;31m", [OUT_WARN] = "\033[33m", [OUT_GOOD] = "\033[32m",
        [OUT_ACCENT] = "\033[36m",
    };
    if (!g_color || (int)r < 0 || (size_t)r >= sizeof esc / sizeof esc[0]) return "";
    return esc[r];
}

/* ------------------------------------------------- control characters */

int out_is_control(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    if (n == 0) return 0;
    if (u[0] < 0x20 || u[0] == 0x7f) return 1;
    if (n >= 2 && u[0] == 0xc2 && u[1] >= 0x80 && u[1] <= 0x9f) return 2;
    return 0;
}

/* The visible form of the control of k bytes at s into v (3 bytes at most). */
static size_t visible(const unsigned char *s, int k, char *v)
{
    if (k == 2) { /* C1: the ESC sequence it stands for */
        v[0] = '^';
        v[1] = '[';
        v[2] = (char)(s[1] - 0x40);
        return 3;
    }
    v[0] = '^';
    v[1] = s[0] == 0x7f ? '?' : (char)(s[0] + 0x40);
    return 2;
}

char *out_escape(const char *s, size_t n, const char *keep)
{
    char *o = malloc(n * 3 / 2 + 2 + n); /* each byte grows to 3 at most per 2 (C1) or 2 per 1 */
    if (!o) return NULL;
    size_t j = 0;
    for (size_t i = 0; i < n;) {
        int k = out_is_control(s + i, n - i);
        if (k == 1 && keep && s[i] && strchr(keep, s[i])) k = 0;
        if (k == 0) {
            o[j++] = s[i++];
            continue;
        }
        j += visible((const unsigned char *)s + i, k, o + j);
        i += (size_t)k;
    }
    o[j] = 0;
    return o;
}

const char *out_vis(const char *s)
{
    enum { NBUF = 8, LEN = 4096 };
    static char bufs[NBUF][LEN + 4];
    static int next;
    if (!s) return "(null)";
    char *b = bufs[next];
    next = (next + 1) % NBUF;
    size_t i = 0, j = 0, n = strlen(s);
    while (i < n) {
        int k = out_is_control(s + i, n - i);
        if (j + (k == 0 ? 1 : k == 1 ? 2 : 3) > LEN) break;
        if (k == 0) {
            b[j++] = s[i++];
        } else {
            j += visible((const unsigned char *)s + i, k, b + j);
            i += (size_t)k;
        }
    }
    if (i < n) {
        /* cut: not inside a UTF-8 character (continuation bytes were copied one for one) */
        while (j > 0 && i > 0 && ((unsigned char)s[i] & 0xC0) == 0x80) {
            i--;
            j--;
        }
        memcpy(b + j, "...", 4);
    } else {
        b[j] = 0;
    }
    return b;
}

void out_vprintf(const char *fmt, va_list ap)
{
    char small[1024];
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(small, sizeof small, fmt, aq);
    va_end(aq);
    if (n < 0) return;
    if ((size_t)n < sizeof small) {
        out_text(small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) return;
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    out_text(big, (size_t)n);
    free(big);
}

void out_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    out_vprintf(fmt, ap);
    va_end(ap);
}

void out_puts(const char *s)
{
    out_text(s, strlen(s));
}

void out_flush(void)
{
    fflush(out_stream());
    fflush(out_err_stream());
}

/* "note: ..." on the error stream, wrapped at word boundaries where its
 * width is known, continuation lines indented. */
static void tagged(enum out_role role, const char *tag, const char *fmt, va_list ap)
{
    FILE *e = out_err_stream();
    fflush(out_stream());
    char *text = NULL;
    if (vasprintf(&text, fmt, ap) < 0 || !text) return;
    char *vis = out_escape(text, strlen(text), "\n\t"); /* what it quotes made visible */
    char *line = NULL;
    if (vis && asprintf(&line, "%s%s:%s %s", out_color(role), tag, out_color(OUT_RESET), vis) >= 0 && line)
        out_wrap_to(e, line, stream_width(e), 0, 2);
    free(line);
    free(vis);
    free(text);
    fflush(e);
}

void out_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tagged(OUT_ACCENT, _("note"), fmt, ap);
    va_end(ap);
}

void out_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tagged(OUT_WARN, _("warning"), fmt, ap);
    va_end(ap);
}

static int g_progress; /* a status line is showing */

void out_progress(const char *fmt, ...)
{
    FILE *e = out_err_stream();
    if (!isatty(fileno(e))) return;
    va_list ap;
    va_start(ap, fmt);
    fputs("\r\033[K", e);
    vfprintf(e, fmt, ap);
    va_end(ap);
    fflush(e);
    g_progress = 1;
}

void out_progress_clear(void)
{
    if (!g_progress) return;
    fputs("\r\033[K", out_err_stream());
    fflush(out_err_stream());
    g_progress = 0;
}

void out_verror(const struct out_loc *loc, const char *fmt, va_list ap)
{
    FILE *e = out_err_stream();
    fflush(out_stream());
    /* The whole message, wrapped at the terminal's width like notes and
     * warnings (continuation lines indented), so no error runs off an
     * 80-column screen. */
    char *where = NULL, *msg = NULL, *line = NULL;
    if (loc && loc->script && loc->line > 0 && asprintf(&where, _("line %d of %s: "), loc->line, loc->script) < 0)
        where = NULL;
    if (vasprintf(&msg, fmt, ap) < 0) msg = NULL;
    char *vis = msg ? out_escape(msg, strlen(msg), "\n\t") : NULL;
    if (asprintf(&line, "%s%s%s %s%s", out_color(OUT_ERROR), _("error:"), out_color(OUT_RESET), where ? where : "",
                 vis ? vis : msg ? msg : _("(out of memory)")) >= 0 && line)
        out_wrap_to(e, line, stream_width(e), 0, 2);
    free(line);
    free(vis);
    free(msg);
    free(where);
    if (loc && loc->text && loc->pos >= 0) {
        /* The line without its trailing newline, its control characters
         * made visible, then the caret under the word: tabs are kept in the
         * caret line, a control's visible form counts its columns, and a
         * UTF-8 character counts once, so the columns agree. */
        const char *t = loc->text;
        size_t tl = strcspn(t, "\r\n");
        if (loc->text_len > 0 && (size_t)loc->text_len < tl) tl = (size_t)loc->text_len;
        int pos = loc->pos, len = loc->len < 1 ? 1 : loc->len;
        if ((size_t)pos > tl + 1) pos = (int)tl + 1;
        char *vis = out_escape(t, tl, "\t");
        fprintf(e, "    %s\n    ", vis ? vis : "");
        free(vis);
        for (int i = 0; i < pos;) {
            int k = (size_t)i < tl ? out_is_control(t + i, tl - (size_t)i) : 0;
            if ((size_t)i < tl && t[i] == '\t') {
                fputc('\t', e);
                i++;
            } else if (k) {
                fputs(k == 2 ? "   " : "  ", e);
                i += k;
            } else {
                fputc(' ', e);
                i++;
                while ((size_t)i < tl && ((unsigned char)t[i] & 0xC0) == 0x80) i++;
            }
        }
        fprintf(e, "%s^", out_color(OUT_GOOD));
        for (int i = 1; i < len; i++) fputc('~', e);
        fprintf(e, "%s\n", out_color(OUT_RESET));
    }
    fflush(e);
}

void out_error(const struct out_loc *loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    out_verror(loc, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------ the terminal */


void out_set_width(int cols) { g_width_override = cols; }

static int g_paging; /* out's stream collects for the pager: it measures as stdout */

static int tty_size_of(FILE *o, int *cols, int *rows)
{
    struct winsize ws;
    if (g_paging && o == g_out) o = stdout;
    if (o != stdout && o != stderr) return -1;
    if (!isatty(fileno(o)) || ioctl(fileno(o), TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0) return -1;
    if (cols) *cols = ws.ws_col;
    if (rows) *rows = ws.ws_row;
    return 0;
}

static int tty_size(int *cols, int *rows) { return tty_size_of(out_stream(), cols, rows); }

/* The width of an output stream, as out_width() says it for out's stream. */
static int stream_width(FILE *f)
{
    if (g_width_override >= 0) return g_width_override;
    int cols;
    if (tty_size_of(f, &cols, NULL) == 0) return cols;
    const char *c = getenv("COLUMNS");
    int w = c ? atoi(c) : 0;
    return w >= 20 && w <= 1000 ? w : 0;
}

int out_width(void) { return stream_width(out_stream()); }

int out_height(void)
{
    int rows;
    if (tty_size(NULL, &rows) == 0 && rows > 0) return rows;
    const char *l = getenv("LINES");
    int h = l ? atoi(l) : 0;
    return h >= 5 && h <= 1000 ? h : 0;
}

/* Bytes of the well-formed UTF-8 character at s (RFC 3629: no overlong
 * forms, no surrogates, nothing past U+10FFFF), 0 when it is not one. */
static int utf8_char(const unsigned char *s)
{
    if (s[0] < 0x80) return 1;
    int n = s[0] >= 0xC2 && s[0] <= 0xDF ? 2 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3 : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
    if (!n) return 0;
    unsigned lo = 0x80, hi = 0xBF;
    if (s[0] == 0xE0) lo = 0xA0;
    if (s[0] == 0xED) hi = 0x9F;
    if (s[0] == 0xF0) lo = 0x90;
    if (s[0] == 0xF4) hi = 0x8F;
    if (s[1] < lo || s[1] > hi) return 0;
    for (int i = 2; i < n; i++)
        if ((s[i] & 0xC0) != 0x80) return 0;
    return n;
}

/* The code point of the UTF-8 character at s (at most len bytes) in *cp and
 * its length; a byte that does not start a well-formed character counts as
 * one character of its own. */
static int utf8_next_n(const char *s, size_t len, uint32_t *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    int n = utf8_char(u);
    if (n <= 1 || (size_t)n > len) {
        *cp = u[0];
        return 1;
    }
    uint32_t v = u[0] & (0x7Fu >> n);
    for (int i = 1; i < n; i++) v = v << 6 | (u[i] & 0x3Fu);
    *cp = v;
    return n;
}

/* Display width of a UTF-8 string in terminal columns: a Chinese character
 * takes two, a combining mark none; ANSI colour sequences (ESC [ ... m) and
 * other control characters take none. */
int out_text_width(const char *s, size_t len)
{
    int w = 0;
    for (size_t i = 0; i < len && s[i];) {
        if (s[i] == '\033' && i + 1 < len && s[i + 1] == '[') {
            i += 2;
            while (i < len && s[i] && !(s[i] >= '@' && s[i] <= '~')) i++;
            if (i < len && s[i]) i++;
            continue;
        }
        uint32_t cp;
        i += (size_t)utf8_next_n(s + i, len - i, &cp);
        if (cp >= 0x20) w += viz_cp_width(cp);
    }
    return w;
}

/* Closing punctuation that may not start a line (，。、；：！？ and closing
 * brackets and quotes). */
static int no_break_before(uint32_t cp)
{
    static const uint32_t list[] = {0x3001, 0x3002, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0xFF01, 0xFF1F,
                                    0xFF09, 0x3009, 0x300B, 0x300D, 0x300F, 0x3011, 0x201D, 0x2019};
    for (size_t i = 0; i < sizeof list / sizeof list[0]; i++)
        if (cp == list[i]) return 1;
    return 0;
}

size_t out_unit_len(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && s[i] && s[i] != ' ' && s[i] != '\n') {
        uint32_t cp;
        int k = utf8_next_n(s + i, len - i, &cp);
        int wide = cp >= 0x1100 && viz_cp_width(cp) == 2;
        if (wide && i > 0 && !no_break_before(cp)) break; /* a break before it */
        i += (size_t)k;
        if (wide) { /* and after it, past the punctuation and markers that follow */
            while (i < len && s[i]) {
                unsigned char c = (unsigned char)s[i];
                if (c < 8 && c % 2 == 0) { /* a marker that closes a style */
                    i++;
                    continue;
                }
                k = utf8_next_n(s + i, len - i, &cp);
                if (!no_break_before(cp)) break;
                i += (size_t)k;
            }
            break;
        }
    }
    return i ? i : 1;
}

static int utf8_width(const char *s) { return out_text_width(s, strlen(s)); }

size_t out_fit_len(const char *s, int cols)
{
    size_t i = 0, len = strlen(s);
    int w = 0;
    while (i < len) {
        uint32_t cp;
        int k = utf8_next_n(s + i, len - i, &cp);
        int cw = cp >= 0x20 ? viz_cp_width(cp) : 0;
        if (w + cw > cols) break;
        w += cw;
        i += (size_t)k;
    }
    return i;
}

const char *out_pad(const char *s, int width)
{
    enum { NBUF = 8, LEN = 512 };
    static char bufs[NBUF][LEN];
    static int next;
    char *b = bufs[next];
    next = (next + 1) % NBUF;
    int pad = width - utf8_width(s);
    snprintf(b, LEN, "%s%*s", s, pad > 0 ? pad : 0, "");
    return b;
}

void out_wrap_to(FILE *f, const char *text, int width, int indent, int hang)
{
    const char *p = text;
    int first = 1;
    while (*p) {
        size_t para = strcspn(p, "\n");
        int ind = first ? indent : hang;
        if (width <= 0 || out_text_width(p, para) + ind <= width) {
            fprintf(f, "%*s%.*s\n", ind, "", (int)para, p);
        } else {
            /* Words of this line, filled up to width; a word longer than a
             * line is cut only when nothing else can be done. Chinese text
             * breaks between its characters (out_unit_len). */
            const char *q = p, *end = p + para;
            int col = 0, room = width - ind > 10 ? width - ind : 10;
            fprintf(f, "%*s", ind, "");
            while (q < end) {
                const char *gap = q; /* the spaces before a word are kept as they are */
                while (q < end && *q == ' ') q++;
                if (q >= end) break;
                int gw = (int)(q - gap);
                const char *w = q;
                q += out_unit_len(q, (size_t)(end - q));
                int ww = out_text_width(w, (size_t)(q - w));
                if (col > 0 && col + gw + ww > room) {
                    ind = hang;
                    room = width - ind > 10 ? width - ind : 10;
                    fprintf(f, "\n%*s", ind, "");
                    col = 0;
                    gw = 0;
                }
                fprintf(f, "%*s", gw, "");
                fwrite(w, 1, (size_t)(q - w), f);
                col += gw + ww;
            }
            fputc('\n', f);
        }
        first = 0;
        p += para;
        if (*p == '\n') {
            p++;
            first = 1; /* a new line of the text starts at the first indent */
        }
    }
}

void out_wrapped(const char *text, int indent, int hang)
{
    out_wrap_to(out_stream(), text, out_width(), indent, hang);
}

void out_wrapf(int indent, int hang, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) >= 0 && s) {
        size_t l = strlen(s);
        if (l && s[l - 1] == '\n') s[l - 1] = 0;
        out_wrapped(s, indent, hang);
        free(s);
    }
    va_end(ap);
}

/* ---------------------------------------------------------------- the pager */

void out_set_pager(int on) { g_pager = on; }
int out_pager_enabled(void) { return g_pager; }

static FILE *g_page_saved;
static char *g_page_buf;
static size_t g_page_len;

int out_page_begin(void)
{
    if (!g_pager || g_paging || out_stream() != stdout || !isatty(STDOUT_FILENO) ||
        !isatty(STDIN_FILENO))
        return 0;
    FILE *m = open_memstream(&g_page_buf, &g_page_len);
    if (!m) return 0;
    line_flush();
    fflush(stdout);
    g_page_saved = g_out;
    g_out = m;
    g_paging = 1;
    return 1;
}

/* Screen lines the text takes at cols columns. */
static long screen_lines(const char *s, size_t len, int cols)
{
    long lines = 0;
    size_t i = 0;
    while (i < len) {
        size_t l = 0;
        while (i + l < len && s[i + l] != '\n') l++;
        int w = out_text_width(s + i, l);
        lines += cols > 0 && w > cols ? (w + cols - 1) / cols : 1;
        i += l + 1;
    }
    return lines;
}

static void write_all(FILE *f, const char *s, size_t len)
{
    if (len) fwrite(s, 1, len, f);
    fflush(f);
}

void out_page_end(void)
{
    if (!g_paging) return;
    line_flush();
    fclose(g_out); /* g_page_buf, g_page_len now hold the text */
    g_out = g_page_saved;
    g_paging = 0;
    int cols = 80, rows = 24;
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0) {
        cols = ws.ws_col;
        rows = ws.ws_row;
    }
    const char *pager = getenv("PAGER");
    if (!pager) pager = "less";
    int fits = screen_lines(g_page_buf, g_page_len, cols) < rows - 1;
    if (fits || !*pager || strcmp(pager, "cat") == 0) {
        write_all(stdout, g_page_buf, g_page_len);
    } else {
        /* less -R shows the colours; the pager owns the terminal (and Ctrl-C)
         * until it ends, and a pager that quits early is no error. */
        void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN);
        void (*old_int)(int) = signal(SIGINT, SIG_IGN);
        /* As git does: less gets LESS=FRX unless the user set LESS, so the
         * text stays on the screen when it quits (-X), a page that fits is
         * printed without waiting (-F), and the colours show (-R). */
        int set_less = !getenv("LESS");
        if (set_less) setenv("LESS", "FRX", 1);
        FILE *p = popen(pager, "w");
        if (set_less) unsetenv("LESS");
        if (!p) {
            write_all(stdout, g_page_buf, g_page_len);
        } else {
            fwrite(g_page_buf, 1, g_page_len, p);
            int rc = pclose(p);
            if (rc == -1 || (WIFEXITED(rc) && WEXITSTATUS(rc) == 127))
                write_all(stdout, g_page_buf, g_page_len); /* no such pager */
        }
        signal(SIGINT, old_int);
        signal(SIGPIPE, old_pipe);
    }
    free(g_page_buf);
    g_page_buf = NULL;
    g_page_len = 0;
}

/* -------------------------------------------------------------------- JSON */

void out_json(struct json_t *obj)
{
    if (!obj) return;
    char *s = json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
    if (s) {
        fputs(s, out_stream());
        fputc('\n', out_stream());
        free(s);
    }
    json_decref(obj);
}


json_t *out_json_text(const char *s)
{
    if (!s) return json_null();
    json_t *j = json_string(s);
    if (j) return j;
    /* not UTF-8 (a file name from another locale): keep every byte, the
     * ones that are not characters as the text \xNN */
    size_t n = strlen(s);
    char *t = malloc(4 * n + 1);
    if (!t) return json_null();
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        int k = utf8_char((const unsigned char *)s + i);
        if (k) {
            memcpy(t + o, s + i, (size_t)k);
            o += (size_t)k;
            i += (size_t)k;
        } else {
            o += (size_t)sprintf(t + o, "\\x%02x", (unsigned char)s[i]);
            i++;
        }
    }
    t[o] = 0;
    j = json_string(t);
    free(t);
    return j ? j : json_null();
}

/* A number, or null when the value is unknown (negative) or not finite. */
static json_t *num_or_null(double v, int known)
{
    if (!known || v != v || v > 1e308 || v < -1e308) return json_null();
    return json_real(v);
}

json_t *out_result_json(const lab_result *r)
{
    json_t *o = json_object();
    int ran = r->ran != 0;
    json_object_set_new(o, "algo", json_string(r->algo));
    json_object_set_new(o, "variant", json_string(r->variant));
    json_object_set_new(o, "backend", json_string(lab_backend_name(r->backend)));
    json_object_set_new(o, "n", json_integer(r->n));
    json_object_set_new(o, "dtype", json_string(lab_dtype_name(r->dtype)));
    json_object_set_new(o, "block", json_integer(r->block));
    json_object_set_new(o, "grid", json_integer(r->grid));
    if (r->block_y > 0) json_object_set_new(o, "block_y", json_integer(r->block_y));
    if (r->grid_y > 0) json_object_set_new(o, "grid_y", json_integer(r->grid_y));
    json_object_set_new(o, "ran", json_boolean(ran));
    json_object_set_new(o, "ms", num_or_null(r->ms, ran));
    json_object_set_new(o, "ms_min", num_or_null(r->ms_min, ran));
    json_object_set_new(o, "ms_max", num_or_null(r->ms_max, ran));
    json_object_set_new(o, "gbps", num_or_null(r->gbps, ran && r->gbps > 0));
    json_object_set_new(o, "pct_peak", num_or_null(r->pct_peak, ran && r->pct_peak >= 0));
    json_object_set_new(o, "speedup", num_or_null(r->speedup, ran && r->speedup > 0));
    json_object_set_new(o, "result", ran && r->result[0] ? out_json_text(r->result) : json_null());
    json_object_set_new(o, "correct",
                        !ran || r->correct < 0 ? json_null() : json_boolean(r->correct != 0));
    json_object_set_new(o, "rel_error", num_or_null(r->rel_error, ran && r->rel_error >= 0));
    json_object_set_new(o, "gflops", num_or_null(r->gflops, ran && r->gflops > 0));
    json_object_set_new(o, "est_ms", num_or_null(r->est_ms, ran && r->est_ms > 0));
    json_object_set_new(o, "repeats", json_integer(ran ? r->repeats : 0));
    json_object_set_new(o, "note", out_json_text(r->note));
    return o;
}

void out_json_result(const lab_result *r)
{
    out_json(out_result_json(r));
}
