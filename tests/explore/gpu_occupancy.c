/* gpu_occupancy.c - on a GPU: gpulab's occupancy calculator against the CUDA
 * occupancy API for every kernel of every registered variant, block sizes
 * and shared memory over their range; the block-size search against
 * cudaOccupancyMaxPotentialBlockSize; the launch check against the GPU's
 * shared-memory limit; and block sweeps of every reduce kernel against the
 * CPU at several sizes, odd ones included. Exits 77 (skipped) without a GPU. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/family.h"
#include "repl/explore/sweep.h"

int ref_potential_block(const void *func, size_t dynamic_smem, int block_limit, int *min_grid);

static int failures, checks;

#define CHECK(cond, ...)                                                             \
    do {                                                                             \
        checks++;                                                                    \
        if (!(cond)) {                                                               \
            failures++;                                                              \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                            \
            fputc('\n', stderr);                                                     \
        }                                                                            \
    } while (0)

static void check_kernel(const occ_model *m, const lab_launch_probe *l, const char *where)
{
    char msg[256];
    occ_kernel k;
    if (occ_api_kernel(l->func, &k, msg, sizeof msg) != 0) {
        CHECK(0, "%s %s: %s", where, l->kernel, msg);
        return;
    }
    CHECK(l->regs == k.regs && l->static_smem == k.static_smem, "%s: the probe carries the attributes", l->kernel);
    static const int blocks[] = {1, 32, 64, 96, 128, 160, 192, 256, 320, 384, 512, 640, 768, 1024};
    const long dyns[] = {0, (long)l->dynamic_smem, 1000, 8192, 30000, 49152 - k.static_smem};
    for (size_t bi = 0; bi < sizeof blocks / sizeof blocks[0]; bi++) {
        if (blocks[bi] > k.max_threads) continue;
        for (size_t di = 0; di < sizeof dyns / sizeof dyns[0]; di++) {
            int api = 0;
            cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&api, l->func, blocks[bi], (size_t)dyns[di]);
            if (e != cudaSuccess) {
                cudaGetLastError();
                continue; /* a shape the runtime refuses to evaluate */
            }
            occ_kernel kk = k;
            kk.dynamic_smem = dyns[di];
            occ_result r;
            int mine = occ_compute(m, &kk, blocks[bi], &r);
            CHECK(mine == api, "%s %s block %d smem %ld: calculator %d, CUDA %d (%s)", where, l->kernel,
                  blocks[bi], dyns[di], mine, api, r.why);
        }
    }
    const size_t dyn = l->dynamic_smem;
    int ref_grid = 0, grid = 0, grid2 = 0;
    int ref = ref_potential_block(l->func, dyn, 0, &ref_grid);
    int ours = occ_api_suggest_block(l->func, (long)dyn, 0, 0, &grid, msg, sizeof msg);
    occ_kernel kk = k;
    kk.dynamic_smem = (long)dyn;
    int calc = occ_suggest_block(m, &kk, 0, &grid2);
    CHECK(ref > 0 && ours == ref && grid == ref_grid, "%s: suggestion %d/%d, CUDA %d/%d", l->kernel, ours, grid, ref,
          ref_grid);
    CHECK(calc == ref && grid2 == ref_grid, "%s: calculator suggests %d/%d, CUDA %d/%d", l->kernel, calc, grid2, ref,
          ref_grid);
    ref = ref_potential_block(l->func, dyn, 256, &ref_grid);
    ours = occ_api_suggest_block(l->func, (long)dyn, 0, 256, &grid, msg, sizeof msg);
    CHECK(ours == ref && grid == ref_grid, "%s limit 256: %d, CUDA %d", l->kernel, ours, ref);
}

