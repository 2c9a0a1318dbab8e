/* test_sim_warp.c - warp collectives against CUDA's documented results:
 * shuffles (a table of widths and lanes), masks, votes, __activemask. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/family.h"
#include "kernels/sim/sim.h"
#include "tests/sim/simtest.h"
#include "tests/sim/simtest_run.h"

/* ------------------------------------------------------ warp collectives */

static unsigned wout[128];

static void warp_run(int op, unsigned block, unsigned mask, unsigned active, int arg, int width, const int *in)
{
    static simtest_params p;
    memset(&p, 0, sizeof p);
    p.op = op;
    p.block[0] = block;
    p.block[1] = p.block[2] = 1;
    p.mask = mask;
    p.active = active;
    p.lane_arg = arg;
    p.width = width;
    for (int i = 0; i < 64; i++) p.in[i] = in ? in[i] : i * 10;
    int rc = run(simtest_warp_op_sim, &p, wout, sizeof wout, 0, NULL);
    if (rc != 0) fail_msg("%s", err);
}

static void expect_lanes(const unsigned *want, int n, const char *what)
{
    for (int i = 0; i < n; i++)
        if (wout[i] != want[i]) fail_msg("%s: thread %d got %u (0x%x), CUDA gives %u", what, i, wout[i], wout[i], want[i]);
}

#define U SIMTEST_UNSET
#define FULL 0xffffffffu

static void test_shfl_table(void **state)
{
    (void)state;
    /* in[lane] = 10 * lane throughout */
    static const unsigned up1_w32[32] = {0,   0,   10,  20,  30,  40,  50,  60,  70,  80,  90,
                                         100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 200,
                                         210, 220, 230, 240, 250, 260, 270, 280, 290, 300};
    warp_run(SIMTEST_SHFL_UP, 32, FULL, FULL, 1, 32, NULL);
    expect_lanes(up1_w32, 32, "__shfl_up_sync(delta 1, width 32)");

    /* width 8: the first 3 lanes of each segment keep their own value */
    static const unsigned up3_w8[32] = {0,   10,  20,  0,   10,  20,  30,  40,  80,  90,  100,
                                        80,  90,  100, 110, 120, 160, 170, 180, 160, 170, 180,
                                        190, 200, 240, 250, 260, 240, 250, 260, 270, 280};
    warp_run(SIMTEST_SHFL_UP, 32, FULL, FULL, 3, 8, NULL);
    expect_lanes(up3_w8, 32, "__shfl_up_sync(delta 3, width 8)");

    /* width 16: the last 4 lanes of each segment keep their own value */
    static const unsigned down4_w16[32] = {40,  50,  60,  70,  80,  90,  100, 110, 120, 130, 140,
                                           150, 120, 130, 140, 150, 200, 210, 220, 230, 240, 250,
                                           260, 270, 280, 290, 300, 310, 280, 290, 300, 310};
    warp_run(SIMTEST_SHFL_DOWN, 32, FULL, FULL, 4, 16, NULL);
    expect_lanes(down4_w16, 32, "__shfl_down_sync(delta 4, width 16)");

    /* edge deltas: 31 reaches from lane 0 to lane 31 only; 0 and 32 move nothing */
    unsigned want[64];
    for (int l = 0; l < 32; l++) want[l] = l == 0 ? 310 : 10u * l;
    warp_run(SIMTEST_SHFL_DOWN, 32, FULL, FULL, 31, 32, NULL);
    expect_lanes(want, 32, "__shfl_down_sync(delta 31)");
    for (int l = 0; l < 32; l++) want[l] = 10u * l;
    warp_run(SIMTEST_SHFL_DOWN, 32, FULL, FULL, 32, 32, NULL);
    expect_lanes(want, 32, "__shfl_down_sync(delta 32)");
    warp_run(SIMTEST_SHFL_UP, 32, FULL, FULL, 0, 32, NULL);
    expect_lanes(want, 32, "__shfl_up_sync(delta 0)");
    warp_run(SIMTEST_SHFL_UP, 32, FULL, FULL, 32, 32, NULL);
    expect_lanes(want, 32, "__shfl_up_sync(delta 32)");

    /* xor: butterflies; with width 8, lanes may read earlier segments only */
    for (int l = 0; l < 32; l++) want[l] = 10u * (l ^ 1);
    warp_run(SIMTEST_SHFL_XOR, 32, FULL, FULL, 1, 32, NULL);
    expect_lanes(want, 32, "__shfl_xor_sync(1, width 32)");
    static const unsigned xor8_w8[32] = {0,   10,  20,  30,  40,  50,  60,  70,  0,   10,  20,
                                         30,  40,  50,  60,  70,  160, 170, 180, 190, 200, 210,
                                         220, 230, 160, 170, 180, 190, 200, 210, 220, 230};
    warp_run(SIMTEST_SHFL_XOR, 32, FULL, FULL, 8, 8, NULL);
    expect_lanes(xor8_w8, 32, "__shfl_xor_sync(8, width 8)");
    for (int l = 0; l < 32; l++) want[l] = l < 16 ? 10u * l : 10u * (l - 16);
    warp_run(SIMTEST_SHFL_XOR, 32, FULL, FULL, 16, 16, NULL);
    expect_lanes(want, 32, "__shfl_xor_sync(16, width 16)");
    for (int l = 0; l < 32; l++) want[l] = 10u * (l ^ 31);
    warp_run(SIMTEST_SHFL_XOR, 32, FULL, FULL, 31, 32, NULL);
    expect_lanes(want, 32, "__shfl_xor_sync(31)");

    /* direct: srcLane is taken modulo the width, within the caller's segment */
    for (int l = 0; l < 32; l++) want[l] = 50;
    warp_run(SIMTEST_SHFL, 32, FULL, FULL, 5, 32, NULL);
    expect_lanes(want, 32, "__shfl_sync(5)");
    for (int l = 0; l < 32; l++) want[l] = 10u * ((l & ~7) + 2);
    warp_run(SIMTEST_SHFL, 32, FULL, FULL, 10, 8, NULL);
    expect_lanes(want, 32, "__shfl_sync(10, width 8)");
    for (int l = 0; l < 32; l++) want[l] = 310;
    warp_run(SIMTEST_SHFL, 32, FULL, FULL, -1, 32, NULL);
    expect_lanes(want, 32, "__shfl_sync(-1)");
    for (int l = 0; l < 32; l++) want[l] = 10u * ((l & ~15) + 1);
    warp_run(SIMTEST_SHFL, 32, FULL, FULL, 33, 16, NULL);
    expect_lanes(want, 32, "__shfl_sync(33, width 16)");
    for (int l = 0; l < 32; l++) want[l] = 10u * l;
    warp_run(SIMTEST_SHFL, 32, FULL, FULL, 0, 1, NULL);
    expect_lanes(want, 32, "__shfl_sync(0, width 1)");

    /* other types travel whole */
    for (int l = 0; l < 32; l++) want[l] = l < 31 ? 10u * (l + 1) : 310;
    warp_run(SIMTEST_SHFL_FLOAT, 32, FULL, FULL, 1, 32, NULL);
    expect_lanes(want, 32, "__shfl_down_sync(float)");
    for (int l = 0; l < 32; l++) want[l] = 10u * (l ^ 3);
    warp_run(SIMTEST_SHFL_DOUBLE, 32, FULL, FULL, 3, 4, NULL);
    expect_lanes(want, 32, "__shfl_xor_sync(double, 3, width 4)");
}

