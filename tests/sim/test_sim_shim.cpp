/* test_sim_shim.cpp - the simulator's shim seen from kernel code: built-in
 * types and intrinsics, shared-array proxies, the runtime's memory calls and
 * their explanations, launches straight through LAUNCH/sim_launch, stats,
 * stack size, trace caps. Compiled as a kernel source is (-DGPULAB_SIM). */
#define GPULAB_SIM 1
#include "kernels/kern.h"

#include <fenv.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/time.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
extern "C" {
#include <cmocka.h>
}

#include <type_traits>

#include "tests/sim/simtest_job.h"

#define EXPECT_IN(hay, needle)                                                           \
    do {                                                                                 \
        if (!strstr((hay), (needle))) fail_msg("expected\n  %s\nin\n  %s", (needle), (hay)); \
    } while (0)

/* ------------------------------------------------------------ intrinsics */

static void test_intrinsics(void **state)
{
    (void)state;
    assert_int_equal(__popc(0xf0f0u), 8);
    assert_int_equal(__popcll(~0ull), 64);
    assert_int_equal(__ffs(0), 0);
    assert_int_equal(__ffs(8), 4);
    assert_int_equal(__ffsll(1ll << 40), 41);
    assert_int_equal(__clz(0), 32);
    assert_int_equal(__clz(1), 31);
    assert_int_equal(__clz(-1), 0);
    assert_int_equal(__clzll(0), 64);
    assert_int_equal(__clzll(1), 63);
    assert_int_equal(__brev(1u), 0x80000000u);
    assert_int_equal(__brev(0x12345678u), 0x1e6a2c48u);
    assert_true(__brevll(1ull) == 1ull << 63);
    assert_int_equal(__byte_perm(0x33221100u, 0x77665544u, 0x5410u), 0x55441100u);
    assert_int_equal(__byte_perm(0x33221100u, 0x77665544u, 0x0123u), 0x00112233u);
    assert_int_equal(__funnelshift_l(0x89abcdefu, 0x01234567u, 8), 0x23456789u);
    assert_int_equal(__funnelshift_r(0x89abcdefu, 0x01234567u, 8), 0x6789abcdu);
    assert_int_equal(__funnelshift_l(0x89abcdefu, 0x01234567u, 40), 0x23456789u); /* shift mod 32 */
    assert_int_equal(__funnelshift_lc(0x89abcdefu, 0x01234567u, 40), 0x89abcdefu); /* clamped to 32 */
    assert_int_equal(__funnelshift_rc(0x89abcdefu, 0x01234567u, 40), 0x01234567u);
    assert_int_equal(__mulhi(0x40000000, 4), 1);
    assert_int_equal(__umulhi(0xffffffffu, 0xffffffffu), 0xfffffffeu);
    assert_true(__umul64hi(~0ull, 2ull) == 1ull);
    assert_true(__mul64hi(-1ll, 2ll) == -1ll);
    assert_int_equal(__mul24(-3, 5), -15);
    assert_int_equal(__umul24(0x1000001u, 3u), 3u);
    assert_int_equal(__sad(3, 10, 5u), 12u);
    assert_int_equal(__usad(10u, 3u, 1u), 8u);
    assert_int_equal(__hadd(-3, 2), -1);
    assert_int_equal(__rhadd(-3, 2), 0);
    assert_int_equal(__uhadd(0xffffffffu, 1u), 0x80000000u);
    assert_int_equal(__float2int_rn(2.5f), 2);
    assert_int_equal(__float2int_rn(3.5f), 4);
    assert_int_equal(__float2int_rz(-2.7f), -2);
    assert_int_equal(__float2int_rd(-2.2f), -3);
    assert_int_equal(__float2int_ru(2.1f), 3);
    assert_int_equal(__float2int_rn(1e20f), INT_MAX);
    assert_int_equal(__float2int_rn(-1e20f), INT_MIN);
    assert_int_equal(__float2int_rn(nanf("")), 0);
    assert_int_equal(__float2uint_rn(-5.0f), 0u);
    assert_true(__saturatef(1.5f) == 1.0f);
    assert_true(__saturatef(-0.2f) == 0.0f);
    assert_true(__saturatef(nanf("")) == 0.0f);
    assert_true(rsqrtf(4.0f) == 0.5f);
    assert_true(__fdividef(1.0f, 4.0f) == 0.25f);
    assert_true(fmaf(2.0f, 3.0f, 1.0f) == 7.0f);
    assert_int_equal(__float_as_int(1.0f), 0x3f800000);
    assert_true(__int_as_float(0x40000000) == 2.0f);
    assert_true(__longlong_as_double(__double_as_longlong(3.25)) == 3.25);
    assert_true(__hiloint2double(__double2hiint(-7.5), __double2loint(-7.5)) == -7.5);
    float s, c;
    __sincosf(0.0f, &s, &c);
    assert_true(s == 0.0f && c == 1.0f);
    int x = 5;
    assert_int_equal(__ldg(&x), 5);
    __stcs(&x, 6);
    assert_int_equal(x, 6);
}