static void test_api(void)
{
    occ_model m;
    char title[256];
    CHECK(occ_model_from_device(&m, title, sizeof title) == 0, "describe the GPU");
    printf("GPU: %s, cc %d.%d, %d SMs\n", title, m.cc_major, m.cc_minor, m.sms);
    int kernels = 0;
    for (int ai = 0; ai < lab_algo_count(); ai++) {
        const lab_algo *a = lab_algo_at(ai);
        for (int vi = 0; vi < a->nvariants; vi++) {
            const lab_variant *v = &a->variants[vi];
            if (v->kind != LAB_ROW_KERNEL) continue;
            lab_config c;
            lab_config_defaults(&c);
            c.backend = LAB_BACKEND_GPU;
            c.repeats = 1;
            c.dtype = a->dtype_default;
            if (a->patterns && a->patterns[0]) snprintf(c.pattern, sizeof c.pattern, "%s", a->patterns[0]);
            lab_input in;
            char msg[LAB_ERR_MAX];
            if (lab_input_prepare(&in, a, &c, msg, sizeof msg) != 0) {
                CHECK(0, "%s: %s", a->name, msg);
                continue;
            }
            lab_launch_probe l[16];
            int n = lab_probe_launches(&in, v, l, 16, msg, sizeof msg);
            lab_input_free(&in);
            if (n < 0 && (v->flags & LAB_WRONG_ON_PURPOSE)) continue;
            CHECK(n > 0, "%s/%s: %s", a->name, v->name, msg);
            char where[160];
            snprintf(where, sizeof where, "%s/%s", a->name, v->name);
            for (int i = 0; i < n; i++) {
                CHECK(l[i].func != NULL, "%s: %s has an address", where, l[i].kernel);
                if (!l[i].func) continue;
                check_kernel(&m, &l[i], where);
                kernels++;
            }
        }
    }
    CHECK(kernels >= 5, "%d kernels checked", kernels);
}

static void test_launch_refused(void)
{
    const lab_algo *a = lab_algo_find("reduce");
    lab_config c;
    lab_config_defaults(&c);
    c.backend = LAB_BACKEND_GPU;
    c.n = 4096;
    c.repeats = 1;
    lab_input in;
    char msg[LAB_ERR_MAX];
    CHECK(lab_input_prepare(&in, a, &c, msg, sizeof msg) == 0, "%s", msg);
    lab_launch_probe l[4];
    int n = lab_probe_launches(&in, lab_variant_find(a, "sequential"), l, 4, msg, sizeof msg);
    lab_input_free(&in);
    CHECK(n == 1, "one launch: %s", msg);
    if (n < 1) return;
    lab_job job;
    memset(&job, 0, sizeof job);
    job.cfg = &c;
    job.backend = LAB_BACKEND_GPU;
    unsigned g[3] = {4, 1, 1}, b[3] = {256, 1, 1};
    CHECK(lab_launch_check(&job, l[0].kernel, l[0].func, g, b, 2048) == 0, "%s", job.err);
    CHECK(lab_launch_check(&job, l[0].kernel, l[0].func, g, b, 200 * 1024) == -1 && strstr(job.err, "the GPU allows"),
          "200 KiB: %s", job.err);
    b[0] = 2048;
    CHECK(lab_launch_check(&job, l[0].kernel, l[0].func, g, b, 0) == -1 && strstr(job.err, "1..1024"), "%s", job.err);
}

static void test_sweeps(void)
{
    const lab_algo *a = lab_algo_find("reduce");
    const lab_variant *vs[5];
    const char *names[] = {"interleaved", "sequential", "warp-shuffle", "atomic-float", "vector"};
    for (int i = 0; i < 5; i++) vs[i] = lab_variant_find(a, names[i]);
    const long long sizes[] = {1000, 4097, 1 << 20, (1 << 22) + 3};
    const lab_dtype types[] = {LAB_INT, LAB_FLOAT, LAB_DOUBLE, LAB_INT};
    long long blocks[] = {32, 64, 128, 256, 512, 1024};
    for (int si = 0; si < 4; si++) {
        lab_config c;
        lab_config_defaults(&c);
        c.backend = LAB_BACKEND_GPU;
        c.n = sizes[si];
        c.dtype = types[si];
        c.repeats = 3;
        sweep_data d;
        char err[512];
        CHECK(sweep_run(a, vs, 5, &c, SWEEP_BLOCK, blocks, 6, &d, NULL, NULL, err, sizeof err) == 0, "%s", err);
        for (int i = 0; i < d.npoints; i++) {
            const sweep_point *p = &d.points[i];
            CHECK(p->r.ran && p->r.correct == 1 && p->r.backend == LAB_BACKEND_GPU, "n %lld %s %s block %lld: %s",
                  sizes[si], lab_dtype_name(c.dtype), p->r.variant, p->x, p->r.note);
            CHECK(p->occ.known && strstr(p->occ.source, "CUDA occupancy API") && p->occ.regs > 0 &&
                      p->occ.r.blocks_per_sm > 0, "%s block %lld occupancy: %s %s", p->r.variant, p->x,
                  p->occ.source, p->occ.note);
            CHECK(p->r.gbps > 0 && p->r.pct_peak >= 0, "GB/s and %% of peak");
        }
        sweep_free(&d);
    }
}

int main(void)
{
    if (!lab_gpu_available()) {
        printf("no GPU (%s): skipped\n", lab_device()->why_not);
        return 77;
    }
    test_api();
    test_launch_refused();
    test_sweeps();
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
