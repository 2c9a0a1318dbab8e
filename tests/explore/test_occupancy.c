/* test_occupancy.c - the occupancy calculator against figures worked out by
 * hand from each built-in model's published limits, the block-size
 * suggestion, and the lookup of the compiler's register table. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kernels/lab.h"

static int failures, checks;

#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        checks++;                                                               \
        if (!(cond)) {                                                          \
            failures++;                                                         \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
        }                                                                       \
    } while (0)

/* One hand-computed case: the kernel, the block, and what must come out. */
typedef struct expect {
    const char *model;
    int regs;
    long dyn;
    int block;
    int blocks;          /* resident blocks per SM */
    double occupancy;
    unsigned limiters;
} expect;

enum { W = OCC_LIM_WARPS, R = OCC_LIM_REGS, S = OCC_LIM_SMEM, B = OCC_LIM_BLOCKS };

/* Worked by hand. Kernel A: 32 registers, block 256 (8 warps). B: 64
 * registers, block 256. C: 16 registers, 32 KiB dynamic shared memory, block
 * 128 (4 warps). D: 16 registers, block 32 (1 warp).
 *
 * Hopper/Blackwell (2048 threads = 64 warps, 32 blocks, 64K registers in 4
 * sub-partitions, 228 KiB shared, 1 KiB reserved per block, 128-byte units):
 *  A: warps 64/8 = 8; registers 32*32 = 1024 per warp, 16384/1024 = 16 warps
 *     per sub-partition = 64 -> 8 blocks; shared 1 KiB -> 228; 8 blocks, 100%.
 *  B: 2048 per warp -> 8 per sub-partition = 32 warps -> 4 blocks, 50%.
 *  C: shared 32 KiB + 1 KiB = 33792 -> 233472/33792 = 6 blocks, 24 warps = 37.5%.
 *  D: 32 resident blocks of one warp: 50%, the block table limits.
 * A100 (164 KiB): C gets 167936/33792 = 4 blocks = 25%; the rest as Hopper.
 * Ada and GA10x (1536 threads = 48 warps; 24 blocks on sm_89, 16 on sm_86;
 *  100 KiB): A 48/8 = 6 blocks = 100% (warps); B 4 blocks = 32/48; C
 *  102400/33792 = 3 blocks = 12/48; D 24 (or 16) blocks.
 * T4 (1024 threads = 32 warps, 16 blocks, 64 KiB, no reserve, 256-byte
 *  units): A 32/8 = 4 blocks = 100%; B registers allow 4 too (tie); C
 *  65536/32768 = 2 blocks = 8/32; D 16 blocks = 50%.
 * V100 and GTX 1080 (64 warps, 32 blocks, 96 KiB, 256-byte units): A 8;
 *  B 4; C 98304/32768 = 3 blocks = 12/64; D 32 = 50%. */