static void test_min_max(void **state)
{
    (void)state;
    static_assert(std::is_same<decltype(max(1, 2.0f)), float>::value, "int and float meet in float");
    static_assert(std::is_same<decltype(min(1, 2.0)), double>::value, "int and double meet in double");
    static_assert(std::is_same<decltype(max(2ll, 3)), long long>::value, "long long wins");
    static_assert(std::is_same<decltype(min(-1, 5u)), unsigned>::value, "int and unsigned meet in unsigned");
    assert_true(max(3, 4.5f) == 4.5f);
    assert_int_equal(min(-1, 5u), 5u); /* as CUDA's min(int, unsigned): unsigned comparison */
    assert_int_equal(min(-1, 5), -1);
    assert_true(max(2ll, 3) == 3ll);
    assert_int_equal(umin(3u, 2u), 2u);
    assert_true(llmax(-5ll, -7ll) == -5ll);
}

/* every binary16, its bits read by the shim's own conversion, against the
 * compiler's: the same float (NaNs: a NaN of the same sign, quiet) */
static void test_half_to_float_exhaustive(void **state)
{
    (void)state;
    for (uint32_t u = 0; u < 0x10000u; u++) {
        uint16_t b = (uint16_t)u;
        _Float16 h;
        memcpy(&h, &b, 2);
        volatile _Float16 vh = h; /* the compiler's conversion, not folded */
        float want = (float)vh, got = gpulab_sim::sim_half_to_float(h);
        uint32_t wb, gb;
        memcpy(&wb, &want, 4);
        memcpy(&gb, &got, 4);
        if (want != want) {
            if (got == got || (gb >> 31) != (wb >> 31) || !(gb & 0x400000u))
                fail_msg("half 0x%04x: a NaN, got 0x%08x", (unsigned)u, (unsigned)gb);
        } else if (wb != gb) {
            fail_msg("half 0x%04x: want 0x%08x (%g), got 0x%08x (%g)", (unsigned)u, (unsigned)wb, (double)want,
                     (unsigned)gb, (double)got);
        }
    }
}

static void test_types(void **state)
{
    (void)state;
    static_assert(sizeof(int2) == 8 && alignof(int2) == 8, "int2");
    static_assert(sizeof(int4) == 16 && alignof(int4) == 16, "int4");
    static_assert(sizeof(uint4) == 16 && alignof(uint4) == 16, "uint4");
    static_assert(sizeof(float2) == 8 && alignof(float2) == 8, "float2");
    static_assert(sizeof(float3) == 12 && alignof(float3) == 4, "float3");
    static_assert(sizeof(float4) == 16 && alignof(float4) == 16, "float4");
    static_assert(sizeof(double2) == 16 && alignof(double2) == 16, "double2");
    static_assert(sizeof(uchar4) == 4 && alignof(uchar4) == 4, "uchar4");
    static_assert(sizeof(short2) == 4 && alignof(short2) == 4, "short2");
    static_assert(sizeof(longlong2) == 16 && alignof(longlong2) == 16, "longlong2");
    static_assert(sizeof(uint3) == 12, "uint3");
    float4 f = make_float4(1, 2, 3, 4);
    assert_true(f.x == 1 && f.y == 2 && f.z == 3 && f.w == 4);
    uchar4 u = make_uchar4(1, 2, 3, 255);
    assert_int_equal(u.w, 255);
    int2 i2 = make_int2(-1, 7);
    assert_int_equal(i2.x + i2.y, 6);
    dim3 a(5), b(2, 3), c;
    assert_true(a.x == 5 && a.y == 1 && a.z == 1);
    assert_true(b.x == 2 && b.y == 3 && b.z == 1);
    assert_true(c.x == 1 && c.y == 1 && c.z == 1);
    uint3 v = make_uint3(4, 5, 6);
    dim3 d(v);
    uint3 back = d;
    assert_true(d.z == 6 && back.y == 5);
    assert_int_equal(warpSize, 32);
    /* outside a launch the built-ins read as a zero thread */
    assert_int_equal(threadIdx.x, 0);
    assert_int_equal(blockDim.x, 1);
}

/* ----------------------------------------------------- shared-array proxy */

struct pair { int a, b; };

static __device__ int sum_ptr(const int *p, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) s += p[i];
    return s;
}

static __device__ void bump(volatile int *p) { p[0] += 1; }

enum { SLOT_A = 2 };

