/* test_profile.c - the simulator's memory counters on kernels whose counts
 * are known by hand (proftest_kernels.cu): sectors per request for
 * coalesced, strided, column and broadcast loads and 16-byte vectors; shared
 * wavefronts for 1-, 2-, 16- and 32-way bank conflicts and the padded tile;
 * same-address atomics; and the source line of an access site.
 *
 * Exits 77 (skipped) in builds without the recording instrumentation (the
 * sanitizer build: ThreadSanitizer's instrumentation, which the recording
 * uses, does not combine with AddressSanitizer). */
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
#include "kernels/profile/profile.h"
#include "tests/profile/proftest.h"

static prof_session ses;

/* Run one pattern under the counters; the counts of its one launch group. */
static const prof_counts *run(int kind, int arg, unsigned blocks, unsigned threads)
{
    static lab_config cfg;
    static lab_job job;
    static proftest_params p;
    static float out[64];
    char msg[256];
    lab_config_defaults(&cfg);
    memset(&job, 0, sizeof job);
    p.kind = kind;
    p.arg = arg;
    p.blocks = blocks;
    p.threads = threads;
    job.cfg = &cfg;
    job.backend = LAB_BACKEND_SIM;
    job.priv = &p;
    job.out = out;
    job.out_bytes = sizeof out;
    prof_free(&ses);
    if (prof_begin(&ses, msg, sizeof msg) != 0) fail_msg("%s", msg);
    int rc = proftest_run_sim(&job);
    prof_end(&ses);
    if (rc != 0) fail_msg("the kernel failed: %s", job.err);
    lab_job_free_allocs(&job);
    assert_int_equal(ses.ngroups, 1);
    assert_int_equal(ses.groups[0].launches, 1);
    return &ses.groups[0];
}

static const prof_mem *gld(const prof_counts *c) { return &c->mem[PROF_GLOBAL][PROF_LD]; }
static const prof_mem *gst(const prof_counts *c) { return &c->mem[PROF_GLOBAL][PROF_ST]; }

/* 2 blocks of 64 threads: 4 warps, each one load and one store request. */
static void test_coalesced(void **state)
{
    (void)state;
    const prof_counts *c = run(PROFTEST_COALESCED, 0, 2, 64);
    assert_int_equal(gld(c)->requests, 4);
    assert_int_equal(gld(c)->units, 16); /* 4 sectors per request: 32 lanes x 4 bytes */
    assert_int_equal(gld(c)->ideal, 16);
    assert_int_equal(gld(c)->lanes, 128);
    assert_int_equal(gld(c)->width, 4);
    assert_int_equal(gst(c)->requests, 4);
    assert_int_equal(gst(c)->units, 16);
    assert_int_equal(c->read_bytes, 128 * 4);  /* distinct sectors read, 128 floats */
    assert_int_equal(c->write_bytes, 128 * 4);
    assert_int_equal(c->mem[PROF_SHARED][PROF_LD].requests, 0);
    assert_int_equal(c->barriers, 0);
    /* each warp: one load and one store */
    assert_int_equal(c->warp_req_max, 2);
    assert_int_equal(c->warp_gld_max, 1);
}

static void test_stride2(void **state)
{
    (void)state;
    const prof_counts *c = run(PROFTEST_STRIDE2, 0, 2, 64);
    assert_int_equal(gld(c)->requests, 4);
    assert_int_equal(gld(c)->units, 4 * 8); /* every other float: 256 bytes, 8 sectors */
    assert_int_equal(gld(c)->ideal, 16);
    assert_int_equal(gst(c)->units, 16);
}

static void test_column(void **state)
{
    (void)state;
    const prof_counts *c = run(PROFTEST_COLUMN, 0, 2, 64);
    assert_int_equal(gld(c)->requests, 4);
    assert_int_equal(gld(c)->units, 4 * 32); /* one sector per lane */
    assert_int_equal(c->read_bytes, 128 * 32);
}

static void test_broadcast(void **state)
{
    (void)state;
    const prof_counts *c = run(PROFTEST_BROADCAST, 0, 2, 64);
    assert_int_equal(gld(c)->requests, 4);
    assert_int_equal(gld(c)->units, 4); /* every lane the same word */
    assert_int_equal(c->read_bytes, 32);
}