static const expect cases[] = {
    {"h200", 32, 0, 256, 8, 1.0, W | R},
    {"h200", 64, 0, 256, 4, 0.5, R},
    {"h200", 16, 32768, 128, 6, 0.375, S},
    {"h200", 16, 0, 32, 32, 0.5, B},
    {"h100", 32, 0, 256, 8, 1.0, W | R},
    {"h100", 16, 32768, 128, 6, 0.375, S},
    {"b200", 64, 0, 256, 4, 0.5, R},
    {"b200", 16, 32768, 128, 6, 0.375, S},
    {"a100", 32, 0, 256, 8, 1.0, W | R},
    {"a100", 64, 0, 256, 4, 0.5, R},
    {"a100", 16, 32768, 128, 4, 0.25, S},
    {"a100", 16, 0, 32, 32, 0.5, B},
    {"l4", 32, 0, 256, 6, 1.0, W},
    {"l4", 64, 0, 256, 4, 32.0 / 48, R},
    {"l4", 16, 32768, 128, 3, 0.25, S},
    {"l4", 16, 0, 32, 24, 0.5, B},
    {"rtx4090", 32, 0, 256, 6, 1.0, W},
    {"rtx4090", 16, 32768, 128, 3, 0.25, S},
    {"rtx3090", 32, 0, 256, 6, 1.0, W},
    {"rtx3090", 64, 0, 256, 4, 32.0 / 48, R},
    {"rtx3090", 16, 0, 32, 16, 16.0 / 48, B},
    {"t4", 32, 0, 256, 4, 1.0, W},
    {"t4", 64, 0, 256, 4, 1.0, W | R},
    {"t4", 16, 32768, 128, 2, 0.25, S},
    {"t4", 16, 0, 32, 16, 0.5, B},
    {"v100", 32, 0, 256, 8, 1.0, W | R},
    {"v100", 64, 0, 256, 4, 0.5, R},
    {"v100", 16, 32768, 128, 3, 0.1875, S},
    {"v100", 16, 0, 32, 32, 0.5, B},
    {"gtx1080", 32, 0, 256, 8, 1.0, W | R},
    {"gtx1080", 16, 32768, 128, 3, 0.1875, S},
    /* rounding: 33 registers x 32 = 1056 -> 1280 per warp; 16384/1280 = 12
     * warps per sub-partition = 48 -> 6 blocks of 8 warps = 75% */
    {"h200", 33, 0, 256, 6, 0.75, R},
    /* 1000 bytes + 1 KiB reserve = 2024 -> 2048: 233472/2048 = 114 blocks;
     * the warps still limit (8) */
    {"h200", 16, 1000, 256, 8, 1.0, W},
    /* 64 threads, 0 registers known: warps 32, blocks 32 -> 32 blocks, 100% */
    {"h200", 0, 0, 64, 32, 1.0, W | B},
};

static void test_cases(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const expect *e = &cases[i];
        const occ_model *m = occ_model_find(e->model);
        CHECK(m != NULL, "model %s", e->model);
        if (!m) continue;
        occ_kernel k = {0};
        k.regs = e->regs;
        k.dynamic_smem = e->dyn;
        occ_result r;
        int b = occ_compute(m, &k, e->block, &r);
        CHECK(b == e->blocks && r.blocks_per_sm == e->blocks, "%s regs %d smem %ld block %d: %d blocks, want %d",
              e->model, e->regs, e->dyn, e->block, b, e->blocks);
        CHECK(fabs(r.occupancy - e->occupancy) < 1e-9, "%s case %zu: occupancy %g, want %g", e->model, i,
              r.occupancy, e->occupancy);
        char got[96], want[96];
        CHECK(r.limiters == e->limiters, "%s case %zu: limited by %s, want %s", e->model, i,
              occ_limiters_text(r.limiters, got, sizeof got), occ_limiters_text(e->limiters, want, sizeof want));
        CHECK(r.active_warps == e->blocks * ((e->block + 31) / 32), "%s case %zu: warps", e->model, i);
    }
}