/* What kernel code may do with a SHARED array: every line here is plain CUDA. */
static __global__ void proxy_k(int *out, float4 *fout)
{
    SHARED(int, s, 64);
    SHARED(unsigned char, bytes, 64);
    SHARED(float4, vec, 4);
    SHARED(pair, pairs, 2);
    SHARED2(int, grid2, 4, 5);
    SHARED(int, idx, 64);
    unsigned t = threadIdx.x;
    s[t] = (int)t;
    bytes[t] = (unsigned char)(t + 200);
    idx[t] = 63 - (int)t;
    if (t < 20) grid2[t % 4][t % 5] = 0; /* each element once */
    if (t < 4) vec[t] = make_float4((float)t, 0, 0, 0);
    if (t < 2) {
        pairs[t].a = (int)t;
        pairs[t].b = 10;
    }
    __syncthreads();
    if (t == 0) {
        s[1] += 10;             /* compound */
        s[2] *= 3;
        s[3] <<= 2;
        s[4]++;
        ++s[5];
        int old = s[6]--;
        s[7] = s[8] = 100;      /* chained, element to element */
        s[9] = s[10];
        long long wide = s[11]; /* converts like an int */
        double half = s[12] / 2.0;
        vec[1].y = 5.0f;        /* members of struct elements */
        pairs[1].b += 1;
        grid2[3][4] = 7;
        grid2[1][2] += grid2[3][4];
        atomicAdd(&s[13], 5);  /* the element's address */
        bump(&s[14]);
        bump(s + 15);
        out[0] = sum_ptr(s, 4);     /* the array as a pointer */
        out[1] = old;
        out[2] = (int)wide + (int)(half * 2);
        out[3] = s[idx[60]];        /* a shared element as the index */
        out[4] = s[SLOT_A] + s[(unsigned char)1] + s[2ull] + s[(short)3];
        out[5] = bytes[63];
        out[6] = pairs[1].a + pairs[1].b;
        out[7] = grid2[1][2];
        out[8] = max(s[16], 20) + min(s[17], s[18]);
        out[9] = s[20] == s[20] && s[21] < s[22] ? 1 : 0;
        *fout = vec[1];
    }
    __syncthreads();
    if (t < 16) out[10 + t] = s[t];
}

