/* render_code.c - kernel source with line numbers, a highlighted line and
 * CUDA syntax roles (render_code.h). A small lexer, line by line, that only
 * needs to know where comments, strings, numbers and words are; the one
 * state it carries from line to line is being inside a block comment. */
#include "viz/render_code.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const char *const keywords[] = {
    "auto", "bool", "break", "case", "char", "const", "constexpr", "continue", "default", "do", "double",
    "else", "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "return", "short",
    "signed", "sizeof", "static", "struct", "switch", "template", "typedef", "typename", "union",
    "unsigned", "void", "volatile", "while", "__global__", "__device__", "__host__", "__shared__",
    "__constant__", "__restrict__", "__launch_bounds__", "__forceinline__", "size_t", "dim3", NULL};

/* CUDA's built-in variables: where a thread learns who it is. */
static const char *const builtins[] = {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", NULL};

static int in_list(const char *const *list, const char *w, size_t n)
{
    for (int i = 0; list[i]; i++)
        if (strlen(list[i]) == n && strncmp(list[i], w, n) == 0) return 1;
    return 0;
}

/* Barriers, shuffles, votes and atomics: where threads meet. */
static int is_collective(const char *w, size_t n)
{
    static const char *const pre[] = {"__syncthreads", "__syncwarp", "__shfl", "__ballot", "__any_sync",
                                      "__all_sync", "__match", "atomic", "__threadfence", NULL};
    for (int i = 0; pre[i]; i++) {
        size_t l = strlen(pre[i]);
        if (n >= l && strncmp(w, pre[i], l) == 0) return 1;
    }
    return 0;
}

/* Roles of one line's bytes into roles[] (one per byte); *in_comment
 * carries a block comment over to the next line. */
static void lex_line(const char *s, size_t n, unsigned char *roles, unsigned char *attrs, int *in_comment)
{
    size_t i = 0;
    size_t first = 0;
    while (first < n && (s[first] == ' ' || s[first] == '\t')) first++;
    int pp = !*in_comment && first < n && s[first] == '#';
    while (i < n) {
        size_t start = i;
        int role = pp ? VIZ_ROLE_SOURCE : VIZ_ROLE_TEXT;
        unsigned attr = 0;
        if (*in_comment) {
            while (i < n && !(s[i] == '*' && i + 1 < n && s[i + 1] == '/')) i++;
            if (i < n) { i += 2; *in_comment = 0; }
            role = VIZ_ROLE_DIM;
            attr = VIZ_DIMMED;
        } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
            i = n;
            role = VIZ_ROLE_DIM;
            attr = VIZ_DIMMED;
        } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
            i += 2;
            while (i < n && !(s[i] == '*' && i + 1 < n && s[i + 1] == '/')) i++;
            if (i < n) i += 2;
            else *in_comment = 1;
            role = VIZ_ROLE_DIM;
            attr = VIZ_DIMMED;
        } else if (s[i] == '"' || s[i] == '\'') {
            char q = s[i++];
            while (i < n && s[i] != q) i += s[i] == '\\' ? 2 : 1;
            if (i < n) i++;
            if (i > n) i = n;
            role = VIZ_ROLE_VALUE;
        } else if (isdigit((unsigned char)s[i]) || (s[i] == '.' && i + 1 < n && isdigit((unsigned char)s[i + 1]))) {
            while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '.')) i++;
            role = pp ? VIZ_ROLE_SOURCE : VIZ_ROLE_VALUE;
        } else if (isalpha((unsigned char)s[i]) || s[i] == '_') {
            while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_')) i++;
            size_t w = i - start;
            if (pp) {
                /* a preprocessor line keeps one role */
            } else if (in_list(keywords, s + start, w)) {
                role = VIZ_ROLE_HEADING;
                attr = VIZ_BOLD;
            } else if (in_list(builtins, s + start, w)) {
                role = VIZ_ROLE_ACTIVE;
            } else if (is_collective(s + start, w)) {
                role = VIZ_ROLE_WARN;
                attr = VIZ_BOLD;
            }
        } else {
            i++;
        }
        for (size_t k = start; k < i && k < n; k++) {
            roles[k] = (unsigned char)role;
            attrs[k] = (unsigned char)attr;
        }
    }
}

