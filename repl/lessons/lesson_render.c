/* lesson_render.c - a lesson step on the terminal: CommonMark blocks wrapped
 * to the width, headings and emphasis in ANSI bold and underline when colour
 * is on (plain text otherwise), commands, questions and the lecture's
 * numbers in their own layout. Everything goes through repl/out. */
#include "repl/i18n.h"
#include "repl/lessons/lesson.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cmark.h>

#include "repl/out.h"
#include "repl/session.h"

/* Style markers inside a marked-up string; never printed themselves. */
enum { M_BOLD = 1, M_BOLD_END, M_ULINE, M_ULINE_END, M_CODE, M_CODE_END };

int lesson_width(void)
{
    struct winsize ws;
    int w = 0;
    if (isatty(fileno(out_stream())) && ioctl(fileno(out_stream()), TIOCGWINSZ, &ws) == 0)
        w = ws.ws_col;
    if (w <= 0) {
        const char *c = getenv("COLUMNS");
        w = c ? atoi(c) : 0;
    }
    if (w <= 0) w = 80;
    if (w > 100) w = 100;
    if (w < 30) w = 30;
    return w;
}

int lesson_on_sim(const struct session *s)
{
    if (s->cfg.backend == LAB_BACKEND_SIM) return 1;
    return !lab_gpu_available();
}

const char *lesson_cmd_text(const struct session *s, const struct lesson_cmd *c)
{
    return c->sim && lesson_on_sim(s) ? c->sim : c->text;
}

/* ---- a growing string */

struct buf {
    char *p;
    size_t n, cap;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        b->cap = (b->n + n + 1) * 2;
        b->p = realloc(b->p, b->cap);
        if (!b->p) abort();
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

static void buf_str(struct buf *b, const char *s) { buf_add(b, s, strlen(s)); }

static void buf_ch(struct buf *b, char c) { buf_add(b, &c, 1); }

/* Inline nodes into a marked-up string. */
static void inlines(cmark_node *n, struct buf *b)
{
    for (cmark_node *c = cmark_node_first_child(n); c; c = cmark_node_next(c)) {
        switch (cmark_node_get_type(c)) {
        case CMARK_NODE_TEXT: buf_str(b, cmark_node_get_literal(c)); break;
        case CMARK_NODE_SOFTBREAK: buf_ch(b, ' '); break;
        case CMARK_NODE_LINEBREAK: buf_ch(b, '\n'); break;
        case CMARK_NODE_CODE:
            buf_ch(b, M_CODE);
            buf_str(b, cmark_node_get_literal(c));
            buf_ch(b, M_CODE_END);
            break;
        case CMARK_NODE_EMPH:
            buf_ch(b, M_ULINE);
            inlines(c, b);
            buf_ch(b, M_ULINE_END);
            break;
        case CMARK_NODE_STRONG:
            buf_ch(b, M_BOLD);
            inlines(c, b);
            buf_ch(b, M_BOLD_END);
            break;
        case CMARK_NODE_LINK:
            inlines(c, b);
            if (cmark_node_get_url(c) && *cmark_node_get_url(c)) {
                buf_str(b, " <");
                buf_str(b, cmark_node_get_url(c));
                buf_ch(b, '>');
            }
            break;
        case CMARK_NODE_IMAGE: inlines(c, b); break;
        default: inlines(c, b); break;
        }
    }
}

/* Visible columns of a UTF-8 string (markers and continuation bytes do not count). */
/* Display columns (the style markers take none; a Chinese character two). */
static int cols(const char *s, size_t n) { return out_text_width(s, n); }

struct style {
    int bold, uline, code;
};

static void emit_style(const struct style *st)
{
    if (!out_color_enabled()) return;
    out_puts("\033[0m");
    if (st->bold) out_puts("\033[1m");
    if (st->uline) out_puts("\033[4m");
    if (st->code) out_puts(out_color(OUT_ACCENT));
}

/* Print a word, turning markers into styles; updates st. */
static void emit_word(const char *w, size_t n, struct style *st)
{
    int color = out_color_enabled();
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)w[i];
        if (c >= M_BOLD && c <= M_CODE_END) {
            if (c == M_BOLD) st->bold = 1;
            if (c == M_BOLD_END) st->bold = 0;
            if (c == M_ULINE) st->uline = 1;
            if (c == M_ULINE_END) st->uline = 0;
            if (c == M_CODE) st->code = 1;
            if (c == M_CODE_END) st->code = 0;
            if (color) emit_style(st);
            else if (c == M_CODE || c == M_CODE_END) out_puts("`");
            continue;
        }
        char ch[2] = {(char)c, 0};
        out_puts(ch);
    }
}

