/* test_sim_par.cpp - a launch's blocks on several worker threads
 * (kernels/sim/par.cpp): with 1, 2 and 8 workers the results (float
 * atomics bit for bit), the order atomics hand out tickets in, the
 * counters, memcheck's grouped report and the failure of a launch whose
 * blocks fail are the same; the blocks did run on several workers; and the
 * launches that keep one worker (cooperative ones) still work. A reader of
 * the access recording gets the same calls in the same order (every
 * request's lanes, addresses as array and offset, values; warp operations,
 * barriers, the blocks it skips) with 1, 2 and 8 workers, in launches that
 * end, fail, or whose blocks keep long logs. Compiled as a kernel source is
 * (-DGPULAB_SIM), instrumented like the kernels. */
#define GPULAB_SIM 1
#include "kernels/kern.h"
#include "kernels/sim/check.h"
#include "kernels/sim/record.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string>
#include <thread>
#include <vector>
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

/* par.cpp, for this test: the log bounds (bytes; 0 = the default) */
extern "C" void sim_par_log_limits(size_t per_block, size_t pending);

/* ------------------------------------------- a reader of the recording */

/* Everything a reader is given, as text, in the order given. Addresses are
 * written as the array (its name, id and space) and the offset in it (and,
 * in shared memory, the offset the banks see): the workers' shared arenas
 * lie at different addresses. */
struct transcript {
    std::string text;
    unsigned long long wanted, skipped;
    int skip_mod; /* want_block: blocks b % skip_mod == 1 are not wanted (0: all) */
    unsigned shared0; /* the first shared array's id: the others are written from it */
};

