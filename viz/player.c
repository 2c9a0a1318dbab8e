/* player.c - the animation player: screen layout, the terminal loop, and
 * the text mode for pipes (the keys and what they do: player_keys.c).
 *
 * Screen, top to bottom:
 *   status line   what is playing, the step, play/pause and speed, "? help"
 *   per side      a header (variant, step k/N, the step's title), the
 *                 caption sentence, the counters, then the picture
 *   the table     the timed rows, the animated variant highlighted
 *   key line      the keys, when there is room
 * Two sides stand next to each other and move in step: one frame number,
 * each side clamped to its own last frame.
 *
 * Signals: SIGINT, SIGTERM, SIGHUP and SIGQUIT only set a flag; the loop
 * sees it, the terminal is restored, and the player returns. SIGINT ends
 * there (back to the prompt); the others are raised again afterwards with
 * the handlers that were there before, so they still do what they would
 * have done, but on a sane terminal. Crash signals restore the terminal
 * first, then take their default course.
 */
#include "viz/player.h"
#include "viz/player_keys.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "viz/export.h"
#include "viz/render_code.h"
#include "viz/intl.h"
#include "viz/term.h"

/* ------------------------------------------------------------ drawing */

/* A caption takes up to this many lines where the picture keeps its least
 * height (layout_screen gives lines back on a small screen); `w` shows the
 * whole of a longer one. */
enum { MAX_CAPTION_LINES = 8, MAX_COUNTER_LINES = 2 };

static int side_frames(const viz_side *s, const viz_play_state *st)
{
    int n;
    if (s->acc) {
        viz_access a = pkeys_access_view(s, st);
        n = viz_access_frames(&a);
    } else {
        n = s->r->frames(s->trace);
    }
    return n > 0 ? n : 1;
}

/* The frame a side shows when the player is at frame f. */
static int side_frame(const viz_side *s, const viz_play_state *st, int f)
{
    int n = side_frames(s, st);
    return f < n ? f : n - 1;
}

static int side_min_w(const viz_side *s)
{
    return s->acc ? 40 : s->r->min_w;
}

static int side_min_h(const viz_side *s)
{
    return s->acc ? 8 : s->r->min_h;
}

/* Which columns of a side's picture area the code pane takes: beside the
 * picture when there is room for both, instead of it when asked for on a
 * narrow screen. */
enum { CODE_BESIDE_MIN_W = 110 };
static void split_code(const viz_side *s, const viz_play_state *st, viz_rect pic, viz_rect *draw, viz_rect *code);

/* Rows a side's picture needs at width w as text (0: any): at the width it
 * is drawn at, beside the code pane where there is one. */
static int side_height(const viz_side *s, int w)
{
    if (s->acc) {
        viz_access a = *s->acc;
        viz_rect draw, code;
        split_code(s, NULL, viz_rect_make(0, 0, w, 1), &draw, &code);
        return viz_access_height(&a, draw.w > 0 ? draw.w : w);
    }
    return s->r->height ? s->r->height(s->trace, w) : 0;
}

static void split_code(const viz_side *s, const viz_play_state *st, viz_rect pic, viz_rect *draw, viz_rect *code)
{
    *draw = pic;
    *code = viz_rect_make(pic.x, pic.y, 0, 0);
    if (!s->acc || !s->acc->source) return;
    int want = st ? st->code : 0;
    if (pic.w >= CODE_BESIDE_MIN_W && !want) {
        int cw = pic.w * 2 / 5;
        *draw = viz_rect_make(pic.x, pic.y, pic.w - cw - 1, pic.h);
        *code = viz_rect_make(pic.x + pic.w - cw, pic.y, cw, pic.h);
    } else if (want && pic.w < CODE_BESIDE_MIN_W) {
        *draw = viz_rect_make(pic.x, pic.y, pic.w, 0);
        *code = pic;
    }
}

/* Draw a side's frame into pic: its renderer, or the generic animation and
 * its code pane. */