/* Wrap a marked-up text to width: first line after prefix1, the others after prefix2. */
static void wrap(const char *text, int width, const char *prefix1, const char *prefix2)
{
    struct style st = {0};
    int plain = !out_color_enabled();
    const char *p = text;
    const char *prefix = prefix1;
    int col = 0, start = 1, spaced = 0;
    while (*p) {
        if (*p == '\n') { /* a hard break */
            if (out_color_enabled()) out_puts("\033[0m");
            out_puts("\n");
            col = 0;
            start = 1;
            prefix = prefix2;
            p++;
            continue;
        }
        if (*p == ' ') {
            spaced = 1;
            p++;
            continue;
        }
        /* a word, or one character of Chinese text (no spaces between) */
        size_t n = out_unit_len(p, strlen(p));
        int gap = spaced ? 1 : 0;
        spaced = 0;
        /* In plain text a code span shows its backticks: count them. */
        int wcols = cols(p, n);
        if (plain)
            for (size_t i = 0; i < n; i++)
                if (p[i] == M_CODE || p[i] == M_CODE_END) wcols++;
        if (start) {
            out_puts(prefix);
            col = cols(prefix, strlen(prefix));
            if (out_color_enabled() && (st.bold || st.uline || st.code)) emit_style(&st);
        } else if (col + gap + wcols > width) {
            if (out_color_enabled()) out_puts("\033[0m");
            out_puts("\n");
            prefix = prefix2;
            out_puts(prefix);
            col = cols(prefix, strlen(prefix));
            if (out_color_enabled() && (st.bold || st.uline || st.code)) emit_style(&st);
        } else if (gap) {
            out_puts(" ");
            col++;
        }
        emit_word(p, n, &st);
        col += wcols;
        start = 0;
        p += n;
    }
    if (out_color_enabled()) out_puts("\033[0m");
    if (!start) out_puts("\n");
}

static void spaces(char *buf, int n)
{
    if (n < 0) n = 0;
    if (n > 40) n = 40;
    memset(buf, ' ', (size_t)n);
    buf[n] = 0;
}

static void render_block(struct session *s, cmark_node *n, int width, const char *pad,
                         const char *pad2);

static void render_code(struct session *s, cmark_node *n, const char *pad)
{
    const char *info = cmark_node_get_fence_info(n);
    char lang[32] = "";
    if (info) sscanf(info, "%31s", lang);
    const char *lit = cmark_node_get_literal(n);
    if (strcmp(lang, "gpulab") == 0) {
        char *copy = strdup(lit ? lit : "");
        int on_sim = s && lesson_on_sim(s);
        for (char *line = strtok(copy, "\n"); line; line = strtok(NULL, "\n")) {
            while (*line == ' ') line++;
            if (!*line) continue;
            char *sim = strstr(line, "#sim:");
            if (!sim) sim = strstr(line, "# sim:");
            if (sim) {
                *sim = 0;
                sim = strchr(sim + 1, ':') + 1;
                while (*sim == ' ') sim++;
                size_t l = strlen(line);
                while (l && line[l - 1] == ' ') line[--l] = 0;
            }
            if (*line == '#') {
                out_printf("%s    %s%s%s\n", pad, out_color(OUT_DIM), line, out_color(OUT_RESET));
                continue;
            }
            out_printf("%s  %sgpulab>%s %s%s%s", pad, out_color(OUT_DIM), out_color(OUT_RESET),
                       out_color(OUT_BOLD), on_sim && sim ? sim : line, out_color(OUT_RESET));
            if (sim) {
                out_printf("   %s(", out_color(OUT_DIM));
                out_printf(on_sim ? _("on a GPU: %s") : _("on the simulator: %s"), on_sim ? line : sim);
                out_printf(")%s", out_color(OUT_RESET));
            }
            out_printf("\n");
        }
        free(copy);
        return;
    }
    if (strcmp(lang, "question") == 0 || strcmp(lang, "lecture") == 0) return; /* drawn from the parsed step */
    char *copy = strdup(lit ? lit : "");
    char *save = NULL;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        out_printf("%s    %s%s%s\n", pad, out_color(OUT_ACCENT), line, out_color(OUT_RESET));
    free(copy);
}

static void render_list(struct session *s, cmark_node *n, int width, const char *pad)
{
    int ordered = cmark_node_get_list_type(n) == CMARK_ORDERED_LIST;
    int k = ordered ? cmark_node_get_list_start(n) : 0;
    for (cmark_node *item = cmark_node_first_child(n); item; item = cmark_node_next(item), k++) {
        char first[64], rest[64];
        if (ordered)
            snprintf(first, sizeof first, "%s%d. ", pad, k);
        else
            snprintf(first, sizeof first, "%s- ", pad);
        spaces(rest, cols(first, strlen(first)));
        int firstblock = 1;
        for (cmark_node *c = cmark_node_first_child(item); c; c = cmark_node_next(c)) {
            render_block(s, c, width, firstblock ? first : rest, rest);
            firstblock = 0;
        }
    }
}

