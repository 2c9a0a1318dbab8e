/* player_keys.c - the player's keys: the play state and what each key does
 * to it, from one table of bindings that also draws the key line and the
 * help overlay, so the three cannot drift apart. player.c lays out and
 * draws the screen and runs the terminal loop. */
#include "viz/player_keys.h"

#include <string.h>

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

/* The keys: one table drives the key switch, the key line and the help
 * overlay, so the three cannot drift apart. */
enum key_act {
    ACT_PLAY, ACT_NEXT, ACT_PREV, ACT_FASTER, ACT_SLOWER, ACT_START, ACT_END,
    ACT_CURSOR, ACT_UP, ACT_DOWN, ACT_PICK, ACT_ZOOM, ACT_CODE,
    ACT_HELP, ACT_CAPTION, ACT_KEYS, ACT_TABLE, ACT_QUIT
};

typedef struct key_binding {
    int keys[4];            /* 0 ends the list */
    int act;
    const char *help_keys;  /* the help overlay (NULL: not listed there) */
    const char *help;
    const char *line_keys;  /* the key line (NULL: not on it) */
    const char *line;
    int access;             /* only with a generic animation */
} key_binding;

static const key_binding bindings[] = {
    /* TRANSLATORS: the names of keys (space, End) and what they do */
    {{' '}, ACT_PLAY, N_("space"), N_("play / pause"), N_("space"), N_("play/pause"), 0},
    {{VIZ_KEY_RIGHT, 'n', 'l'}, ACT_NEXT, N_("\u2192  or  n"), N_("next step"), "\u2190 \u2192", N_("step"), 0},
    {{VIZ_KEY_LEFT, 'p', 'h'}, ACT_PREV, N_("\u2190  or  p"), N_("previous step"), NULL, NULL, 0},
    {{'+', '='}, ACT_FASTER, "+  /  -", N_("faster / slower"), "+ -", N_("speed"), 0},
    {{'-', '_'}, ACT_SLOWER, NULL, NULL, NULL, NULL, 0},
    {{VIZ_KEY_HOME, 'r', 'g'}, ACT_START, N_("Home  or  r"), N_("back to the start"), "r", N_("restart"), 0},
    {{VIZ_KEY_END, 'G'}, ACT_END, N_("End"), N_("the last step"), N_("End"), N_("last"), 0},
    {{'c'}, ACT_CURSOR, "c", N_("cell cursor: arrows move it"), "c", N_("cell"), 1},
    {{VIZ_KEY_UP}, ACT_UP, "\u2191 \u2193", N_("the array above / below"), NULL, NULL, 1},
    {{VIZ_KEY_DOWN}, ACT_DOWN, NULL, NULL, NULL, NULL, 1},
    {{'\n', '\r'}, ACT_PICK, N_("Enter"), N_("follow the cell's thread"), NULL, NULL, 1},
    {{'z'}, ACT_ZOOM, "z", N_("steps of one warp instruction"), "z", N_("zoom"), 1},
    {{'s'}, ACT_CODE, "s", N_("the kernel's source"), "s", N_("code"), 1},
    {{'k'}, ACT_KEYS, "k  /  t", N_("hide the keys / the table"), NULL, NULL, 0},
    {{'t'}, ACT_TABLE, NULL, NULL, NULL, NULL, 0},
    {{'?'}, ACT_HELP, "?", N_("this help"), "?", N_("help"), 0},
    /* not on the key line: a cut caption ends in "… w" itself, and q must stay in view */
    {{'w'}, ACT_CAPTION, "w", N_("the step's whole caption"), NULL, NULL, 0},
    {{'q', 'Q', VIZ_KEY_ESC}, ACT_QUIT, N_("q  or  Esc"), N_("back to the prompt"), "q", N_("back"), 0},
};
#define NBINDINGS ((int)(sizeof bindings / sizeof bindings[0]))

const viz_side *pkeys_access_side(const viz_side *sides, int nsides)
{
    for (int i = 0; i < nsides; i++)
        if (sides && sides[i].acc) return &sides[i];
    return NULL;
}

/* The generic animation as the state shows it (zoomed or not). */
viz_access pkeys_access_view(const viz_side *s, const viz_play_state *st)
{
    viz_access a = *s->acc;
    if (st) a.zoom = st->zoom;
    return a;
}

static int key_act(int key, int with_access)
{
    for (int i = 0; i < NBINDINGS; i++) {
        if (bindings[i].access && !with_access) continue;
        for (int k = 0; k < 4 && bindings[i].keys[k]; k++)
            if (bindings[i].keys[k] == key) return bindings[i].act;
    }
    return -1;
}

int viz_player_key(viz_play_state *st, int key)
{
    return viz_player_key_sides(st, key, NULL, 0);
}