static void side_draw(const viz_side *s, const viz_play_state *st, int f, canvas *c, viz_rect pic,
                      viz_frame_info *info)
{
    if (!s->acc) {
        s->r->draw(s->trace, side_frame(s, st, f), c, pic, info);
        return;
    }
    viz_access a = pkeys_access_view(s, st);
    int sf = side_frame(s, st, f);
    viz_rect draw, code;
    split_code(s, st, pic, &draw, &code);
    if (draw.h > 0 && draw.w > 0) {
        viz_access_draw(&a, st ? &st->sel : NULL, sf, c, draw, info);
    } else {
        /* the code pane took the area: the frame's words all the same */
        canvas *tmp = canvas_new(pic.w > 0 ? pic.w : 1, 24);
        if (tmp) viz_access_draw(&a, st ? &st->sel : NULL, sf, tmp, canvas_bounds(tmp), info);
        canvas_free(tmp);
    }
    if (code.w > 0 && code.h > 0) {
        int marks[32], hl = 0;
        int nm = viz_access_lines(&a, st ? &st->sel : NULL, sf, &hl, marks, 32);
        viz_code vc = {.text = s->acc->source, .len = s->acc->source_len, .first_line = 1, .highlight = hl,
                       .marks = marks, .nmarks = nm, .title = s->acc->source_name};
        viz_rect old = canvas_set_clip(c, code);
        viz_render_code(c, code, &vc);
        canvas_set_clip(c, old);
    }
}

/* The frame's info without drawing (a scratch canvas keeps draw() simple). */
static void side_info(const viz_side *s, const viz_play_state *st, int f, int w, int h, viz_frame_info *info)
{
    canvas *tmp = canvas_new(w > 0 ? w : 1, h > 0 ? h : 1);
    viz_info_clear(info);
    if (!tmp) return;
    side_draw(s, st, f, tmp, canvas_bounds(tmp), info);
    canvas_free(tmp);
}

/* The counters, "name value" items separated by " · ", wrapped between
 * items only. With a NULL canvas it only measures. Returns the lines used. */
static int draw_counters(canvas *c, viz_rect r, const viz_frame_info *info)
{
    int x = 0, line = 0;
    for (int i = 0; i < info->ncounters; i++) {
        const viz_counter *k = &info->counters[i];
        char item[512];
        if (k->value == VIZ_COUNTER_NONE) snprintf(item, sizeof item, "%s \u2013", k->name);
        else if (k->value == VIZ_COUNTER_WORD) snprintf(item, sizeof item, "%s %s", k->name, k->unit ? k->unit : "");
        else snprintf(item, sizeof item, "%s %lld%s", k->name, k->value, k->unit ? k->unit : "");
        int w = viz_text_width(item), sep = x > 0 ? 3 : 0;
        if (x > 0 && x + sep + w > r.w) {
            line++;
            x = 0;
            sep = 0;
        }
        if (c && line < r.h) {
            if (sep) canvas_text(c, r.x + x, r.y + line, " \u00b7 ", VIZ_ROLE_DIM, 0);
            /* the name dim, the value plain: the numbers are what changes */
            int nx = canvas_textn(c, r.x + x + sep, r.y + line, r.w - x - sep, k->name, VIZ_ROLE_DIM, 0);
            canvas_textn(c, nx, r.y + line, r.x + r.w - nx, item + strlen(k->name), VIZ_ROLE_VALUE, VIZ_BOLD);
        }
        x += sep + w;
    }
    return info->ncounters > 0 ? line + 1 : 0;
}

/* A side: header, caption, counters, picture, inside r. cap_lines and
 * cnt_lines are fixed by the caller so that two sides line up. */
