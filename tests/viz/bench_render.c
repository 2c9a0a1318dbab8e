/* bench_render.c - how long one frame takes to draw (not a test: run it).
 *
 * The player redraws on every key and every tick, so a frame must be cheap:
 * one frame of a 256-element reduction tree (interleaved, one block of 256
 * threads, traced on the simulator) at 200x60 must take at most 2 ms,
 * counting everything the renderer does (it reads the whole trace each
 * time). Prints the median over many draws for every frame, and the whole
 * player screen for comparison. Exit status 1 when the limit is missed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "viz/player.h"
#include "tests/viz/record.h"
#include "viz/render.h"

#define REPEATS 301
#define LIMIT_MS 2.0

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(void)
{
    lab_trace t;
    char err[LAB_ERR_MAX];
    if (viz_test_record("reduce", "interleaved", 256, 256, LAB_INT, NULL, LAB_BACKEND_SIM, &t, NULL, err,
                        sizeof err) != 0) {
        fprintf(stderr, "bench_render: %s\n", err);
        return 2;
    }
    const viz_renderer *r = viz_renderer_find("reduce", t.variant);
    canvas *c = canvas_new(200, 60);
    static double ms[REPEATS];
    int nf = r->frames(&t);
    double worst = 0;
    printf("reduce/interleaved, n = 256, block 256, %zu events, %d frames, canvas 200x60\n", t.count, nf);
    printf("frame  title                     median ms\n");
    for (int f = 0; f < nf; f++) {
        viz_frame_info info;
        for (int i = 0; i < REPEATS; i++) {
            canvas_clear(c);
            viz_info_clear(&info);
            double t0 = now_ms();
            r->draw(&t, f, c, canvas_bounds(c), &info);
            ms[i] = now_ms() - t0;
        }
        qsort(ms, REPEATS, sizeof ms[0], cmp);
        double med = ms[REPEATS / 2];
        if (med > worst) worst = med;
        printf("%5d  %-24s  %9.3f\n", f + 1, info.title, med);
    }
    /* the whole screen the player composes (picture, captions, table) */
    viz_side side = {r, &t, "reduce/interleaved", NULL};
    viz_play_state st;
    viz_play_init(&st, nf);
    st.frame = nf / 2;
    for (int i = 0; i < REPEATS; i++) {
        double t0 = now_ms();
        viz_player_compose(c, &side, 1, &st, NULL);
        ms[i] = now_ms() - t0;
    }
    qsort(ms, REPEATS, sizeof ms[0], cmp);
    printf("player screen (frame %d): median %.3f ms\n", st.frame + 1, ms[REPEATS / 2]);
    printf("slowest frame: median %.3f ms (limit %.1f ms): %s\n", worst, LIMIT_MS,
           worst <= LIMIT_MS ? "ok" : "TOO SLOW");
    canvas_free(c);
    lab_trace_free(&t);
    return worst <= LIMIT_MS ? 0 : 1;
}
