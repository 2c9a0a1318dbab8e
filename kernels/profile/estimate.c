/* estimate.c - the GPU time the counters imply (a stated, simple model), and
 * the counters' Nsight Compute names. See profile.h and docs/profile.md. */
#include "kernels/profile/profile.h"

#include "kernels/device/occupancy.h"

#include <math.h>
#include <string.h>

static double maxd(double a, double b) { return a > b ? a : b; }

static const occ_model *model_or_h200(const occ_model *m) { return m ? m : occ_model_find("h200"); }

/* Resident blocks per SM of the group's kernel: the occupancy calculator
 * with the registers and static shared memory the compiler gave the kernel
 * for the model's architecture (the build's table), else the warp and block
 * limits alone. The launch ran, so its dynamic shared memory is taken as
 * allowed (kernels that need more than 48 KiB opt in). */
static int resident_blocks(const prof_counts *c, const occ_model *m, lab_dtype dt, int threads)
{
    occ_kernel k;
    memset(&k, 0, sizeof k);
    k.dynamic_smem = (long)c->dynamic_smem;
    const occ_resource *res = occ_resource_find_block(lab_resource_table, lab_resource_count, c->kernel, dt,
                                                      m->cc_major * 10 + m->cc_minor, threads, NULL, 0);
    if (res) {
        k.regs = res->regs;
        k.static_smem = res->static_smem;
    }
    k.max_dynamic_smem = m->smem_per_block_optin - k.static_smem;
    occ_result r;
    int b = occ_compute(m, &k, threads, &r);
    if (b <= 0) {
        /* past what the calculator allows: one block at a time */
        b = 1;
    }
    return b;
}

/* Every term but compute, for the launches of one group. */
static void estimate_group(const prof_counts *c, const occ_model *m, lab_dtype dt, prof_estimate *e)
{
    m = model_or_h200(m);
    const double gbps = m && m->mem_gbps > 0 ? m->mem_gbps : 4800.0;
    const int sms = m && m->sms > 0 ? m->sms : 132;
    const double clock_hz = PROF_CLOCK_GHZ * 1e9;
    const double launches = c->launches > 0 ? c->launches : 1;
    const double blocks = (double)c->grid[0] * (c->grid[1] ? c->grid[1] : 1) * (c->grid[2] ? c->grid[2] : 1);
    const int threads = (int)(c->block[0] * (c->block[1] ? c->block[1] : 1) * (c->block[2] ? c->block[2] : 1));
    unsigned long long excess = 0, wavefronts = 0, requests = 0;
    for (int sp = 0; sp < PROF_NSPACES; sp++)
        for (int k = 0; k < PROF_NKINDS; k++) requests += c->mem[sp][k].requests;
    for (int k = 0; k < PROF_NKINDS; k++) {
        const prof_mem *g = &c->mem[PROF_GLOBAL][k];
        if (g->units > g->ideal) excess += g->units - g->ideal;
        wavefronts += c->mem[PROF_SHARED][k].units;
    }
    e->launch_ms = launches * PROF_LAUNCH_US * 1e-3;
    e->dram_ms = (double)(c->read_bytes + c->write_bytes) / (gbps * PROF_DRAM_EFFICIENCY * 1e6);
    e->excess_ms = 32.0 * (double)excess / (gbps * PROF_EXCESS_FACTOR * 1e6);
    e->atomic_ms = c->atom_ns * 1e-6;
    if (blocks < 1 || threads < 1) return;
    /* the busiest SM gets ceil(blocks / SMs) of each launch's blocks */
    const double per_sm = ceil(blocks / sms);
    const double share = per_sm / blocks;
    /* blocks resident at once on the whole GPU, and the waves they come in */
    const double waves = ceil(blocks / ((double)sms * resident_blocks(c, m, dt, threads)));
    /* the busiest warp's path: each global load waits for DRAM, each other
     * request for at least the instruction that uses it, each barrier for
     * the block; and the block's bank-conflict replays, which go through the
     * SM's shared pipe one wavefront a clock while the block's warps wait for
     * them at its next barrier (what makes tiled-nopad slower than tiled
     * where the loads' latency hides the shared throughput) */
    const double warps = launches * blocks * ((threads + 31) / 32);
    const double chain_s = (double)c->warp_gld_max * PROF_DRAM_LATENCY_NS * 1e-9 +
                           ((double)(c->warp_req_max - c->warp_gld_max) * PROF_DEP_CYCLES +
                            (double)c->barriers / warps * PROF_BARRIER_CYCLES + (double)c->block_conflict_max) /
                               clock_hz;
    e->latency_ms = launches * waves * chain_s * 1e3;
    e->shared_ms = (double)wavefronts * share / clock_hz * 1e3;
    e->issue_ms = (double)(requests + c->barriers) * share / (PROF_ISSUE_PER_CLOCK * clock_hz) * 1e3;
    e->block_ms = launches * per_sm * PROF_BLOCK_NS * 1e-6;
}

static double body_of(const prof_estimate *g)
{
    double b = g->dram_ms + g->excess_ms;
    b = maxd(b, g->latency_ms);
    b = maxd(b, g->shared_ms);
    b = maxd(b, g->issue_ms);
    return maxd(b, g->block_ms);
}

static double compute_ms(const occ_model *m, const prof_work *w)
{
    if (!w || w->ops <= 0 || !w->unit) return 0;
    m = model_or_h200(m);
    const int sms = m && m->sms > 0 ? m->sms : 132;
    /* FP32 lanes: 128 per SM at cc 8.6, 8.9 and 9.x; 64 at 7.x and 8.0 (and
     * here at every cc below 8.6, although 6.1 has 128) */
    const int lanes = m && (m->cc_major > 8 || (m->cc_major == 8 && m->cc_minor >= 6)) ? 128 : 64;
    double instr = strcmp(w->unit, "iteration") == 0 ? w->ops * PROF_ITER_INSTR : w->ops * 0.5;
    return instr / ((double)sms * lanes * PROF_CLOCK_GHZ * 1e6);
}

