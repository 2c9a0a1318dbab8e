/* occupancy.c - the occupancy calculator (plain arithmetic, see occupancy.h),
 * the lookup of the compiler's register counts, the CUDA occupancy API on a
 * GPU, and the check every LAUNCH makes before it starts a kernel. */

#ifdef GPULAB_NO_CUDA
#  include "kernels/device/nocuda.h"
#else
#  include <cuda_runtime_api.h>
#endif
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/family.h"

static long round_up(long x, long unit)
{
    return unit > 0 ? lab_ceil_div(x, unit) * unit : x;
}

/* ------------------------------------------------------------ calculator */

static int set_why(occ_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int set_why(occ_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->why, sizeof r->why, fmt, ap);
    va_end(ap);
    r->blocks_per_sm = 0;
    r->active_warps = 0;
    r->occupancy = 0;
    r->limiters = 0;
    return 0;
}

int occ_compute(const occ_model *m, const occ_kernel *k, int block, occ_result *r)
{
    memset(r, 0, sizeof *r);
    r->block = block;
    r->by_warps = r->by_regs = r->by_smem = r->by_blocks = -1;
    const int warp = m->warp_size > 0 ? m->warp_size : 32;
    r->max_warps = m->max_threads_per_sm / warp;
    if (block < 1) return set_why(r, "a block needs at least 1 thread");
    int max_threads = m->max_threads_per_block;
    if (k->max_threads > 0 && k->max_threads < max_threads) max_threads = k->max_threads;
    if (block > max_threads) {
        if (max_threads < m->max_threads_per_block)
            return set_why(r, "the kernel was compiled for at most %d threads per block "
                              "(__launch_bounds__), %d asked", max_threads, block);
        return set_why(r, "a block holds at most %d threads on the %s, %d asked", max_threads,
                       m->name, block);
    }
    const int warps = lab_ceil_div(block, warp);
    r->warps_per_block = warps;

    /* warp slots: a partly filled warp takes a whole slot */
    r->by_warps = r->max_warps / warps;
    /* the table of resident blocks */
    r->by_blocks = m->max_blocks_per_sm;

    /* registers: whole warps get units of reg_alloc_unit; the register
     * file is split between the sub-partitions, a warp lives in one */
    if (k->regs > m->max_regs_per_thread)
        return set_why(r, "%d registers per thread is more than the %d a thread can have", k->regs,
                       m->max_regs_per_thread);
    if (k->regs > 0) {
        long per_warp = round_up((long)k->regs * warp, m->reg_alloc_unit);
        int parts = m->sub_partitions > 0 ? m->sub_partitions : 1;
        long per_block = per_warp * warps;
        /* the hardware's per-block check counts warps in multiples of the
         * sub-partitions */
        long checked = per_warp * round_up(warps, parts);
        r->regs_per_block = (int)per_block;
        if (checked > m->regs_per_block || per_block > m->regs_per_block)
            return set_why(r, "%d threads x %d registers need %ld registers per block; a block "
                              "may hold %d: use fewer threads per block or fewer registers",
                           block, k->regs, checked, m->regs_per_block);
        long warps_per_part = (m->regs_per_sm / parts) / per_warp;
        r->by_regs = (int)(warps_per_part * parts / warps);
    }

    /* shared memory: static + dynamic + the driver's reserve, rounded up */
    long dyn = k->dynamic_smem;
    if (k->dynamic_per_thread > 0) dyn += (long)(k->dynamic_per_thread * block + 0.999999);
    r->dynamic_smem = dyn;
    long asked = k->static_smem + dyn;
    long limit = m->smem_per_block;
    if (k->max_dynamic_smem > 0) {
        if (dyn > k->max_dynamic_smem)
            return set_why(r, "%ld bytes of dynamic shared memory asked; the kernel opted in to %ld",
                           dyn, k->max_dynamic_smem);
        limit = m->smem_per_block_optin;
    }
    if (asked > limit)
        return set_why(r, "%ld bytes of shared memory per block asked (%ld static + %ld dynamic); "
                          "a block may have %ld%s", asked, k->static_smem, dyn, limit,
                       k->max_dynamic_smem > 0 || m->smem_per_block_optin <= m->smem_per_block
                           ? ""
                           : " (more only for a kernel that opts in)");
    long alloc = round_up(asked + m->smem_reserved_per_block, m->smem_alloc_unit);
    r->smem_per_block = alloc;
    if (alloc > 0) r->by_smem = (int)(m->smem_per_sm / alloc);

    int b = INT_MAX;
    const int by[4] = {r->by_warps, r->by_regs, r->by_smem, r->by_blocks};
    const unsigned bit[4] = {OCC_LIM_WARPS, OCC_LIM_REGS, OCC_LIM_SMEM, OCC_LIM_BLOCKS};
    for (int i = 0; i < 4; i++)
        if (by[i] >= 0 && by[i] < b) b = by[i];
    for (int i = 0; i < 4; i++)
        if (by[i] == b) r->limiters |= bit[i];
    r->blocks_per_sm = b;
    if (b == 0) snprintf(r->why, sizeof r->why, "no block fits on an SM");
    r->active_warps = b * warps;
    r->occupancy = r->max_warps > 0 ? (double)r->active_warps / r->max_warps : 0;
    return b;
}

