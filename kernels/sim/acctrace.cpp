/* acctrace.cpp - the automatic access trace (acctrace.h): a reader of the
 * recording that writes every request as text, and the parser that reads
 * the text back. */
#include "kernels/sim/acctrace.h"
#include "kernels/sim/record.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <map>
#include <string>
#include <unordered_map>
#include <utility>

namespace {

/* ---------------------------------------------------------------- writer */

struct acc_writer {
    sim_rec_reader reader;
    FILE *f;
    unsigned max_blocks;
    unsigned long long max_lanes, written;
    unsigned launch;
    unsigned long long recorded, skipped, dropped, dropped0, rec0;
    unsigned next_obj, next_site;
    std::unordered_map<unsigned, unsigned> global_ids;          /* allocation id -> array id */
    std::map<std::pair<unsigned, std::string>, unsigned> shared; /* (launch, name) -> array id */
    std::unordered_map<uintptr_t, unsigned> sites;
    std::map<std::pair<std::pair<const char *, const char *>, int>, unsigned> positions;
    /* the object found last: the lanes of a request mostly share one */
    uintptr_t c_lo, c_hi, c_base;
    unsigned c_id;
};

acc_writer *W;

/* names go last on a line: no newlines in them */
void put_name(FILE *f, const char *name)
{
    for (const char *c = name && *name ? name : "?"; *c; c++) fputc(*c == '\n' || *c == '\r' ? ' ' : *c, f);
    fputc('\n', f);
}

void w_launch_begin(void *ctx, const sim_rec_launch *l)
{
    acc_writer *w = static_cast<acc_writer *>(ctx);
    w->launch = l->index;
    w->recorded = w->skipped = 0;
    w->dropped0 = w->dropped;
    w->rec0 = sim_rec_dropped();
    fprintf(w->f, "L %u %u,%u,%u %u,%u,%u %zu %d ", l->index, l->grid[0], l->grid[1], l->grid[2], l->block[0],
            l->block[1], l->block[2], l->dynamic_smem, l->line);
    put_name(w->f, l->kernel);
}

/* the window: asked as a block starts (from any worker: it only answers) */
int w_want_block(void *ctx, unsigned long long block)
{
    return block < static_cast<const acc_writer *>(ctx)->max_blocks;
}

/* a block began, in block order (record.h) */
void w_block_begin(void *ctx, unsigned long long block, int recorded)
{
    acc_writer *w = static_cast<acc_writer *>(ctx);
    w->c_lo = w->c_hi = 0; /* a block places its shared arrays anew */
    if (block < w->max_blocks) w->recorded++;
    else w->skipped++;
    (void)recorded;
}

unsigned object_number(acc_writer *w, const sim_rec_object *o);

unsigned object_id(acc_writer *w, uintptr_t a, uintptr_t *base)
{
    if (a >= w->c_lo && a < w->c_hi) {
        *base = w->c_base;
        return w->c_id;
    }
    const sim_rec_object *o = sim_rec_object_at(a);
    if (!o) return 0;
    *base = o->base;
    unsigned id = object_number(w, o);
    w->c_lo = o->base;
    w->c_hi = o->base + o->bytes;
    w->c_base = o->base;
    w->c_id = id;
    return id;
}

/* hexadecimal digits of v at p; returns the end */
char *put_hex(char *p, unsigned long long v)
{
    char t[16];
    int n = 0;
    do {
        t[n++] = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (v);
    while (n) *p++ = t[--n];
    return p;
}

char *put_dec(char *p, unsigned v)
{
    char t[12];
    int n = 0;
    do {
        t[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n) *p++ = t[--n];
    return p;
}

unsigned object_number(acc_writer *w, const sim_rec_object *o)
{
    unsigned id;
    if (o->space == SIM_REC_GLOBAL) {
        auto it = w->global_ids.find(o->id);
        if (it != w->global_ids.end()) return it->second;
        id = ++w->next_obj;
        w->global_ids[o->id] = id;
    } else {
        auto key = std::make_pair(w->launch, std::string(o->name ? o->name : "shared"));
        auto it = w->shared.find(key);
        if (it != w->shared.end()) return it->second;
        id = ++w->next_obj;
        w->shared[key] = id;
    }
    fprintf(w->f, "O %u %c %zu %zu %zu ", id, o->space == SIM_REC_SHARED ? 's' : 'g', o->bytes, o->elem,
            o->space == SIM_REC_SHARED ? sim_rec_shared_offset((const void *)o->base) : (size_t)0);
    put_name(w->f, o->name);
    return id;
}

void w_request(void *ctx, const sim_rec_request *r)
{
    acc_writer *w = static_cast<acc_writer *>(ctx);
    if (r->block >= w->max_blocks) return; /* another reader wanted the block */
    unsigned n = (unsigned)__builtin_popcount(r->mask);
    if (w->written + n > w->max_lanes) {
        w->dropped += n;
        return;
    }
    unsigned site;
    auto it = w->sites.find(r->site);
    if (it == w->sites.end()) {
        site = w->next_site++;
        w->sites[r->site] = site;
        fprintf(w->f, "S %u %llx\n", site, (unsigned long long)r->site);
    } else {
        site = it->second;
    }
    /* objects first: their O lines go before the R line that names them */
    unsigned obj[32];
    uintptr_t base[32];
    for (uint32_t m = r->mask; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        base[lane] = 0;
        obj[lane] = object_id(w, r->addr[lane], &base[lane]);
    }
    uint64_t sec[128];
    unsigned sectors = r->space == SIM_REC_GLOBAL ? sim_rec_sectors(r, sec) : 0;
    unsigned long long wf = r->space == SIM_REC_SHARED ? sim_rec_wavefronts(r) : 0;
    /* one line, formatted by hand: the writer runs for every request */
    char line[160 + 32 * 56], *p = line;
    p += snprintf(p, 160, "R %llu %u %u %u %c %c %u %u %llu", r->block, r->warp, r->epoch, site,
                  r->kind == SIM_REC_LOAD ? 'l' : r->kind == SIM_REC_STORE ? 's' : 'a',
                  r->space == SIM_REC_SHARED ? 's' : 'g', r->width, sectors, wf);
    for (uint32_t m = r->mask; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        *p++ = ' ';
        p = put_dec(p, (unsigned)lane);
        *p++ = ':';
        p = put_dec(p, obj[lane]);
        *p++ = ':';
        p = put_hex(p, (unsigned long long)(r->addr[lane] - base[lane]));
        *p++ = ':';
        p = put_hex(p, (unsigned long long)(r->value ? r->value[lane] : 0));
    }
    *p++ = '\n';
    fwrite(line, 1, (size_t)(p - line), w->f);
    w->written += n;
}

/* A source position's number, its P line written the first time. */
unsigned position(acc_writer *w, const char *name, int line, const char *file)
{
    auto key = std::make_pair(std::make_pair(name, file), line);
    auto it = w->positions.find(key);
    if (it != w->positions.end()) return it->second;
    unsigned id = w->next_site++;
    w->positions[key] = id;
    fprintf(w->f, "P %u %d ", id, line);
    for (const char *c = name && *name ? name : "?"; *c; c++) fputc(*c == ' ' || *c == '\n' ? '_' : *c, w->f);
    fputc(' ', w->f);
    put_name(w->f, file ? file : "?");
    return id;
}

void w_warpop(void *ctx, const sim_rec_warpop *o)
{
    acc_writer *w = static_cast<acc_writer *>(ctx);
    if (o->block >= w->max_blocks) return;
    unsigned n = (unsigned)__builtin_popcount(o->mask);
    if (w->written + n > w->max_lanes) {
        w->dropped += n;
        return;
    }
    unsigned pos = position(w, o->name, o->line, o->file);
    char line[96 + 32 * 44], *p = line;
    p += snprintf(p, 96, "C %llu %u %u %d %u %u %d", o->block, o->warp, o->epoch, o->op, pos, o->arg, o->width);
    for (uint32_t m = o->mask; m; m &= m - 1) {
        int lane = __builtin_ctz(m);
        *p++ = ' ';
        p = put_dec(p, (unsigned)lane);
        *p++ = ':';
        p = put_dec(p, o->src[lane]);
        *p++ = ':';
        p = put_hex(p, (unsigned long long)o->value[lane]);
        *p++ = ':';
        p = put_hex(p, (unsigned long long)o->result[lane]);
    }
    *p++ = '\n';
    fwrite(line, 1, (size_t)(p - line), w->f);
    w->written += n;
}

void w_sync(void *ctx, const sim_rec_sync *y)
{
    acc_writer *w = static_cast<acc_writer *>(ctx);
    if (y->block >= w->max_blocks) return;
    unsigned pos = position(w, y->name, y->line, y->file);
    fprintf(w->f, "B %llu %u %c %u %u\n", y->block, y->epoch, y->kind == SIM_REC_BAR_GRID ? 'g' : 'b', pos,
            y->threads);
}

void w_launch_end(void *ctx, const sim_rec_launch *l, int rc)
{
    acc_writer *w = static_cast<acc_writer *>(ctx);
    fprintf(w->f, "E %u %d %llu %llu %llu\n", l->index, rc, w->recorded, w->skipped,
            w->dropped - w->dropped0 + sim_rec_dropped() - w->rec0);
    fflush(w->f);
}

/* ---------------------------------------------------------------- parser */

template <class T> int grow(T **p, size_t n, size_t *cap)
{
    if (n < *cap) return 0;
    size_t c = *cap ? *cap * 2 : 64;
    T *q = (T *)realloc(*p, c * sizeof(T));
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

/* Room for the lanes listed in `lanes` (one per space)? A record is kept
 * whole or not at all: one that would pass the bound is counted as dropped. */
bool room(acc_trace *t, int cur, const char *lanes, unsigned long long max_lanes)
{
    unsigned n = 0;
    for (const char *c = lanes; *c; c++)
        if (*c == ' ') n++;
    if (t->nlanes + t->nwlanes + n <= max_lanes) return true;
    t->dropped += n;
    t->launches[cur].dropped += n;
    return false;
}

void copy_name(char *dst, size_t len, const char *src)
{
    snprintf(dst, len, "%s", src);
    dst[strcspn(dst, "\n")] = 0;
}

} /* namespace */

extern "C" int acc_writer_attach(FILE *f, unsigned max_blocks, unsigned long long max_lanes)
{
    if (W || !f || !sim_rec_available()) return -1;
    W = new acc_writer();
    W->f = f;
    W->max_blocks = max_blocks ? max_blocks : ACC_DEFAULT_BLOCKS;
    W->max_lanes = max_lanes ? max_lanes : ACC_DEFAULT_LANES;
    W->reader.ctx = W;
    W->reader.launch_begin = w_launch_begin;
    W->reader.request = w_request;
    W->reader.launch_end = w_launch_end;
    W->reader.want_block = w_want_block;
    W->reader.block_begin = w_block_begin;
    W->reader.warpop = w_warpop;
    W->reader.values = 1; /* the trace writes each lane's value */
    W->reader.sync = w_sync;
    if (sim_rec_attach(&W->reader) != 0) {
        delete W;
        W = nullptr;
        return -1;
    }
    fprintf(f, "# gpulab access trace 1, blocks %u, lanes %llu\n", W->max_blocks, W->max_lanes);
    return 0;
}

extern "C" void acc_writer_detach(void)
{
    if (!W) return;
    sim_rec_detach(&W->reader);
    fflush(W->f);
    delete W;
    W = nullptr;
}

extern "C" int acc_trace_read(FILE *f, acc_trace *t, unsigned long long max_lanes, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    if (!max_lanes) max_lanes = ACC_DEFAULT_LANES;
    size_t cap_l = 0, cap_a = 0, cap_s = 0, cap_r = 0, cap_n = 0, cap_w = 0, cap_wl = 0, cap_b = 0;
    unsigned seq = 0; /* requests and warp operations of the launch so far */
    char *line = nullptr;
    size_t len = 0;
    ssize_t got;
    int rc = 0;
    int cur = -1;
    std::unordered_map<unsigned, int> arr_of; /* file id -> index */
    std::unordered_map<unsigned, int> site_of;
    while ((got = getline(&line, &len, f)) > 0) {
        char *p = line;
        if (p[0] == '#') {
            sscanf(p, "# gpulab access trace 1, blocks %u", &t->max_blocks);
            continue;
        }
        if (p[0] == 'L') {
            if (grow(&t->launches, (size_t)t->nlaunches, &cap_l)) goto oom;
            acc_launch *l = &t->launches[t->nlaunches];
            memset(l, 0, sizeof *l);
            unsigned idx;
            int off = 0;
            if (sscanf(p, "L %u %u,%u,%u %u,%u,%u %llu %d %n", &idx, &l->grid[0], &l->grid[1], &l->grid[2],
                       &l->block[0], &l->block[1], &l->block[2], &l->smem, &l->line, &off) < 9 || !off)
                continue;
            copy_name(l->kernel, sizeof l->kernel, p + off);
            l->rc = 1;
            l->req0 = t->nreqs;
            l->wop0 = t->nwops;
            l->bar0 = t->nbars;
            seq = 0;
            cur = t->nlaunches++;
        } else if (p[0] == 'O') {
            unsigned id;
            char sp;
            unsigned long long bytes, elem, base;
            int off = 0;
            if (sscanf(p, "O %u %c %llu %llu %llu %n", &id, &sp, &bytes, &elem, &base, &off) < 5 || !off) continue;
            if (grow(&t->arrays, (size_t)t->narrays, &cap_a)) goto oom;
            acc_array *a = &t->arrays[t->narrays];
            memset(a, 0, sizeof *a);
            copy_name(a->name, sizeof a->name, p + off);
            a->space = sp == 's' ? ACC_SHARED : ACC_GLOBAL;
            a->bytes = bytes;
            a->elem = (unsigned)elem;
            a->base = base;
            arr_of[id] = t->narrays++;
        } else if (p[0] == 'S') {
            unsigned id;
            unsigned long long pc;
            if (sscanf(p, "S %u %llx", &id, &pc) < 2) continue;
            if (grow(&t->sites, (size_t)t->nsites, &cap_s)) goto oom;
            acc_site *s = &t->sites[t->nsites];
            memset(s, 0, sizeof *s);
            s->pc = pc;
            site_of[id] = t->nsites++;
        } else if (p[0] == 'P') {
            unsigned id;
            int ln, off = 0;
            char name[40];
            if (sscanf(p, "P %u %d %39s %n", &id, &ln, name, &off) < 3 || !off) continue;
            if (grow(&t->sites, (size_t)t->nsites, &cap_s)) goto oom;
            acc_site *s = &t->sites[t->nsites];
            memset(s, 0, sizeof *s);
            s->line = ln;
            copy_name(s->name, sizeof s->name, name);
            const char *file = p + off, *slash = strrchr(file, '/');
            copy_name(s->file, sizeof s->file, slash ? slash + 1 : file);
            site_of[id] = t->nsites++;
        } else if (p[0] == 'C' && cur >= 0) {
            acc_wop o;
            memset(&o, 0, sizeof o);
            unsigned long long block;
            unsigned op, pos;
            int off = 0;
            if (sscanf(p, "C %llu %u %u %u %u %u %d%n", &block, &o.warp, &o.epoch, &op, &pos, &o.arg, &o.width,
                       &off) < 7 || !off || op >= ACC_NOPS)
                continue;
            if (!room(t, cur, p + off, max_lanes)) continue;
            o.launch = (unsigned)cur;
            o.block = (unsigned)block;
            o.op = (unsigned char)op;
            o.site = site_of.count(pos) ? (unsigned)site_of[pos] : 0;
            o.lane0 = t->nwlanes;
            char *c = p + off;
            while (*c == ' ') {
                char *e;
                unsigned long lane = strtoul(c + 1, &e, 10);
                if (*e != ':' || lane > 31) break;
                unsigned long src = strtoul(e + 1, &e, 10);
                if (*e != ':' || src > 31) break;
                unsigned long long v = strtoull(e + 1, &e, 16);
                if (*e != ':') break;
                unsigned long long res = strtoull(e + 1, &e, 16);
                c = e;
                if (grow(&t->wlanes, t->nwlanes, &cap_wl)) goto oom;
                acc_wlane *wl = &t->wlanes[t->nwlanes++];
                wl->lane = (unsigned char)lane;
                wl->src = (unsigned char)src;
                wl->value = v;
                wl->result = res;
                o.mask |= 1u << lane;
                o.nlanes++;
            }
            if (!o.nlanes) continue;
            o.seq = seq++;
            if (grow(&t->wops, t->nwops, &cap_w)) goto oom;
            t->wops[t->nwops++] = o;
            acc_launch *l = &t->launches[cur];
            l->nwop++;
            if (o.epoch + 1 > l->epochs) l->epochs = o.epoch + 1;
        } else if (p[0] == 'B' && cur >= 0) {
            acc_bar b;
            memset(&b, 0, sizeof b);
            char kind;
            unsigned pos;
            if (sscanf(p, "B %u %u %c %u %u", &b.block, &b.epoch, &kind, &pos, &b.threads) < 5) continue;
            b.launch = (unsigned)cur;
            b.grid = kind == 'g';
            b.site = site_of.count(pos) ? (unsigned)site_of[pos] : 0;
            if (grow(&t->bars, t->nbars, &cap_b)) goto oom;
            t->bars[t->nbars++] = b;
            t->launches[cur].nbar++;
        } else if (p[0] == 'R' && cur >= 0) {
            acc_req q;
            memset(&q, 0, sizeof q);
            unsigned long long block;
            unsigned site, width;
            char kind, space;
            int off = 0;
            if (sscanf(p, "R %llu %u %u %u %c %c %u %u %u%n", &block, &q.warp, &q.epoch, &site, &kind, &space,
                       &width, &q.sectors, &q.wavefronts, &off) < 9 || !off)
                continue;
            if (!room(t, cur, p + off, max_lanes)) continue;
            q.launch = (unsigned)cur;
            q.block = (unsigned)block;
            q.site = site_of.count(site) ? (unsigned)site_of[site] : 0;
            q.kind = kind == 'l' ? ACC_READ : kind == 's' ? ACC_WRITE : ACC_ATOMIC;
            q.space = space == 's' ? ACC_SHARED : ACC_GLOBAL;
            q.width = (unsigned char)(width > 255 ? 255 : width);
            q.lane0 = t->nlanes;
            char *c = p + off;
            while (*c == ' ') {
                /* lane:obj:offset:value, read by hand (millions of them) */
                char *e;
                unsigned long lane = strtoul(c + 1, &e, 10);
                if (*e != ':' || lane > 31) break;
                unsigned long obj = strtoul(e + 1, &e, 10);
                if (*e != ':') break;
                unsigned long long o = strtoull(e + 1, &e, 16);
                if (*e != ':') break;
                unsigned long long v = strtoull(e + 1, &e, 16);
                c = e;
                auto it = arr_of.find((unsigned)obj);
                if (it == arr_of.end()) continue;
                if (grow(&t->lanes, t->nlanes, &cap_n)) goto oom;
                acc_lane *al = &t->lanes[t->nlanes++];
                al->array = (unsigned)it->second;
                al->lane = (unsigned char)lane;
                al->offset = o;
                al->value = v;
                al->index = 0;
                q.mask |= 1u << lane;
                q.nlanes++;
                acc_array *a = &t->arrays[it->second];
                if (a->space == ACC_GLOBAL && (a->elem == 0 || q.width < a->elem)) a->elem = q.width;
            }
            if (!q.nlanes) continue;
            q.seq = seq++;
            if (grow(&t->reqs, t->nreqs, &cap_r)) goto oom;
            t->reqs[t->nreqs++] = q;
            acc_launch *l = &t->launches[cur];
            l->nreq++;
            if (q.epoch + 1 > l->epochs) l->epochs = q.epoch + 1;
        } else if (p[0] == 'E' && cur >= 0) {
            unsigned idx;
            int r;
            unsigned long long rec, skip, drop;
            if (sscanf(p, "E %u %d %llu %llu %llu", &idx, &r, &rec, &skip, &drop) < 5) continue;
            acc_launch *l = &t->launches[cur];
            l->rc = r;
            l->blocks_recorded = rec;
            l->blocks_skipped = skip;
            l->dropped += drop;
            t->dropped += drop;
            t->blocks_skipped += skip;
        }
    }
    for (int i = 0, g = 0; i < t->narrays; i++) {
        acc_array *a = &t->arrays[i];
        /* an allocation the call did not name (a built-in kernel's, made by
         * the harness): by its order */
        if (a->space == ACC_GLOBAL && (strncmp(a->name, "cudaMalloc", 10) == 0 || a->name[0] == '?'))
            snprintf(a->name, sizeof a->name, "global%d", ++g);
        if (!a->elem) a->elem = 4;
        a->cells = (a->bytes + a->elem - 1) / a->elem;
    }
    for (size_t i = 0; i < t->nlanes; i++) t->lanes[i].index = t->lanes[i].offset / t->arrays[t->lanes[i].array].elem;
    free(line);
    return rc;
oom:
    free(line);
    acc_trace_free(t);
    snprintf(err, errlen, "out of memory reading the access trace");
    return -1;
}

extern "C" void acc_trace_resolve(acc_trace *t, const char *exe)
{
    for (int i = 0; i < t->nsites; i++) {
        acc_site *s = &t->sites[i];
        if (!s->pc) continue; /* a position: named already */
        int r = exe ? sim_rec_site_where_exe(exe, (uintptr_t)s->pc, s->file, sizeof s->file, &s->line)
                    : sim_rec_site_where((uintptr_t)s->pc, s->file, sizeof s->file, &s->line);
        if (r != 0) {
            s->file[0] = 0;
            s->line = 0;
        }
    }
    if (exe) sim_rec_site_where_exe(nullptr, 0, nullptr, 0, nullptr);
}

extern "C" void acc_trace_free(acc_trace *t)
{
    if (!t) return;
    free(t->launches);
    free(t->arrays);
    free(t->sites);
    free(t->reqs);
    free(t->lanes);
    free(t->wops);
    free(t->wlanes);
    free(t->bars);
    memset(t, 0, sizeof *t);
}

extern "C" void acc_wop_value_text(unsigned long long v, char *buf, size_t len)
{
    acc_value_text(v, v >> 32 ? 8 : 4, buf, len);
}

extern "C" void acc_value_text(unsigned long long v, unsigned w, char *buf, size_t len)
{
    if (w == 4) {
        int32_t i = (int32_t)(uint32_t)v;
        float f;
        uint32_t u = (uint32_t)v;
        memcpy(&f, &u, 4);
        if (i > -(1 << 24) && i < (1 << 24)) snprintf(buf, len, "%d", i);
        else if (isfinite(f)) snprintf(buf, len, "%g", (double)f);
        else snprintf(buf, len, "%d", i);
    } else if (w == 8) {
        long long i = (long long)v;
        double d;
        memcpy(&d, &v, 8);
        if (i > -(1ll << 40) && i < (1ll << 40)) snprintf(buf, len, "%lld", i);
        else if (isfinite(d)) snprintf(buf, len, "%g", d);
        else snprintf(buf, len, "%lld", i);
    } else if (w == 2) {
        snprintf(buf, len, "%d", (int)(int16_t)(uint16_t)v);
    } else if (w == 1) {
        snprintf(buf, len, "%d", (int)(int8_t)(uint8_t)v);
    } else {
        snprintf(buf, len, "?");
    }
}
