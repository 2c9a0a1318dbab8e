/* profile.cpp - the memory counters: a reader of the simulator's access
 * recording (sim/record.h) that turns warp requests into sectors, shared
 * wavefronts and atomics, per launch group and access site (profile.h). */
#include "kernels/profile/profile.h"

#include "kernels/sim/record.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <algorithm>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

/* A set of sector numbers, only counted: a bit per sector in chunks of 512
 * sectors (16 KiB of addresses, 64 bytes of bits), found by a hash map
 * from the chunk's number, the last chunk kept at hand (a warp's sectors
 * and the next warp's are usually in the same chunk). std::unordered_set
 * kept a node per sector: at 64 Mi ints, 8 Mi allocations and rehashes,
 * a sixth of reduce/vector's run. */
class sector_set {
    enum { CHUNK_BITS = 9, CHUNK_WORDS = (1 << CHUNK_BITS) / 64 };
    struct chunk {
        uint64_t w[CHUNK_WORDS];
    };
    std::unordered_map<uint64_t, uint32_t> index_; /* chunk number -> chunks_ index */
    std::vector<chunk> chunks_;
    uint64_t last_key_ = ~0ull;
    uint32_t last_ = 0;
    size_t n_ = 0;

public:
    void insert(uint64_t sector)
    {
        const uint64_t key = sector >> CHUNK_BITS;
        if (key != last_key_) {
            auto it = index_.find(key);
            if (it == index_.end()) {
                last_ = (uint32_t)chunks_.size();
                index_.emplace(key, last_);
                chunks_.push_back(chunk{});
            } else {
                last_ = it->second;
            }
            last_key_ = key;
        }
        uint64_t &w = chunks_[last_].w[(sector >> 6) & (CHUNK_WORDS - 1)];
        const uint64_t bit = 1ull << (sector & 63);
        if (!(w & bit)) {
            w |= bit;
            n_++;
        }
    }
    size_t size() const { return n_; }
    void clear()
    {
        index_.clear();
        chunks_.clear();
        last_key_ = ~0ull;
        n_ = 0;
    }
};

struct prof_impl {
    sim_rec_reader reader;
    prof_session *s;
    std::vector<prof_counts> groups;
    std::vector<prof_site> sites;
    std::map<std::pair<int, uintptr_t>, int> site_index;
    int cur;
    sector_set rd, wr;                          /* distinct sectors of this launch */
    std::unordered_map<uintptr_t, unsigned long long> atom; /* atomics per address, this launch */
    std::unordered_map<uintptr_t, double> atom_line;        /* atomic ns per 128-byte line, this launch */
    double t0;
    int failed;
    /* the running block's requests per warp (a block's requests arrive
     * together: blocks run one after another) */
    unsigned long long block;
    std::vector<std::pair<unsigned long long, unsigned long long>> warp; /* (all, global loads) */
    unsigned long long block_excess; /* the running block's shared wavefronts beyond the ideal */
};

/* Fold the running block's warps into the group's maxima. */
void fold_warps(prof_impl *p)
{
    if (p->cur < 0) return;
    prof_counts &c = p->groups[p->cur];
    for (auto &w : p->warp) {
        c.warp_req_max = std::max(c.warp_req_max, w.first);
        c.warp_gld_max = std::max(c.warp_gld_max, w.second);
    }
    p->warp.clear();
    c.block_conflict_max = std::max(c.block_conflict_max, p->block_excess);
    p->block_excess = 0;
}

double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void on_launch_begin(void *ctx, const sim_rec_launch *l)
{
    prof_impl *p = static_cast<prof_impl *>(ctx);
    int g = -1;
    for (size_t i = 0; i < p->groups.size(); i++) {
        const prof_counts &c = p->groups[i];
        if (strcmp(c.kernel, l->kernel) == 0 && memcmp(c.grid, l->grid, sizeof c.grid) == 0 &&
            memcmp(c.block, l->block, sizeof c.block) == 0 && c.dynamic_smem == l->dynamic_smem) {
            g = (int)i;
            break;
        }
    }
    if (g < 0) {
        prof_counts c;
        memset(&c, 0, sizeof c);
        snprintf(c.kernel, sizeof c.kernel, "%s", l->kernel);
        memcpy(c.grid, l->grid, sizeof c.grid);
        memcpy(c.block, l->block, sizeof c.block);
        c.dynamic_smem = l->dynamic_smem;
        p->groups.push_back(c);
        g = (int)p->groups.size() - 1;
    }
    p->cur = g;
    p->groups[g].launches++;
    p->rd.clear();
    p->wr.clear();
    p->atom.clear();
    p->atom_line.clear();
    p->warp.clear();
    p->block_excess = 0;
    p->block = ~0ull;
    p->t0 = now_s();
}