char *occ_limiters_text(unsigned lim, char *buf, size_t len)
{
    static const char *const names[4] = {"warps", "registers", "shared memory", "blocks"};
    size_t off = 0;
    if (len == 0) return buf;
    buf[0] = 0;
    /* the order a student should look in: registers and shared memory are
     * what a kernel controls */
    static const int order[4] = {1, 2, 0, 3};
    int n = 0, total = 0;
    for (int i = 0; i < 4; i++) total += (lim >> i) & 1;
    for (int j = 0; j < 4 && off < len; j++) {
        int i = order[j];
        if (!(lim & (1u << i))) continue;
        n++;
        off += (size_t)snprintf(buf + off, len - off, "%s%s", n == 1 ? "" : n == total ? " and " : ", ",
                                names[i]);
    }
    if (!buf[0]) snprintf(buf, len, "-");
    return buf;
}

int occ_suggest_block(const occ_model *m, const occ_kernel *k, int block_limit, int *min_grid)
{
    const int warp = m->warp_size > 0 ? m->warp_size : 32;
    int max_block = m->max_threads_per_block;
    if (k->max_threads > 0 && k->max_threads < max_block) max_block = k->max_threads;
    if (block_limit > 0 && block_limit < max_block) max_block = block_limit;
    int best_threads = 0, best_block = 0, best_blocks = 0;
    for (int aligned = (int)round_up(max_block, warp); aligned > 0; aligned -= warp) {
        int b = aligned < max_block ? aligned : max_block;
        occ_result r;
        int blocks = occ_compute(m, k, b, &r);
        if (blocks * b > best_threads) {
            best_threads = blocks * b;
            best_block = b;
            best_blocks = blocks;
        }
        if (best_threads >= m->max_threads_per_sm) break;
    }
    if (min_grid) *min_grid = best_blocks * m->sms;
    return best_block;
}

/* ----------------------------------------------------- names of kernels */

static int parse_len(const char **p)
{
    int n = 0;
    if (!isdigit((unsigned char)**p)) return -1;
    while (isdigit((unsigned char)**p)) n = n * 10 + (*(*p)++ - '0');
    return n;
}

int occ_mangled_base(const char *s, char *base, size_t len, char *targ)
{
    if (targ) *targ = 0;
    if (len == 0) return -1;
    base[0] = 0;
    if (strncmp(s, "_Z", 2) != 0) {
        snprintf(base, len, "%s", s);
        return -1;
    }
    const char *p = s + 2;
    if (*p == 'L') p++;          /* internal linkage */
    int nested = *p == 'N';
    if (nested) p++;
    size_t off = 0;
    for (;;) {
        int n = parse_len(&p);
        if (n <= 0 || (int)strlen(p) < n) {
            snprintf(base, len, "%s", s);
            return -1;
        }
        off += (size_t)snprintf(base + (off < len ? off : len - 1), off < len ? len - off : 1,
                                "%s%.*s", off ? "::" : "", n, p);
        p += n;
        if (!nested || !isdigit((unsigned char)*p)) break;
    }
    if (*p == 'I' && targ) *targ = p[1];
    return 0;
}

