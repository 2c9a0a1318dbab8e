/* test_sim_check.cpp - memcheck (kernels/sim/check.h) straight through
 * sim_launch_fn and the shim: one past the end of a global allocation whose
 * size is not a multiple of 16 bytes (read and write, byte-exact), of a
 * shared array through a pointer (static, dynamic, a row of a 2D array in a
 * device function), of a local array; a misaligned float4; a read of memory
 * nothing wrote (initcheck); two barriers on one line; the grouped report
 * (counts of threads and blocks, the limit); allocations aligned to 256
 * bytes; the access hook as a checker sees it. Each error case has a correct
 * twin that must report nothing. Compiled as a kernel source is
 * (-DGPULAB_SIM), instrumented like the kernels; without the instrumentation
 * (the sanitizer build) it is not built. */
#define GPULAB_SIM 1
#include "kernels/kern.h"
#include "kernels/sim/check.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
extern "C" {
#include <cmocka.h>
}

#include "tests/sim/simtest_job.h"

#define EXPECT_IN(hay, ...)                                                              \
    do {                                                                                 \
        char needle_[768];                                                               \
        snprintf(needle_, sizeof needle_, __VA_ARGS__);                                  \
        if (!strstr((hay), needle_)) fail_msg("expected\n  %s\nin\n  %s", needle_, (hay)); \
    } while (0)

template <class F>
static int launch(lab_job *j, const char *name, dim3 grid, dim3 block, size_t smem, F body)
{
    return sim_launch_fn(j, name, __FILE__, __LINE__, grid, block, smem, [](void *p) { (*static_cast<F *>(p))(); },
                         &body, nullptr);
}

/* the lines the kernels' accesses and declarations are on */
static int line_g, line_s, line_sd, line_d, line_dd, line_r, line_rd, line_l, line_a, line_u, line_b;

/* the whole grouped report of the failed launch (the job's message is cut
 * at LAB_ERR_MAX bytes) */
static char rep_buf[65536];
static const char *rep = rep_buf;
static const char *take_report(const lab_job *j)
{
    const char *t = sim_check_report_take();
    snprintf(rep_buf, sizeof rep_buf, "%s", t && *t ? t : j->err);
    return rep_buf;
}

static int ok_or_fail(int rc, const lab_job *j)
{
    if (rc != 0) fail_msg("unexpected failure: %s", j->err);
    return rc;
}

/* ------------------------------------------------------ global memory */

static __global__ void add10_k(const float *a, float *out, int n, int past)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    line_g = __LINE__ + 1;
    if (i < n + past) out[i] = a[i] + 10;
}

static __global__ void peek_k(const float *a, float *out, int k) { out[0] = a[k]; }

static void test_global_one_past(void **state)
{
    (void)state;
    const int n = 1001; /* 4004 bytes: not a multiple of 16 */
    float *a, *out, h[1001];
    for (int i = 0; i < n; i++) h[i] = (float)i;
    assert_int_equal(cudaMalloc(&a, n * sizeof(float)), cudaSuccess);
    assert_int_equal(cudaMalloc(&out, n * sizeof(float)), cudaSuccess);
    assert_int_equal(cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice), cudaSuccess);
    /* the twin: i < n */
    lab_job *j = fresh_job(0);
    ok_or_fail(launch(j, "add10_k", 4, 256, 0, [=]() { add10_k(a, out, n, 0); }), j);
    /* i <= n: thread 233 of block 3 reads and writes byte 4004 of each */
    j = fresh_job(0);
    assert_int_equal(launch(j, "add10_k", 4, 256, 0, [=]() { add10_k(a, out, n, 1); }), -1);
    rep = take_report(j);
    EXPECT_IN(rep, "add10_k: block 3, thread 233, at line %d reads 4 bytes at byte 4004 of an allocation of 4004 "
                      "bytes from cudaMalloc: 0 bytes past its end (valid bytes are 0 to 4003)", line_g);
    EXPECT_IN(rep, "add10_k: block 3, thread 233, at line %d writes 4 bytes at byte 4004 of an allocation of "
                      "4004 bytes from cudaMalloc: 0 bytes past its end", line_g);
    EXPECT_IN(rep, "the write silently overwrites the allocation's padding or the next allocation");
    assert_int_equal(cudaGetLastError(), cudaErrorIllegalAddress);
    /* three past: three threads on one line of the report */
    j = fresh_job(0);
    assert_int_equal(launch(j, "add10_k", 4, 256, 0, [=]() { add10_k(a, out, n, 3); }), -1);
    rep = take_report(j);
    EXPECT_IN(rep, "[the same error in 3 threads of 1 block: block 3 thread 233, block 3 thread 234, block 3 "
                      "thread 235]");
    cudaGetLastError();
    /* every byte counts, not 16-byte granules: 8 bytes past */
    j = fresh_job(0);
    assert_int_equal(launch(j, "peek_k", 1, 1, 0, [=]() { peek_k(a, out, n + 2); }), -1);
    rep = take_report(j);
    EXPECT_IN(rep, "reads 4 bytes at byte 4012 of an allocation of 4004 bytes from cudaMalloc: 8 bytes past its end");
    assert_int_equal(sim_report_pending(), 0);
    cudaGetLastError();
    cudaFree(a);
    cudaFree(out);
}