void on_launch_end(void *ctx, const sim_rec_launch *l, int rc)
{
    (void)l;
    prof_impl *p = static_cast<prof_impl *>(ctx);
    if (p->cur < 0) return;
    fold_warps(p);
    prof_counts &c = p->groups[p->cur];
    c.read_bytes += 32ull * p->rd.size();
    c.write_bytes += 32ull * p->wr.size();
    unsigned long long most = 0;
    for (auto &kv : p->atom) most = std::max(most, kv.second);
    c.atom_addr_max = std::max(c.atom_addr_max, most);
    double line = 0;
    for (auto &kv : p->atom_line) line = std::max(line, kv.second);
    c.atom_ns += line;
    c.seconds += now_s() - p->t0;
    if (rc != 0) p->failed = 1;
    p->cur = -1;
}

void on_barrier(void *ctx, unsigned long long block, unsigned warps)
{
    (void)block;
    prof_impl *p = static_cast<prof_impl *>(ctx);
    if (p->cur >= 0) p->groups[p->cur].barriers += warps;
}

void on_request(void *ctx, const sim_rec_request *r)
{
    prof_impl *p = static_cast<prof_impl *>(ctx);
    if (p->cur < 0) return;
    prof_counts &c = p->groups[p->cur];
    const int space = r->space == SIM_REC_SHARED ? PROF_SHARED : PROF_GLOBAL;
    const int kind = r->kind == SIM_REC_ATOMIC ? PROF_ATOM : r->kind == SIM_REC_STORE ? PROF_ST : PROF_LD;
    const unsigned lanes = (unsigned)__builtin_popcount(r->mask);
    unsigned long long units, ideal;
    unsigned long long same = 0;
    if (space == PROF_GLOBAL) {
        uint64_t sec[128];
        unsigned n = sim_rec_sectors(r, sec);
        units = n;
        ideal = (lanes * r->width + 31) / 32;
        sector_set *set[2] = {kind == PROF_ST ? nullptr : &p->rd, kind == PROF_LD ? nullptr : &p->wr};
        for (auto *st : set)
            if (st)
                for (unsigned i = 0; i < n; i++) st->insert(sec[i]);
    } else {
        units = sim_rec_wavefronts(r);
        ideal = (lanes * r->width + 127) / 128;
    }
    if (ideal == 0) ideal = 1;
    if (r->block != p->block) {
        fold_warps(p);
        p->block = r->block;
    }
    if (r->warp >= p->warp.size()) p->warp.resize(r->warp + 1);
    p->warp[r->warp].first++;
    if (space == PROF_GLOBAL && kind == PROF_LD) p->warp[r->warp].second++;
    if (space == PROF_SHARED && units > ideal) p->block_excess += units - ideal;
    if (kind == PROF_ATOM) {
        uintptr_t a[32];
        unsigned n = 0;
        for (uint32_t m = r->mask; m; m &= m - 1) a[n++] = r->addr[__builtin_ctz(m)];
        std::sort(a, a + n);
        /* the request's part in each 128-byte line: its busiest address's
         * lanes one after another, and a part on several addresses at least
         * one transaction of PROF_ATOMIC_TX_NS (sorted addresses: a line's
         * lanes are neighbours) */
        unsigned long long line_same = 0, line_addrs = 0;
        for (unsigned i = 0; i < n;) {
            unsigned j = i;
            while (j < n && a[j] == a[i]) j++;
            same = std::max<unsigned long long>(same, j - i);
            line_same = std::max<unsigned long long>(line_same, j - i);
            line_addrs++;
            if (space == PROF_GLOBAL) {
                p->atom[a[i]] += j - i;
                if (j == n || a[j] >> 7 != a[i] >> 7) {
                    const double tx = line_addrs > 1 ? PROF_ATOMIC_TX_NS : 0.0;
                    p->atom_line[a[i] >> 7] += std::max(tx, (double)line_same * PROF_ATOMIC_NS);
                    line_same = line_addrs = 0;
                }
            }
            i = j;
        }
        c.atom_same_max = std::max(c.atom_same_max, same);
    }
    prof_mem &m = c.mem[space][kind];
    m.requests++;
    m.units += units;
    m.ideal += ideal;
    m.lanes += lanes;
    m.width = std::max(m.width, r->width);

    auto key = std::make_pair(p->cur, r->site);
    auto it = p->site_index.find(key);
    int si;
    if (it == p->site_index.end()) {
        prof_site s;
        memset(&s, 0, sizeof s);
        s.group = p->cur;
        s.site = r->site;
        s.kind = kind;
        s.space = space;
        s.width = r->width;
        p->sites.push_back(s);
        si = (int)p->sites.size() - 1;
        p->site_index[key] = si;
    } else {
        si = it->second;
    }
    prof_site &s = p->sites[si];
    s.m.requests++;
    s.m.units += units;
    s.m.ideal += ideal;
    s.m.lanes += lanes;
    s.m.width = std::max(s.m.width, r->width);
    s.same_max = std::max(s.same_max, same);
}