static void test_shfl_masks(void **state)
{
    (void)state;
    unsigned want[64];
    /* half the warp takes part and reads only its own half */
    warp_run(SIMTEST_SHFL_XOR, 32, 0x0000ffffu, 0x0000ffffu, 0, 32, NULL);
    for (int l = 0; l < 32; l++) want[l] = l < 16 ? 10u * l : U;
    expect_lanes(want, 32, "__shfl_xor_sync(mask 0xffff, 0)");
    /* a source lane of the warp that the mask leaves out: undefined in CUDA,
     * so the launch stops and says which lanes */
    static simtest_params p;
    memset(&p, 0, sizeof p);
    p.op = SIMTEST_SHFL_DOWN;
    p.block[0] = 32;
    p.block[1] = p.block[2] = 1;
    p.mask = p.active = 0x0000ffffu;
    p.lane_arg = 8;
    p.width = 32;
    for (int i = 0; i < 64; i++) p.in[i] = i * 10;
    assert_int_equal(run(simtest_warp_op_sim, &p, wout, sizeof wout, 0, NULL), -1);
    EXPECT_IN(err, "lane 8 reads lane 16 with __shfl_down_sync");
    EXPECT_IN(err, "but the mask 0x0000ffff leaves lane 16 out");
    /* a partial last warp: lanes past the block's end are not waited for */
    for (int t = 0; t < 48; t++) {
        int l = t % 32, w = t / 32;
        if (w == 0) want[t] = l < 24 ? 10u * (t + 8) : 10u * t;
        else want[t] = l < 8 ? 10u * (t + 8) : 10u * t;
    }
    warp_run(SIMTEST_SHFL_DOWN, 48, FULL, FULL, 8, 32, NULL);
    expect_lanes(want, 48, "__shfl_down_sync in a block of 48");
    /* two warps, each on its own */
    for (int t = 0; t < 64; t++) want[t] = 10u * (t ^ 2);
    warp_run(SIMTEST_SHFL_XOR, 64, FULL, FULL, 2, 32, NULL);
    expect_lanes(want, 64, "__shfl_xor_sync over two warps");
}