void occ_expr_base(const char *expr, char *base, size_t len)
{
    if (len == 0) return;
    while (*expr == '&' || *expr == '(' || isspace((unsigned char)*expr)) expr++;
    size_t n = 0;
    while (expr[n] && expr[n] != '<' && expr[n] != '(' && expr[n] != ')' &&
           !isspace((unsigned char)expr[n]))
        n++;
    snprintf(base, len, "%.*s", (int)n, expr);
}

static char dtype_code(lab_dtype dt)
{
    switch (dt) {
    case LAB_INT: return 'i';
    case LAB_FLOAT: return 'f';
    case LAB_DOUBLE: return 'd';
    case LAB_U8: return 'h';
    default: return 0;
    }
}

/* Does a mangled name carry the integer template argument v ("Li256E")? */
static int has_int_targ(const char *mangled, int v)
{
    char pat[32];
    snprintf(pat, sizeof pat, "Li%dE", v);
    return v > 0 && strstr(mangled, pat) != NULL;
}

const occ_resource *occ_resource_find(const occ_resource *t, int count, const char *expr,
                                      lab_dtype dt, int arch, char *note, size_t notelen)
{
    return occ_resource_find_block(t, count, expr, dt, arch, 0, note, notelen);
}

const occ_resource *occ_resource_find_block(const occ_resource *t, int count, const char *expr,
                                            lab_dtype dt, int arch, int threads, char *note,
                                            size_t notelen)
{
    char want[LAB_NAME_MAX], base[256];
    occ_expr_base(expr, want, sizeof want);
    if (note && notelen) note[0] = 0;
    /* the arch to read: the largest <= arch, else the smallest present */
    int use_arch = -1, smallest = INT_MAX;
    for (int i = 0; i < count; i++) {
        char targ;
        occ_mangled_base(t[i].mangled, base, sizeof base, &targ);
        if (strcmp(base, want) != 0) continue;
        if (t[i].arch <= arch && t[i].arch > use_arch) use_arch = t[i].arch;
        if (t[i].arch < smallest) smallest = t[i].arch;
    }
    if (use_arch < 0) use_arch = smallest;
    if (use_arch == INT_MAX) return NULL;
    const occ_resource *typed = NULL, *most = NULL;
    int instances = 0, ntyped = 0;
    const char code = dtype_code(dt);
    for (int i = 0; i < count; i++) {
        char targ;
        occ_mangled_base(t[i].mangled, base, sizeof base, &targ);
        if (strcmp(base, want) != 0 || t[i].arch != use_arch) continue;
        instances++;
        if (!most || t[i].regs > most->regs) most = &t[i];
        if (code && targ == code) {
            /* the instance for this block size wins over the others */
            const int fits = has_int_targ(t[i].mangled, threads);
            const int had = typed && has_int_targ(typed->mangled, threads);
            if (!typed || (fits && !had) || (fits == had && t[i].regs > typed->regs)) typed = &t[i];
            ntyped++;
        }
    }
    const occ_resource *r = typed ? typed : most;
    if (note && notelen) {
        size_t off = 0;
        if (use_arch != arch)
            off += (size_t)snprintf(note, notelen, "the build has no sm_%d, so the nearest", arch);
        if (!typed && instances > 1 && off < notelen)
            snprintf(note + off, notelen - off, "%sthe most of %d template instances", off ? "; " : "",
                     instances);
    }
    return r;
}

/* ------------------------------------------------ the CUDA occupancy API */

