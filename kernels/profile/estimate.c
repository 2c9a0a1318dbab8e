/* estimate.c - the GPU time the counters imply (a stated, simple model), and
 * the counters' Nsight Compute names. See profile.h and docs/profile.md. */
#include "kernels/profile/profile.h"

#include <math.h>
#include <string.h>

static double maxd(double a, double b) { return a > b ? a : b; }

/* Memory, shared memory and atomics of the launches in c; compute is left
 * to the caller (a run's work is known for the run, not per launch). */
static void estimate_memory(const prof_counts *c, const occ_model *m, prof_estimate *e)
{
    const double gbps = m && m->mem_gbps > 0 ? m->mem_gbps : 4800.0;
    const int sms = m && m->sms > 0 ? m->sms : 132;
    unsigned long long excess = 0, wavefronts = 0;
    for (int k = 0; k < PROF_NKINDS; k++) {
        const prof_mem *g = &c->mem[PROF_GLOBAL][k];
        if (g->units > g->ideal) excess += g->units - g->ideal;
        wavefronts += c->mem[PROF_SHARED][k].units;
    }
    e->launch_ms = c->launches * PROF_LAUNCH_US * 1e-3;
    e->dram_ms = (double)(c->read_bytes + c->write_bytes) / (gbps * PROF_DRAM_EFFICIENCY * 1e6);
    e->excess_ms = 32.0 * (double)excess / (gbps * PROF_EXCESS_FACTOR * 1e6);
    e->shared_ms = (double)wavefronts / ((double)sms * PROF_CLOCK_GHZ * 1e6);
    e->atomic_ms = (double)c->atom_serial * PROF_ATOMIC_NS * 1e-6;
}

static double compute_ms(const occ_model *m, const prof_work *w)
{
    if (!w || w->ops <= 0 || !w->unit) return 0;
    const int sms = m && m->sms > 0 ? m->sms : 132;
    /* FP32 lanes: 128 per SM from Ampere on (cc 8.6 and later, and 9.x),
     * 64 before */
    const int lanes = m && (m->cc_major > 8 || (m->cc_major == 8 && m->cc_minor >= 6)) ? 128 : 64;
    double instr = strcmp(w->unit, "iteration") == 0 ? w->ops * PROF_ITER_INSTR : w->ops * 0.5;
    return instr / ((double)sms * lanes * PROF_CLOCK_GHZ * 1e6);
}

static void finish(prof_estimate *e, double mem_ms)
{
    double body = maxd(mem_ms, e->compute_ms);
    e->ms = e->launch_ms + body + e->atomic_ms;
    double most = e->launch_ms;
    e->bound = "launch";
    const struct { double v; const char *name; } parts[] = {
        {e->dram_ms + e->excess_ms, e->excess_ms > e->dram_ms ? "excess sectors" : "dram"},
        {e->shared_ms, "shared"},
        {e->atomic_ms, "atomics"}, {e->compute_ms, "compute"}};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (parts[i].v > most) {
            most = parts[i].v;
            e->bound = parts[i].name;
        }
}

void prof_estimate_counts(const prof_counts *c, const occ_model *m, const prof_work *w, prof_estimate *out)
{
    memset(out, 0, sizeof *out);
    estimate_memory(c, m, out);
    out->compute_ms = compute_ms(m, w);
    finish(out, maxd(out->dram_ms + out->excess_ms, out->shared_ms));
}

void prof_estimate_session(const prof_session *s, const occ_model *m, const prof_work *w, prof_estimate *out)
{
    memset(out, 0, sizeof *out);
    double mem = 0;
    for (int i = 0; i < s->ngroups; i++) {
        prof_estimate g;
        memset(&g, 0, sizeof g);
        estimate_memory(&s->groups[i], m, &g);
        out->launch_ms += g.launch_ms;
        out->dram_ms += g.dram_ms;
        out->excess_ms += g.excess_ms;
        out->shared_ms += g.shared_ms;
        out->atomic_ms += g.atomic_ms;
        mem += maxd(g.dram_ms + g.excess_ms, g.shared_ms);
    }
    if (s->ngroups) out->launch_ms += PROF_RUN_US * 1e-3;
    out->compute_ms = compute_ms(m, w);
    finish(out, mem);
}

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
