/* grid.cpp - the cooperative launch (cudaLaunchCooperativeKernel), where
 * this_grid().sync() makes every block of the grid wait for every other.
 *
 * CUDA allows such a launch only while all its blocks fit on the GPU at once
 * (launch.cpp refuses a larger grid). The simulator plays them on the fibers
 * of one block, as ever: a block runs until all its threads wait at the grid
 * barrier, then it parks: the used part of each fiber's stack (from its
 * stack pointer to the top), where each fiber was (its jmp_buf), its counters
 * and the block's shared memory are copied aside, and the next block runs on
 * the same fibers. When every block waits at the barrier, the blocks run
 * again one after another, each from its copy (the stacks go back to the
 * same addresses, so pointers into them stay right), up to the next grid
 * barrier or their end.
 *
 * The grid barrier is a barrier of each block too (the race check orders
 * across it, race.cpp). The order stays fixed, so two runs give the same
 * results. */

#include "kernels/sim/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace gpulab_sim {

static void sim_block_copy_free(sim_block_copy *c)
{
    free(c->threads);
    free(c->bytes);
    sim_shared_copy_free(&c->shared);
    c->threads = nullptr;
    c->bytes = nullptr;
    c->cap = 0;
}

/* Every thread of the running block waits at a grid barrier: copy it aside.
 * 0, or -1 when out of memory. */
static int sim_block_park(sim_block_copy *c)
{
    const unsigned n = sim_g.nthreads;
    size_t total = 0;
    for (unsigned i = 0; i < n; i++) total += sim_stack_used(&sim_g.fibers[i]);
    if (!c->threads) {
        c->threads = (sim_thread_copy *)malloc(sizeof *c->threads * n);
        if (!c->threads) return -1;
    }
    if (total > c->cap) {
        char *p = (char *)realloc(c->bytes, total);
        if (!p) return -1;
        c->bytes = p;
        c->cap = total;
    }
    size_t off = 0;
    for (unsigned i = 0; i < n; i++) {
        const sim_fiber *f = &sim_g.fibers[i];
        sim_thread_copy *t = &c->threads[i];
        t->epoch = f->epoch;
        t->seq = f->seq;
        t->loc_head = f->loc_head;
        t->off = off;
        sim_stack_save(f, &t->stack, c->bytes + off);
        off += t->stack.len;
    }
    for (unsigned w = 0; w < sim_g.nwarps; w++) c->stamp[w] = sim_g.warps[w].stamp;
    sim_shared_copy_free(&c->shared);
    if (sim_shared_save(&c->shared) != 0) return -1;
    c->state = 1;
    c->line = sim_g.fibers[0].bar_line;
    c->file = sim_g.fibers[0].bar_file;
    return 0;
}

/* The running block is the parked block c again, every thread just past the
 * grid barrier. */
static void sim_block_resume(const sim_block_copy *c)
{
    const unsigned n = sim_g.nthreads;
    sim_block_reset(sim_g.block_linear);
    for (unsigned i = 0; i < n; i++) {
        sim_fiber *f = &sim_g.fibers[i];
        const sim_thread_copy *t = &c->threads[i];
        sim_stack_restore(f, &t->stack, c->bytes + t->off);
        f->epoch = t->epoch;
        f->seq = t->seq;
        f->loc_head = t->loc_head;
    }
    for (unsigned w = 0; w < sim_g.nwarps; w++) sim_g.warps[w].stamp = c->stamp[w];
    sim_shared_restore(&c->shared);
    /* the grid barrier opened the epoch */
    sim_epoch_reset(c->line, c->file, 0, 0, 0);
}

static void sim_block_at(unsigned long long b)
{
    const dim3 &g = sim_g.grid;
    sim_block_idx.x = (unsigned)(b % g.x);
    sim_block_idx.y = (unsigned)(b / g.x % g.y);
    sim_block_idx.z = (unsigned)(b / ((unsigned long long)g.x * g.y));
    sim_g.block_linear = b;
}

int sim_run_grid(lab_job *job, const char *at)
{
    const unsigned long long nb = (unsigned long long)sim_g.grid.x * sim_g.grid.y * sim_g.grid.z;
    sim_block_copy *blocks = (sim_block_copy *)calloc(nb, sizeof *blocks);
    if (!blocks) {
        sim_diag("%s: out of memory keeping %llu blocks alive for the grid barrier", at, nb);
        return -1;
    }
    int rc = 0;
    for (;;) {
        unsigned long long parked = 0, ended = 0;
        for (unsigned long long b = 0; b < nb && rc == 0; b++) {
            sim_block_copy *c = &blocks[b];
            if (c->state == 2) {
                ended++;
                continue;
            }
            sim_block_at(b);
            sim_rec_block_begin(b);
            if (c->state == 0) sim_block_start();
            else sim_block_resume(c);
            int r = sim_block_play();
            sim_rec_block_end();
            if (r == 1) {
                if (sim_block_park(c) != 0) {
                    sim_diag("%s: out of memory keeping block %llu aside at the grid barrier", at, b);
                    rc = -1;
                }
                parked++;
            } else if (r == 0) {
                c->state = 2;
                sim_block_copy_free(c);
                ended++;
            } else {
                rc = -1;
            }
            if (sim_g.trace && sim_flush_trace(job) != 0 && rc == 0) rc = -2;
            if (rc == 0 && lab_interrupted) {
                sim_diag("%s: interrupted in block %llu of %llu", at, b, nb);
                rc = -1;
            }
        }
        if (rc != 0 || parked == 0) break;
        bool same = ended == 0;
        for (unsigned long long b = 1; b < nb && same; b++)
            same = blocks[b].line == blocks[0].line && sim_same_file(blocks[b].file, blocks[0].file);
        if (!same) {
            sim_report_grid(blocks, nb);
            rc = -1;
            break;
        }
        sim_g.stats.barriers++;
    }
    for (unsigned long long b = 0; b < nb; b++) sim_block_copy_free(&blocks[b]);
    free(blocks);
    return rc;
}

} /* namespace gpulab_sim */
