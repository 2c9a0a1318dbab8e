/* test_sim_grid.cpp - the grid barrier of a cooperative launch and tiles
 * wider than a warp, straight through sim_launch_coop_fn and the shim:
 * results across grid barriers (locals, shared memory, several barriers),
 * the launch refused past the resident blocks, the diagnostics (a grid
 * barrier in a launch that is not cooperative, blocks or threads that end
 * before it, different grid barriers), the race check around grid and tile
 * barriers, determinism, and the access recording across a grid barrier.
 * Compiled as a kernel source is (-DGPULAB_SIM), instrumented for the
 * recording where the build has it. */
#define GPULAB_SIM 1
#include "kernels/kern.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
extern "C" {
#include <cmocka.h>
}

namespace cg = cooperative_groups;

#include "tests/sim/simtest_job.h"

#define EXPECT_IN(hay, ...)                                                              \
    do {                                                                                 \
        char needle_[512];                                                               \
        snprintf(needle_, sizeof needle_, __VA_ARGS__);                                  \
        if (!strstr((hay), needle_)) fail_msg("expected\n  %s\nin\n  %s", needle_, (hay)); \
    } while (0)

/* A cooperative launch of body over grid x block, at most max_blocks resident. */
template <class F>
static int coop(lab_job *j, const char *name, dim3 grid, dim3 block, F body, unsigned long long max_blocks = 1024)
{
    return sim_launch_coop_fn(j, name, __FILE__, __LINE__, grid, block, 0, [](void *p) { (*static_cast<F *>(p))(); },
                              &body, nullptr, max_blocks);
}

#define GRID_SYNC(line) sim_grid_sync((line), __FILE__)

/* the lines of the barriers the kernels reached, for the expected messages */
static int grid_line_a, grid_line_b, tile_line;

/* ------------------------------------------------------------- results */

/* Three phases: each thread keeps locals (a scalar and a stack array)
 * across two grid barriers; each block reads what the next block wrote in
 * the phase before. */
static __global__ void phases_k(int *a, int *out)
{
    unsigned b = blockIdx.x, t = threadIdx.x, nb = gridDim.x, nt = blockDim.x;
    int mine = (int)(b * 1000 + t);
    volatile int local[16];
    for (int k = 0; k < 16; k++) local[k] = mine + k;
    a[b * nt + t] = mine;
    GRID_SYNC(__LINE__);
    int next = a[((b + 1) % nb) * nt + t];
    GRID_SYNC(__LINE__);
    a[b * nt + t] = next + 1;
    GRID_SYNC(__LINE__);
    int sum = 0;
    for (int k = 0; k < 16; k++) sum += local[k] - mine;
    out[b * nt + t] = a[((b + 1) % nb) * nt + t] * 1000 + sum + (mine == (int)(b * 1000 + t) ? 0 : 1000000);
}

static void test_grid_phases(void **state)
{
    (void)state;
    const unsigned nb = 8, nt = 96;
    int *a, *o, out[8 * 96];
    assert_int_equal(cudaMalloc(&a, sizeof out), cudaSuccess);
    assert_int_equal(cudaMalloc(&o, sizeof out), cudaSuccess);
    sim_stats s0, s1;
    sim_stats_get(&s0);
    lab_job *j = fresh_job(0);
    int rc = coop(j, "phases_k", nb, nt, [=]() { phases_k(a, o); });
    if (rc != 0) fail_msg("%s", j->err);
    sim_stats_get(&s1);
    assert_int_equal(s1.blocks - s0.blocks, nb);
    assert_true(s1.barriers - s0.barriers >= 3);
    assert_int_equal(cudaMemcpy(out, o, sizeof out, cudaMemcpyDeviceToHost), cudaSuccess);
    for (unsigned b = 0; b < nb; b++)
        for (unsigned t = 0; t < nt; t++) {
            /* block b+1 wrote (block b+2's first value) + 1 */
            int want = ((int)(((b + 2) % nb) * 1000 + t) + 1) * 1000 + 120;
            if (out[b * nt + t] != want) fail_msg("block %u thread %u: %d, not %d", b, t, out[b * nt + t], want);
        }
    cudaFree(a);
    cudaFree(o);
}

/* Shared memory is the block's own across a grid barrier, though other
 * blocks ran on the same arena meanwhile. */
static __global__ void shared_k(int *out)
{
    SHARED(int, s, 64);
    s[threadIdx.x] = (int)(blockIdx.x * 100 + threadIdx.x);
    __syncthreads();
    GRID_SYNC(__LINE__);
    out[blockIdx.x * 64 + threadIdx.x] = s[(threadIdx.x + 1) % 64];
}