static void draw_panel(canvas *c, viz_rect r, const viz_side *s, const viz_play_state *st, int f, int nframes_all,
                       int cap_lines, int cnt_lines)
{
    viz_frame_info info;
    int sf = side_frame(s, st, f), n = side_frames(s, st);
    int pic_y = r.y + 1 + cap_lines + cnt_lines;
    viz_rect pic = viz_rect_make(r.x, pic_y, r.w, r.y + r.h - pic_y);
    viz_info_clear(&info);
    viz_rect old = canvas_set_clip(c, r);
    if (pic.h > 0) side_draw(s, st, f, c, pic, &info);
    else side_info(s, st, f, r.w, 24, &info);
    canvas_set_clip(c, r);
    /* header: label, step, title */
    int x = canvas_textn(c, r.x, r.y, r.w, s->label ? s->label : s->trace ? s->trace->variant : "", VIZ_ROLE_HEADING,
                         VIZ_BOLD);
    char b[160];
    if (f >= n && nframes_all > n)
        snprintf(b, sizeof b, _("  step %d/%d (done) \u00b7 %s"), sf + 1, n, info.title);
    else
        snprintf(b, sizeof b, _("  step %d/%d \u00b7 %s"), sf + 1, n, info.title);
    canvas_textn(c, x, r.y, r.x + r.w - x, b, VIZ_ROLE_TEXT, 0);
    /* the caption, cut to its lines with an ellipsis when longer */
    viz_rect cap = viz_rect_make(r.x, r.y + 1, r.w, cap_lines);
    int need = canvas_wrap(NULL, cap, info.caption, 0, 0);
    if (need > cap_lines && cap_lines > 0 && r.w > 4) { /* cut: "… w" says which key shows the rest */
        /* the caption up to the last whole word that leaves the last line
         * room for " … w": no word is cut in the middle */
        char cut[VIZ_CAPTION_MAX + 8];
        size_t best = 0;
        for (size_t i = 0; info.caption[i]; i++) {
            if (info.caption[i] != ' ') continue;
            snprintf(cut, sizeof cut, "%.*s ~~~", (int)i, info.caption);
            if (canvas_wrap(NULL, cap, cut, 0, 0) > cap_lines) break;
            best = i;
        }
        snprintf(cut, sizeof cut, "%.*s", (int)best, info.caption);
        canvas_wrap(c, cap, cut, VIZ_ROLE_TEXT, 0);
        canvas_fill(c, viz_rect_make(r.x + r.w - 4, r.y + cap_lines, 4, 1), ' ', VIZ_ROLE_TEXT, 0);
        canvas_put(c, r.x + r.w - 3, r.y + cap_lines, 0x2026, VIZ_ROLE_DIM, 0);
        canvas_put(c, r.x + r.w - 1, r.y + cap_lines, 'w', VIZ_ROLE_KEY, 0);
    } else {
        canvas_wrap(c, cap, info.caption, VIZ_ROLE_TEXT, 0);
    }
    draw_counters(c, viz_rect_make(r.x, r.y + 1 + cap_lines, r.w, cnt_lines), &info);
    canvas_set_clip(c, old);
}

/* Lines the captions and counters of all sides need at width w, each
 * capped. */
static void panel_text_lines(const viz_side *sides, int nsides, const viz_play_state *st, int f, int w, int *cap,
                             int *cnt)
{
    *cap = 1;
    *cnt = 1;
    for (int i = 0; i < nsides; i++) {
        viz_frame_info info;
        side_info(&sides[i], st, f, w, 40, &info);
        viz_rect r = viz_rect_make(0, 0, w, 100);
        int cl = canvas_wrap(NULL, r, info.caption, 0, 0);
        int nl = draw_counters(NULL, r, &info);
        if (cl > *cap) *cap = cl;
        if (nl > *cnt) *cnt = nl;
    }
    if (*cap > MAX_CAPTION_LINES) *cap = MAX_CAPTION_LINES;
    if (*cnt > MAX_COUNTER_LINES) *cnt = MAX_COUNTER_LINES;
}

static int side_width(int w, int nsides)
{
    return nsides > 1 ? (w - 3 * (nsides - 1)) / nsides : w;
}