static int gpu_ready(char *msg, size_t len)
{
    if (lab_gpu_available()) return 1;
    const char *off = lab_device_disabled();
    snprintf(msg, len, "no GPU: %s", off ? off : lab_device()->why_not);
    return 0;
}

static int api_fail(cudaError_t e, const char *what, char *msg, size_t len)
{
    snprintf(msg, len, "%s failed: %s", what, cudaGetErrorString(e));
    cudaGetLastError();
    return -1;
}

int occ_model_from_device(occ_model *m, char *title, size_t titlelen)
{
    memset(m, 0, sizeof *m);
    if (!lab_gpu_available()) return -1;
    const lab_device_info *d = lab_device();
    if (title && titlelen) snprintf(title, titlelen, "%s", d->name);
    m->name = "gpu";
    m->title = title ? title : "the GPU";
    m->cc_major = d->cc_major;
    m->cc_minor = d->cc_minor;
    m->sms = d->sms;
    m->warp_size = d->warp_size;
    m->max_threads_per_block = d->max_threads_per_block;
    m->max_threads_per_sm = d->max_threads_per_sm;
    m->max_blocks_per_sm = d->max_blocks_per_sm;
    m->regs_per_sm = d->regs_per_sm;
    m->regs_per_block = d->regs_per_block;
    m->smem_per_sm = (long)d->smem_per_sm;
    m->smem_per_block = (long)d->smem_per_block;
    m->smem_per_block_optin = (long)(d->smem_per_block_optin ? d->smem_per_block_optin : d->smem_per_block);
    occ_arch_units(d->cc_major, d->cc_minor, m);
    int reserved = 0;
    if (cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, 0) != cudaSuccess) {
        cudaGetLastError();
        reserved = d->cc_major >= 8 ? 1024 : 0;
    }
    m->smem_reserved_per_block = reserved;
    if (d->mem_clock_khz > 0 && d->mem_bus_bits > 0)
        m->mem_gbps = 2.0 * d->mem_clock_khz * 1e3 * (d->mem_bus_bits / 8.0) / 1e9;
    const enum cudaDeviceAttr l2[3] = {cudaDevAttrL2CacheSize, cudaDevAttrMaxPersistingL2CacheSize,
                                       cudaDevAttrMaxAccessPolicyWindowSize};
    long *to[3] = {&m->l2_bytes, &m->l2_persist_max, &m->l2_window_max};
    for (int i = 0; i < 3; i++) {
        int v = 0;
        if (cudaDeviceGetAttribute(&v, l2[i], 0) != cudaSuccess) cudaGetLastError();
        else *to[i] = v;
    }
    return 0;
}

int occ_api_kernel(const void *func, occ_kernel *k, char *msg, size_t len)
{
    memset(k, 0, sizeof *k);
    if (!gpu_ready(msg, len)) return -1;
    if (!func) {
        snprintf(msg, len, "no kernel address (the launch was not made on the GPU)");
        return -1;
    }
    struct cudaFuncAttributes a;
    cudaError_t e = cudaFuncGetAttributes(&a, func);
    if (e != cudaSuccess) return api_fail(e, "cudaFuncGetAttributes", msg, len);
    k->regs = a.numRegs;
    k->static_smem = (long)a.sharedSizeBytes;
    k->max_threads = a.maxThreadsPerBlock;
    /* a kernel that raised its dynamic limit past the default opted in */
    long deflt = (long)lab_device()->smem_per_block - (long)a.sharedSizeBytes;
    if (a.maxDynamicSharedSizeBytes > deflt) k->max_dynamic_smem = a.maxDynamicSharedSizeBytes;
    return 0;
}

int occ_api_blocks_per_sm(const void *func, int block, size_t dyn, char *msg, size_t len)
{
    if (!gpu_ready(msg, len)) return -1;
    int n = 0;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, func, block, dyn);
    if (e != cudaSuccess) return api_fail(e, "cudaOccupancyMaxActiveBlocksPerMultiprocessor", msg, len);
    return n;
}

