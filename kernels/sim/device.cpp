/* device.cpp - the device-side CUDA that stops a launch, for built-in
 * kernels and students' programs alike (kernels/sim/shim.h declares it): a
 * failed assert, something the simulator cannot run, a tile size the GPU
 * refuses. */
#undef _FORTIFY_SOURCE
#include "kernels/sim/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* declared by <assert.h> unless NDEBUG */
extern "C" void __assert_fail(const char *, const char *, unsigned int, const char *) noexcept
    __attribute__((__noreturn__));

namespace gpulab_sim {

void sim_assert_fail(const char *expr, const char *file, int line, const char *func)
{
    if (!sim_in_fiber()) __assert_fail(expr, file, (unsigned)line, func);
    sim_par_order(nullptr); /* par.cpp: after the output of the blocks before it */
    const uint3 &t = sim_cur->tid;
    fflush(stdout);
    /* the GPU's own message, then the launch ends with cudaErrorAssert. func
     * is g++'s __PRETTY_FUNCTION__; nvcc's spells a pointer or reference
     * parameter with a space, `void k(const int *, float **)` */
    char sig[512];
    size_t n = 0;
    for (const char *c = func; *c && n + 2 < sizeof sig; c++) {
        /* a kernel's lane-loop form (kernels/program/lanes.c) is the kernel */
        if (strncmp(c, "__sim_lanes", 11) == 0) {
            c += 10;
            continue;
        }
        if ((*c == '*' || *c == '&') && n && sig[n - 1] != ' ' && sig[n - 1] != '*' && sig[n - 1] != '&' &&
            sig[n - 1] != '(')
            sig[n++] = ' ';
        sig[n++] = *c;
    }
    sig[n] = 0;
    fprintf(stderr, "%s:%d: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", file, line, sig,
            sim_block_idx.x, sim_block_idx.y, sim_block_idx.z, t.x, t.y, t.z, expr);
    char blk[64], thr[96];
    sim_block_name(blk, sizeof blk);
    sim_thread_name(thr, sizeof thr, sim_cur->linear);
    sim_fail_code(cudaErrorAssert, "%s: %s, %s: assert(%s) failed at line %d; the launch ends with cudaErrorAssert",
                  sim_g.kernel, blk, thr, expr, line);
}

void sim_unsupported(int line, const char *file, const char *msg)
{
    char where[96];
    sim_where(where, sizeof where, line, file);
    if (!sim_in_fiber()) {
        fprintf(stderr, "simulator: %s (%s)\n", msg, where);
        abort();
    }
    sim_fail_code(cudaErrorNotSupported, "%s: %s (%s)", sim_g.kernel, msg, where);
}

void sim_cg_tile_size(unsigned n, int line, const char *file)
{
    char blk[64], thr[96], where[96];
    sim_block_name(blk, sizeof blk);
    sim_thread_name(thr, sizeof thr, sim_cur->linear);
    sim_where(where, sizeof where, line, file);
    sim_fail_code(cudaErrorLaunchFailure,
                  "%s: %s, %s calls tiled_partition(parent, %u) (%s): the run-time form makes tiles of 1, 2, 4, 8, "
                  "16 or 32 threads, and the GPU stops the kernel at any other size (__trap); a tile of 64 to 512 "
                  "threads is tiled_partition<N>(parent), a thread_block_tile<N>",
                  sim_g.kernel, blk, thr, n, where);
}

sim_texture sim_textures[SIM_MAX_TEXTURES];

void sim_texture_fault(unsigned long long obj, const char *what, long long x, long long y, long long z)
{
    char blk[64], thr[96];
    sim_block_name(blk, sizeof blk);
    sim_thread_name(thr, sizeof thr, sim_in_fiber() ? sim_cur->linear : 0);
    if (x < 0 && y < 0)
        sim_fail_code(cudaErrorIllegalAddress, "%s: %s, %s: %s of object %llu, which is not a texture or surface "
                      "object that exists (made by cudaCreateTextureObject or cudaCreateSurfaceObject, not yet "
                      "destroyed)", sim_g.kernel, blk, thr, what, obj);
    sim_fail_code(cudaErrorIllegalAddress, "%s: %s, %s: %s at byte column %lld, row %lld, slice %lld is outside the "
                  "surface's array (or not at the start of an element); with cudaBoundaryModeTrap the GPU stops "
                  "the kernel", sim_g.kernel, blk, thr, what, x, y, z);
}

} /* namespace gpulab_sim */