static void render_block(struct session *s, cmark_node *n, int width, const char *pad,
                         const char *pad2)
{
    struct buf b = {0};
    switch (cmark_node_get_type(n)) {
    case CMARK_NODE_PARAGRAPH:
        inlines(n, &b);
        if (b.p) wrap(b.p, width, pad, pad2);
        break;
    case CMARK_NODE_HEADING:
        buf_ch(&b, M_BOLD);
        inlines(n, &b);
        buf_ch(&b, M_BOLD_END);
        wrap(b.p, width, pad, pad2);
        break;
    case CMARK_NODE_CODE_BLOCK: render_code(s, n, pad); break;
    case CMARK_NODE_LIST: render_list(s, n, width, pad); break;
    case CMARK_NODE_BLOCK_QUOTE: {
        char q[64];
        snprintf(q, sizeof q, "%s| ", pad2);
        for (cmark_node *c = cmark_node_first_child(n); c; c = cmark_node_next(c))
            render_block(s, c, width, q, q);
        break;
    }
    case CMARK_NODE_THEMATIC_BREAK: {
        out_puts(pad);
        for (int i = cols(pad, strlen(pad)); i < width && i < 60; i++) out_puts("-");
        out_puts("\n");
        break;
    }
    default: break; /* raw HTML is not shown */
    }
    free(b.p);
}

void lesson_render_step(struct session *s, const struct lesson *l, int i, int width, int margin)
{
    const struct lesson_step *st = &l->steps[i];
    char pad[48];
    spaces(pad, margin);
    /* The heading: "Step 2/7  Title" underlined in colour, '=' under it otherwise. */
    char head[600];
    snprintf(head, sizeof head, _("%s (step %d of %d)"), st->title, i + 1, l->nsteps);
    out_printf("\n%s%s%s%s%s\n", pad, out_color(OUT_BOLD), out_color_enabled() ? "\033[4m" : "", head,
               out_color(OUT_RESET));
    if (!out_color_enabled()) {
        out_puts(pad);
        for (int k = cols(head, strlen(head)); k > 0; k--) out_puts("=");
        out_puts("\n");
    }
    out_puts("\n");
    for (cmark_node *n = st->first; n && n != st->stop; n = cmark_node_next(n)) {
        cmark_node_type t = cmark_node_get_type(n);
        const char *info = t == CMARK_NODE_CODE_BLOCK ? cmark_node_get_fence_info(n) : NULL;
        if (info && (strncmp(info, "question", 8) == 0 || strncmp(info, "lecture", 7) == 0)) continue;
        if (t == CMARK_NODE_HTML_BLOCK) continue;
        render_block(s, n, width, pad, pad);
        out_puts("\n");
    }
    if (st->text) {
        struct buf b = {0};
        buf_str(&b, st->text);
        wrap(b.p, width, pad, pad);
        free(b.p);
        out_puts("\n");
    }
    if (!st->first && l->doc == NULL) { /* a script step: its commands are the content */
        for (int c = 0; c < st->ncmds; c++)
            out_printf("%s  %sgpulab>%s %s%s%s\n", pad, out_color(OUT_DIM), out_color(OUT_RESET),
                       out_color(OUT_BOLD), s ? lesson_cmd_text(s, &st->cmds[c]) : st->cmds[c].text,
                       out_color(OUT_RESET));
        if (st->ncmds) out_puts("\n");
    }
    for (int k = 0; k < st->nlectures; k++) {
        const struct lesson_lecture *lc = &st->lectures[k];
        out_printf(_("%s%sThe lecture measured%s (%s):\n"), pad, out_color(OUT_BOLD), out_color(OUT_RESET),
                   lc->source);
        int lw = 0;
        for (int r = 0; r < lc->nrows; r++) {
            int w = cols(lc->rows[r].label, strlen(lc->rows[r].label));
            if (w > lw) lw = w;
        }
        for (int r = 0; r < lc->nrows; r++)
            out_printf("%s  %-*s  %s\n", pad, lw, lc->rows[r].label, lc->rows[r].value);
        out_puts("\n");
    }
    for (int k = 0; k < st->nquestions; k++) {
        const struct lesson_question *q = &st->questions[k];
        struct buf b = {0};
        buf_ch(&b, M_BOLD);
        buf_str(&b, _("Question:"));
        buf_ch(&b, M_BOLD_END);
        buf_str(&b, i18n_gap(_("Question:")));
        buf_str(&b, q->text);
        wrap(b.p, width, pad, pad);
        free(b.p);
        for (int c = 0; c < q->nchoices; c++) {
            char line[1024];
            snprintf(line, sizeof line, "%c) %s", 'a' + c, q->choices[c]);
            char ind[64];
            snprintf(ind, sizeof ind, "%s   ", pad);
            char first[64];
            snprintf(first, sizeof first, "%s  ", pad);
            wrap(line, width, first, ind);
        }
        if (q->nchoices)
            out_printf(_("%s%s(answer it with: answer LETTER, or the choice's words)%s\n"), pad,
                       out_color(OUT_DIM), out_color(OUT_RESET));
        else if (q->nanswers)
            out_printf(_("%s%s(answer it with: answer YOUR ANSWER)%s\n"), pad, out_color(OUT_DIM),
                       out_color(OUT_RESET));
        else
            out_printf(_("%s%s(an open question: think it through, there is nothing to check)%s\n"), pad,
                       out_color(OUT_DIM), out_color(OUT_RESET));
        out_puts("\n");
    }
}