int viz_player_key_sides(viz_play_state *st, int key, const viz_side *sides, int nsides)
{
    int last = st->nframes - 1;
    const viz_side *as = pkeys_access_side(sides, nsides);
    if (key == VIZ_KEY_NONE) return 0;
    if (key == VIZ_KEY_RESIZE) return 1;
    if (key == VIZ_KEY_INTERRUPT) {
        st->quit = 1;
        return 0;
    }
    if (st->help || st->caption) {
        /* Any key closes the overlay (and does nothing else). */
        st->help = st->caption = 0;
        return 1;
    }
    int act = key_act(key, as != NULL);
    /* with the cell cursor on, the arrows move it and Esc puts it away */
    if (as && st->sel.on) {
        viz_access a = pkeys_access_view(as, st);
        if (key == VIZ_KEY_RIGHT || key == VIZ_KEY_LEFT || act == ACT_UP || act == ACT_DOWN) {
            if (key == VIZ_KEY_RIGHT) st->sel.cell++;
            else if (key == VIZ_KEY_LEFT) st->sel.cell--;
            else st->sel.strip += act == ACT_UP ? -1 : 1;
            viz_access_clamp(&a, st->frame, &st->sel);
            return 1;
        }
        if (key == VIZ_KEY_ESC) {
            st->sel.on = 0;
            st->sel.thread_on = 0;
            return 1;
        }
    }
    switch (act) {
    case ACT_PLAY:
        if (!st->playing && st->frame >= last) st->frame = 0; /* play again from the start */
        st->playing = !st->playing;
        return 1;
    case ACT_NEXT:
        st->playing = 0;
        if (st->frame < last) st->frame++;
        return 1;
    case ACT_PREV:
        st->playing = 0;
        if (st->frame > 0) st->frame--;
        return 1;
    case ACT_FASTER:
        if (st->speed < VIZ_NSPEEDS - 1) st->speed++;
        return 1;
    case ACT_SLOWER:
        if (st->speed > 0) st->speed--;
        return 1;
    case ACT_START:
        st->frame = 0;
        return 1;
    case ACT_END:
        st->playing = 0;
        st->frame = last;
        return 1;
    case ACT_CURSOR: {
        viz_access a = pkeys_access_view(as, st);
        st->sel.on = !st->sel.on;
        if (!st->sel.on) st->sel.thread_on = 0;
        viz_access_clamp(&a, st->frame, &st->sel);
        return 1;
    }
    case ACT_UP:
    case ACT_DOWN:
        return 0; /* only with the cursor on */
    case ACT_PICK: {
        viz_access a = pkeys_access_view(as, st);
        if (!st->sel.on) return 0;
        if (viz_access_pick_thread(&a, st->frame, &st->sel) != 0) st->sel.thread_on = 0;
        return 1;
    }
    case ACT_ZOOM: {
        viz_access from = pkeys_access_view(as, st), to = from;
        to.zoom = !from.zoom;
        st->frame = viz_access_frame_map(&from, st->frame, &to);
        st->zoom = to.zoom;
        st->nframes = 0;
        for (int i = 0; i < nsides; i++) {
            int n;
            if (sides[i].acc) {
                viz_access v = pkeys_access_view(&sides[i], st);
                n = viz_access_frames(&v);
            } else {
                n = sides[i].r->frames(sides[i].trace);
            }
            if (n > st->nframes) st->nframes = n;
        }
        if (st->nframes < 1) st->nframes = 1;
        if (st->frame >= st->nframes) st->frame = st->nframes - 1;
        return 1;
    }
    case ACT_CODE:
        st->code = !st->code;
        return 1;
    case ACT_HELP:
        st->help = 1;
        return 1;
    case ACT_CAPTION:
        st->playing = 0; /* the step stays while it is read */
        st->caption = 1;
        return 1;
    case ACT_KEYS:
        st->hide_keys = !st->hide_keys;
        return 1;
    case ACT_TABLE:
        st->hide_table = !st->hide_table;
        return 1;
    case ACT_QUIT:
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

/* ----------------------------------------------- the key line and help */

void pkeys_draw_line(canvas *c, int y, int with_access)
{
    int x = 1;
    for (int i = 0; i < NBINDINGS; i++) {
        const key_binding *b = &bindings[i];
        if (!b->line_keys || (b->access && !with_access)) continue;
        const char *key = _(b->line_keys), *what = _(b->line);
        int need = viz_text_width(key) + 1 + viz_text_width(what) + 3;
        if (x + need > c->w) break;
        x = canvas_text(c, x, y, key, VIZ_ROLE_KEY, 0);
        x = canvas_text(c, x + 1, y, what, VIZ_ROLE_DIM, 0) + 3;
    }
}

void pkeys_draw_help(canvas *c, int with_access)
{
    int n = 0;
    for (int i = 0; i < NBINDINGS; i++)
        if (bindings[i].help_keys && (!bindings[i].access || with_access)) n++;
    int bw = with_access ? 56 : 44, bh = n + 5;
    if (bw > c->w) bw = c->w;
    if (bh > c->h) bh = c->h;
    viz_rect r = viz_rect_make((c->w - bw) / 2, (c->h - bh) / 2, bw, bh);
    canvas_fill(c, r, ' ', VIZ_ROLE_TEXT, 0);
    canvas_box(c, r, _("keys"), VIZ_ROLE_HEADING, 0);
    int row = 0;
    for (int i = 0; i < NBINDINGS; i++) {
        const key_binding *b = &bindings[i];
        if (!b->help_keys || (b->access && !with_access)) continue;
        canvas_textn(c, r.x + 3, r.y + 2 + row, 14, _(b->help_keys), VIZ_ROLE_KEY, 0);
        canvas_textn(c, r.x + 18, r.y + 2 + row, bw - 19, _(b->help), VIZ_ROLE_TEXT, 0);
        row++;
    }
    canvas_textn(c, r.x + 3, r.y + bh - 2, bw - 6, _("any key closes this"), VIZ_ROLE_DIM, 0);
}