static void test_shared_proxy(void **state)
{
    (void)state;
    lab_job *j = fresh_job(1);
    int *d;
    float4 *f;
    assert_int_equal(cudaMalloc(&d, 64 * sizeof(int)), cudaSuccess);
    assert_int_equal(cudaMalloc(&f, sizeof(float4)), cudaSuccess);
    if (sim_launch(j, "proxy_k", __FILE__, __LINE__, dim3(1), dim3(64), 0, [=]() { proxy_k(d, f); }) != 0)
        fail_msg("%s", j->err);
    int out[26];
    float4 fv;
    assert_int_equal(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(cudaMemcpy(&fv, f, sizeof fv, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(out[0], 0 + 11 + 6 + 12);
    assert_int_equal(out[1], 6);
    assert_int_equal(out[2], 11 + 12);
    assert_int_equal(out[3], 3 * 4);          /* s[idx[60]] = s[3] after <<= 2 */
    assert_int_equal(out[4], 6 + 11 + 6 + 12);
    assert_int_equal(out[5], (unsigned char)(63 + 200));
    assert_int_equal(out[6], 1 + 11);
    assert_int_equal(out[7], 7);
    assert_int_equal(out[8], 20 + 17);
    assert_int_equal(out[9], 1);
    assert_true(fv.x == 1.0f && fv.y == 5.0f);
    int want[16] = {0, 11, 6, 12, 5, 6, 5, 100, 100, 10, 10, 11, 12, 18, 15, 16};
    for (int i = 0; i < 16; i++) assert_int_equal(out[10 + i], want[i]);
    cudaFree(d);
    cudaFree(f);
}

/* ------------------------------------------------------------- launches */

using namespace cooperative_groups;

static __global__ void grid3_k(int *out)
{
    thread_block b = this_thread_block();
    dim3 gi = b.group_index(), ti = b.thread_index();
    unsigned blk = gi.x + gridDim.x * (gi.y + gridDim.y * gi.z);
    unsigned id = blk * b.size() + b.thread_rank();
    out[id] = (int)(ti.x + 10 * ti.y + 100 * ti.z + 1000 * gi.x + 10000 * gi.y + 100000 * gi.z);
    b.sync();
    thread_block_tile<4> q = tiled_partition<4>(b);
    out[id] += q.shfl(0, 0) * 0;
}

static int launch_grid3(lab_job *job, int *d)
{
    LAUNCH(grid3_k, dim3(2, 3, 2), dim3(3, 2, 4), 0, d);
    return 0;
}

static void test_launch_3d(void **state)
{
    (void)state;
    lab_job *j = fresh_job(0);
    int *d;
    const int n = 12 * 24;
    assert_int_equal(cudaMalloc(&d, n * sizeof(int)), cudaSuccess);
    sim_stats a, b;
    sim_stats_get(&a);
    assert_int_equal(launch_grid3(j, d), 0);
    sim_stats_get(&b);
    assert_int_equal(b.launches - a.launches, 1);
    assert_int_equal(b.blocks - a.blocks, 12);
    assert_int_equal(b.threads - a.threads, n);
    assert_true(b.switches - a.switches >= (unsigned long long)n);
    int out[12 * 24];
    assert_int_equal(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int gz = 0; gz < 2; gz++)
        for (int gy = 0; gy < 3; gy++)
            for (int gx = 0; gx < 2; gx++)
                for (int tz = 0; tz < 4; tz++)
                    for (int ty = 0; ty < 2; ty++)
                        for (int tx = 0; tx < 3; tx++) {
                            int blk = gx + 2 * (gy + 3 * gz), t = tx + 3 * (ty + 2 * tz);
                            assert_int_equal(out[blk * 24 + t],
                                             tx + 10 * ty + 100 * tz + 1000 * gx + 10000 * gy + 100000 * gz);
                        }
    cudaFree(d);
}

/* A block whose threads never wait runs on one stack: the switch into the
 * block and the one back out, whatever its size; one __syncthreads makes
 * every thread wait on a stack of its own. */
static __global__ void nowait_k(int *out, int sync)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = i;
    if (sync) __syncthreads();
    out[i] += 1;
}

static int launch_nowait(lab_job *job, int *d, int sync)
{
    LAUNCH(nowait_k, dim3(3), dim3(256), 0, d, sync);
    return 0;
}

static void test_nowait_runs_without_switches(void **state)
{
    (void)state;
    lab_job *j = fresh_job(0);
    int *d, out[3 * 256];
    assert_int_equal(cudaMalloc(&d, sizeof out), cudaSuccess);
    for (int sync = 0; sync < 2; sync++) {
        sim_stats a, b;
        sim_stats_get(&a);
        assert_int_equal(launch_nowait(j, d, sync), 0);
        sim_stats_get(&b);
        assert_int_equal(b.threads - a.threads, 3 * 256);
        if (sync)
            assert_true(b.switches - a.switches >= 3 * 256);
        else
            assert_int_equal(b.switches - a.switches, 3 * 2);
        assert_int_equal(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost), cudaSuccess);
        for (int i = 0; i < 3 * 256; i++) assert_int_equal(out[i], i + 1);
    }
    cudaFree(d);
}

static __global__ void clock_k(long long *out)
{
    long long a = clock64();
    long long b = clock64();
    out[threadIdx.x] = b > a ? a : -1;
}

static void test_clock_is_deterministic(void **state)
{
    (void)state;
    long long *d, r1[32], r2[32];
    assert_int_equal(cudaMalloc(&d, sizeof r1), cudaSuccess);
    lab_job *j = fresh_job(0);
    assert_int_equal(sim_launch(j, "clock_k", __FILE__, __LINE__, 1, 32, 0, [=]() { clock_k(d); }), 0);
    cudaMemcpy(r1, d, sizeof r1, cudaMemcpyDeviceToHost);
    assert_int_equal(sim_launch(j, "clock_k", __FILE__, __LINE__, 1, 32, 0, [=]() { clock_k(d); }), 0);
    cudaMemcpy(r2, d, sizeof r2, cudaMemcpyDeviceToHost);
    assert_memory_equal(r1, r2, sizeof r1);
    for (int i = 0; i < 32; i++) assert_true(r1[i] > 0);
    cudaFree(d);
}

static __global__ void nop_k(void) {}

static int shape(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, size_t smem)
{
    lab_job *j = fresh_job(0);
    return sim_launch(j, "nop_k", "launcher.cu", 88, dim3(gx, gy, gz), dim3(bx, by, bz), smem, []() { nop_k(); });
}

/* sim_launch refuses what CUDA refuses, and says why. */
static void test_launch_validation(void **state)
{
    (void)state;
    assert_int_equal(shape(1, 1, 1, 1024, 1, 1, 0), 0);
    assert_int_equal(shape(2, 3, 4, 8, 8, 16, 49152), 0);
    assert_int_equal(shape(1, 1, 1, 1025, 1, 1, 0), -1);
    EXPECT_IN(job.err, "nop_k (launched at launcher.cu:88): block (1025,1,1): a block is at most 1024 threads "
                       "in x and in y, and 64 in z");
    assert_string_equal(sim_last_diagnostic(), job.err);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidValue);
    assert_int_equal(shape(1, 1, 1, 32, 32, 2, 0), -1);
    EXPECT_IN(job.err, "block (32,32,2) has 2048 threads; a block holds at most 1024");
    assert_int_equal(shape(1, 1, 1, 1, 1, 65, 0), -1);
    EXPECT_IN(job.err, "and 64 in z");
    assert_int_equal(shape(0, 1, 1, 32, 1, 1, 0), -1);
    EXPECT_IN(job.err, "grid (0,1,1) with blocks of (32,1,1) threads: every dimension of the grid and of the "
                       "block must be at least 1");
    assert_int_equal(shape(1, 1, 1, 0, 1, 1, 0), -1);
    EXPECT_IN(job.err, "must be at least 1");
    assert_int_equal(shape(1, 65536, 1, 32, 1, 1, 0), -1);
    EXPECT_IN(job.err, "grid (1,65536,1): a grid is at most 2^31-1 blocks in x and 65535 in y and z");
    assert_int_equal(shape(2147483648u, 1, 1, 32, 1, 1, 0), -1);
    assert_int_equal(shape(1, 1, 1, 32, 1, 1, 49153), -1);
    EXPECT_IN(job.err, "asks for 49153 bytes of dynamic shared memory; a block may use at most 49152 bytes");
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidValue);
}

/* Fill the whole dynamic shared array and read it back. */
static __global__ void big_smem_k(int *out, int n)
{
    DYNAMIC_SHARED(int, s);
    for (int i = threadIdx.x; i < n; i += blockDim.x) s[i] = i;
    __syncthreads();
    int sum = 0;
    for (int i = 0; i < n; i++) sum += s[i] == i;
    if (threadIdx.x == 0) *out = sum;
}

