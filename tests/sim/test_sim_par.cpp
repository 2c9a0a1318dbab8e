/* test_sim_par.cpp - a launch's blocks on several worker threads
 * (kernels/sim/par.cpp): with 1, 2 and 8 workers the results (float
 * atomics bit for bit), the order atomics hand out tickets in, the
 * counters, memcheck's grouped report and the failure of a launch whose
 * blocks fail are the same; the blocks did run on several workers; and the
 * launches that keep one worker (cooperative ones) still work. Compiled as
 * a kernel source is (-DGPULAB_SIM), instrumented like the kernels. */
#define GPULAB_SIM 1
#include "kernels/kern.h"
#include "kernels/sim/check.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string>
extern "C" {
#include <cmocka.h>
}

#include "tests/sim/simtest_job.h"

template <class F> static int launch(lab_job *j, const char *name, dim3 grid, dim3 block, size_t smem, F body)
{
    return sim_launch_fn(j, name, __FILE__, __LINE__, grid, block, smem, [](void *p) { (*static_cast<F *>(p))(); },
                         &body, nullptr);
}

static const int WORKERS[] = {1, 2, 8};

/* what a launch left: its status, message, report and counters */
struct outcome {
    int rc;
    std::string err, report;
    sim_stats st;
};

template <class F> static outcome run_with(int workers, const char *name, dim3 grid, dim3 block, size_t smem, F body)
{
    assert_int_equal(sim_set_threads(workers), 0);
    lab_job *j = fresh_job(0);
    sim_stats a, b;
    sim_stats_get(&a);
    outcome o;
    o.rc = launch(j, name, grid, block, smem, body);
    sim_stats_get(&b);
    o.err = j->err;
    const char *r = sim_check_report_take();
    o.report = r ? r : "";
    o.st.launches = b.launches - a.launches;
    o.st.blocks = b.blocks - a.blocks;
    o.st.threads = b.threads - a.threads;
    o.st.switches = b.switches - a.switches;
    o.st.barriers = b.barriers - a.barriers;
    o.st.collectives = b.collectives - a.collectives;
    cudaGetLastError();
    return o;
}

static void same_outcome(const outcome &x, const outcome &y, int workers)
{
    if (x.rc != y.rc || x.err != y.err || x.report != y.report)
        fail_msg("%d workers: rc %d, \"%s\" / \"%s\"; one worker: rc %d, \"%s\" / \"%s\"", workers, y.rc,
                 y.err.c_str(), y.report.c_str(), x.rc, x.err.c_str(), x.report.c_str());
    assert_int_equal(x.st.launches, y.st.launches);
    assert_int_equal(x.st.blocks, y.st.blocks);
    assert_int_equal(x.st.threads, y.st.threads);
    assert_int_equal(x.st.switches, y.st.switches);
    assert_int_equal(x.st.barriers, y.st.barriers);
    assert_int_equal(x.st.collectives, y.st.collectives);
}

/* ------------------------------------------------ results and counters */

/* the lecture's reduction: a shared tree, a warp's shuffles, one atomicAdd
 * per block (int and float: the float sum shows the blocks' order); each
 * block also notes the worker that played it */
static __global__ void reduce_k(const int *in, int n, int *sum, float *fsum, unsigned char *worker)
{
    SHARED(int, s, 256);
    DYNAMIC_SHARED(int, extra);
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    s[t] = i < (unsigned)n ? in[i] : 0;
    extra[t] = (int)t;
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k >= 32; k /= 2) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t < 32) {
        int v = s[t];
        for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
        if (t == 0) {
            atomicAdd(sum, v + extra[5] - 5);
            atomicAdd(fsum, blockIdx.x % 3 ? 0.1f * (float)v : 1e6f);
            worker[blockIdx.x] = (unsigned char)::gpulab_sim::sim_worker_now();
        }
    }
}