static void test_votes(void **state)
{
    (void)state;
    int in[64];
    unsigned want[64];
    for (int i = 0; i < 64; i++) in[i] = i % 3 == 0;
    for (int l = 0; l < 32; l++) want[l] = 0x49249249u;
    warp_run(SIMTEST_BALLOT, 32, FULL, FULL, 0, 32, in);
    expect_lanes(want, 32, "__ballot_sync");
    for (int l = 0; l < 32; l++) want[l] = (0xff00ff00u >> l & 1) ? 0x49249249u & 0xff00ff00u : U;
    warp_run(SIMTEST_BALLOT, 32, 0xff00ff00u, 0xff00ff00u, 0, 32, in);
    expect_lanes(want, 32, "__ballot_sync(mask 0xff00ff00)");

    for (int i = 0; i < 64; i++) in[i] = i == 17;
    for (int l = 0; l < 32; l++) want[l] = 1;
    warp_run(SIMTEST_ANY, 32, FULL, FULL, 0, 32, in);
    expect_lanes(want, 32, "__any_sync");
    for (int l = 0; l < 32; l++) want[l] = l < 16 ? 0 : U;
    warp_run(SIMTEST_ANY, 32, 0xffffu, 0xffffu, 0, 32, in);
    expect_lanes(want, 32, "__any_sync(mask 0xffff)");

    for (int i = 0; i < 64; i++) in[i] = i != 4;
    for (int l = 0; l < 32; l++) want[l] = 0;
    warp_run(SIMTEST_ALL, 32, FULL, FULL, 0, 32, in);
    expect_lanes(want, 32, "__all_sync");
    for (int l = 0; l < 32; l++) want[l] = l == 4 ? U : 1;
    warp_run(SIMTEST_ALL, 32, ~0x10u, ~0x10u, 0, 32, in);
    expect_lanes(want, 32, "__all_sync(mask without lane 4)");

    for (int i = 0; i < 64; i++) in[i] = i % 4;
    for (int l = 0; l < 32; l++) want[l] = 0x11111111u << (l % 4);
    warp_run(SIMTEST_MATCH_ANY, 32, FULL, FULL, 0, 32, in);
    expect_lanes(want, 32, "__match_any_sync");
    for (int l = 0; l < 32; l++) want[l] = 0;
    warp_run(SIMTEST_MATCH_ALL, 32, FULL, FULL, 0, 32, in);
    expect_lanes(want, 32, "__match_all_sync (values differ)");
    for (int l = 0; l < 32; l++) assert_int_equal(wout[64 + l], 0);
    for (int i = 0; i < 64; i++) in[i] = 7;
    for (int l = 0; l < 32; l++) want[l] = FULL;
    warp_run(SIMTEST_MATCH_ALL, 32, FULL, FULL, 0, 32, in);
    expect_lanes(want, 32, "__match_all_sync (all equal)");
    for (int l = 0; l < 32; l++) assert_int_equal(wout[64 + l], 1);

    for (int i = 0; i < 64; i++) in[i] = i - 10;
    for (int l = 0; l < 32; l++) want[l] = (unsigned)(31 * 32 / 2 - 320);
    warp_run(SIMTEST_REDUCE_ADD, 32, FULL, FULL, 0, 32, in);
    expect_lanes(want, 32, "__reduce_add_sync");
    for (int l = 0; l < 32; l++) want[l] = (unsigned)-10;
    warp_run(SIMTEST_REDUCE_MIN, 32, FULL, FULL, 0, 32, in);
    expect_lanes(want, 32, "__reduce_min_sync(int)");
    for (int l = 0; l < 32; l++) want[l] = 21;
    warp_run(SIMTEST_REDUCE_MAX, 32, FULL, FULL, 0, 32, in);
    expect_lanes(want, 32, "__reduce_max_sync(int)");

    for (int l = 0; l < 20; l++) want[l] = 0xfffffu; /* the lanes that exist */
    warp_run(SIMTEST_ACTIVEMASK, 20, FULL, FULL, 0, 32, NULL);
    expect_lanes(want, 20, "__activemask in a block of 20");
}

/* Lanes that diverge see each other's branch only: __activemask gives the
 * lanes that reached the call together, and a shuffle over that mask works. */
static void test_activemask_divergence(void **state)
{
    (void)state;
    static simtest_params p;
    static int out[1024];
    memset(&p, 0, sizeof p);
    p.which = SIMTEST_ACTIVEMASK_SPLIT;
    if (run(simtest_diag_sim, &p, out, sizeof out, 1, NULL) != 0) fail_msg("%s", err);
    /* block of 60: warp 1 has lanes 0-27 */
    for (int t = 0; t < 60; t++) {
        int lane = t % 32, w = t / 32;
        unsigned live = w == 0 ? FULL : 0x0fffffffu;
        unsigned outer = 0x00000fffu | (0xfc000000u & live), inner = 0x03fff000u & live;
        int is_outer = lane < 12 || lane > 25;
        assert_int_equal((unsigned)out[t], is_outer ? outer : inner);
        int v = is_outer ? lane + (lane ^ 1) : lane;
        assert_int_equal(out[64 + t], v);
    }
}

#undef U
#undef FULL


const struct CMUnitTest simtest_warp[] = {
    cmocka_unit_test(test_shfl_table),
    cmocka_unit_test(test_shfl_masks),
    cmocka_unit_test(test_votes),
    cmocka_unit_test(test_activemask_divergence),
};
const size_t simtest_nwarp = sizeof simtest_warp / sizeof simtest_warp[0];