/* cudaMalloc's memory is aligned to 256 bytes, as on a GPU (sectors) */
static void test_alignment_256(void **state)
{
    (void)state;
    void *p[5];
    const size_t sizes[5] = {1, 4004, 16, 100000, 257};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(cudaMalloc(&p[i], sizes[i]), cudaSuccess);
        assert_int_equal((uintptr_t)p[i] % 256, 0);
    }
    for (int i = 0; i < 5; i++) cudaFree(p[i]);
}

/* ------------------------------------------------------ shared memory */

static __global__ void shared_ptr_k(int *out, int past)
{
    line_sd = __LINE__ + 1;
    SHARED(float, tile, 64);
    int t = threadIdx.x;
    float *p = &tile[0];
    line_s = __LINE__ + 1;
    p[t + past] = (float)t;
    __syncthreads();
    out[t] = (int)tile[t < 63 ? t : 0];
}

static __global__ void dynamic_ptr_k(int *out, int past)
{
    line_dd = __LINE__ + 1;
    DYNAMIC_SHARED(float, buf);
    int t = threadIdx.x;
    float *p = &buf[0];
    line_d = __LINE__ + 1;
    p[t + past] = (float)t;
    __syncthreads();
    out[t] = (int)buf[t < 63 ? t : 0];
}

static __device__ void fill(int *row, int i, int v)
{
    line_r = __LINE__ + 1;
    row[i] = v;
}

static __global__ void rows_k(int *out, int past)
{
    line_rd = __LINE__ + 1;
    SHARED2(int, s, 2, 32);
    int t = threadIdx.x;
    fill(&s[0][0], t, t);
    fill(&s[1][0], t + past, t);
    __syncthreads();
    out[t] = s[0][t];
}

static void test_shared_pointers(void **state)
{
    (void)state;
    int *out;
    assert_int_equal(cudaMalloc(&out, 64 * sizeof(int)), cudaSuccess);
    lab_job *j = fresh_job(0);
    ok_or_fail(launch(j, "shared_ptr_k", 1, 64, 0, [=]() { shared_ptr_k(out, 0); }), j);
    j = fresh_job(0);
    assert_int_equal(launch(j, "shared_ptr_k", 1, 64, 0, [=]() { shared_ptr_k(out, 1); }), -1);
    rep = take_report(j);
    EXPECT_IN(rep, "shared_ptr_k: block 0, thread 63, at line %d writes 4 bytes 0 bytes past the end of shared "
                      "array tile[64] (256 bytes, declared at line %d), through a pointer", line_s, line_sd);
    cudaGetLastError();

    j = fresh_job(0);
    ok_or_fail(launch(j, "dynamic_ptr_k", 1, 64, 64 * sizeof(float), [=]() { dynamic_ptr_k(out, 0); }), j);
    j = fresh_job(0);
    assert_int_equal(launch(j, "dynamic_ptr_k", 1, 64, 64 * sizeof(float), [=]() { dynamic_ptr_k(out, 1); }), -1);
    rep = take_report(j);
    EXPECT_IN(rep, "dynamic_ptr_k: block 0, thread 63, at line %d writes 4 bytes 0 bytes past the end of the "
                      "dynamic shared array buf (256 bytes, declared at line %d), through a pointer", line_d, line_dd);
    /* past the dynamic memory there is none of the block's: a GPU faults */
    EXPECT_IN(rep, "past the 256 bytes of shared memory the block has");
    cudaGetLastError();

    j = fresh_job(0);
    ok_or_fail(launch(j, "rows_k", 1, 32, 0, [=]() { rows_k(out, 0); }), j);
    j = fresh_job(0);
    assert_int_equal(launch(j, "rows_k", 1, 32, 0, [=]() { rows_k(out, 1); }), -1);
    rep = take_report(j);
    EXPECT_IN(rep, "rows_k: block 0, thread 31, at line %d writes 4 bytes 0 bytes past the end of shared array "
                      "s[2][32] (256 bytes, declared at line %d), through a pointer", line_r, line_rd);
    cudaGetLastError();
    cudaFree(out);
}