static void test_refusals(void)
{
    const occ_model *h = occ_model_find("H200"); /* names are case-insensitive */
    CHECK(h && strcmp(h->name, "h200") == 0, "H200 found");
    occ_kernel k = {0};
    occ_result r;
    /* 72 registers x 32 = 2304 per warp, x 32 warps = 73728 > 65536 */
    k.regs = 72;
    CHECK(occ_compute(h, &k, 1024, &r) == 0 && strstr(r.why, "registers"), "72 regs x 1024: %s", r.why);
    k.regs = 256;
    CHECK(occ_compute(h, &k, 32, &r) == 0 && strstr(r.why, "255"), "256 regs: %s", r.why);
    k.regs = 16;
    CHECK(occ_compute(h, &k, 1025, &r) == 0 && strstr(r.why, "1024"), "1025 threads: %s", r.why);
    CHECK(occ_compute(h, &k, 0, &r) == 0, "0 threads");
    k.dynamic_smem = 50 * 1024; /* past the 48 KiB a block gets without opting in */
    CHECK(occ_compute(h, &k, 128, &r) == 0 && strstr(r.why, "49152"), "50 KiB: %s", r.why);
    k.max_dynamic_smem = 100 * 1024; /* opted in: 50 KiB + 1 KiB = 52224 -> 4 blocks */
    CHECK(occ_compute(h, &k, 128, &r) == 4 && r.limiters == S, "opted in: %d (%s)", r.blocks_per_sm, r.why);
    k.max_dynamic_smem = 0;
    k.dynamic_smem = 0;
    k.max_threads = 256; /* __launch_bounds__(256) */
    CHECK(occ_compute(h, &k, 512, &r) == 0 && strstr(r.why, "launch_bounds"), "bounds: %s", r.why);
    /* per-thread shared memory: 8 bytes x 256 = 2 KiB + 1 KiB = 3072 -> 76 */
    k.max_threads = 0;
    k.dynamic_per_thread = 8;
    occ_compute(h, &k, 256, &r);
    CHECK(r.dynamic_smem == 2048 && r.by_smem == 76, "per thread: %ld bytes, %d blocks", r.dynamic_smem, r.by_smem);
}

static void test_suggest(void)
{
    const occ_model *h = occ_model_find("h200"), *t4 = occ_model_find("t4");
    occ_kernel k = {0};
    int grid = 0;
    k.regs = 32;
    /* 1024 threads: 2 blocks fill all 2048 thread slots at once */
    CHECK(occ_suggest_block(h, &k, 0, &grid) == 1024 && grid == 2 * 132, "h200 32 regs: grid %d", grid);
    CHECK(occ_suggest_block(t4, &k, 0, &grid) == 1024 && grid == 40, "t4 32 regs: grid %d", grid);
    /* 64 registers: no size passes 32 resident warps; the first found (1024) stays */
    k.regs = 64;
    CHECK(occ_suggest_block(h, &k, 0, &grid) == 1024 && grid == 132, "h200 64 regs: grid %d", grid);
    /* a limit of 256: 8 blocks of 256 fill the SM */
    k.regs = 32;
    CHECK(occ_suggest_block(h, &k, 256, &grid) == 256 && grid == 8 * 132, "limit 256: grid %d", grid);
    /* shared memory that grows with the block, 100 bytes per thread: past
     * 491 threads a block wants more than the 48 KiB it may have; 480 gives
     * 4 blocks (1920 threads), 384 and 320 no more, and 256 threads (25600 +
     * 1 KiB reserve = 26624 bytes, 8 blocks) fill the SM */
    k.dynamic_per_thread = 100;
    CHECK(occ_suggest_block(h, &k, 0, &grid) == 256 && grid == 8 * 132, "per-thread smem: grid %d", grid);
    /* 40 KiB static on a T4: 1 block per SM of 64 KiB whatever the size,
     * so the largest block wins */
    k.dynamic_per_thread = 0;
    k.static_smem = 40 * 1024;
    CHECK(occ_suggest_block(t4, &k, 0, &grid) == 1024 && grid == 40, "t4 40 KiB: grid %d", grid);
    /* 40 registers on an L4 (48 warps): 1024 threads -> 40*32 = 1280 per
     * warp, 12 warps per sub-partition = 48 -> 1 block of 32 warps (1024);
     * 768 threads (24 warps) -> 2 blocks = 1536 = everything: 768 */
    k.static_smem = 0;
    k.regs = 40;
    CHECK(occ_suggest_block(occ_model_find("l4"), &k, 0, &grid) == 768 && grid == 2 * 58, "l4 40 regs: %d", grid);
}