void viz_player_min_size(const viz_side *sides, int nsides, const viz_player_opts *o, int *w, int *h)
{
    int mw = 0, mh = 0;
    for (int i = 0; i < nsides; i++) {
        if (side_min_w(&sides[i]) > mw) mw = side_min_w(&sides[i]);
        if (side_min_h(&sides[i]) > mh) mh = side_min_h(&sides[i]);
    }
    int tw = nsides * mw + 3 * (nsides - 1);
    if (tw < 60) tw = 60;
    /* status + header + two caption lines + a counter line + the picture,
     * and the table's header, rule and rows */
    int th = 1 + 1 + 2 + 1 + mh + (o && o->nrows > 0 ? o->nrows + 2 + 1 : 0);
    *w = tw;
    *h = th;
}

static void draw_status(canvas *c, const viz_side *sides, int nsides, const viz_play_state *st,
                        const viz_player_opts *o, int exporting)
{
    int w = c->w;
    canvas_fill(c, viz_rect_make(0, 0, w, 1), ' ', VIZ_ROLE_HIGHLIGHT, 0);
    char right[512];
    if (exporting) snprintf(right, sizeof right, _(" step %d/%d "), st->frame + 1, st->nframes);
    else
        /* TRANSLATORS: the status line of the player; ? and q are keys */
        snprintf(right, sizeof right,
                 st->playing ? _(" step %d/%d  \u25b6 playing %g s/step  ? help  q back ")
                             : _(" step %d/%d  \u2016 paused %g s/step  ? help  q back "),
                 st->frame + 1, st->nframes, viz_play_delay_ms(st) / 1000.0);
    int rw = viz_text_width(right);
    char left[256];
    if (o && o->heading) snprintf(left, sizeof left, " %s", o->heading);
    else if (nsides > 1) snprintf(left, sizeof left, _(" %s vs %s"), sides[0].label, sides[1].label);
    else snprintf(left, sizeof left, " %s", sides[0].label ? sides[0].label : sides[0].trace ? sides[0].trace->variant : "");
    canvas_textn(c, 0, 0, w - rw - 1 > 0 ? w - rw - 1 : 0, left, VIZ_ROLE_HIGHLIGHT, VIZ_BOLD);
    if (rw <= w) canvas_text(c, w - rw, 0, right, VIZ_ROLE_HIGHLIGHT, 0);
}

static void draw_too_small(canvas *c, int mw, int mh)
{
    char a[512], b[512];
    snprintf(a, sizeof a, _("The terminal is %d\u00d7%d; the animation needs at least %d\u00d7%d."), c->w, c->h,
             mw, mh);
    snprintf(b, sizeof b, "%s", _("Make the window larger, or press q to go back to the prompt."));
    int y = c->h / 2 - 1;
    if (y < 0) y = 0;
    viz_rect r = viz_rect_make(1, y, c->w - 2, c->h - y);
    int used = canvas_wrap(c, r, a, VIZ_ROLE_WARN, VIZ_BOLD);
    canvas_wrap(c, viz_rect_make(1, y + used, c->w - 2, c->h - y - used), b, VIZ_ROLE_TEXT, 0);
}

/* Which table row is the side's variant. */
static int table_highlight(const viz_side *sides, int nsides, const viz_player_opts *o)
{
    if (!o || !o->rows || nsides != 1 || !sides[0].trace) return -1;
    for (int i = 0; i < o->nrows; i++)
        if (strcmp(o->rows[i].variant, sides[0].trace->variant) == 0) return i;
    return -1;
}

/* Where things go on a screen of W x H: the caption and counter lines of
 * the panels, the key line, the table and the panels' height. */
typedef struct screen_layout {
    int sw, cap, cnt, keys_h, table_h, panel_h, nrows;
} screen_layout;