/* Two arrays: one past the first is inside the block's shared memory on a
 * GPU (silent), and the red zone keeps the second array's banks. */
static __global__ void two_arrays_k(int *out, int past)
{
    SHARED(int, first, 20);
    SHARED(int, second, 32);
    int t = threadIdx.x;
    second[t] = 0;
    int *p = &first[0];
    if (t < 20) p[t + past] = t;
    __syncthreads();
    /* where the second array lies: 80 bytes into the block's shared memory
     * as on a GPU, and on the same banks */
    out[t] = second[t] + (int)sim_rec_shared_offset(&second[0]) * 1000 +
             (int)(((uintptr_t)&second[0] - (uintptr_t)&first[0]) % 128);
}

static void test_shared_banks_kept(void **state)
{
    (void)state;
    int *out, h[32];
    assert_int_equal(cudaMalloc(&out, sizeof h), cudaSuccess);
    lab_job *j = fresh_job(0);
    ok_or_fail(launch(j, "two_arrays_k", 1, 32, 0, [=]() { two_arrays_k(out, 0); }), j);
    assert_int_equal(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    /* the second array starts 128 bytes into the block's shared memory, as on a GPU */
    for (int i = 0; i < 32; i++) assert_int_equal(h[i], 80 * 1000 + 80);
    j = fresh_job(0);
    assert_int_equal(launch(j, "two_arrays_k", 1, 32, 0, [=]() { two_arrays_k(out, 1); }), -1);
    rep = take_report(j);
    EXPECT_IN(rep, "0 bytes past the end of shared array first[20] (80 bytes");
    EXPECT_IN(rep, "on a GPU these bytes belong to the block's other shared memory, so nothing stops it: the write "
                      "silently overwrites another array");
    cudaGetLastError();
    cudaFree(out);
}

/* ------------------------------------------------------- local arrays */

static __global__ void taps_k(float *out, int last)
{
    float w[4] = {0.1f, 0.2f, 0.3f, 0.4f};
    float sum = 0;
    for (int k = 0; k <= last; k++) {
        line_l = __LINE__ + 1;
        sum += w[k] * (float)(threadIdx.x + k);
    }
    out[threadIdx.x] = sum;
}

static void test_local_array(void **state)
{
    (void)state;
    float *out;
    assert_int_equal(cudaMalloc(&out, 32 * sizeof(float)), cudaSuccess);
    lab_job *j = fresh_job(0);
    ok_or_fail(launch(j, "taps_k", 1, 32, 0, [=]() { taps_k(out, 3); }), j);
    j = fresh_job(0);
    assert_int_equal(launch(j, "taps_k", 1, 32, 0, [=]() { taps_k(out, 4); }), -1);
    rep = take_report(j);
    EXPECT_IN(rep, "taps_k: block 0, thread 0, at line %d: index 4 is outside the array of type 'float [4]'", line_l);
    EXPECT_IN(rep, "[the same error in 32 threads of 1 block: block 0 thread 0, block 0 thread 1, block 0 thread "
                      "2, block 0 thread 3, ...]");
    cudaGetLastError();
    cudaFree(out);
}

/* ------------------------------------------------- alignment, initcheck */

static __global__ void sum4_k(const float *in, float *out, int shift)
{
    line_a = __LINE__ + 1;
    float4 v = reinterpret_cast<const float4 *>(in + shift)[threadIdx.x];
    out[threadIdx.x] = v.x + v.y + v.z + v.w;
}

static void test_misaligned(void **state)
{
    (void)state;
    float *in, *out, h[1040];
    for (int i = 0; i < 1040; i++) h[i] = 1;
    assert_int_equal(cudaMalloc(&in, sizeof h), cudaSuccess);
    assert_int_equal(cudaMalloc(&out, 256 * sizeof(float)), cudaSuccess);
    assert_int_equal(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice), cudaSuccess);
    lab_job *j = fresh_job(0);
    ok_or_fail(launch(j, "sum4_k", 1, 256, 0, [=]() { sum4_k(in, out, 4); }), j);
    j = fresh_job(0);
    assert_int_equal(launch(j, "sum4_k", 1, 256, 0, [=]() { sum4_k(in, out, 1); }), -1);
    rep = take_report(j);
    EXPECT_IN(rep, "sum4_k: block 0, thread 0, at line %d reads 16 bytes at byte 4 of an allocation of 4160 bytes "
                      "from cudaMalloc, an address that is not a multiple of 16", line_a);
    EXPECT_IN(rep, "cudaErrorMisalignedAddress");
    assert_int_equal(cudaGetLastError(), cudaErrorMisalignedAddress);
    cudaFree(in);
    cudaFree(out);
}