static void test_grid_keeps_shared(void **state)
{
    (void)state;
    int *d, out[5 * 64];
    assert_int_equal(cudaMalloc(&d, sizeof out), cudaSuccess);
    lab_job *j = fresh_job(1);
    int rc = coop(j, "shared_k", 5, 64, [=]() { shared_k(d); });
    if (rc != 0) fail_msg("%s", j->err);
    cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost);
    for (int b = 0; b < 5; b++)
        for (int t = 0; t < 64; t++) assert_int_equal(out[b * 64 + t], b * 100 + (t + 1) % 64);
    cudaFree(d);
}

/* A float sum in a fixed order: two runs give the same bits. */
static __global__ void fsum_k(const float *in, float *partial, float *out)
{
    SHARED(float, s, 128);
    s[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
    __syncthreads();
    for (int k = 64; k > 0; k /= 2) {
        if ((int)threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(&partial[0], s[0]);
    GRID_SYNC(__LINE__);
    if (blockIdx.x == 0 && threadIdx.x == 0) *out = partial[0];
}

static void test_grid_determinism(void **state)
{
    (void)state;
    const int n = 16 * 128;
    float *h = (float *)malloc(n * sizeof(float)), *in, *p, *o, r[2];
    for (int i = 0; i < n; i++) h[i] = 1.0f / (float)(i + 1);
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&p, sizeof(float));
    cudaMalloc(&o, sizeof(float));
    cudaMemcpy(in, h, n * sizeof(float), cudaMemcpyHostToDevice);
    for (int k = 0; k < 2; k++) {
        cudaMemset(p, 0, sizeof(float));
        lab_job *j = fresh_job(0);
        assert_int_equal(coop(j, "fsum_k", 16, 128, [=]() { fsum_k(in, p, o); }), 0);
        cudaMemcpy(&r[k], o, sizeof(float), cudaMemcpyDeviceToHost);
    }
    assert_memory_equal(&r[0], &r[1], sizeof(float));
    assert_true(r[0] > 8.0f && r[0] < 8.5f); /* H(2048) = 8.199... */
    free(h);
    cudaFree(in);
    cudaFree(p);
    cudaFree(o);
}

/* ------------------------------------------------------------- refusals */

static __global__ void empty_grid_k(void)
{
    grid_line_a = __LINE__; GRID_SYNC(__LINE__);
}

static void test_grid_too_large(void **state)
{
    (void)state;
    lab_job *j = fresh_job(0);
    (void)cudaGetLastError();
    assert_int_equal(coop(j, "empty_grid_k", 5, 32, []() { empty_grid_k(); }, 4), -1);
    EXPECT_IN(j->err, "a cooperative launch of 5 blocks, but the GPU holds at most 4 blocks of 32 threads");
    assert_int_equal(cudaGetLastError(), cudaErrorCooperativeLaunchTooLarge);
    j = fresh_job(0);
    assert_int_equal(coop(j, "empty_grid_k", 4, 32, []() { empty_grid_k(); }, 4), 0);
    j = fresh_job(0);
    assert_int_equal(coop(j, "empty_grid_k", 1, 32, []() { empty_grid_k(); }, 0), -1);
    assert_int_equal(cudaGetLastError(), cudaErrorCooperativeLaunchTooLarge);
}

static void test_grid_not_cooperative(void **state)
{
    (void)state;
    lab_job *j = fresh_job(0);
    (void)cudaGetLastError();
    assert_int_equal(sim_launch(j, "empty_grid_k", __FILE__, __LINE__, 2, 32, 0, []() { empty_grid_k(); }), -1);
    EXPECT_IN(j->err, "empty_grid_k: block 0, thread 0 calls this_grid().sync() (line %d) in a launch that is not "
                      "cooperative",
              grid_line_a);
    assert_int_equal(cudaGetLastError(), cudaErrorLaunchFailure);
}

/* ---------------------------------------------------------- diagnostics */

static __global__ void block_returns_k(int which)
{
    if ((int)blockIdx.x == which) return;
    grid_line_a = __LINE__; GRID_SYNC(__LINE__);
}

static __global__ void threads_return_k(void)
{
    if (blockIdx.x == 1 && threadIdx.x >= 32) return;
    grid_line_a = __LINE__; GRID_SYNC(__LINE__);
}

static __global__ void two_grid_barriers_k(void)
{
    if (blockIdx.x % 2 == 0) {
        grid_line_a = __LINE__; GRID_SYNC(__LINE__);
    } else {
        grid_line_b = __LINE__; GRID_SYNC(__LINE__);
    }
}

static __global__ void grid_and_block_k(void)
{
    if (threadIdx.x < 32) {
        grid_line_a = __LINE__; GRID_SYNC(__LINE__);
    }
    grid_line_b = __LINE__; __syncthreads();
}

static void test_grid_diagnostics(void **state)
{
    (void)state;
    lab_job *j = fresh_job(0);
    assert_int_equal(coop(j, "block_returns_k", 8, 32, []() { block_returns_k(3); }), -1);
    EXPECT_IN(j->err,
              "block_returns_k: blocks 0-2, 4-7 wait at this_grid().sync() (line %d) but block 3 has already ended: "
              "every thread of the grid must reach each grid barrier",
              grid_line_a);

    j = fresh_job(0);
    assert_int_equal(coop(j, "threads_return_k", 3, 64, []() { threads_return_k(); }), -1);
    EXPECT_IN(j->err,
              "threads_return_k: block 1: threads 0-31 wait at this_grid().sync() (line %d) but threads 32-63 have "
              "already exited: every thread of the grid must reach each grid barrier",
              grid_line_a);

    j = fresh_job(0);
    assert_int_equal(coop(j, "two_grid_barriers_k", 4, 32, []() { two_grid_barriers_k(); }), -1);
    EXPECT_IN(j->err,
              "two_grid_barriers_k: blocks 0, 2 wait at this_grid().sync() (line %d) while blocks 1, 3 wait at line "
              "%d: every thread of the grid must reach the same grid barrier",
              grid_line_a, grid_line_b);

    j = fresh_job(0);
    assert_int_equal(coop(j, "grid_and_block_k", 2, 64, []() { grid_and_block_k(); }), -1);
    EXPECT_IN(j->err,
              "grid_and_block_k: block 0: threads 0-31 wait at this_grid().sync() (line %d) while threads 32-63 wait "
              "at __syncthreads (line %d): every thread of a block must reach the same barrier",
              grid_line_a, grid_line_b);
}

/* thread 0 writes s[1], thread 1 reads it: with no barrier between (a race
 * the grid barrier closes), or with the grid barrier between (none). */
static __global__ void grid_race_k(int *out, int separated)
{
    SHARED(int, s, 64);
    s[threadIdx.x] = 0;
    __syncthreads();
    if (threadIdx.x == 0) s[1] = 5;
    if (!separated && threadIdx.x == 1) out[blockIdx.x] = s[1];
    grid_line_a = __LINE__; GRID_SYNC(__LINE__);
    if (separated && threadIdx.x == 1) out[blockIdx.x] = s[1];
}

static void test_grid_race(void **state)
{
    (void)state;
    if (!sim_rec_available()) skip(); /* the race check needs the recording */
    int *d, out[3];
    cudaMalloc(&d, sizeof out);
    lab_job *j = fresh_job(1);
    int rc = coop(j, "grid_race_k", 3, 64, [=]() { grid_race_k(d, 1); });
    if (rc != 0) fail_msg("%s", j->err);
    cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost);
    for (int b = 0; b < 3; b++) assert_int_equal(out[b], 5);
    j = fresh_job(1);
    assert_int_equal(coop(j, "grid_race_k", 3, 64, [=]() { grid_race_k(d, 0); }), -1);
    EXPECT_IN(j->err, "grid_race_k: block 0: data race on shared array s");
    EXPECT_IN(j->err, "element 1: thread 0 writes it at line %d and thread 1 reads it at line %d", grid_line_a - 2,
              grid_line_a - 1);
    cudaFree(d);
}

/* ------------------------------------------------------------ wide tiles */

/* Each 128-thread tile of a 512-thread block sums its quarter; cross = 1
 * also reads another tile's element after only the tile barrier. */
static __global__ void tile_k(int *out, int cross)
{
    SHARED(int, s, 512);
    cg::thread_block_tile<128> tile = cg::tiled_partition<128>(cg::this_thread_block());
    unsigned base = tile.meta_group_rank() * 128, r = tile.thread_rank();
    s[threadIdx.x] = (int)threadIdx.x;
    tile.sync();
    for (unsigned k = 64; k > 0; k /= 2) {
        if (r < k) s[base + r] += s[base + r + k];
        tile_line = __LINE__; tile.sync();
    }
    if (r == 0) out[tile.meta_group_rank()] = s[base];
    if (cross && threadIdx.x == 200) out[4] = s[0];
    if (threadIdx.x == 300) {
        out[5] = (int)tile.size();
        out[6] = (int)tile.meta_group_rank();
        out[7] = (int)tile.meta_group_size();
        out[8] = (int)tile.thread_rank();
    }
}

static void test_tile_barrier(void **state)
{
    (void)state;
    int *d, out[9];
    cudaMalloc(&d, sizeof out);
    lab_job *j = fresh_job(1);
    int rc = sim_launch(j, "tile_k", __FILE__, __LINE__, 1, 512, 0, [=]() { tile_k(d, 0); });
    if (rc != 0) fail_msg("%s", j->err);
    cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost);
    for (int t = 0; t < 4; t++) assert_int_equal(out[t], 16384 * t + 8128);
    assert_int_equal(out[5], 128);
    assert_int_equal(out[6], 2);
    assert_int_equal(out[7], 4);
    assert_int_equal(out[8], 44);
    /* tile 1's thread 200 reads what tile 0 wrote: the tile barrier orders
     * nothing between tiles */
    if (sim_rec_available()) { /* the race check needs the recording */
        j = fresh_job(1);
        assert_int_equal(sim_launch(j, "tile_k", __FILE__, __LINE__, 1, 512, 0, [=]() { tile_k(d, 1); }), -1);
        EXPECT_IN(j->err, "data race on shared array s");
        EXPECT_IN(j->err, "element 0: thread 0 writes it at line %d and thread 200 reads it at line %d",
                  tile_line - 1, tile_line + 3);
    }
    cudaFree(d);
}