int occ_api_suggest_block(const void *func, long base, double per_thread, int block_limit,
                          int *min_grid, char *msg, size_t len)
{
    if (!gpu_ready(msg, len)) return -1;
    occ_kernel k;
    if (occ_api_kernel(func, &k, msg, len) != 0) return -1;
    const lab_device_info *d = lab_device();
    int warp = d->warp_size > 0 ? d->warp_size : 32;
    int max_block = d->max_threads_per_block;
    if (k.max_threads > 0 && k.max_threads < max_block) max_block = k.max_threads;
    if (block_limit > 0 && block_limit < max_block) max_block = block_limit;
    int best_threads = 0, best_block = 0, best_blocks = 0;
    for (int aligned = (int)round_up(max_block, warp); aligned > 0; aligned -= warp) {
        int b = aligned < max_block ? aligned : max_block;
        size_t dyn = (size_t)(base + (long)(per_thread * b + 0.999999));
        int n = 0;
        cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, func, b, dyn);
        if (e != cudaSuccess) return api_fail(e, "cudaOccupancyMaxActiveBlocksPerMultiprocessor", msg, len);
        if (n * b > best_threads) {
            best_threads = n * b;
            best_block = b;
            best_blocks = n;
        }
        if (best_threads >= d->max_threads_per_sm) break;
    }
    if (min_grid) *min_grid = best_blocks * d->sms;
    return best_block;
}

/* ------------------------------------------------------- launch checks */

/* Attributes of the kernels launched so far, by address: asked once each,
 * so the check costs a lookup per launch, not a driver call. */
#define ATTR_CACHE 128
static struct {
    const void *func;
    occ_kernel k;
    int ok;
} attr_cache[ATTR_CACHE];
static int attr_count;

/* refresh: read them again (the kernel's dynamic shared memory limit changes
 * when the program opts in with cudaFuncSetAttribute). */
static const occ_kernel *kernel_attrs(const void *func, int refresh)
{
    char msg[256];
    occ_kernel k;
    for (int i = 0; i < attr_count; i++)
        if (attr_cache[i].func == func) {
            if (refresh) attr_cache[i].ok = occ_api_kernel(func, &attr_cache[i].k, msg, sizeof msg) == 0;
            return attr_cache[i].ok ? &attr_cache[i].k : NULL;
        }
    int ok = occ_api_kernel(func, &k, msg, sizeof msg) == 0;
    if (attr_count < ATTR_CACHE) {
        attr_cache[attr_count].func = func;
        attr_cache[attr_count].k = k;
        attr_cache[attr_count].ok = ok;
        attr_count++;
        return ok ? &attr_cache[attr_count - 1].k : NULL;
    }
    static occ_kernel spare;
    spare = k;
    return ok ? &spare : NULL;
}

static void record(lab_job *job, const char *kernel, const void *func, const unsigned g[3],
                   const unsigned b[3], size_t smem, const occ_kernel *k)
{
    lab_probe *p = job->probe;
    for (int i = 0; i < p->count; i++) {
        lab_launch_probe *l = &p->launches[i];
        if (l->func == func && l->dynamic_smem == smem && memcmp(l->grid, g, sizeof l->grid) == 0 &&
            memcmp(l->block, b, sizeof l->block) == 0 && strcmp(l->kernel, kernel) == 0) {
            l->count++;
            return;
        }
    }
    if (p->count >= p->max) {
        p->dropped++;
        return;
    }
    lab_launch_probe *l = &p->launches[p->count++];
    memset(l, 0, sizeof *l);
    snprintf(l->kernel, sizeof l->kernel, "%s", kernel);
    l->func = func;
    memcpy(l->grid, g, sizeof l->grid);
    memcpy(l->block, b, sizeof l->block);
    l->dynamic_smem = smem;
    l->count = 1;
    l->regs = k ? k->regs : -1;
    l->max_threads = k ? k->max_threads : -1;
    l->static_smem = k ? k->static_smem : -1;
    l->local_bytes = -1;
    l->max_dynamic_smem = k ? (k->max_dynamic_smem > 0 ? k->max_dynamic_smem
                                                      : (long)lab_device()->smem_per_block - k->static_smem)
                            : -1;
    if (k && func) {
        struct cudaFuncAttributes a;
        if (cudaFuncGetAttributes(&a, func) == cudaSuccess) l->local_bytes = (long long)a.localSizeBytes;
        else cudaGetLastError();
    }
}