static void test_vec4(void **state)
{
    (void)state;
    const prof_counts *c = run(PROFTEST_VEC4, 0, 2, 64);
    assert_int_equal(gld(c)->requests, 4); /* one 16-byte access per lane, not four */
    assert_int_equal(gld(c)->width, 16);
    assert_int_equal(gld(c)->units, 4 * 16);
    assert_int_equal(gld(c)->ideal, 4 * 16);
    assert_int_equal(gst(c)->requests, 4);
    assert_int_equal(gst(c)->units, 4 * 16);
}

static void test_double(void **state)
{
    (void)state;
    const prof_counts *c = run(PROFTEST_DOUBLE, 0, 2, 64);
    assert_int_equal(gld(c)->requests, 4);
    assert_int_equal(gld(c)->width, 8);
    assert_int_equal(gld(c)->units, 4 * 8);
}

static void test_half_warp(void **state)
{
    (void)state;
    const prof_counts *c = run(PROFTEST_HALF_WARP, 0, 2, 64);
    assert_int_equal(gld(c)->requests, 4);
    assert_int_equal(gld(c)->lanes, 4 * 16);
    assert_int_equal(gld(c)->units, 4 * 2);
    assert_int_equal(gld(c)->ideal, 4 * 2);
}

/* One warp; s[t * k]: k-way conflicts for k = 1, 2, 16, 32. */
static void test_bank_conflicts(void **state)
{
    (void)state;
    const int ways[] = {1, 2, 16, 32};
    for (size_t i = 0; i < sizeof ways / sizeof ways[0]; i++) {
        const prof_counts *c = run(PROFTEST_SHARED_STRIDE, ways[i], 1, 32);
        const prof_mem *st = &c->mem[PROF_SHARED][PROF_ST], *ld = &c->mem[PROF_SHARED][PROF_LD];
        assert_int_equal(st->requests, 1);
        assert_int_equal(st->units, (unsigned long long)ways[i]);
        assert_int_equal(st->ideal, 1);
        assert_int_equal(ld->requests, 1);
        assert_int_equal(ld->units, (unsigned long long)ways[i]);
        int m;
        for (m = 0; m < prof_metric_count(); m++)
            if (strcmp(prof_metric_at(m)->ncu, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") == 0)
                break;
        assert_true(m < prof_metric_count());
        assert_int_equal((long long)prof_metric_value(c, prof_metric_at(m)), ways[i] - 1);
        assert_int_equal(c->barriers, 1); /* one barrier, one warp */
    }
}

/* The transpose tile: 32 stores along rows, one load down column 5. */
static void test_padded_tile(void **state)
{
    (void)state;
    const prof_counts *c = run(PROFTEST_TILE, 0, 1, 32);
    assert_int_equal(c->mem[PROF_SHARED][PROF_ST].requests, 32);
    assert_int_equal(c->mem[PROF_SHARED][PROF_ST].units, 32 * 32); /* 32 x 32: every row write is one bank */
    assert_int_equal(c->mem[PROF_SHARED][PROF_LD].requests, 1);
    assert_int_equal(c->mem[PROF_SHARED][PROF_LD].units, 32);
    c = run(PROFTEST_TILE, 1, 1, 32);
    assert_int_equal(c->mem[PROF_SHARED][PROF_ST].units, 32); /* 32 x 33: no conflicts */
    assert_int_equal(c->mem[PROF_SHARED][PROF_LD].units, 1);
    assert_int_equal(c->mem[PROF_SHARED][PROF_LD].ideal, 1);
}

static void test_atomics(void **state)
{
    (void)state;
    const prof_counts *c = run(PROFTEST_ATOMIC, 1, 1, 64);
    const prof_mem *a = &c->mem[PROF_GLOBAL][PROF_ATOM];
    assert_int_equal(a->requests, 2);
    assert_int_equal(a->units, 2);         /* one word: one sector each */
    assert_int_equal(c->atom_same_max, 32); /* the whole warp on one address */
    assert_int_equal(c->atom_addr_max, 64);
    /* the atomic's own load and store are not counted again */
    assert_int_equal(gld(c)->requests, 0);
    assert_int_equal(gst(c)->requests, 0);
    /* the estimate's atomic time: one line, its requests one after
     * another, each the 32 lanes on its one address */
    assert_true(fabs(c->atom_ns - 2 * 32 * PROF_ATOMIC_NS) < 1e-9);
    c = run(PROFTEST_ATOMIC, 4, 1, 64);
    assert_int_equal(c->mem[PROF_GLOBAL][PROF_ATOM].requests, 2);
    assert_int_equal(c->atom_same_max, 8);
    assert_int_equal(c->atom_addr_max, 16);
    /* four addresses of one line: a transaction (more than 8 lanes' turns) */
    assert_true(PROF_ATOMIC_TX_NS > 8 * PROF_ATOMIC_NS);
    assert_true(fabs(c->atom_ns - 2 * PROF_ATOMIC_TX_NS) < 1e-9);
    /* every thread its own counter: each warp's 32 on a line of their own */
    c = run(PROFTEST_ATOMIC, 64, 1, 64);
    assert_int_equal(c->atom_addr_max, 1);
    assert_true(fabs(c->atom_ns - PROF_ATOMIC_TX_NS) < 1e-9);
}

/* The line of the "@name" marker in the kernels' source. */
static int marker(const char *name)
{
    FILE *f = fopen(PROFTEST_SRC, "r");
    if (!f) fail_msg("cannot read %s", PROFTEST_SRC);
    char line[512], tag[64];
    snprintf(tag, sizeof tag, "@%s ", name);
    int n = 0, found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        n++;
        if (strstr(line, tag)) found = n;
    }
    fclose(f);
    if (!found) fail_msg("no marker %s in %s", tag, PROFTEST_SRC);
    return found;
}

/* Sites name the kernel's line, also through the shim's inlined shared-memory
 * proxy (the tile's load goes through a plain pointer, the copy's through
 * global memory). */
static void test_site_lines(void **state)
{
    (void)state;
    char want[64], got[128];
    run(PROFTEST_COLUMN, 0, 1, 32);
    int found = 0;
    for (int i = 0; i < ses.nsites; i++)
        if (ses.sites[i].kind == PROF_LD && ses.sites[i].space == PROF_GLOBAL) {
            prof_site_where(&ses.sites[i], got, sizeof got);
            snprintf(want, sizeof want, "proftest_kernels.cu:%d", marker("copy"));
            assert_string_equal(got, want);
            found = 1;
        }
    assert_true(found);
    run(PROFTEST_SHARED_STRIDE, 2, 1, 32); /* s[t * stride]: through the shim's element proxy */
    found = 0;
    for (int i = 0; i < ses.nsites; i++)
        if (ses.sites[i].kind == PROF_LD && ses.sites[i].space == PROF_SHARED) {
            prof_site_where(&ses.sites[i], got, sizeof got);
            snprintf(want, sizeof want, "proftest_kernels.cu:%d", marker("proxy"));
            assert_string_equal(got, want);
            found = 1;
        }
    assert_true(found);
    run(PROFTEST_TILE, 1, 1, 32);
    found = 0;
    for (int i = 0; i < ses.nsites; i++)
        if (ses.sites[i].kind == PROF_LD && ses.sites[i].space == PROF_SHARED) {
            prof_site_where(&ses.sites[i], got, sizeof got);
            snprintf(want, sizeof want, "proftest_kernels.cu:%d", marker("column"));
            assert_string_equal(got, want);
            found = 1;
        }
    assert_true(found);
}

/* The estimate grows with the sectors: a column walk costs more than a
 * coalesced copy of the same elements; same-address atomics add serial time. */
static void test_estimate_orders(void **state)
{
    (void)state;
    const occ_model *m = occ_model_find("h200");
    assert_non_null(m);
    prof_estimate a, b;
    prof_counts c = *run(PROFTEST_COALESCED, 0, 64, 256);
    prof_estimate_counts(&c, m, NULL, &a);
    c = *run(PROFTEST_COLUMN, 0, 64, 256);
    prof_estimate_counts(&c, m, NULL, &b);
    assert_true(b.ms > a.ms);
    assert_true(b.excess_ms > 0 && a.excess_ms == 0);
    assert_true(a.launch_ms > 0);
    c = *run(PROFTEST_ATOMIC, 1, 64, 256);
    prof_estimate_counts(&c, m, NULL, &b);
    assert_true(b.atomic_ms > 0);
    assert_string_equal(b.bound, "atomics");
}

/* One launch of a kernel the build's register table does not know. */
static void hand_counts(prof_counts *c, unsigned blocks, unsigned threads)
{
    memset(c, 0, sizeof *c);
    snprintf(c->kernel, sizeof c->kernel, "no_such_kernel");
    c->launches = 1;
    c->grid[0] = blocks, c->grid[1] = c->grid[2] = 1;
    c->block[0] = threads, c->block[1] = c->block[2] = 1;
}

/* The terms of the model on counts made by hand, against the numbers of
 * docs/profile.md. */
static void test_estimate_terms(void **state)
{
    (void)state;
    const occ_model *m = occ_model_find("h200");
    assert_non_null(m);
    prof_counts c;
    prof_estimate e;
    /* 524288 blocks of one warp that do nothing: block starts, 3972 per SM */
    hand_counts(&c, 524288, 32);
    prof_estimate_counts(&c, m, NULL, &e);
    assert_string_equal(e.bound, "blocks");
    assert_true(fabs(e.block_ms - 3972 * PROF_BLOCK_NS * 1e-6) < 1e-9);
    assert_true(fabs(e.ms - (e.launch_ms + e.block_ms)) < 1e-9);
    /* the same shared wavefronts in 8 blocks (8 SMs busy) and in 1056
     * (8 blocks on every SM): 132 / 8 = 16.5 times the time */
    hand_counts(&c, 8, 256);
    c.mem[PROF_SHARED][PROF_LD].requests = 1000000;
    c.mem[PROF_SHARED][PROF_LD].units = 1000000;
    prof_estimate few;
    prof_estimate_counts(&c, m, NULL, &few);
    c.grid[0] = 1056;
    prof_estimate_counts(&c, m, NULL, &e);
    assert_true(fabs(few.shared_ms / e.shared_ms - 16.5) < 1e-9);
    assert_string_equal(few.bound, "shared");
    /* one block whose busiest warp waits for 100 loads one after another */
    hand_counts(&c, 1, 32);
    c.mem[PROF_GLOBAL][PROF_LD].requests = 100;
    c.warp_req_max = c.warp_gld_max = 100;
    prof_estimate_counts(&c, m, NULL, &e);
    assert_true(fabs(e.latency_ms - 100 * PROF_DRAM_LATENCY_NS * 1e-6) < 1e-9);
    assert_string_equal(e.bound, "latency");
    /* twice the launches: twice the launch overhead, the run's once */
    prof_session two;
    memset(&two, 0, sizeof two);
    c.launches = 2;
    two.groups = &c;
    two.ngroups = 1;
    prof_estimate_session(&two, m, NULL, &e);
    assert_true(fabs(e.launch_ms - (2 * PROF_LAUNCH_US + PROF_RUN_US) * 1e-3) < 1e-9);
    assert_true(fabs(e.latency_ms - 2 * 100 * PROF_DRAM_LATENCY_NS * 1e-6) < 1e-9);
}

int main(void)
{
    if (!prof_available()) {
        printf("skipped: this build has no access recording (the sanitizer build leaves it out)\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coalesced),   cmocka_unit_test(test_stride2),
        cmocka_unit_test(test_column),      cmocka_unit_test(test_broadcast),
        cmocka_unit_test(test_vec4),        cmocka_unit_test(test_double),
        cmocka_unit_test(test_half_warp),   cmocka_unit_test(test_bank_conflicts),
        cmocka_unit_test(test_padded_tile), cmocka_unit_test(test_atomics),
        cmocka_unit_test(test_site_lines),  cmocka_unit_test(test_estimate_orders),
        cmocka_unit_test(test_estimate_terms),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    prof_free(&ses);
    return rc;
}