static __global__ void tile_exit_k(void)
{
    cg::thread_block_tile<64> tile = cg::tiled_partition<64>(cg::this_thread_block());
    if (threadIdx.x == 70) return;
    tile_line = __LINE__; tile.sync();
}

static void test_tile_diagnostics(void **state)
{
    (void)state;
    lab_job *j = fresh_job(0);
    assert_int_equal(sim_launch(j, "tile_exit_k", __FILE__, __LINE__, 1, 128, 0, []() { tile_exit_k(); }), -1);
    EXPECT_IN(j->err,
              "tile_exit_k: block 0: threads 64-69, 71-127 wait at thread_block_tile::sync() (line %d) but thread 70 "
              "has already exited: every thread of a tile must reach the tile's barrier",
              tile_line);
}

/* ------------------------------------------ the access recording (profile) */

/* Each thread stores 1, passes the grid barrier, stores 2, passes a block
 * barrier, stores 3: the store of value v happens after v - 1 barriers of
 * the block, the grid barrier among them. */
static __global__ void rec_epochs_k(void)
{
    SHARED(int, s, 64);
    s[threadIdx.x] = 1;
    GRID_SYNC(__LINE__);
    s[threadIdx.x] = 2;
    __syncthreads();
    s[threadIdx.x] = 3;
}