/* More than 48 KiB of dynamic shared memory only for a kernel that opted in
 * with cudaFuncSetAttribute, and at most what it opted in to (227 KiB at most,
 * as on the H200). */
static void test_smem_opt_in(void **state)
{
    (void)state;
    lab_job *j = fresh_job(0);
    int *d = nullptr;
    assert_int_equal(cudaMalloc(&d, sizeof(int)), cudaSuccess);
    const int n = 128 * 1024 / 4; /* 128 KiB */
    const size_t bytes = (size_t)n * 4;
    assert_int_equal(sim_launch(j, "big_smem_k", __FILE__, __LINE__, 1, 256, bytes, [=]() { big_smem_k(d, n); },
                                (const void *)big_smem_k),
                     -1);
    EXPECT_IN(job.err, "unless the kernel opts in to more with cudaFuncSetAttribute");
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidValue);
    assert_int_equal(cudaFuncSetAttribute(big_smem_k, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024 + 1),
                     cudaErrorInvalidValue);
    assert_int_equal(cudaFuncSetAttribute(big_smem_k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes),
                     cudaSuccess);
    assert_int_equal(sim_launch(j, "big_smem_k", __FILE__, __LINE__, 1, 256, bytes, [=]() { big_smem_k(d, n); },
                                (const void *)big_smem_k),
                     0);
    int got = 0;
    assert_int_equal(cudaMemcpy(&got, d, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(got, n);
    /* past what it opted in to */
    assert_int_equal(sim_launch(j, "big_smem_k", __FILE__, __LINE__, 1, 256, bytes + 4,
                                [=]() { big_smem_k(d, n + 1); }, (const void *)big_smem_k),
                     -1);
    EXPECT_IN(job.err, "asks for 131076 bytes of dynamic shared memory; the kernel opted in to 131072");
    cudaGetLastError();
    cudaFree(d);
}

/* The events a thread records past the cap are counted, not kept; the trace
 * says it was cut. */
static __global__ void chatty_k(int n)
{
    for (int i = 0; i < n; i++) TRACE_MARK(1, i, i, 0);
    if (LAB_TRACING()) TRACE_MARK(2, 0, 0, 0);
}

static void test_trace_cap(void **state)
{
    (void)state;
    lab_trace tr;
    memset(&tr, 0, sizeof tr);
    lab_job *j = fresh_job(0);
    j->trace = &tr;
    assert_int_equal(sim_tracing(), 0);
    assert_int_equal(sim_launch(j, "chatty_k", __FILE__, __LINE__, 2, 4, 0, [=]() { chatty_k((int)lab_trace_cap(8) + 50); }),
                     0);
    assert_int_equal(tr.count, 2 * 4 * (size_t)lab_trace_cap(8));
    assert_int_equal(tr.truncated, 1);
    assert_int_equal(tr.nlaunches, 1);
    lab_trace_free(&tr);
    memset(&tr, 0, sizeof tr);
    assert_int_equal(sim_launch(j, "chatty_k", __FILE__, __LINE__, 1, 3, 0, [=]() { chatty_k(2); }), 0);
    assert_int_equal(tr.count, 3 * 3);
    assert_int_equal(tr.truncated, 0);
    lab_trace_free(&tr);
    /* not tracing: LAB_TRACING() is 0 and nothing is recorded */
    j->trace = NULL;
    assert_int_equal(sim_launch(j, "chatty_k", __FILE__, __LINE__, 1, 3, 0, [=]() { chatty_k(2); }), 0);
}

/* Block 0 waits for block 1, which on the simulator never runs first: only
 * Ctrl-C (here a timer setting lab_interrupted) gets out, and it must. */
static __global__ void spin_k(int *flag)
{
    if (blockIdx.x == 0)
        while (atomicAdd(flag, 0) == 0) {
        }
    else if (threadIdx.x == 0)
        atomicExch(flag, 1);
}

static void on_alarm(int sig)
{
    (void)sig;
    lab_interrupted = 1;
}

static void test_interrupt_stops_a_spin(void **state)
{
    (void)state;
    int *flag;
    assert_int_equal(cudaMalloc(&flag, sizeof(int)), cudaSuccess);
    assert_int_equal(cudaMemset(flag, 0, sizeof(int)), cudaSuccess);
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, &old);
    struct itimerval t;
    memset(&t, 0, sizeof t);
    t.it_value.tv_usec = 200000;
    setitimer(ITIMER_REAL, &t, NULL);
    lab_job *j = fresh_job(0);
    int rc = sim_launch(j, "spin_k", __FILE__, __LINE__, 2, 32, 0, [=]() { spin_k(flag); });
    sigaction(SIGALRM, &old, NULL);
    lab_interrupted = 0;
    assert_int_equal(rc, -1);
    EXPECT_IN(j->err, "spin_k: interrupted in block 0");
    /* the next launch runs: with the flag already set, block 0 does not wait */
    int one = 1;
    assert_int_equal(cudaMemcpy(flag, &one, sizeof one, cudaMemcpyHostToDevice), cudaSuccess);
    assert_int_equal(sim_launch(j, "spin_k", __FILE__, __LINE__, 1, 32, 0, [=]() { spin_k(flag); }), 0);
    cudaFree(flag);
}