static void layout_screen(int W, int H, const viz_side *sides, int nsides, const viz_play_state *st,
                          const viz_player_opts *o, int exporting, int cap_all, screen_layout *L)
{
    L->sw = side_width(W, nsides);
    L->nrows = o && o->rows && !st->hide_table ? o->nrows : 0;
    L->table_h = L->nrows > 0 ? L->nrows + 2 : 0;
    L->keys_h = exporting || st->hide_keys ? 0 : 1;
    panel_text_lines(sides, nsides, st, st->frame, L->sw, &L->cap, &L->cnt);
    if (exporting) L->cap = cap_all;
    int min_pic = 0;
    for (int i = 0; i < nsides; i++)
        if (side_min_h(&sides[i]) > min_pic) min_pic = side_min_h(&sides[i]);
    /* Give up the extras, least useful first, until the picture fits. */
    for (; !exporting;) {
        int pic = H - 1 - (L->table_h ? L->table_h + 1 : 0) - L->keys_h - (1 + L->cap + L->cnt);
        if (pic >= min_pic) break;
        if (L->keys_h) L->keys_h = 0;
        else if (L->cap > 2) L->cap--;
        else if (L->cnt > 1) L->cnt--;
        else if (L->cap > 1) L->cap--;
        else break;
    }
    L->panel_h = H - 1 - (L->table_h ? L->table_h + 1 : 0) - L->keys_h;
}

/* The step's whole caption (every side's, under its name) in a box over
 * the screen, as wide as it is; w brings it up, any key closes it. */
static void draw_whole_caption(canvas *c, const viz_side *sides, int nsides, const viz_play_state *st)
{
    int bw = c->w - 2 > 20 ? c->w - 2 : c->w, tw = bw - 4;
    if (tw < 10) return;
    int need = 1;
    viz_frame_info info[4];
    int n = nsides < 4 ? nsides : 4;
    for (int i = 0; i < n; i++) {
        side_info(&sides[i], st, st->frame, tw, 40, &info[i]);
        need += (n > 1 ? 1 : 0) + canvas_wrap(NULL, viz_rect_make(0, 0, tw, 1000), info[i].caption, 0, 0) + 1;
    }
    int bh = need + 2 < c->h ? need + 2 : c->h;
    viz_rect r = viz_rect_make((c->w - bw) / 2, (c->h - bh) / 2, bw, bh);
    canvas_fill(c, r, ' ', VIZ_ROLE_TEXT, 0);
    canvas_box(c, r, _("caption"), VIZ_ROLE_HEADING, 0);
    int y = r.y + 1;
    for (int i = 0; i < n && y < r.y + r.h - 2; i++) {
        if (n > 1) {
            const char *name = sides[i].label ? sides[i].label : sides[i].trace ? sides[i].trace->variant : "";
            canvas_textn(c, r.x + 2, y++, tw, name, VIZ_ROLE_HEADING, VIZ_BOLD);
        }
        y += canvas_wrap(c, viz_rect_make(r.x + 2, y, tw, r.y + r.h - 2 - y), info[i].caption, VIZ_ROLE_TEXT, 0) + 1;
    }
    canvas_textn(c, r.x + 2, r.y + r.h - 2, tw, _("any key closes this"), VIZ_ROLE_DIM, 0);
}

/* The screen into c; exporting: no key line, help or key hints, and the
 * captions with cap_all lines (all of them). */
static void compose(canvas *c, const viz_side *sides, int nsides, const viz_play_state *st,
                    const viz_player_opts *o, int exporting, int cap_all)
{
    canvas_clear(c);
    int mw, mh;
    viz_player_min_size(sides, nsides, o, &mw, &mh);
    if (!exporting && (c->w < mw || c->h < mh)) {
        draw_too_small(c, mw, mh);
        return;
    }
    int W = c->w, H = c->h;
    screen_layout L;
    layout_screen(W, H, sides, nsides, st, o, exporting, cap_all, &L);
    draw_status(c, sides, nsides, st, o, exporting);
    for (int i = 0; i < nsides; i++) {
        int x = i * (L.sw + 3);
        draw_panel(c, viz_rect_make(x, 1, L.sw, L.panel_h), &sides[i], st, st->frame, st->nframes, L.cap, L.cnt);
        if (i > 0) canvas_vline(c, x - 2, 1, L.panel_h, 0x2502, VIZ_ROLE_DIM, 0);
    }
    if (L.table_h) {
        int ty = 1 + L.panel_h + 1;
        viz_table_draw(c, viz_rect_make(0, ty, W, L.table_h), o->rows, L.nrows, table_highlight(sides, nsides, o));
    }
    int with_access = pkeys_access_side(sides, nsides) != NULL;
    if (L.keys_h) pkeys_draw_line(c, H - 1, with_access);
    if (st->help && !exporting) pkeys_draw_help(c, with_access);
    if (st->caption && !exporting) draw_whole_caption(c, sides, nsides, st);
}