/* The limits a launch is checked against: the GPU's, or the model's. */
typedef struct launch_limits {
    const char *where;      /* "the GPU" or "the h200 model" */
    int max_threads, max_bx, max_by, max_bz;
    long long max_gx, max_gy, max_gz;
    long smem_block, smem_optin;
} launch_limits;

static void limits_for(const lab_job *job, launch_limits *L, char *where, size_t wlen)
{
    L->max_bx = L->max_by = 1024;
    L->max_bz = 64;
    L->max_gx = 2147483647LL;
    L->max_gy = L->max_gz = 65535;
    if (job->backend == LAB_BACKEND_GPU) {
        static launch_limits gpu;
        static int have;
        if (!have) {
            const lab_device_info *d = lab_device();
            gpu = *L;
            gpu.max_threads = d->max_threads_per_block;
            if (d->max_block[0] > 0) {
                gpu.max_bx = d->max_block[0];
                gpu.max_by = d->max_block[1];
                gpu.max_bz = d->max_block[2];
            }
            if (d->max_grid[0] > 0) {
                gpu.max_gx = d->max_grid[0];
                gpu.max_gy = d->max_grid[1];
                gpu.max_gz = d->max_grid[2];
            }
            gpu.smem_block = (long)d->smem_per_block;
            gpu.smem_optin = (long)(d->smem_per_block_optin ? d->smem_per_block_optin : d->smem_per_block);
            have = 1;
        }
        *L = gpu;
        snprintf(where, wlen, "the GPU");
    } else {
        const occ_model *m = occ_model_find(job->cfg ? job->cfg->model : NULL);
        if (!m) m = occ_model_at(0);
        L->max_threads = m->max_threads_per_block;
        L->smem_block = m->smem_per_block;
        L->smem_optin = m->smem_per_block_optin;
        snprintf(where, wlen, "the %s model (set model)", m->name);
    }
    L->where = where;
}

/* The GPU the simulator models for a job: `set model`, else the first model
 * (the H200). */
static const occ_model *job_model(const lab_job *job)
{
    const occ_model *m = occ_model_find(job->cfg ? job->cfg->model : NULL);
    return m ? m : occ_model_at(0);
}

int lab_job_sms(const lab_job *job)
{
    if (job->backend == LAB_BACKEND_GPU && lab_gpu_available() && lab_device()->sms > 0) return lab_device()->sms;
    return job_model(job)->sms;
}

int lab_job_blocks_per_sm(lab_job *job, const void *func, int block, const occ_kernel *declared)
{
    int per = 0;
    if (job->backend == LAB_BACKEND_GPU) {
        cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, func, block, (size_t)declared->dynamic_smem);
        if (e != cudaSuccess)
            return lab_device_fail((int)e, "cudaOccupancyMaxActiveBlocksPerMultiprocessor", __FILE__, __LINE__,
                                   job->err, sizeof job->err);
    } else {
        occ_result r;
        per = occ_compute(job_model(job), declared, block, &r);
    }
    return per < 1 ? 1 : per;
}