/* Warp intrinsics and barriers called from host code (outside any launch)
 * behave as a warp of one instead of crashing. */
static void test_outside_launch(void **state)
{
    (void)state;
    assert_int_equal(__shfl_down_sync(0xffffffffu, 42, 1), 42);
    assert_int_equal(__ballot_sync(0xffffffffu, 1), 1u);
    __syncwarp();
    __syncthreads();
    assert_int_equal(__syncthreads_count(1), 1);
}

static void test_stack_size(void **state)
{
    (void)state;
    assert_int_equal(sim_set_stack_size(1024), -1);
    assert_int_equal(sim_set_stack_size((size_t)1 << 40), -1);
    assert_int_equal(sim_set_stack_size(100 * 1024 + 1), 0);
    assert_true(sim_stack_size() >= 100 * 1024 + 1 && sim_stack_size() % 4096 == 0);
    long long *d;
    assert_int_equal(cudaMalloc(&d, 32 * sizeof(long long)), cudaSuccess);
    lab_job *j = fresh_job(0);
    assert_int_equal(sim_launch(j, "clock_k", __FILE__, __LINE__, 2, 32, 0, [=]() { clock_k(d); }), 0);
    assert_int_equal(sim_set_stack_size(0), 0);
    assert_int_equal(sim_launch(j, "clock_k", __FILE__, __LINE__, 2, 32, 0, [=]() { clock_k(d); }), 0);
    cudaFree(d);
}

/* ------------------------------------------------------------- host API */

static void test_malloc_poison(void **state)
{
    (void)state;
    unsigned char *p;
    assert_int_equal(cudaMalloc(&p, 1000), cudaSuccess);
    assert_true(((uintptr_t)p & 255) == 0);
    for (int i = 0; i < 1000; i++) assert_int_equal(p[i], SIM_POISON_GLOBAL);
    int iv;
    float fv;
    memcpy(&iv, p, 4);
    memcpy(&fv, p, 4);
    assert_int_equal(iv, -858993460);
    assert_true(fv < -1.0e8f && fv > -1.1e8f);
    assert_true(sim_owns(p) && sim_owns(p + 999) && !sim_owns(&iv));
    assert_int_equal(cudaMemset(p, 0, 1000), cudaSuccess);
    assert_int_equal(p[999], 0);
    float *m;
    assert_int_equal(cudaMallocManaged(&m, 16), cudaSuccess);
    assert_int_equal(cudaFree(m), cudaSuccess);
    assert_int_equal(sim_free(p), 0);
    assert_int_equal(sim_free(p), -1);
    assert_int_equal(cudaFree(NULL), cudaSuccess);
}