int viz_player_click(viz_play_state *st, const viz_side *sides, int nsides, const viz_player_opts *o, int w, int h,
                     int x, int y)
{
    if (st->help || st->caption) {
        st->help = st->caption = 0;
        return 1;
    }
    screen_layout L;
    layout_screen(w, h, sides, nsides, st, o, 0, 0, &L);
    for (int i = 0; i < nsides; i++) {
        if (!sides[i].acc) continue;
        int px = i * (L.sw + 3), py = 1 + 1 + L.cap + L.cnt;
        viz_rect pic = viz_rect_make(px, py, L.sw, 1 + L.panel_h - py), draw, code;
        split_code(&sides[i], st, pic, &draw, &code);
        viz_access a = pkeys_access_view(&sides[i], st);
        viz_access_sel sel = st->sel;
        if (viz_access_hit(&a, side_frame(&sides[i], st, st->frame), draw, x, y, &sel) == 0) {
            st->sel = sel;
            st->sel.on = 1;
            return 1;
        }
    }
    return 0;
}

void viz_player_compose(canvas *c, const viz_side *sides, int nsides, const viz_play_state *st,
                        const viz_player_opts *o)
{
    compose(c, sides, nsides, st, o, 0, 0);
}

static canvas *compose_export_at(const viz_side *sides, int nsides, const viz_play_state *st,
                                 const viz_player_opts *o, int w);

/* A frame for a slide: landscape. A cell is about twice as tall as it is
 * wide, so a canvas of w columns and h rows is landscape when w > 2h; a
 * tall picture is composed again wider (at most 240 columns), where its
 * captions take fewer lines and the renderers lay out wider. The height
 * that counts is the rows the frame fills (what the picture shows), not
 * the room kept for the trace's tallest frame. */
canvas *viz_player_compose_export(const viz_side *sides, int nsides, const viz_play_state *st,
                                  const viz_player_opts *o, int w)
{
    canvas *c = compose_export_at(sides, nsides, st, o, w);
    for (int tries = 0; c && tries < 3 && c->w < 240 && c->w * 10 < viz_export_rows(c) * 22; tries++) {
        int wider = viz_export_rows(c) * 22 / 10 + 1;
        if (wider > 240) wider = 240;
        if (wider <= c->w) break;
        canvas *d = compose_export_at(sides, nsides, st, o, wider);
        if (!d) break;
        canvas_free(c);
        c = d;
    }
    return c;
}

static canvas *compose_export_at(const viz_side *sides, int nsides, const viz_play_state *st,
                                 const viz_player_opts *o, int w)
{
    int sw = side_width(w, nsides);
    /* every caption line, the counters, the picture at its own height */
    int cap = 1, cnt = 1, pic = 0;
    for (int i = 0; i < nsides; i++) {
        viz_frame_info info;
        side_info(&sides[i], st, st->frame, sw, 40, &info);
        viz_rect r = viz_rect_make(0, 0, sw, 100);
        int cl = canvas_wrap(NULL, r, info.caption, 0, 0), nl = draw_counters(NULL, r, &info);
        if (cl > cap) cap = cl;
        if (nl > cnt) cnt = nl;
        int h = side_height(&sides[i], sw);
        if (h < side_min_h(&sides[i])) h = side_min_h(&sides[i]);
        if (h < 12) h = 12;
        if (h > pic) pic = h;
    }
    int nrows = o && o->rows && !st->hide_table ? o->nrows : 0;
    int H = 1 + 1 + cap + cnt + pic + (nrows ? nrows + 3 : 0);
    canvas *c = canvas_new(w, H);
    if (c) compose(c, sides, nsides, st, o, 1, cap);
    return c;
}