void add_counts(prof_counts *t, const prof_counts *c)
{
    t->launches += c->launches;
    for (int sp = 0; sp < PROF_NSPACES; sp++)
        for (int k = 0; k < PROF_NKINDS; k++) {
            prof_mem &a = t->mem[sp][k];
            const prof_mem &b = c->mem[sp][k];
            a.requests += b.requests;
            a.units += b.units;
            a.ideal += b.ideal;
            a.lanes += b.lanes;
            a.width = std::max(a.width, b.width);
        }
    t->atom_same_max = std::max(t->atom_same_max, c->atom_same_max);
    t->atom_addr_max = std::max(t->atom_addr_max, c->atom_addr_max);
    t->atom_ns += c->atom_ns;
    t->barriers += c->barriers;
    t->warp_req_max = std::max(t->warp_req_max, c->warp_req_max);
    t->warp_gld_max = std::max(t->warp_gld_max, c->warp_gld_max);
    t->block_conflict_max = std::max(t->block_conflict_max, c->block_conflict_max);
    t->read_bytes += c->read_bytes;
    t->write_bytes += c->write_bytes;
    t->seconds += c->seconds;
}

} /* namespace */

extern "C" int prof_available(void) { return sim_rec_available(); }

extern "C" int prof_begin(prof_session *s, char *msg, size_t msglen)
{
    memset(s, 0, sizeof *s);
    if (!sim_rec_available()) {
        snprintf(msg, msglen,
                 "this build of gpulab cannot count accesses: its simulator kernels were compiled without the "
                 "recording instrumentation (the sanitizer build leaves it out; use the default build)");
        return -1;
    }
    prof_impl *p = new prof_impl();
    p->s = s;
    p->cur = -1;
    p->failed = 0;
    p->reader.ctx = p;
    p->reader.launch_begin = on_launch_begin;
    p->reader.request = on_request;
    p->reader.barrier = on_barrier;
    p->reader.launch_end = on_launch_end;
    if (sim_rec_attach(&p->reader) != 0) {
        delete p;
        snprintf(msg, msglen, "the simulator's recording is busy (a launch is running or too many readers)");
        return -1;
    }
    s->impl = p;
    return 0;
}

extern "C" void prof_end(prof_session *s)
{
    prof_impl *p = static_cast<prof_impl *>(s->impl);
    if (!p) return;
    sim_rec_detach(&p->reader);
    s->ngroups = (int)p->groups.size();
    s->groups = (prof_counts *)calloc(p->groups.size() + 1, sizeof *s->groups);
    s->nsites = (int)p->sites.size();
    s->sites = (prof_site *)calloc(p->sites.size() + 1, sizeof *s->sites);
    memset(&s->total, 0, sizeof s->total);
    snprintf(s->total.kernel, sizeof s->total.kernel, "total");
    if (!s->groups || !s->sites) {
        free(s->groups);
        free(s->sites);
        s->groups = nullptr;
        s->sites = nullptr;
        s->ngroups = s->nsites = 0;
        s->failed = 1;
    } else {
        for (int i = 0; i < s->ngroups; i++) {
            s->groups[i] = p->groups[i];
            add_counts(&s->total, &s->groups[i]);
        }
        if (s->nsites) memcpy(s->sites, p->sites.data(), sizeof *s->sites * (size_t)s->nsites);
        s->failed |= p->failed;
    }
    s->impl = nullptr;
    delete p;
}

extern "C" void prof_free(prof_session *s)
{
    if (s->impl) prof_end(s);
    free(s->groups);
    free(s->sites);
    memset(s, 0, sizeof *s);
}

extern "C" void prof_site_where(const prof_site *site, char *buf, size_t len)
{
    char file[256];
    int line = 0;
    if (sim_rec_site_where(site->site, file, sizeof file, &line) == 0) snprintf(buf, len, "%s:%d", file, line);
    else if (len) buf[0] = '\0';
}