struct rec_seen {
    unsigned stores, wrong, unnamed;
    unsigned long long barriers[4];
};

static void rec_request(void *ctx, const sim_rec_request *r)
{
    rec_seen *w = static_cast<rec_seen *>(ctx);
    if (r->kind != SIM_REC_STORE) return;
    for (unsigned l = 0; l < 32; l++) {
        if (!(r->mask >> l & 1)) continue;
        w->stores++;
        if (r->value[l] != r->epoch + 1) w->wrong++;
        const sim_rec_object *o = sim_rec_object_at(r->addr[l]);
        if (!o || strcmp(o->name, "s") != 0) w->unnamed++;
    }
}

static void rec_barrier(void *ctx, unsigned long long block, unsigned warps)
{
    rec_seen *w = static_cast<rec_seen *>(ctx);
    if (block < 4) w->barriers[block] += warps;
}

/* A block that runs again after the grid barrier goes on counting its
 * barriers, and its shared array is still known by name. */
static void test_grid_recording(void **state)
{
    (void)state;
    if (!sim_rec_available()) skip();
    rec_seen seen = {};
    sim_rec_reader rd = {};
    rd.ctx = &seen;
    rd.request = rec_request;
    rd.values = 1;
    rd.barrier = rec_barrier;
    assert_int_equal(sim_rec_attach(&rd), 0);
    lab_job *j = fresh_job(0);
    int rc = coop(j, "rec_epochs_k", 4, 64, []() { rec_epochs_k(); });
    sim_rec_detach(&rd);
    if (rc != 0) fail_msg("%s", j->err);
    assert_int_equal(seen.stores, 3 * 4 * 64);
    assert_int_equal(seen.wrong, 0);
    assert_int_equal(seen.unnamed, 0);
    /* the block barrier (__syncthreads) once per block, two warps; the grid
     * barrier reaches the readers as a sync record, not as a block barrier */
    for (int b = 0; b < 4; b++) assert_int_equal(seen.barriers[b], 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grid_phases),
        cmocka_unit_test(test_grid_keeps_shared),
        cmocka_unit_test(test_grid_determinism),
        cmocka_unit_test(test_grid_too_large),
        cmocka_unit_test(test_grid_not_cooperative),
        cmocka_unit_test(test_grid_diagnostics),
        cmocka_unit_test(test_grid_race),
        cmocka_unit_test(test_tile_barrier),
        cmocka_unit_test(test_tile_diagnostics),
        cmocka_unit_test(test_grid_recording),
    };
    return cmocka_run_group_tests_name("sim grid and wide tiles", tests, NULL, NULL);
}