/* ------------------------------------------------------------ running */

static volatile sig_atomic_t stop_signal; /* the signal that asked us to stop, 0 none */

static void on_stop(int sig)
{
    stop_signal = sig;
}

static void on_crash(int sig)
{
    viz_term_emergency_restore();
    signal(sig, SIG_DFL);
    raise(sig);
}

static const int stop_sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
static const int crash_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
#define NSTOP ((int)(sizeof stop_sigs / sizeof stop_sigs[0]))
#define NCRASH ((int)(sizeof crash_sigs / sizeof crash_sigs[0]))

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int viz_player_run(const viz_side *sides, int nsides, const viz_player_opts *o, char *err,
                   size_t errlen)
{
    if (nsides < 1 || nsides > VIZ_MAX_SIDES) {
        snprintf(err, errlen, "%s", _("the player shows one or two animations"));
        return -1;
    }
    const char *term = getenv("TERM");
    if (!term || !*term || strcmp(term, "dumb") == 0) {
        snprintf(err, errlen, _("TERM=%s cannot show full-screen animations"), term && *term ? term : _("(unset)"));
        return -1;
    }
    struct sigaction old_stop[NSTOP], old_crash[NCRASH], sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_stop; /* no SA_RESTART: a blocked read wakes up */
    stop_signal = 0;
    for (int i = 0; i < NSTOP; i++) sigaction(stop_sigs[i], &sa, &old_stop[i]);
    sa.sa_handler = on_crash;
    for (int i = 0; i < NCRASH; i++) sigaction(crash_sigs[i], &sa, &old_crash[i]);

    int rc = 0;
    canvas *c = canvas_new(80, 24);
    viz_term *t = c ? viz_term_open(viz_colour_wanted(o ? o->no_color : 0), err, errlen) : NULL;
    if (!c && err) snprintf(err, errlen, "%s", _("out of memory"));
    if (!t) {
        rc = -1;
        goto restore;
    }
    int nframes = 0;
    for (int i = 0; i < nsides; i++)
        if (side_frames(&sides[i], NULL) > nframes) nframes = side_frames(&sides[i], NULL);
    viz_play_state st;
    viz_play_init(&st, nframes);
    double deadline = 0;
    int redraw = 1;
    while (!st.quit) {
        if (redraw) {
            int w, h;
            viz_term_size(t, &w, &h);
            if ((w != c->w || h != c->h) && canvas_resize(c, w, h) != 0) {
                snprintf(err, errlen, "%s", _("out of memory"));
                rc = -1;
                break;
            }
            viz_player_compose(c, sides, nsides, &st, o);
            viz_term_present(t, c);
            /* the frame on screen is what `export FILE.svg` draws next: its
             * whole caption, without the keys */
            char what[512];
            snprintf(what, sizeof what, _("frame %d of %d"), st.frame + 1, st.nframes);
            canvas *ex = viz_player_compose_export(sides, nsides, &st, o, c->w);
            if (o && o->keep) viz_picture_keep(o->keep, ex ? ex : c, 0, what);
            canvas_free(ex);
            redraw = 0;
        }
        int timeout = -1; /* paused: wait for a key without using the CPU */
        if (st.playing && !st.help) {
            double left = deadline - now_ms();
            timeout = left > 0 ? (int)left + 1 : 0;
        }
        int key = viz_term_key(t, timeout, &stop_signal);
        if (key == VIZ_KEY_INTERRUPT) {
            rc = 1;
            break;
        }
        int was_playing = st.playing, frame = st.frame;
        if (key == VIZ_KEY_NONE) {
            if (st.playing && now_ms() >= deadline) {
                viz_player_tick(&st);
                deadline += viz_play_delay_ms(&st);
                redraw = 1;
            }
            continue;
        }
        if (key == VIZ_KEY_MOUSE) {
            int mx, my;
            viz_term_mouse(t, &mx, &my);
            redraw = viz_player_click(&st, sides, nsides, o, c->w, c->h, mx, my);
            continue;
        }
        redraw = viz_player_key_sides(&st, key, sides, nsides);
        /* A new frame or a fresh start of playing: the clock starts over. */
        if (st.playing && (!was_playing || st.frame != frame)) deadline = now_ms() + viz_play_delay_ms(&st);
    }
restore:
    viz_term_close(t);
    canvas_free(c);
    for (int i = 0; i < NCRASH; i++) sigaction(crash_sigs[i], &old_crash[i], NULL);
    for (int i = 0; i < NSTOP; i++) sigaction(stop_sigs[i], &old_stop[i], NULL);
    int sig = stop_signal;
    stop_signal = 0;
    if (sig && sig != SIGINT) raise(sig); /* now that the terminal is sane again */
    return rc;
}