static void test_names(void)
{
    char base[128], t = 'z';
    CHECK(occ_mangled_base("_Z19reduce_sequential_kIiEvPKT_xPN3AccIS0_E4typeE", base, sizeof base, &t) == 0 &&
              strcmp(base, "reduce_sequential_k") == 0 && t == 'i', "%s %c", base, t);
    CHECK(occ_mangled_base("_ZN2ns6kernelIfEEvPf", base, sizeof base, &t) == 0 && strcmp(base, "ns::kernel") == 0 &&
              t == 'f', "%s %c", base, t);
    CHECK(occ_mangled_base("_ZL7my_kernPi", base, sizeof base, &t) == 0 && strcmp(base, "my_kern") == 0 && t == 0,
          "%s", base);
    CHECK(occ_mangled_base("plain_c_kernel", base, sizeof base, &t) == -1 && strcmp(base, "plain_c_kernel") == 0,
          "%s", base);
    occ_expr_base("reduce_sequential_k<T>", base, sizeof base);
    CHECK(strcmp(base, "reduce_sequential_k") == 0, "%s", base);
    occ_expr_base("(&ns::k<float, 4>)", base, sizeof base);
    CHECK(strcmp(base, "ns::k") == 0, "%s", base);

    static const occ_resource table[] = {
        {"_Z3fooIiEvv", 90, 20, 0, 0}, {"_Z3fooIfEvv", 90, 24, 0, 0}, {"_Z3fooIdEvv", 90, 30, 0, 0},
        {"_Z3fooIiEvv", 75, 18, 0, 0}, {"_Z3barIxEvv", 90, 40, 16, 0}, {"_Z3barIdEvv", 90, 42, 8, 0},
    };
    char note[128];
    const occ_resource *r = occ_resource_find(table, 6, "foo<T>", LAB_INT, 90, note, sizeof note);
    CHECK(r && r->regs == 20 && note[0] == 0, "foo int sm_90: %d (%s)", r ? r->regs : -1, note);
    r = occ_resource_find(table, 6, "foo<T>", LAB_DOUBLE, 90, note, sizeof note);
    CHECK(r && r->regs == 30, "foo double");
    r = occ_resource_find(table, 6, "foo<T>", LAB_FLOAT, 80, note, sizeof note);
    CHECK(r && r->regs == 18 && r->arch == 75 && strstr(note, "sm_80"), "foo float sm_80 -> sm_75: %d (%s)", r ? r->regs : -1, note);
    r = occ_resource_find(table, 6, "foo<T>", LAB_INT, 60, note, sizeof note);
    CHECK(r && r->arch == 75, "below every arch: the smallest");
    r = occ_resource_find(table, 6, "bar<A>", LAB_INT, 90, note, sizeof note);
    CHECK(r && r->regs == 42 && strstr(note, "2 template instances"), "bar: %d (%s)", r ? r->regs : -1, note);
    CHECK(occ_resource_find(table, 6, "baz", LAB_INT, 90, note, sizeof note) == NULL, "baz");
}

static void test_models(void)
{
    CHECK(occ_model_count() >= 8, "models");
    for (int i = 0; i < occ_model_count(); i++) {
        const occ_model *m = occ_model_at(i);
        CHECK(m->max_threads_per_sm % 32 == 0 && m->smem_per_block_optin >= m->smem_per_block &&
                  m->smem_per_sm >= m->smem_per_block_optin && m->sms > 0 && m->mem_gbps > 0,
              "model %s is consistent", m->name);
        occ_model u = *m;
        CHECK(occ_arch_units(m->cc_major, m->cc_minor, &u) == 0 && u.smem_alloc_unit == m->smem_alloc_unit,
              "%s units", m->name);
    }
    CHECK(occ_model_at(occ_model_count()) == NULL, "past the end");
    char names[256];
    occ_model_names(names, sizeof names);
    CHECK(strstr(names, "h200") && strstr(names, "t4") && strstr(names, "a100"), "%s", names);
}

int main(void)
{
    test_cases();
    test_refusals();
    test_suggest();
    test_names();
    test_models();
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