static void tr_add(transcript *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tr_add(transcript *t, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    t->text += buf;
}

static void tr_launch_begin(void *ctx, const sim_rec_launch *l)
{
    tr_add(static_cast<transcript *>(ctx), "L %u %s %u %u\n", l->index, l->kernel, l->grid[0], l->block[0]);
}

static void tr_launch_end(void *ctx, const sim_rec_launch *l, int rc)
{
    tr_add(static_cast<transcript *>(ctx), "E %u %d dropped %llu\n", l->index, rc, sim_rec_dropped());
}

static int tr_want(void *ctx, unsigned long long block)
{
    const transcript *t = static_cast<const transcript *>(ctx);
    return !t->skip_mod || block % (unsigned)t->skip_mod != 1;
}

static void tr_block_begin(void *ctx, unsigned long long block, int recorded)
{
    transcript *t = static_cast<transcript *>(ctx);
    if (recorded) t->wanted++;
    else t->skipped++;
    tr_add(t, "b %llu %d\n", block, recorded);
}

/* values that differ by design (the worker that ran a block) */
static const void *tr_unvalued;

static void tr_request(void *ctx, const sim_rec_request *r)
{
    transcript *t = static_cast<transcript *>(ctx);
    tr_add(t, "R %llu %u %u %d %d %u %x:", r->block, r->warp, r->epoch, r->kind, r->space, r->width, r->mask);
    for (unsigned l = 0; l < 32; l++) {
        if (!(r->mask >> l & 1)) continue;
        const sim_rec_object *o = sim_rec_object_at(r->addr[l]);
        if (!o) {
            tr_add(t, " %u:?", l);
            continue;
        }
        unsigned id = o->id;
        if (o->space == SIM_REC_SHARED) {
            if (!t->shared0) t->shared0 = id;
            id -= t->shared0;
        }
        tr_add(t, " %u:%s#%u/%d+%zu", l, o->name ? o->name : "", id, o->space, (size_t)(r->addr[l] - o->base));
        if (o->space == SIM_REC_SHARED) tr_add(t, "@%zu", sim_rec_shared_offset((const void *)r->addr[l]));
        if (o->base != (uintptr_t)tr_unvalued) tr_add(t, "=%llx", (unsigned long long)r->value[l]);
    }
    uint64_t sec[128];
    tr_add(t, " s%u w%llu\n", r->space == SIM_REC_GLOBAL ? sim_rec_sectors(r, sec) : 0,
           r->space == SIM_REC_SHARED ? sim_rec_wavefronts(r) : 0ull);
}

static void tr_warpop(void *ctx, const sim_rec_warpop *o)
{
    transcript *t = static_cast<transcript *>(ctx);
    tr_add(t, "C %llu %u %u %d %s %u %x:", o->block, o->warp, o->epoch, o->op, o->name, o->arg, o->mask);
    for (unsigned l = 0; l < 32; l++)
        if (o->mask >> l & 1)
            tr_add(t, " %u<%u %llx>%llx", l, o->src[l], (unsigned long long)o->value[l],
                   (unsigned long long)o->result[l]);
    tr_add(t, "\n");
}

static void tr_sync(void *ctx, const sim_rec_sync *y)
{
    tr_add(static_cast<transcript *>(ctx), "S %llu %u %d %s %d %u\n", y->block, y->epoch, y->kind, y->name, y->line,
           y->threads);
}

static void tr_barrier(void *ctx, unsigned long long block, unsigned warps)
{
    tr_add(static_cast<transcript *>(ctx), "B %llu %u\n", block, warps);
}

/* A reader attached while f runs: what it was given. */
template <class F> static transcript recorded(int skip_mod, F f)
{
    transcript t;
    t.wanted = t.skipped = 0;
    t.skip_mod = skip_mod;
    t.shared0 = 0;
    sim_rec_reader rd = {};
    rd.ctx = &t;
    rd.launch_begin = tr_launch_begin;
    rd.launch_end = tr_launch_end;
    rd.request = tr_request;
    rd.values = 1;
    rd.warpop = tr_warpop;
    rd.sync = tr_sync;
    rd.barrier = tr_barrier;
    rd.want_block = tr_want;
    rd.block_begin = tr_block_begin;
    assert_int_equal(sim_rec_attach(&rd), 0);
    f();
    sim_rec_detach(&rd);
    return t;
}

static void same_transcript(const transcript &x, const transcript &y, int workers, const char *what)
{
    if (x.text != y.text) {
        size_t i = 0;
        while (i < x.text.size() && i < y.text.size() && x.text[i] == y.text[i]) i++;
        size_t from = i > 200 ? i - 200 : 0;
        fail_msg("%s, %d workers: the reader was given something else than with one worker, from byte %zu "
                 "(of %zu and %zu):\none worker: ...%.700s\n%d workers: ...%.700s",
                 what, workers, i, x.text.size(), y.text.size(), x.text.c_str() + from, workers,
                 y.text.c_str() + from);
    }
    assert_int_equal(x.wanted, y.wanted);
    assert_int_equal(x.skipped, y.skipped);
}

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

/* ------------------------------------------------ the recording */

/* reduce_k, recorded: every block's requests, shuffles and barriers, and a
 * reader that skips every third block; the blocks did run on several
 * workers (the recording no longer keeps one) */
static void test_recording_same(void **state)
{
    (void)state;
    if (!sim_rec_available()) skip();
    const int n = (1 << 16) + 37, nb = (n + 255) / 256;
    int *in, *sum;
    float *fsum;
    unsigned char *worker;
    assert_int_equal(cudaMallocManaged(&in, n * sizeof(int)), cudaSuccess);
    assert_int_equal(cudaMallocManaged(&sum, sizeof(int)), cudaSuccess);
    assert_int_equal(cudaMallocManaged(&fsum, sizeof(float)), cudaSuccess);
    assert_int_equal(cudaMallocManaged(&worker, nb), cudaSuccess);
    for (int i = 0; i < n; i++) in[i] = (i * 31) % 97 - 40;
    tr_unvalued = worker;
    for (int skip_mod : {0, 3}) {
        transcript first;
        outcome first_o;
        for (int w : WORKERS) {
            *sum = 0;
            *fsum = 0;
            memset(worker, 0, nb);
            outcome o;
            transcript t = recorded(skip_mod, [&]() {
                o = run_with(w, "reduce_k", nb, 256, 256 * sizeof(int),
                             [=]() { reduce_k(in, n, sum, fsum, worker); });
            });
            assert_int_equal(o.rc, 0);
            int used = 0, seen[SIM_WORKERS_MAX] = {0};
            for (int b = 0; b < nb; b++)
                if (!seen[worker[b]]++) used++;
            if (w > 1 && used < 2) fail_msg("recorded, %d workers: every block ran on one", w);
            if (w == 1) {
                first = t;
                first_o = o;
            } else {
                same_transcript(first, t, w, "reduce_k");
                same_outcome(first_o, o, w);
            }
        }
        /* it did record: requests of every wanted block, shuffles, barriers */
        if (first.text.find("R 0 0 0 ") == std::string::npos || first.text.find("__shfl_down_sync") == std::string::npos ||
            first.text.find("\nB 3 8\n") == std::string::npos)
            fail_msg("the transcript: %.600s", first.text.c_str());
        assert_int_equal(first.wanted + first.skipped, nb);
        if (skip_mod) assert_true(first.text.find("R 1 ") == std::string::npos);
    }
    cudaFree(in);
    cudaFree(sum);
    cudaFree(fsum);
    cudaFree(worker);
}

/* many barriers and requests per block, in blocks of different lengths:
 * with small log bounds, blocks wait to become the oldest in the middle
 * (a block's log past its bound) and workers wait before taking more
 * (logs of finished blocks past theirs); the same calls all the same */
static __global__ void long_logs_k(int *out, int rounds)
{
    SHARED(int, s, 128);
    DYNAMIC_SHARED(int, d);
    unsigned t = threadIdx.x;
    s[t] = (int)(t + blockIdx.x);
    d[t] = 1;
    __syncthreads();
    int r = rounds + (int)(blockIdx.x % 4) * 3; /* some blocks longer than others */
    for (int k = 0; k < r; k++) {
        int v = s[(t + (unsigned)k) % 128] + d[(t * 3) % 128];
        __syncthreads();
        s[t] = v;
        if (t % 32 == 0) v += __shfl_sync(0x1u, v, 0);
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + t] = s[t];
}

static void test_recording_long_logs(void **state)
{
    (void)state;
    if (!sim_rec_available()) skip();
    const int nb = 40;
    int *out;
    assert_int_equal(cudaMalloc(&out, nb * 128 * sizeof(int)), cudaSuccess);
    for (int bounds = 0; bounds < 2; bounds++) {
        if (bounds) sim_par_log_limits(20000, 60000);
        transcript first;
        for (int w : WORKERS) {
            outcome o;
            transcript t = recorded(0, [&]() {
                o = run_with(w, "long_logs_k", nb, 128, 128 * sizeof(int), [=]() { long_logs_k(out, 12); });
            });
            assert_int_equal(o.rc, 0);
            if (w == 1) first = t;
            else same_transcript(first, t, w, bounds ? "long_logs_k, small bounds" : "long_logs_k");
        }
        assert_true(first.text.find("\nB 39 4\n") != std::string::npos);
    }
    sim_par_log_limits(0, 0);
    cudaFree(out);
}

/* launches that fail, recorded: memory errors in several blocks (memcheck's
 * report), a block stuck at a barrier; the records of the blocks before
 * the failure and of the failing block, and none after */
static void test_recording_failures(void **state)
{
    (void)state;
    if (!sim_rec_available()) skip();
    const int n = 30000;
    float *out;
    int *iout;
    assert_int_equal(cudaMalloc(&out, n * sizeof(float)), cudaSuccess);
    assert_int_equal(cudaMalloc(&iout, 64 * 128 * sizeof(int)), cudaSuccess);
    transcript e1, s1;
    for (int w : WORKERS) {
        outcome o;
        transcript e = recorded(0, [&]() { o = run_with(w, "errors_k", 400, 96, 0, [=]() { errors_k(out, n); }); });
        assert_int_equal(o.rc, -1);
        transcript st = recorded(0, [&]() { o = run_with(w, "stuck_k", 64, 128, 0, [=]() { stuck_k(iout); }); });
        assert_int_equal(o.rc, -1);
        if (w == 1) {
            e1 = e;
            s1 = st;
        } else {
            same_transcript(e1, e, w, "errors_k");
            same_transcript(s1, st, w, "stuck_k");
        }
    }
    assert_true(e1.text.find("R 399 ") != std::string::npos);
    assert_true(s1.text.find("R 4 ") != std::string::npos);
    assert_true(s1.text.find("R 6 ") == std::string::npos);
    cudaFree(out);
    cudaFree(iout);
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

/* A program's host threads (OpenMP tasks) allocate, hand device memory to a
 * library (cuBLAS's checks look each pointer up) and free it, all at once:
 * every lookup finds the thread's own allocation, and nothing breaks the
 * allocations' table while another thread rebuilds it. */
static void test_host_threads_memory(void **state)
{
    (void)state;
    const int threads = 4, rounds = 4000;
    std::vector<int> wrong(threads, 0);
    std::vector<std::thread> ts;
    for (int k = 0; k < threads; k++)
        ts.emplace_back([k, &wrong] {
            for (int r = 0; r < rounds; r++) {
                void *p = nullptr;
                size_t bytes = 64 + (size_t)((r + k) % 5) * 64;
                if (sim_cuda_malloc(&p, bytes, "cudaMallocManaged") != cudaSuccess || !p) {
                    wrong[k]++;
                    continue;
                }
                wrong[k] += sim_lib_input("cublasSaxpy", p, bytes) != 0;
                wrong[k] += sim_lib_output("cublasSaxpy", (char *)p + bytes / 2, bytes / 2) != 0;
                wrong[k] += sim_cuda_free(p, "cudaFree") != cudaSuccess;
            }
        });
    for (auto &t : ts) t.join();
    for (int k = 0; k < threads; k++) assert_int_equal(wrong[k], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reduce_same),
        cmocka_unit_test(test_tickets_in_block_order),
        cmocka_unit_test(test_memcheck_report_same),
        cmocka_unit_test(test_first_failure_in_block_order),
        cmocka_unit_test(test_cooperative_one_worker),
        cmocka_unit_test(test_recording_same),
        cmocka_unit_test(test_recording_long_logs),
        cmocka_unit_test(test_recording_failures),
        cmocka_unit_test(test_setting_range),
        cmocka_unit_test(test_host_threads_memory),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