/* ------------------------------------------------------------ as text */

int viz_player_print(FILE *f, const viz_side *sides, int nsides, const viz_player_opts *o, int width)
{
    if (width <= 0) {
        const char *cols = getenv("COLUMNS");
        width = cols ? atoi(cols) : 0;
        if (width < 40 || width > 400) width = 100;
    }
    int sw = side_width(width, nsides);
    int pic_h = 0, nframes = 0;
    for (int i = 0; i < nsides; i++) {
        int h = side_height(&sides[i], sw);
        if (h <= 0) h = 24;
        if (h > pic_h) pic_h = h;
        if (side_frames(&sides[i], NULL) > nframes) nframes = side_frames(&sides[i], NULL);
    }
    viz_text_opts to = viz_text_opts_for(f, o ? o->no_color : 0);
    int rc = 0;
    if (o && o->heading && fprintf(f, "%s\n", o->heading) < 0) rc = -1;
    for (int fr = 0; fr < nframes && rc == 0; fr++) {
        int cap, cnt;
        /* Text has room: captions and counters are never cut. */
        cap = cnt = 1;
        for (int i = 0; i < nsides; i++) {
            viz_frame_info info;
            side_info(&sides[i], NULL, fr, sw, pic_h, &info);
            viz_rect r = viz_rect_make(0, 0, sw, 100);
            int a = canvas_wrap(NULL, r, info.caption, 0, 0), b = draw_counters(NULL, r, &info);
            if (a > cap) cap = a;
            if (b > cnt) cnt = b;
        }
        int h = 1 + cap + cnt + 1 + pic_h;
        canvas *c = canvas_new(width, h);
        if (!c) return -1;
        for (int i = 0; i < nsides; i++) {
            int x = i * (sw + 3);
            viz_rect r = viz_rect_make(x, 0, sw, h);
            /* cnt + 1: a blank line between the counters and the picture */
            draw_panel(c, r, &sides[i], NULL, fr, nframes, cap, cnt + 1);
            if (i > 0) canvas_vline(c, x - 2, 0, h, 0x2502, VIZ_ROLE_DIM, 0);
        }
        to.trim_bottom = 1;
        if (fputc('\n', f) == EOF) rc = -1; /* frames are paragraphs */
        if (rc == 0 && viz_text_write(f, c, &to) != 0) rc = -1;
        canvas_free(c);
    }
    if (rc == 0 && nframes > 0) { /* `export FILE.svg` draws the last frame printed */
        viz_play_state st;
        viz_play_init(&st, nframes);
        st.frame = nframes - 1;
        canvas *ex = viz_player_compose_export(sides, nsides, &st, o, width);
        char what[512];
        snprintf(what, sizeof what, _("frame %d of %d"), nframes, nframes);
        if (ex && o && o->keep) viz_picture_keep(o->keep, ex, 0, what);
        canvas_free(ex);
    }
    if (rc == 0 && o && o->rows && o->nrows > 0) {
        if (fprintf(f, "\n") < 0) rc = -1;
        else rc = viz_table_print(f, o->rows, o->nrows, width, table_highlight(sides, nsides, o),
                                  o->no_color);
    }
    return rc;
}