/* Pointers to the starts of the text's lines; returns their count. */
static int split_lines(const char *t, size_t len, const char **starts, size_t *lens, int max)
{
    int n = 0;
    size_t i = 0;
    while (i < len && n < max) {
        size_t e = i;
        while (e < len && t[e] != '\n') e++;
        starts[n] = t + i;
        lens[n] = e - i;
        n++;
        i = e + 1;
    }
    return n;
}

static int is_marked(const viz_code *code, int line)
{
    for (int i = 0; i < code->nmarks; i++)
        if (code->marks[i] == line) return 1;
    return 0;
}

#define CODE_MAX_LINES 20000
#define CODE_MAX_COLS 4096

int viz_render_code(canvas *c, viz_rect r, const viz_code *code)
{
    static const char *starts[CODE_MAX_LINES];
    static size_t lens[CODE_MAX_LINES];
    static unsigned char roles[CODE_MAX_COLS], attrs[CODE_MAX_COLS];
    if (!code || !code->text || r.w < 8 || r.h < 1) return 0;
    viz_rect in = r;
    if (code->title) {
        canvas_box(c, r, code->title, VIZ_ROLE_DIM, 0);
        in = viz_rect_make(r.x + 1, r.y + 1, r.w - 2, r.h - 2);
        if (in.h < 1 || in.w < 8) return 0;
    }
    int n = split_lines(code->text, code->len, starts, lens, CODE_MAX_LINES);
    const int *nums = code->line_numbers && code->nlines >= n ? code->line_numbers : NULL;
    /* positions: line k of the text is position first + k; its label is
     * nums[k] (the file's number) when given */
    int first = code->first_line > 0 ? code->first_line : 1;
    int last = first + n - 1;
    int hpos = code->highlight;
    if (nums) {
        hpos = 0;
        for (int k = 0; k < n; k++)
            if (nums[k] == code->highlight) hpos = first + k;
    }
    int top = first;
    if (hpos >= first && hpos <= last && n > in.h) {
        top = hpos - in.h / 3;
        if (top + in.h - 1 > last) top = last - in.h + 1;
        if (top < first) top = first;
    }
    char num[16];
    int digits = snprintf(num, sizeof num, "%d", nums && n > 0 ? nums[n - 1] : last);
    int gutter = digits + 5; /* "▶ 123 │ " */
    int in_comment = 0;
    for (int k = 0; k < top - first && k < n; k++) { /* the comment state at the top line */
        size_t l = lens[k] < CODE_MAX_COLS ? lens[k] : CODE_MAX_COLS;
        lex_line(starts[k], l, roles, attrs, &in_comment);
    }
    int drawn = 0;
    for (int row = 0; row < in.h; row++) {
        int line = top + row;
        if (line > last) break;
        int k = line - first;
        int label = nums ? nums[k] : line;
        int hl = label == code->highlight && code->highlight > 0;
        int y = in.y + row;
        unsigned hattr = hl ? VIZ_REVERSE | VIZ_BOLD : 0;
        if (hl) canvas_fill(c, viz_rect_make(in.x, y, in.w, 1), ' ', VIZ_ROLE_HIGHLIGHT, hattr);
        if (hl) canvas_put(c, in.x, y, 0x25B6, VIZ_ROLE_HIGHLIGHT, hattr); /* ▶ */
        else if (is_marked(code, label)) canvas_put(c, in.x, y, 0x2022, VIZ_ROLE_CONFLICT, VIZ_BOLD); /* • */
        canvas_printf(c, in.x + 2, y, hl ? VIZ_ROLE_HIGHLIGHT : VIZ_ROLE_DIM, hattr, "%*d", digits, label);
        canvas_put(c, in.x + 2 + digits + 1, y, 0x2502, hl ? VIZ_ROLE_HIGHLIGHT : VIZ_ROLE_DIM, hattr); /* │ */
        size_t l = lens[k] < CODE_MAX_COLS ? lens[k] : CODE_MAX_COLS;
        lex_line(starts[k], l, roles, attrs, &in_comment);
        int x = in.x + gutter, xmax = in.x + in.w;
        for (size_t i = 0; i < l && x < xmax; i++) {
            int role = hl ? VIZ_ROLE_HIGHLIGHT : roles[i];
            unsigned attr = hl ? hattr : attrs[i];
            if (starts[k][i] == '\t') {
                for (int t = 0; t < 4 && x < xmax; t++) canvas_put(c, x++, y, ' ', role, attr);
                continue;
            }
            if (x == xmax - 1 && i + 1 < l) { /* more than fits */
                canvas_put(c, x++, y, 0x2026, VIZ_ROLE_DIM, hattr); /* … */
                break;
            }
            unsigned char ch = (unsigned char)starts[k][i];
            if (ch >= 0x80) { /* a UTF-8 sequence: one glyph */
                char buf[8];
                size_t m = 1;
                while (i + m < l && m < 4 && ((unsigned char)starts[k][i + m] & 0xC0) == 0x80) m++;
                memcpy(buf, starts[k] + i, m);
                buf[m] = 0;
                const char *p = buf;
                canvas_put(c, x++, y, viz_utf8_next(&p), role, attr);
                i += m - 1;
                continue;
            }
            canvas_put(c, x++, y, ch < 0x20 ? ' ' : ch, role, attr);
        }
        drawn++;
    }
    return drawn;
}