static void test_memcpy_checks(void **state)
{
    (void)state;
    int host[8] = {1, 2, 3, 4, 5, 6, 7, 8}, back[8];
    int *d, *e;
    assert_int_equal(cudaMalloc(&d, sizeof host), cudaSuccess);
    assert_int_equal(cudaMalloc(&e, sizeof host), cudaSuccess);
    assert_int_equal(cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice), cudaSuccess);
    assert_int_equal(cudaMemcpy(e, d, sizeof host, cudaMemcpyDeviceToDevice), cudaSuccess);
    assert_int_equal(cudaMemcpy(back, e, sizeof back, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_memory_equal(host, back, sizeof host);
    assert_int_equal(cudaMemcpy(back, d + 2, 4 * sizeof(int), cudaMemcpyDefault), cudaSuccess);
    assert_int_equal(back[0], 3);

    cudaGetLastError(); /* earlier tests left errors behind */
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    /* past the end of the allocation */
    assert_int_equal(cudaMemcpy(d + 4, host, sizeof host, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    EXPECT_IN(sim_last_diagnostic(), "run past the end of its allocation: it holds 16 bytes from there (32 in all)");
    assert_int_equal(cudaPeekAtLastError(), cudaErrorInvalidValue);
    assert_int_equal(cudaGetLastError(), cudaErrorInvalidValue);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
    /* a host pointer where device memory belongs */
    assert_int_equal(cudaMemcpy(back, host, sizeof host, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    EXPECT_IN(sim_last_diagnostic(), "cudaMemcpy(cudaMemcpyHostToDevice): the destination");
    EXPECT_IN(sim_last_diagnostic(), "is not memory from cudaMalloc");
    /* source and destination swapped */
    assert_int_equal(cudaMemcpy(host, d, sizeof host, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    EXPECT_IN(sim_last_diagnostic(), "the destination is host memory and the source is device memory");
    assert_int_equal(cudaMemcpy(d, host, sizeof host, (cudaMemcpyKind)9), cudaErrorInvalidMemcpyDirection);
    assert_int_equal(cudaMemset(host, 0, 4), cudaErrorInvalidValue);
    assert_int_equal(cudaFree(host), cudaErrorInvalidValue);
    EXPECT_IN(sim_last_diagnostic(), "is not the start of a live allocation");
    assert_int_equal(cudaFree(d), cudaSuccess);
    assert_int_equal(cudaFree(d), cudaErrorInvalidValue);
    assert_int_equal(cudaMemcpy(back, d, 4, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    cudaFree(e);
    assert_string_equal(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument");
    assert_string_equal(cudaGetErrorString(cudaSuccess), "no error");
    assert_string_equal(cudaGetErrorName(cudaErrorLaunchFailure), "cudaErrorLaunchFailure");
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    cudaGetLastError();
}

/* CK() in an entry point: the failed call, where, why. */
static int entry_bad_copy(lab_job *job)
{
    int *d;
    TRY(lab_alloc(job, &d, 4));
    int host[8] = {0};
    CK(cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice));
    return 0;
}

static void test_ck_message(void **state)
{
    (void)state;
    lab_job *j = fresh_job(0);
    assert_int_equal(entry_bad_copy(j), -1);
    EXPECT_IN(j->err, "cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice) failed (test_sim_shim.cpp:");
    EXPECT_IN(j->err, "invalid argument: cudaMemcpy(cudaMemcpyHostToDevice): 32 bytes from the destination");
    lab_job_free_allocs(j);
    assert_int_equal(j->nallocs, 0);
    /* a later failure with no explanation does not repeat the old one */
    assert_int_equal(sim_job_fail(j, cudaErrorUnknown, "x()", "f.cu", 3), -1);
    assert_string_equal(j->err, "x() failed (f.cu:3): unknown error");
}

static __constant__ float coeff[4];
static __device__ int counter;

static void test_symbols(void **state)
{
    (void)state;
    float c[4] = {1, 2, 3, 4}, back[4];
    assert_int_equal(cudaMemcpyToSymbol(coeff, c, sizeof c), cudaSuccess);
    assert_int_equal(cudaMemcpyFromSymbol(back, coeff, sizeof back), cudaSuccess);
    assert_memory_equal(c, back, sizeof c);
    assert_int_equal(cudaMemcpyToSymbol(coeff, c, sizeof c, 4), cudaErrorInvalidValue);
    int one = 1;
    assert_int_equal(cudaMemcpyToSymbol(counter, &one, sizeof one), cudaSuccess);
    assert_int_equal(counter, 1);
}


/* The rounding intrinsics (__fadd_rd, __dsqrt_ru, __float2half_rz...) give
 * the bits the same operation gives with the whole floating-point
 * environment in that mode (fesetround): edge values (zeros of both signs,
 * infinities, NaN, subnormals, the largest finite values, sums that cancel
 * exactly) and random bit patterns. On x86-64 the intrinsics change only
 * SSE's rounding field, so this is what keeps that shortcut honest. */
static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd_next(void)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return rnd_state;
}
template <class T> static T rnd_value(unsigned k)
{
    static const double edge[] = {0.0, -0.0, 1.0, -1.0, 3.0, 1e-310, -4.9e-324, 1.7976931348623157e308,
                                  -1.7976931348623157e308, 1.1754942e-38, 3.4028235e38, -3.4028235e38,
                                  1.0000001, 0.1, __builtin_inf(), -__builtin_inf(), __builtin_nan(""), 2.0};
    const unsigned ne = sizeof edge / sizeof edge[0];
    if (k < ne) return (T)edge[k];
    T v;
    uint64_t b = rnd_next();
    if (k % 3 == 0) b &= (sizeof(T) == 8 ? 0x3ff3ffffffffffffull : 0x3fbfffffull) | (b & (sizeof(T) == 8 ? 1ull << 63 : 1u << 31));
    memcpy(&v, &b, sizeof v);
    return v;
}
template <class T> static int same_bits(T a, T b)
{
    if (a != a && b != b) return 1; /* NaN: any payload */
    return memcmp(&a, &b, sizeof a) == 0;
}
template <class T> static T ref2(int mode, int op, T a, T b)
{
    int old = fegetround();
    fesetround(mode);
    volatile T x = a, y = b, r;
    switch (op) {
    case 0: r = x + y; break;
    case 1: r = x - y; break;
    case 2: r = x * y; break;
    case 3: r = x / y; break;
    case 4: r = sizeof(T) == 8 ? (T)sqrt((double)x) : (T)sqrtf((float)x); break;
    default: r = (T)1 / x; break;
    }
    T out = r;
    fesetround(old);
    return out;
}
/* every operation in every directed mode: op 0 +, 1 -, 2 *, 3 /, 4 sqrt, 5 1/x */
template <class T> struct rounded_fn {
    const char *name;
    int mode, op;
    T (*two)(T, T);
    T (*one)(T);
};
#define ROUNDED_MODES(p, op, code, kind)                                                   \
    {#p #op "_rz", FE_TOWARDZERO, code, kind(p##op##_rz)}, {#p #op "_ru", FE_UPWARD, code, kind(p##op##_ru)}, \
        {#p #op "_rd", FE_DOWNWARD, code, kind(p##op##_rd)}
#define ROUNDED_TWO(f) f, nullptr
#define ROUNDED_ONE(f) nullptr, f
#define ROUNDED_TABLE(p, T)                                                                          \
    static const rounded_fn<T> p##_fns[] = {                                                         \
        ROUNDED_MODES(p, add, 0, ROUNDED_TWO), ROUNDED_MODES(p, sub, 1, ROUNDED_TWO),                \
        ROUNDED_MODES(p, mul, 2, ROUNDED_TWO), ROUNDED_MODES(p, div, 3, ROUNDED_TWO),                \
        ROUNDED_MODES(p, sqrt, 4, ROUNDED_ONE), ROUNDED_MODES(p, rcp, 5, ROUNDED_ONE)}
ROUNDED_TABLE(__f, float);
ROUNDED_TABLE(__d, double);
template <class T, size_t N> static void check_rounded(const rounded_fn<T> (&fns)[N], T a, T b)
{
    for (size_t i = 0; i < N; i++) {
        const rounded_fn<T> &f = fns[i];
        T got = f.two ? f.two(a, b) : f.one(a), want = ref2<T>(f.mode, f.op, a, b);
        if (!same_bits(got, want))
            fail_msg("%s(%a, %a) gave %a, the mode's own operation %a", f.name, (double)a, (double)b, (double)got,
                     (double)want);
    }
}

static void test_rounding_intrinsics(void **state)
{
    (void)state;
    for (unsigned k = 0; k < 40000; k++) {
        float fa = rnd_value<float>(k), fb = rnd_value<float>((k * 7 + 3) % 40000);
        double da = rnd_value<double>(k), db = rnd_value<double>((k * 7 + 3) % 40000);
        if (k % 5 == 0) { fb = -fa; db = -da; } /* exact cancellation: -0 rounding down */
        check_rounded(__f_fns, fa, fb);
        check_rounded(__d_fns, da, db);
        /* products and quotients of ordinary sizes, where the fast path runs */
        float ga = fa * 0x1p-60f, gb = (float)(k % 97 + 1) / 7.0f;
        double ea = da * 0x1p-500, eb = (double)(k % 89 + 1) / 3.0;
        if (__builtin_isfinite(ga)) check_rounded(__f_fns, ga, gb);
        if (__builtin_isfinite(ea)) check_rounded(__d_fns, ea, eb);
        /* conversions */
        static const int modes[3] = {FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};
        float cv[3] = {__double2float_rz(da), __double2float_ru(da), __double2float_rd(da)};
        __half hv[3] = {__float2half_rz(fa), __float2half_ru(fa), __float2half_rd(fa)};
        int ia = (int)(rnd_next() >> 33) * (k % 2 ? -1 : 1);
        float iv[3] = {__int2float_rz(ia), __int2float_ru(ia), __int2float_rd(ia)};
        for (int m = 0; m < 3; m++) {
            int old = fegetround();
            fesetround(modes[m]);
            volatile double vd = da;
            volatile float vf = fa;
            volatile int vi = ia;
            volatile float wd = (float)vd, wi = (float)vi;
            volatile _Float16 wh = (_Float16)vf;
            float want_d = wd, want_i = wi;
            _Float16 want_h = wh;
            fesetround(old);
            if (!same_bits(cv[m], want_d)) fail_msg("__double2float mode %d of %a: %a, want %a", m, da, (double)cv[m], (double)want_d);
            if (!same_bits(iv[m], want_i)) fail_msg("__int2float mode %d of %d: %a, want %a", m, ia, (double)iv[m], (double)want_i);
            if (memcmp(&hv[m].h, &want_h, 2) != 0 && !(want_h != want_h))
                fail_msg("__float2half mode %d of %a: %a, want %a", m, fa, (double)hv[m].h, (double)want_h);
        }
    }
    /* the mode is the caller's again afterwards */
    assert_int_equal(fegetround(), FE_TONEAREST);
    volatile float one = 1.0f, tiny = 5.9604645e-8f;
    assert_true(one + tiny == 1.0f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_intrinsics),
        cmocka_unit_test(test_rounding_intrinsics),
        cmocka_unit_test(test_min_max),
        cmocka_unit_test(test_half_to_float_exhaustive),
        cmocka_unit_test(test_types),
        cmocka_unit_test(test_shared_proxy),
        cmocka_unit_test(test_launch_3d),
        cmocka_unit_test(test_nowait_runs_without_switches),
        cmocka_unit_test(test_launch_validation),
        cmocka_unit_test(test_smem_opt_in),
        cmocka_unit_test(test_clock_is_deterministic),
        cmocka_unit_test(test_trace_cap),
        cmocka_unit_test(test_interrupt_stops_a_spin),
        cmocka_unit_test(test_outside_launch),
        cmocka_unit_test(test_stack_size),
        cmocka_unit_test(test_malloc_poison),
        cmocka_unit_test(test_memcpy_checks),
        cmocka_unit_test(test_ck_message),
        cmocka_unit_test(test_symbols),
    };
    return cmocka_run_group_tests_name("sim shim", tests, NULL, NULL);
}
