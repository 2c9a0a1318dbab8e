/* player.c - the animation player: keys, screen layout, the terminal loop,
 * and the text mode for pipes.
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

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "viz/export.h"
#include "viz/intl.h"
#include "viz/term.h"

/* ------------------------------------------------------------- state */

static const int speed_ms[VIZ_NSPEEDS] = {3000, 2000, 1200, 800, 500, 300, 150};

void viz_play_init(viz_play_state *st, int nframes)
{
    memset(st, 0, sizeof *st);
    st->nframes = nframes > 0 ? nframes : 1;
    st->speed = 3;
}

int viz_play_delay_ms(const viz_play_state *st)
{
    int s = st->speed < 0 ? 0 : st->speed >= VIZ_NSPEEDS ? VIZ_NSPEEDS - 1 : st->speed;
    return speed_ms[s];
}

int viz_player_key(viz_play_state *st, int key)
{
    int last = st->nframes - 1;
    if (key == VIZ_KEY_NONE) return 0;
    if (key == VIZ_KEY_RESIZE) return 1;
    if (key == VIZ_KEY_INTERRUPT) {
        st->quit = 1;
        return 0;
    }
    if (st->help) {
        /* Any key closes the overlay (and does nothing else). */
        st->help = 0;
        return 1;
    }
    switch (key) {
    case ' ':
        if (!st->playing && st->frame >= last) st->frame = 0; /* play again from the start */
        st->playing = !st->playing;
        return 1;
    case VIZ_KEY_RIGHT:
    case 'n':
    case 'l':
        st->playing = 0;
        if (st->frame < last) st->frame++;
        return 1;
    case VIZ_KEY_LEFT:
    case 'p':
    case 'h':
        st->playing = 0;
        if (st->frame > 0) st->frame--;
        return 1;
    case '+':
    case '=':
        if (st->speed < VIZ_NSPEEDS - 1) st->speed++;
        return 1;
    case '-':
    case '_':
        if (st->speed > 0) st->speed--;
        return 1;
    case VIZ_KEY_HOME:
    case 'r':
    case 'g':
        st->frame = 0;
        return 1;
    case VIZ_KEY_END:
    case 'G':
        st->playing = 0;
        st->frame = last;
        return 1;
    case '?':
        st->help = 1;
        return 1;
    case 'k':
        st->hide_keys = !st->hide_keys;
        return 1;
    case 't':
        st->hide_table = !st->hide_table;
        return 1;
    case 'q':
    case 'Q':
    case VIZ_KEY_ESC:
        st->quit = 1;
        return 0;
    default:
        return 0;
    }
}

void viz_player_tick(viz_play_state *st)
{
    if (!st->playing) return;
    if (st->frame < st->nframes - 1) st->frame++;
    if (st->frame >= st->nframes - 1) st->playing = 0; /* stop on the last frame */
}

/* ------------------------------------------------------------ drawing */

enum { MAX_CAPTION_LINES = 3, MAX_COUNTER_LINES = 2 };

static int side_frames(const viz_side *s)
{
    int n = s->r->frames(s->trace);
    return n > 0 ? n : 1;
}

/* The frame a side shows when the player is at frame f. */
static int side_frame(const viz_side *s, int f)
{
    int n = side_frames(s);
    return f < n ? f : n - 1;
}

/* The frame's info without drawing (a scratch canvas keeps draw() simple). */
static void side_info(const viz_side *s, int f, int w, int h, viz_frame_info *info)
{
    canvas *tmp = canvas_new(w > 0 ? w : 1, h > 0 ? h : 1);
    viz_info_clear(info);
    if (!tmp) return;
    s->r->draw(s->trace, side_frame(s, f), tmp, canvas_bounds(tmp), info);
    canvas_free(tmp);
}

/* The counters, "name value" items separated by " · ", wrapped between
 * items only. With a NULL canvas it only measures. Returns the lines used. */