static int refuse(lab_job *job, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int refuse(lab_job *job, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(job->err, sizeof job->err, fmt, ap);
    va_end(ap);
    return -1;
}

int lab_launch_check(lab_job *job, const char *kernel, const void *func, const unsigned g[3],
                     const unsigned b[3], size_t smem)
{
    char where[64];
    launch_limits L;
    limits_for(job, &L, where, sizeof where);
    const int gpu = job->backend == LAB_BACKEND_GPU && func && lab_gpu_available();
    const occ_kernel *k = gpu ? kernel_attrs(func, 0) : NULL;
    unsigned long long threads = (unsigned long long)b[0] * b[1] * b[2];
    if (threads == 0)
        return refuse(job, "%s: a block of %ux%ux%u has no threads; a block has 1..%d threads",
                      kernel, b[0], b[1], b[2], L.max_threads);
    if (g[0] == 0 || g[1] == 0 || g[2] == 0)
        return refuse(job, "%s: a grid of %ux%ux%u has no blocks; grids run 1..%lld blocks in x",
                      kernel, g[0], g[1], g[2], L.max_gx);
    int max_threads = L.max_threads;
    if (k && k->max_threads > 0 && k->max_threads < max_threads) max_threads = k->max_threads;
    if (threads > (unsigned long long)max_threads) {
        if (max_threads < L.max_threads)
            return refuse(job, "%s was compiled for at most %d threads per block (__launch_bounds__ "
                               "or its registers); %llu asked: allowed 1..%d",
                          kernel, max_threads, threads, max_threads);
        return refuse(job, "%s: a block of %llu threads is more than %s allows: 1..%d threads per block",
                      kernel, threads, L.where, max_threads);
    }
    if (b[0] > (unsigned)L.max_bx || b[1] > (unsigned)L.max_by || b[2] > (unsigned)L.max_bz)
        return refuse(job, "%s: block %ux%ux%u is past the limits of %s: at most %dx%dx%d threads in x, y, z", kernel,
                      b[0], b[1], b[2], L.where, L.max_bx, L.max_by, L.max_bz);
    if (g[0] > L.max_gx || g[1] > L.max_gy || g[2] > L.max_gz)
        return refuse(job, "%s: grid %ux%ux%u is past the limits of %s: x 1..%lld, y and z 1..%lld blocks", kernel,
                      g[0], g[1], g[2], L.where, L.max_gx, L.max_gy);
    /* Shared memory per block: on the GPU static + dynamic against what the
     * kernel may have (opted in or not); on the simulator the dynamic part
     * against the model's opt-in limit (a kernel there may have opted in). */
    long stat = k ? k->static_smem : 0;
    long limit = gpu ? (k && k->max_dynamic_smem > 0 ? L.smem_optin : L.smem_block) : L.smem_optin;
    if (gpu && k && (long)smem + stat > limit) { /* it may have opted in since */
        k = kernel_attrs(func, 1);
        stat = k ? k->static_smem : 0;
        limit = k && k->max_dynamic_smem > 0 ? L.smem_optin : L.smem_block;
    }
    if ((long)smem + stat > limit) {
        long per_thread = threads > 0 ? (long)(lab_ceil_div(smem, threads)) : 0;
        long fit = per_thread > 0 ? (limit - stat) / per_thread : 0;
        long p2 = 1;
        while (p2 * 2 <= fit) p2 *= 2;
        char hint[96] = "";
        if (fit >= 1)
            snprintf(hint, sizeof hint, ": if it grows with the block, at most about %ld threads "
                     "(%ld as a power of two)", fit, p2);
        return refuse(job,
                      "%s asks for %ld bytes of shared memory per block (%ld static + %zu dynamic) "
                      "with %llu threads; %s allows %ld per block%s",
                      kernel, (long)smem + stat, stat, smem, threads, L.where, limit, hint);
    }
    if (job->probe) record(job, kernel, func, g, b, smem, k);
    return 0;
}

int lab_probe_launches(lab_input *in, const lab_variant *v, lab_launch_probe *out, int max, char *msg,
                       size_t len)
{
    lab_probe p = {out, 0, max, 0};
    lab_result r;
    lab_input_set_probe(in, &p);
    int rc = lab_run(in, v, &r, NULL);
    lab_input_set_probe(in, NULL);
    if (rc != 0 || !r.ran) {
        snprintf(msg, len, "%s", r.note[0] ? r.note : "the variant did not run");
        return -1;
    }
    return p.count;
}
