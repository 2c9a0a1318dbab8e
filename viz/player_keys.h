/* player_keys.h - what player.c asks of player_keys.c: the side with the
 * generic animation and its view as the state shows it (which the keys
 * change), and the key line and the help overlay, drawn from the same
 * table of bindings as the keys do (viz_player_key_sides, player.h). */
#ifndef GPULAB_VIZ_PLAYER_KEYS_H
#define GPULAB_VIZ_PLAYER_KEYS_H

#include "viz/canvas.h"
#include "viz/player.h"
#include "viz/render_access.h"

/* The first side that shows the generic animation, NULL when none does. */
const viz_side *pkeys_access_side(const viz_side *sides, int nsides);
/* The generic animation of side s as the state shows it (zoomed or not). */
viz_access pkeys_access_view(const viz_side *s, const viz_play_state *st);

/* The key line at row y (the keys of the generic animation too when
 * with_access), as many as fit. */
void pkeys_draw_line(canvas *c, int y, int with_access);
/* The help overlay: every key with what it does, in a box in the middle. */
void pkeys_draw_help(canvas *c, int with_access);

#endif