static int draw_counters(canvas *c, viz_rect r, const viz_frame_info *info)
{
    int x = 0, line = 0;
    for (int i = 0; i < info->ncounters; i++) {
        const viz_counter *k = &info->counters[i];
        char item[96];
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
static void draw_panel(canvas *c, viz_rect r, const viz_side *s, int f, int nframes_all,
                       int cap_lines, int cnt_lines)
{
    viz_frame_info info;
    int sf = side_frame(s, f), n = side_frames(s);
    int pic_y = r.y + 1 + cap_lines + cnt_lines;
    viz_rect pic = viz_rect_make(r.x, pic_y, r.w, r.y + r.h - pic_y);
    viz_info_clear(&info);
    viz_rect old = canvas_set_clip(c, r);
    if (pic.h > 0) s->r->draw(s->trace, sf, c, pic, &info);
    else side_info(s, f, r.w, 24, &info);
    canvas_set_clip(c, r);
    /* header: label, step, title */
    int x = canvas_textn(c, r.x, r.y, r.w, s->label ? s->label : s->trace->variant, VIZ_ROLE_HEADING,
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
    canvas_wrap(c, cap, info.caption, VIZ_ROLE_TEXT, 0);
    if (need > cap_lines && cap_lines > 0) canvas_put(c, r.x + r.w - 1, r.y + cap_lines, 0x2026, VIZ_ROLE_DIM, 0);
    draw_counters(c, viz_rect_make(r.x, r.y + 1 + cap_lines, r.w, cnt_lines), &info);
    canvas_set_clip(c, old);
}

/* Lines the captions and counters of all sides need at width w, each
 * capped. */
static void panel_text_lines(const viz_side *sides, int nsides, int f, int w, int *cap, int *cnt)
{
    *cap = 1;
    *cnt = 1;
    for (int i = 0; i < nsides; i++) {
        viz_frame_info info;
        side_info(&sides[i], f, w, 40, &info);
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
        if (sides[i].r->min_w > mw) mw = sides[i].r->min_w;
        if (sides[i].r->min_h > mh) mh = sides[i].r->min_h;
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
    char right[128];
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
    else snprintf(left, sizeof left, " %s", sides[0].label ? sides[0].label : sides[0].trace->variant);
    canvas_textn(c, 0, 0, w - rw - 1 > 0 ? w - rw - 1 : 0, left, VIZ_ROLE_HIGHLIGHT, VIZ_BOLD);
    if (rw <= w) canvas_text(c, w - rw, 0, right, VIZ_ROLE_HIGHLIGHT, 0);
}

static void draw_keys(canvas *c, int y)
{
    static const char *const keys[][2] = {
        /* TRANSLATORS: the names of keys (space, End) and what they do */
        {N_("space"), N_("play/pause")}, {"\u2190 \u2192", N_("step")}, {"+ -", N_("speed")}, {"r", N_("restart")},
        {N_("End"), N_("last")},         {"?", N_("help")},            {"q", N_("back")},
    };
    int x = 1;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const char *key = _(keys[i][0]), *what = _(keys[i][1]);
        int need = viz_text_width(key) + 1 + viz_text_width(what) + 3;
        if (x + need > c->w) break;
        x = canvas_text(c, x, y, key, VIZ_ROLE_KEY, 0);
        x = canvas_text(c, x + 1, y, what, VIZ_ROLE_DIM, 0) + 3;
    }
}

static void draw_help(canvas *c)
{
    static const char *const lines[][2] = {
        {N_("space"), N_("play / pause")},
        {N_("\u2192  or  n"), N_("next step")},
        {N_("\u2190  or  p"), N_("previous step")},
        {"+  /  -", N_("faster / slower")},
        {N_("Home  or  r"), N_("back to the start")},
        {N_("End"), N_("the last step")},
        {"k  /  t", N_("hide the keys / the table")},
        {"?", N_("this help")},
        {N_("q  or  Esc"), N_("back to the prompt")},
    };
    int n = (int)(sizeof lines / sizeof lines[0]);
    int bw = 44, bh = n + 5;
    if (bw > c->w) bw = c->w;
    if (bh > c->h) bh = c->h;
    viz_rect r = viz_rect_make((c->w - bw) / 2, (c->h - bh) / 2, bw, bh);
    canvas_fill(c, r, ' ', VIZ_ROLE_TEXT, 0);
    canvas_box(c, r, _("keys"), VIZ_ROLE_HEADING, 0);
    for (int i = 0; i < n; i++) {
        canvas_textn(c, r.x + 3, r.y + 2 + i, 14, _(lines[i][0]), VIZ_ROLE_KEY, 0);
        canvas_textn(c, r.x + 18, r.y + 2 + i, bw - 19, _(lines[i][1]), VIZ_ROLE_TEXT, 0);
    }
    canvas_textn(c, r.x + 3, r.y + bh - 2, bw - 6, _("any key closes this"), VIZ_ROLE_DIM, 0);
}

static void draw_too_small(canvas *c, int mw, int mh)
{
    char a[96], b[96];
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
    if (!o || !o->rows || nsides != 1) return -1;
    for (int i = 0; i < o->nrows; i++)
        if (strcmp(o->rows[i].variant, sides[0].trace->variant) == 0) return i;
    return -1;
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
    int sw = side_width(W, nsides);
    int nrows = o && o->rows && !st->hide_table ? o->nrows : 0;
    int table_h = nrows > 0 ? nrows + 2 : 0;
    int keys_h = exporting || st->hide_keys ? 0 : 1;
    int cap, cnt;
    panel_text_lines(sides, nsides, st->frame, sw, &cap, &cnt);
    if (exporting) cap = cap_all;
    int min_pic = 0;
    for (int i = 0; i < nsides; i++)
        if (sides[i].r->min_h > min_pic) min_pic = sides[i].r->min_h;
    /* Give up the extras, least useful first, until the picture fits. */
    for (; !exporting;) {
        int pic = H - 1 - (table_h ? table_h + 1 : 0) - keys_h - (1 + cap + cnt);
        if (pic >= min_pic) break;
        if (keys_h) keys_h = 0;
        else if (cap > 2) cap--;
        else if (cnt > 1) cnt--;
        else if (cap > 1) cap--;
        else break;
    }
    draw_status(c, sides, nsides, st, o, exporting);
    int panel_h = H - 1 - (table_h ? table_h + 1 : 0) - keys_h;
    for (int i = 0; i < nsides; i++) {
        int x = i * (sw + 3);
        draw_panel(c, viz_rect_make(x, 1, sw, panel_h), &sides[i], st->frame, st->nframes, cap, cnt);
        if (i > 0) canvas_vline(c, x - 2, 1, panel_h, 0x2502, VIZ_ROLE_DIM, 0);
    }
    if (table_h) {
        int ty = 1 + panel_h + 1;
        viz_table_draw(c, viz_rect_make(0, ty, W, table_h), o->rows, nrows, table_highlight(sides, nsides, o));
    }
    if (keys_h) draw_keys(c, H - 1);
    if (st->help && !exporting) draw_help(c);
}

void viz_player_compose(canvas *c, const viz_side *sides, int nsides, const viz_play_state *st,
                        const viz_player_opts *o)
{
    compose(c, sides, nsides, st, o, 0, 0);
}

canvas *viz_player_compose_export(const viz_side *sides, int nsides, const viz_play_state *st,
                                  const viz_player_opts *o, int w)
{
    int sw = side_width(w, nsides);
    /* every caption line, the counters, the picture at its own height */
    int cap = 1, cnt = 1, pic = 0;
    for (int i = 0; i < nsides; i++) {
        viz_frame_info info;
        side_info(&sides[i], st->frame, sw, 40, &info);
        viz_rect r = viz_rect_make(0, 0, sw, 100);
        int cl = canvas_wrap(NULL, r, info.caption, 0, 0), nl = draw_counters(NULL, r, &info);
        if (cl > cap) cap = cl;
        if (nl > cnt) cnt = nl;
        int h = sides[i].r->height ? sides[i].r->height(sides[i].trace, sw) : 0;
        if (h < sides[i].r->min_h) h = sides[i].r->min_h;
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
        if (side_frames(&sides[i]) > nframes) nframes = side_frames(&sides[i]);
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
            char what[96];
            snprintf(what, sizeof what, _("frame %d of %d"), st.frame + 1, st.nframes);
            canvas *ex = viz_player_compose_export(sides, nsides, &st, o, c->w);
            viz_export_offer(ex ? ex : c, 0, what);
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
        redraw = viz_player_key(&st, key);
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
        int h = sides[i].r->height ? sides[i].r->height(sides[i].trace, sw) : 24;
        if (h > pic_h) pic_h = h;
        if (side_frames(&sides[i]) > nframes) nframes = side_frames(&sides[i]);
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
            side_info(&sides[i], fr, sw, pic_h, &info);
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
            draw_panel(c, r, &sides[i], fr, nframes, cap, cnt + 1);
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
        char what[96];
        snprintf(what, sizeof what, _("frame %d of %d"), nframes, nframes);
        if (ex) viz_export_offer(ex, 0, what);
        canvas_free(ex);
    }
    if (rc == 0 && o && o->rows && o->nrows > 0) {
        if (fprintf(f, "\n") < 0) rc = -1;
        else rc = viz_table_print(f, o->rows, o->nrows, width, table_highlight(sides, nsides, o),
                                  o->no_color);
    }
    return rc;
}