/* ------------------------------------------------------ finding a function */

static int line_of(const char *t, size_t off)
{
    int line = 1;
    for (size_t i = 0; i < off; i++) line += t[i] == '\n';
    return line;
}

/* Skip a comment or string at t[i]; returns the index after it (i when there is none). */
static size_t skip_lexeme(const char *t, size_t len, size_t i)
{
    if (t[i] == '/' && i + 1 < len && t[i + 1] == '/') {
        while (i < len && t[i] != '\n') i++;
    } else if (t[i] == '/' && i + 1 < len && t[i + 1] == '*') {
        i += 2;
        while (i + 1 < len && !(t[i] == '*' && t[i + 1] == '/')) i++;
        i += 2;
    } else if (t[i] == '"' || t[i] == '\'') {
        char q = t[i++];
        while (i < len && t[i] != q) i += t[i] == '\\' ? 2 : 1;
        i++;
    }
    return i < len ? i : len;
}

/* From the '(' at i: the index after its matching ')'. */
static size_t match_paren(const char *t, size_t len, size_t i, char open, char close)
{
    int depth = 0;
    while (i < len) {
        size_t j = skip_lexeme(t, len, i);
        if (j != i) { i = j; continue; }
        if (t[i] == open) depth++;
        else if (t[i] == close && --depth == 0) return i + 1;
        i++;
    }
    return len;
}

int viz_code_find_function(const char *text, size_t len, const char *name, int *from, int *to)
{
    size_t nl = strlen(name);
    if (!nl) return -1;
    for (size_t i = 0; i + nl <= len; i++) {
        size_t j = skip_lexeme(text, len, i);
        if (j != i) { i = j - 1; continue; }
        if (strncmp(text + i, name, nl) != 0) continue;
        if (i > 0 && (isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_')) continue;
        size_t k = i + nl;
        while (k < len && isspace((unsigned char)text[k])) k++;
        if (k >= len || text[k] != '(') continue;
        size_t after = match_paren(text, len, k, '(', ')');
        while (after < len && isspace((unsigned char)text[after])) after++;
        if (after >= len || text[after] != '{') continue; /* a call or a declaration */
        size_t end = match_paren(text, len, after, '{', '}');
        /* back to the start of the definition: the lines above that are
         * part of it (template, attributes) or its comment */
        size_t ls = i;
        while (ls > 0 && text[ls - 1] != '\n') ls--;
        while (ls > 0) {
            size_t ps = ls - 1;
            while (ps > 0 && text[ps - 1] != '\n') ps--;
            size_t q = ps;
            while (q < ls - 1 && (text[q] == ' ' || text[q] == '\t')) q++;
            if (q >= ls - 1) break; /* a blank line ends it */
            char lastc = text[ls - 2];
            int comment = text[q] == '/' && (text[q + 1] == '/' || text[q + 1] == '*');
            int inner = text[q] == '*';
            int part = lastc != ';' && lastc != '}' && lastc != '{' && text[q] != '#';
            if (!(comment || inner || part)) break;
            ls = ps;
        }
        *from = line_of(text, ls);
        *to = line_of(text, end ? end - 1 : 0);
        return 0;
    }
    return -1;
}