static __global__ void scale_k(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    line_u = __LINE__ + 1;
    out[i] = 2 * in[i];
}

static void test_initcheck(void **state)
{
    (void)state;
    float *in, *out, h[1024];
    for (int i = 0; i < 1024; i++) h[i] = (float)i;
    assert_int_equal(cudaMalloc(&in, sizeof h), cudaSuccess);
    assert_int_equal(cudaMalloc(&out, sizeof h), cudaSuccess);
    assert_int_equal(cudaMemcpy(in, h, sizeof h / 2, cudaMemcpyHostToDevice), cudaSuccess);
    /* memcheck alone does not look at initialisation */
    lab_job *j = fresh_job(0);
    sim_check_set_mode(SIM_CHECK_MEMCHECK);
    ok_or_fail(launch(j, "scale_k", 4, 256, 0, [=]() { scale_k(in, out); }), j);
    j = fresh_job(0);
    sim_check_set_mode(SIM_CHECK_MEMCHECK | SIM_CHECK_INITCHECK);
    assert_int_equal(launch(j, "scale_k", 4, 256, 0, [=]() { scale_k(in, out); }), -1);
    rep = take_report(j);
    EXPECT_IN(rep, "scale_k: block 2, thread 0, at line %d reads 4 bytes at byte 2048 of an allocation of 4096 "
                      "bytes from cudaMalloc, which nothing has written since it was allocated", line_u);
    EXPECT_IN(rep, "[the same error in 512 threads of 2 blocks: block 2 thread 0, block 2 thread 1, block 2 thread "
                      "2, block 2 thread 3, ...]");
    cudaGetLastError();
    /* the twin: the second half written by a memset, then the kernel's own
     * stores count as writes too (out read back by a second launch) */
    assert_int_equal(cudaMemset(in + 512, 0, sizeof h / 2), cudaSuccess);
    j = fresh_job(0);
    sim_check_set_mode(SIM_CHECK_MEMCHECK | SIM_CHECK_INITCHECK);
    ok_or_fail(launch(j, "scale_k", 4, 256, 0, [=]() { scale_k(in, out); }), j);
    j = fresh_job(0);
    sim_check_set_mode(SIM_CHECK_MEMCHECK | SIM_CHECK_INITCHECK);
    ok_or_fail(launch(j, "scale_k", 4, 256, 0, [=]() { scale_k(out, in); }), j);
    sim_check_set_mode(SIM_CHECK_DEFAULT);
    cudaFree(in);
    cudaFree(out);
}

/* --------------------------------------------------------- the report */

static __global__ void many_k(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 1;                     /* past n in the last block */
    out[n + threadIdx.x % 8] = 2;   /* past n in every thread: a second site */
}

static void test_report_grouped_and_limited(void **state)
{
    (void)state;
    float *out;
    assert_int_equal(cudaMalloc(&out, 1000 * sizeof(float)), cudaSuccess);
    lab_job *j = fresh_job(0);
    assert_int_equal(launch(j, "many_k", 8, 128, 0, [=]() { many_k(out, 1000); }), -1);
    rep = take_report(j);
    /* one line per site: 24 threads of block 7 for the first, every thread for the second */
    EXPECT_IN(rep, "at byte 4000 of an allocation of 4000 bytes from cudaMalloc: 0 bytes past its end");
    EXPECT_IN(rep, "[the same error in 24 threads of 1 block: block 7 thread 104, block 7 thread 105, block 7 "
                      "thread 106, block 7 thread 107, ...]");
    EXPECT_IN(rep, "[the same error in 1024 threads of 8 blocks: block 0 thread 0, block 0 thread 1, block 0 "
                      "thread 2, block 0 thread 3, ...]");
    cudaGetLastError();
    /* a limit of one: the second site is counted, not shown */
    j = fresh_job(0);
    sim_report_set_limit(1);
    assert_int_equal(launch(j, "many_k", 8, 128, 0, [=]() { many_k(out, 1000); }), -1);
    rep = take_report(j);
    EXPECT_IN(rep, "... and 1 more distinct error (the report shows 1 per launch");
    cudaGetLastError();
    sim_report_set_limit(0);
    /* off: nothing is checked (the run writes into the red zone unnoticed) */
    j = fresh_job(0);
    sim_check_set_mode(0);
    ok_or_fail(launch(j, "many_k", 8, 128, 0, [=]() { many_k(out, 1000); }), j);
    sim_check_set_mode(SIM_CHECK_DEFAULT);
    cudaFree(out);
}