static void test_reduce_same(void **state)
{
    (void)state;
    const int n = (1 << 18) + 37, nb = (n + 255) / 256; /* 1025 blocks, the last one short */
    int *in, *sum;
    float *fsum;
    unsigned char *worker;
    assert_int_equal(cudaMallocManaged(&in, n * sizeof(int)), cudaSuccess);
    assert_int_equal(cudaMallocManaged(&sum, sizeof(int)), cudaSuccess);
    assert_int_equal(cudaMallocManaged(&fsum, sizeof(float)), cudaSuccess);
    assert_int_equal(cudaMallocManaged(&worker, nb), cudaSuccess);
    for (int i = 0; i < n; i++) in[i] = (i * 7919) % 1001 - 500;
    long long want = 0;
    for (int i = 0; i < n; i++) want += in[i];
    outcome first;
    uint32_t fbits = 0;
    for (int w : WORKERS) {
        *sum = 0;
        *fsum = 0;
        memset(worker, 0, nb);
        outcome o = run_with(w, "reduce_k", nb, 256, 256 * sizeof(int),
                             [=]() { reduce_k(in, n, sum, fsum, worker); });
        assert_int_equal(o.rc, 0);
        assert_int_equal(*sum, want);
        uint32_t bits;
        memcpy(&bits, fsum, sizeof bits);
        if (w == 1) {
            first = o;
            fbits = bits;
        } else {
            same_outcome(first, o, w);
            assert_int_equal(bits, fbits);
        }
        /* the blocks did spread over the workers */
        int used = 0, seen[SIM_WORKERS_MAX] = {0};
        for (int b = 0; b < nb; b++) {
            assert_true(worker[b] < (unsigned)w);
            if (!seen[worker[b]]++) used++;
        }
        if (w == 1) assert_int_equal(used, 1);
        else if (used < 2) fail_msg("%d workers: every block ran on one", w);
    }
    assert_int_equal(first.st.blocks, nb);
    cudaFree(in);
    cudaFree(sum);
    cudaFree(fsum);
    cudaFree(worker);
}

/* atomicAdd's return value: the order blocks reach it */
static __global__ void ticket_k(unsigned *counter, unsigned *ticket)
{
    SHARED(int, s, 256);
    s[threadIdx.x] = (int)threadIdx.x;
    __syncthreads();
    /* some work first, so that blocks overlap */
    for (int r = 0; r < 8; r++) {
        int v = s[(threadIdx.x + 1) % 256];
        __syncthreads();
        s[threadIdx.x] = v;
        __syncthreads();
    }
    if (threadIdx.x == 0) ticket[blockIdx.x] = atomicAdd(counter, 1u) + (unsigned)s[0] - (unsigned)s[0];
}

static void test_tickets_in_block_order(void **state)
{
    (void)state;
    const int nb = 300;
    unsigned *counter, *ticket;
    assert_int_equal(cudaMallocManaged(&counter, sizeof *counter), cudaSuccess);
    assert_int_equal(cudaMallocManaged(&ticket, nb * sizeof *ticket), cudaSuccess);
    for (int w : WORKERS) {
        *counter = 0;
        outcome o = run_with(w, "ticket_k", nb, 256, 0, [=]() { ticket_k(counter, ticket); });
        assert_int_equal(o.rc, 0);
        for (int b = 0; b < nb; b++)
            if (ticket[b] != (unsigned)b) fail_msg("%d workers: block %d got ticket %u", w, b, ticket[b]);
    }
    cudaFree(counter);
    cudaFree(ticket);
}

/* ------------------------------------------------ reports and failures */

/* one past the end in some threads of several blocks, and a read of a
 * shared array past its end in others: memcheck's grouped report */
static __global__ void errors_k(float *out, int n)
{
    SHARED(float, s, 32);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x % 32] = 1.0f;
    __syncthreads();
    if (blockIdx.x % 5 == 2 && threadIdx.x % 7 == 3) out[n + (int)(threadIdx.x % 3)] = 2.0f;
    else if (i < n) out[i] = s[threadIdx.x % 32];
    if (blockIdx.x == 17 && threadIdx.x < 2) {
        float *p = &s[0];
        out[0] = p[32 + threadIdx.x];
    }
}