static void finish(prof_estimate *e, double body_ms)
{
    double body = maxd(body_ms, e->compute_ms);
    e->ms = e->launch_ms + body + e->atomic_ms;
    double most = e->launch_ms;
    e->bound = "launch";
    const struct { double v; const char *name; } parts[] = {
        {e->dram_ms + e->excess_ms, e->excess_ms > e->dram_ms ? "excess sectors" : "dram"},
        {e->latency_ms, "latency"}, {e->shared_ms, "shared"}, {e->issue_ms, "issue"}, {e->block_ms, "blocks"},
        {e->atomic_ms, "atomics"}, {e->compute_ms, "compute"}};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (parts[i].v > most) {
            most = parts[i].v;
            e->bound = parts[i].name;
        }
}

static lab_dtype dtype_of(const prof_work *w) { return w ? w->dtype : LAB_NDTYPES; }

void prof_estimate_counts(const prof_counts *c, const occ_model *m, const prof_work *w, prof_estimate *out)
{
    memset(out, 0, sizeof *out);
    estimate_group(c, m, dtype_of(w), out);
    out->compute_ms = compute_ms(m, w);
    finish(out, body_of(out));
}

void prof_estimate_session(const prof_session *s, const occ_model *m, const prof_work *w, prof_estimate *out)
{
    memset(out, 0, sizeof *out);
    double body = 0;
    for (int i = 0; i < s->ngroups; i++) {
        prof_estimate g;
        memset(&g, 0, sizeof g);
        estimate_group(&s->groups[i], m, dtype_of(w), &g);
        out->launch_ms += g.launch_ms;
        out->dram_ms += g.dram_ms;
        out->excess_ms += g.excess_ms;
        out->latency_ms += g.latency_ms;
        out->shared_ms += g.shared_ms;
        out->issue_ms += g.issue_ms;
        out->block_ms += g.block_ms;
        out->atomic_ms += g.atomic_ms;
        body += body_of(&g);
    }
    if (s->ngroups) out->launch_ms += PROF_RUN_US * 1e-3;
    out->compute_ms = compute_ms(m, w);
    finish(out, body);
}

double prof_host_ms(double values) { return values > 0 ? values * PROF_HOST_VALUE_NS * 1e-6 : 0; }

/* ------------------------------------------------------------- metrics */

static const prof_metric metrics[] = {
    {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "global load requests", PROF_GLOBAL, PROF_LD, PROF_F_REQUESTS},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "global load sectors", PROF_GLOBAL, PROF_LD, PROF_F_UNITS},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "global store requests", PROF_GLOBAL, PROF_ST, PROF_F_REQUESTS},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "global store sectors", PROF_GLOBAL, PROF_ST, PROF_F_UNITS},
    /* on the GPU: atomics whose result is used (ATOM) plus those whose is
     * not (RED); the simulator cannot tell them apart */
    {"l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "global atomic requests", PROF_GLOBAL, PROF_ATOM, PROF_F_REQUESTS},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", "global atomic sectors", PROF_GLOBAL, PROF_ATOM, PROF_F_UNITS},
    {"smsp__inst_executed_op_shared_ld.sum", "shared load requests", PROF_SHARED, PROF_LD, PROF_F_REQUESTS},
    {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "shared load wavefronts", PROF_SHARED, PROF_LD, PROF_F_UNITS},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "shared load bank conflicts", PROF_SHARED, PROF_LD, PROF_F_CONFLICTS},
    {"smsp__inst_executed_op_shared_st.sum", "shared store requests", PROF_SHARED, PROF_ST, PROF_F_REQUESTS},
    {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "shared store wavefronts", PROF_SHARED, PROF_ST, PROF_F_UNITS},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "shared store bank conflicts", PROF_SHARED, PROF_ST, PROF_F_CONFLICTS},
    {"smsp__inst_executed_op_shared_atom.sum", "shared atomic requests", PROF_SHARED, PROF_ATOM, PROF_F_REQUESTS},
    /* the simulator's own: ncu 2025.3 has no barrier counter of that kind for sm_90 */
    {"barriers", "barriers (per warp)", -1, -1, PROF_F_BARRIERS},
    {"dram__bytes_read.sum", "bytes read (distinct sectors)", -1, -1, PROF_F_READ_BYTES},
    {"dram__bytes_write.sum", "bytes written (distinct sectors)", -1, -1, PROF_F_WRITE_BYTES},
};

int prof_metric_count(void) { return (int)(sizeof metrics / sizeof metrics[0]); }

const prof_metric *prof_metric_at(int i) { return i >= 0 && i < prof_metric_count() ? &metrics[i] : NULL; }

double prof_metric_value(const prof_counts *c, const prof_metric *m)
{
    switch (m->field) {
    case PROF_F_REQUESTS: return (double)c->mem[m->space][m->kind].requests;
    case PROF_F_UNITS: return (double)c->mem[m->space][m->kind].units;
    case PROF_F_CONFLICTS: {
        const prof_mem *x = &c->mem[m->space][m->kind];
        return x->units > x->ideal ? (double)(x->units - x->ideal) : 0.0;
    }
    case PROF_F_ATOM_SAME: return (double)c->atom_same_max;
    case PROF_F_BARRIERS: return (double)c->barriers;
    case PROF_F_READ_BYTES: return (double)c->read_bytes;
    case PROF_F_WRITE_BYTES: return (double)c->write_bytes;
    }
    return 0;
}