/* ---------------------------------------------------------- barriers */

static __global__ void one_line_k(int *out, int split)
{
    SHARED(int, s, 64);
    int t = threadIdx.x;
    s[t] = t;
    bool who = split ? t < 32 : true;
    line_b = __LINE__ + 1;
    if (who) { __syncthreads(); } if (!who) { __syncthreads(); }
    out[t] = s[63 - t];
}

static void test_barriers_by_site(void **state)
{
    (void)state;
    int *out;
    assert_int_equal(cudaMalloc(&out, 64 * sizeof(int)), cudaSuccess);
    lab_job *j = fresh_job(0);
    ok_or_fail(launch(j, "one_line_k", 1, 64, 0, [=]() { one_line_k(out, 0); }), j);
    j = fresh_job(0);
    assert_int_equal(launch(j, "one_line_k", 1, 64, 0, [=]() { one_line_k(out, 1); }), -1);
    EXPECT_IN(j->err, "one_line_k: block 0: threads 0-31 wait at __syncthreads (line %d) while threads 32-63 wait at "
                      "line %d, another barrier written on the same line: every thread of a block must reach the same "
                      "barrier", line_b, line_b);
    cudaGetLastError();
    cudaFree(out);
}

/* ------------------------------------------------------- the hook itself */

struct seen {
    unsigned accesses, global, shared, atomics, syncs, unresolved, launches;
    uintptr_t obj_base;
};

static void seen_access(void *ctx, const sim_access *a)
{
    seen *s = (seen *)ctx;
    s->accesses++;
    if (a->kind == SIM_REC_ATOMIC) s->atomics++;
    if (!a->obj) s->unresolved++;
    else if (a->space == SIM_REC_GLOBAL) {
        s->global++;
        s->obj_base = a->obj->base;
    } else
        s->shared++;
}
static void seen_sync(void *ctx, const sim_sync_event *e)
{
    if (e->kind == SIM_SYNC_BARRIER && e->site) ((seen *)ctx)->syncs++;
}
static void seen_launch(void *ctx, const sim_rec_launch *l) { (void)l; ((seen *)ctx)->launches++; }

static __global__ void hook_k(int *g)
{
    SHARED(int, s, 32);
    int t = threadIdx.x;
    s[t] = g[t];
    __syncthreads();
    atomicAdd(&g[32], s[31 - t]);
}

static void test_hook(void **state)
{
    (void)state;
    int *g, h[33] = {0};
    for (int i = 0; i < 32; i++) h[i] = i;
    assert_int_equal(cudaMalloc(&g, sizeof h), cudaSuccess);
    assert_int_equal(cudaMemcpy(g, h, sizeof h, cudaMemcpyHostToDevice), cudaSuccess);
    seen s = {};
    sim_checker c = {&s, seen_launch, nullptr, seen_access, seen_sync, nullptr, nullptr, nullptr};
    assert_int_equal(sim_check_attach(&c), 0);
    lab_job *j = fresh_job(0);
    ok_or_fail(launch(j, "hook_k", 1, 32, 0, [=]() { hook_k(g); }), j);
    sim_check_detach(&c);
    assert_int_equal(s.launches, 1);
    /* per thread: a global read, a shared write, a shared read, one atomic */
    assert_int_equal(s.global, 32 * 2);
    assert_int_equal(s.shared, 32 * 2);
    assert_int_equal(s.atomics, 32);
    assert_int_equal(s.unresolved, 0);
    assert_int_equal(s.obj_base, (uintptr_t)g);
    assert_int_equal(s.syncs, 1);
    assert_int_equal(cudaMemcpy(h, g, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(h[32], 31 * 32 / 2);
    cudaFree(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_global_one_past),
        cmocka_unit_test(test_alignment_256),
        cmocka_unit_test(test_shared_pointers),
        cmocka_unit_test(test_shared_banks_kept),
        cmocka_unit_test(test_local_array),
        cmocka_unit_test(test_misaligned),
        cmocka_unit_test(test_initcheck),
        cmocka_unit_test(test_report_grouped_and_limited),
        cmocka_unit_test(test_barriers_by_site),
        cmocka_unit_test(test_hook),
    };
    return cmocka_run_group_tests_name("sim memcheck", tests, NULL, NULL);
}