static void test_memcheck_report_same(void **state)
{
    (void)state;
    const int n = 30000;
    float *out;
    assert_int_equal(cudaMalloc(&out, n * sizeof(float)), cudaSuccess);
    for (unsigned limit : {0u, 1u}) {
        sim_report_set_limit(limit);
        outcome first;
        for (int w : WORKERS) {
            outcome o = run_with(w, "errors_k", 400, 96, 0, [=]() { errors_k(out, n); });
            assert_int_equal(o.rc, -1);
            if (w == 1) first = o;
            else same_outcome(first, o, w);
        }
        if (limit == 0) {
            if (!strstr(first.report.c_str(), "of 80 blocks: block 2 thread 3, block 2 thread 10"))
                fail_msg("the report: %s", first.report.c_str());
        } else if (!strstr(first.report.c_str(), "more distinct error")) {
            fail_msg("the report: %s", first.report.c_str());
        }
    }
    sim_report_set_limit(0);
    cudaFree(out);
}

/* blocks 5 and 11 stop at a barrier half their threads never reach: the
 * launch fails with block 5, as when blocks run one after another */
static __global__ void stuck_k(int *out)
{
    if ((blockIdx.x == 5 || blockIdx.x == 11) && threadIdx.x < 32) return;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

static void test_first_failure_in_block_order(void **state)
{
    (void)state;
    int *out;
    assert_int_equal(cudaMalloc(&out, 64 * 128 * sizeof(int)), cudaSuccess);
    outcome first;
    for (int w : WORKERS) {
        outcome o = run_with(w, "stuck_k", 64, 128, 0, [=]() { stuck_k(out); });
        assert_int_equal(o.rc, -1);
        if (w == 1) first = o;
        else same_outcome(first, o, w);
    }
    if (!strstr(first.err.c_str(), "block 5")) fail_msg("the message: %s", first.err.c_str());
    assert_int_equal(first.st.blocks, 6); /* blocks 0 to 5 ran */
    cudaFree(out);
}

/* a cooperative launch keeps one worker, and its grid barrier works */
static __global__ void coop_k(int *a, int *b, int n)
{
    cooperative_groups::grid_group g = cooperative_groups::this_grid();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = i;
    g.sync();
    if (i < n) b[i] = a[n - 1 - i];
}

static void test_cooperative_one_worker(void **state)
{
    (void)state;
    const int n = 8 * 64;
    int *a, *b;
    assert_int_equal(cudaMallocManaged(&a, n * sizeof(int)), cudaSuccess);
    assert_int_equal(cudaMallocManaged(&b, n * sizeof(int)), cudaSuccess);
    assert_int_equal(sim_set_threads(8), 0);
    lab_job *j = fresh_job(0);
    auto body = [=]() { coop_k(a, b, n); };
    int rc = sim_launch_coop_fn(j, "coop_k", __FILE__, __LINE__, 8, 64, 0,
                                [](void *p) { (*static_cast<decltype(body) *>(p))(); }, &body, nullptr, 1000);
    if (rc != 0) fail_msg("%s", j->err);
    for (int i = 0; i < n; i++) assert_int_equal(b[i], n - 1 - i);
    cudaFree(a);
    cudaFree(b);
}

static void test_setting_range(void **state)
{
    (void)state;
    assert_int_equal(sim_set_threads(-1), -1);
    assert_int_equal(sim_set_threads(SIM_WORKERS_MAX + 1), -1);
    assert_int_equal(sim_set_threads(3), 0);
    assert_int_equal(sim_threads(), 3);
    assert_int_equal(sim_set_threads(0), 0);
    assert_true(sim_threads() >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reduce_same),
        cmocka_unit_test(test_tickets_in_block_order),
        cmocka_unit_test(test_memcheck_report_same),
        cmocka_unit_test(test_first_failure_in_block_order),
        cmocka_unit_test(test_cooperative_one_worker),
        cmocka_unit_test(test_setting_range),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
