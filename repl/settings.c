/* settings.c - the table of settings that `set` changes and `show` lists.
 * Each setting parses its value, checks it (against the chosen variant's
 * limits through lab_validate() where they apply), says what is allowed
 * when it refuses, and lists its values for completion. The commands that
 * use the table are in cmd_set.c (set, reset) and cmd_info.c (show). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "repl/settings.h"

#include "kernels/lab.h"
#include "kernels/sim/acctrace.h"
#include "kernels/program/program.h"
#include "repl/i18n.h"
#include "repl/out.h"
#include "repl/parse.h"
#include "repl/safefile.h"
#include "repl/session.h"

#define INT_MAXV 2147483647LL

/* Check a changed config against the current variant; on failure the
 * message comes from the registry's limits. */
static int validate(struct session *s, const lab_config *c, char *err, size_t errlen)
{
    if (!s->algo) return 0;
    return lab_validate(s->algo, s->variant, c, err, errlen);
}

/* What can be known at `set` time about a size the next run will refuse
 * is said at once, as a warning (the value is kept: the backend or
 * sim-limit may change before the run): an input past the machine's
 * memory (the 60% of host memory lab_input_prepare allows, or the GPU's
 * memory), n or grid x block past sim-limit where kernels run on the
 * simulator. */
enum { WARN_N = 1, WARN_THREADS = 2 };

static void warn_size(const struct session *s, const lab_config *c, int what)
{
    if (!s->algo) return;
    char a[32], b[32];
    double need = c->n > 0 && s->algo->host_bytes ? s->algo->host_bytes(c) : 0;
    double host = lab_host_memory_bytes();
    if ((what & WARN_N) && need > 0.6 * host) {
        lab_fmt_bytes(need, a, sizeof a);
        lab_fmt_bytes(host, b, sizeof b);
        out_warn(_("n = %lld needs about %s of host memory and this machine has %s: a run will refuse it"),
                 c->n, a, b);
        return;
    }
    int sim = lab_kernel_backend(c) == LAB_BACKEND_SIM;
    if ((what & WARN_N) && !sim && need > 0 && lab_gpu_available() && need > (double)lab_device()->mem_total) {
        lab_fmt_bytes(need, a, sizeof a);
        lab_fmt_bytes((double)lab_device()->mem_total, b, sizeof b);
        out_warn(_("n = %lld needs about %s and the GPU has %s of memory: a run on it will refuse it"),
                 c->n, a, b);
        return;
    }
    if (!sim) return;
    parse_fmt_size(c->sim_limit, b, sizeof b);
    if ((what & WARN_N) && c->n > c->sim_limit) {
        /* What a run does then (cmd_run.c, sim_fit_n): every row at the
         * family's simulator size, or the largest power of two within a
         * lowered limit. */
        long long fit = s->algo->sim_default_n > 0 ? s->algo->sim_default_n : s->algo->n_default;
        if (fit > c->sim_limit)
            for (fit = 1; fit * 2 <= c->sim_limit;) fit *= 2;
        char f[32];
        parse_fmt_size(fit, f, sizeof f);
        out_note(_("n = %lld is past sim-limit (%s) and kernels run on the simulator here: a run uses n = %s "
                   "for every row instead (`set sim-limit` raises the limit)"), c->n, b, f);
        return;
    }
    if (!(what & WARN_THREADS)) return;
    long long block = c->block > 0 ? c->block : s->variant && s->variant->block_default > 0 ? s->variant->block_default : 0;
    if (c->block_y > 0) block *= c->block_y;
    long long grid = c->grid * (c->grid_y > 0 ? c->grid_y : 1);
    if (c->grid > 0 && block > 0 && (double)grid * (double)block > (double)c->sim_limit)
        out_warn(_("grid %lld x block %lld = %.0f threads is past sim-limit (%s), and the simulator plays "
                   "every thread: a launch that size will be refused"), grid, block, (double)grid * block, b);
}

/* ------------------------------------------------------- n, block, grid */

static int set_n(struct session *s, const struct setting *st, const char *v, char *err, size_t errlen)
{
    long long n;
    lab_config c = s->cfg;
    if (parse_is_auto(v)) {
        c.n = 0;
    } else {
        if (parse_size(v, (long long)st->min, (long long)st->max, &n, err, errlen) != 0) return -1;
        c.n = n;
    }
    if (validate(s, &c, err, errlen) != 0) return -1;
    long long old_n = s->cfg.n;
    s->cfg = c;
    if (c.n != old_n) warn_size(s, &c, WARN_N); /* said when n changes, not after every set */
    return 0;
}

static void show_n(const struct session *s, char *buf, size_t len)
{
    char a[32];
    if (s->cfg.n > 0) {
        parse_fmt_size(s->cfg.n, a, sizeof a);
        if (strcmp(a, "") && s->cfg.n >= 1024 && strchr(a, 'i'))
            snprintf(buf, len, "%s (%lld)", a, s->cfg.n);
        else
            snprintf(buf, len, "%lld", s->cfg.n);
        return;
    }
    if (!s->algo) {
        snprintf(buf, len, "auto");
        return;
    }
    char g[32], m[32];
    parse_fmt_size(s->algo->n_default, g, sizeof g);
    if (s->algo->sim_default_n > 0 && s->algo->sim_default_n != s->algo->n_default) {
        parse_fmt_size(s->algo->sim_default_n, m, sizeof m);
        snprintf(buf, len, _("auto (%s on a GPU, %s on the simulator)"), g, m);
    } else {
        snprintf(buf, len, "auto (%s)", g);
    }
}

static void complete_n(struct session *s, struct cmp_list *out)
{
    static const char *const v[] = {"auto", "1Ki", "1Mi", "2^20", "2^26", "64Mi", "1e6", "1e8"};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) cmp_add(out, v[i]);
}

/* "2^8 threads of reduce/x": what the variant accepts, for messages. */
static void block_range(const struct session *s, char *buf, size_t len)
{
    const lab_variant *v = s->variant;
    if (!v || v->kind != LAB_ROW_KERNEL) {
        snprintf(buf, len, _("1..1024 threads"));
        return;
    }
    if (v->flags & LAB_FIXED_BLOCK) {
        snprintf(buf, len, _("only auto: %s/%s chooses its block (%d)"), s->algo->name, v->name,
                 v->block_default);
        return;
    }
    snprintf(buf, len,
             (v->flags & LAB_POW2_BLOCK) ? _("%s/%s takes %d..%d threads, a power of two")
                                         : _("%s/%s takes %d..%d threads"),
             s->algo->name, v->name, v->block_min > 0 ? v->block_min : 1,
             v->block_max > 0 ? v->block_max : 1024);
}

static int set_block(struct session *s, const struct setting *st, const char *v, char *err, size_t errlen)
{
    lab_config c = s->cfg;
    long long x, y;
    char range[256];
    block_range(s, range, sizeof range);
    if (parse_is_auto(v)) {
        c.block = c.block_y = 0;
    } else {
        if (parse_dims(v, 0, INT_MAXV, &x, &y, err, errlen) != 0) {
            char tmp[512];
            snprintf(tmp, sizeof tmp, _("%s; block is threads per block: %s (or auto)"), err, range);
            snprintf(err, errlen, "%s", tmp);
            return -1;
        }
        if (x == 0 || (strchr(v, 'x') && y == 0)) {
            snprintf(err, errlen, _("a block has at least one thread; %s (or auto)"), range);
            return -1;
        }
        if (y > 0 && s->variant && !(s->variant->flags & LAB_BLOCK_2D)) {
            snprintf(err, errlen, _("%s/%s takes a 1D block: one number (or auto)"), s->algo->name,
                     s->variant->name);
            return -1;
        }
        if (x * (y > 0 ? y : 1) > 1024) {
            snprintf(err, errlen, _("%lld threads; CUDA allows at most 1024 threads per block (%s)"),
                     x * (y > 0 ? y : 1), range);
            return -1;
        }
        c.block = (int)x;
        c.block_y = (int)y;
    }
    if (validate(s, &c, err, errlen) != 0) return -1;
    s->cfg = c;
    warn_size(s, &c, WARN_THREADS);
    return 0;
}

static void show_block(const struct session *s, char *buf, size_t len)
{
    if (s->cfg.block <= 0) {
        if (s->variant && s->variant->block_default > 0)
            snprintf(buf, len, "auto (%d)", s->variant->block_default);
        else
            snprintf(buf, len, "auto");
    } else if (s->cfg.block_y > 0) {
        snprintf(buf, len, "%dx%d", s->cfg.block, s->cfg.block_y);
    } else {
        snprintf(buf, len, "%d", s->cfg.block);
    }
}

static void complete_block(struct session *s, struct cmp_list *out)
{
    cmp_add(out, "auto");
    int lo = s->variant && s->variant->block_min > 0 ? s->variant->block_min : 32;
    int hi = s->variant && s->variant->block_max > 0 ? s->variant->block_max : 1024;
    char b[16];
    for (int v = 32; v <= 1024; v *= 2)
        if (v >= lo && v <= hi) {
            snprintf(b, sizeof b, "%d", v);
            cmp_add(out, b);
        }
}

static int set_grid(struct session *s, const struct setting *st, const char *v, char *err, size_t errlen)
{
    lab_config c = s->cfg;
    long long x, y;
    if (parse_is_auto(v)) {
        c.grid = c.grid_y = 0;
    } else {
        if (parse_dims(v, 1, INT_MAXV, &x, &y, err, errlen) != 0) {
            char tmp[512];
            snprintf(tmp, sizeof tmp, _("%s; grid is a number of blocks, or auto"), err);
            snprintf(err, errlen, "%s", tmp);
            return -1;
        }
        c.grid = x;
        c.grid_y = y;
    }
    if (validate(s, &c, err, errlen) != 0) return -1;
    s->cfg = c;
    warn_size(s, &c, WARN_THREADS);
    return 0;
}

static void show_grid(const struct session *s, char *buf, size_t len)
{
    if (s->cfg.grid <= 0) {
        if (s->variant && s->variant->grid_default > 0)
            snprintf(buf, len, "auto (%lld)", s->variant->grid_default);
        else
            snprintf(buf, len, _("auto (from n)"));
    } else if (s->cfg.grid_y > 0) {
        snprintf(buf, len, "%lldx%lld", s->cfg.grid, s->cfg.grid_y);
    } else {
        snprintf(buf, len, "%lld", s->cfg.grid);
    }
}

static void complete_auto(struct session *s, struct cmp_list *out)
{
    cmp_add(out, "auto");
}

/* ------------------------------------------------------ dtype, pattern */

static unsigned allowed_dtypes(const struct session *s)
{
    if (!s->algo) return (1u << LAB_NDTYPES) - 1;
    unsigned m = s->variant && s->variant->dtypes ? s->variant->dtypes : s->algo->dtypes;
    return m ? m : (1u << LAB_NDTYPES) - 1;
}

static void dtype_list(const struct session *s, unsigned mask, char *buf, size_t len)
{
    buf[0] = 0;
    for (int i = 0; i < LAB_NDTYPES; i++)
        if (mask & LAB_DT(i)) {
            size_t l = strlen(buf);
            snprintf(buf + l, len - l, "%s%s", l ? ", " : "", lab_dtype_name((lab_dtype)i));
        }
}

static int set_dtype(struct session *s, const struct setting *st, const char *v, char *err, size_t errlen)
{
    lab_dtype t;
    char list[128];
    unsigned mask = allowed_dtypes(s);
    if (lab_dtype_parse(v, &t) != 0) {
        dtype_list(s, mask, list, sizeof list);
        snprintf(err, errlen, _("unknown dtype \"%s\"; %s%s%s takes %s"), v,
                 s->algo ? s->algo->name : "", s->variant ? "/" : "",
                 s->variant ? s->variant->name : "", list);
        return -1;
    }
    lab_config c = s->cfg;
    c.dtype = t;
    if (validate(s, &c, err, errlen) != 0) return -1;
    s->cfg = c;
    return 0;
}

static void show_dtype(const struct session *s, char *buf, size_t len)
{
    snprintf(buf, len, "%s", lab_dtype_name(s->cfg.dtype));
}

static void complete_dtype(struct session *s, struct cmp_list *out)
{
    unsigned mask = allowed_dtypes(s);
    for (int i = 0; i < LAB_NDTYPES; i++)
        if (mask & LAB_DT(i)) cmp_add(out, lab_dtype_name((lab_dtype)i));
}

static int set_pattern(struct session *s, const struct setting *st, const char *v, char *err, size_t errlen)
{
    if (!s->algo || !s->algo->patterns || !s->algo->patterns[0]) {
        if (s->algo) snprintf(err, errlen, _("%s has no input patterns to choose from"), s->algo->name);
        else snprintf(err, errlen, _("this algorithm has no input patterns to choose from"));
        return -1;
    }
    int n = 0;
    while (s->algo->patterns[n]) n++;
    int amb[8], namb = 0;
    int k = parse_lookup(v, (const char *const *)s->algo->patterns, n, amb, 8, &namb);
    if (k < 0) {
        char list[256] = "";
        for (int i = 0; i < n; i++) {
            size_t l = strlen(list);
            snprintf(list + l, sizeof list - l, "%s%s", i ? ", " : "", s->algo->patterns[i]);
        }
        snprintf(err, errlen, k == -2 ? _("ambiguous pattern \"%s\"; %s takes %s")
                                      : _("unknown pattern \"%s\"; %s takes %s"),
                 v, s->algo->name, list);
        return -1;
    }
    snprintf(s->cfg.pattern, sizeof s->cfg.pattern, "%s", s->algo->patterns[k]);
    return 0;
}

static void show_pattern(const struct session *s, char *buf, size_t len)
{
    snprintf(buf, len, "%s", s->cfg.pattern[0] ? s->cfg.pattern : "-");
}

static void complete_pattern(struct session *s, struct cmp_list *out)
{
    if (!s->algo || !s->algo->patterns) return;
    for (int i = 0; s->algo->patterns[i]; i++) cmp_add(out, s->algo->patterns[i]);
}

/* ------------------------------------------------------ plain numbers */

static int set_value(struct session *s, const struct setting *st, const char *v, char *err, size_t errlen)
{
    double d;
    if (parse_double(v, &d, err, errlen) != 0) return -1;
    s->cfg.value = d;
    return 0;
}

static void show_value(const struct session *s, char *buf, size_t len)
{
    snprintf(buf, len, "%.9g", s->cfg.value);
}

static int set_seed(struct session *s, const struct setting *st, const char *v, char *err, size_t errlen)
{
    long long x;
    if (parse_int(v, (long long)st->min, (long long)st->max, &x, err, errlen) != 0) return -1;
    s->cfg.seed = (unsigned)x;
    return 0;
}

static void show_seed(const struct session *s, char *buf, size_t len)
{
    snprintf(buf, len, "%u", s->cfg.seed);
}

static int set_repeats(struct session *s, const struct setting *st, const char *v, char *err, size_t errlen)
{
    long long x;
    if (parse_int(v, (long long)st->min, (long long)st->max, &x, err, errlen) != 0) return -1;
    s->cfg.repeats = (int)x;
    return 0;
}

static void show_repeats(const struct session *s, char *buf, size_t len)
{
    snprintf(buf, len, "%d", s->cfg.repeats);
}

static void complete_repeats(struct session *s, struct cmp_list *out)
{
    static const char *const v[] = {"1", "5", "10", "20", "100"};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) cmp_add(out, v[i]);
}

/* ------------------------------------------------------ backend and sim */

/* GPUs a reduce splits over: any number the simulator can model, on a GPU
 * machine at most the GPUs it has. */
static int set_gpus(struct session *s, const struct setting *st, const char *v, char *err, size_t errlen)
{
    long long x;
    if (parse_int(v, (long long)st->min, (long long)st->max, &x, err, errlen) != 0) return -1;
    int have = lab_device_count();
    if (x > 1 && lab_kernel_backend(&s->cfg) == LAB_BACKEND_GPU && x > have) {
        snprintf(err, errlen,
                 ngettext("this machine has %d GPU and gpus is %lld; allowed: 1..%d (set backend sim models up to %d)",
                          "this machine has %d GPUs and gpus is %lld; allowed: 1..%d (set backend sim models up to %d)",
                          (unsigned long)have),
                 have, x, have, LAB_MAX_GPUS);
        return -1;
    }
    s->cfg.gpus = (int)x;
    return 0;
}

static void show_gpus(const struct session *s, char *buf, size_t len)
{
    snprintf(buf, len, "%d", s->cfg.gpus);
}

static void complete_gpus(struct session *s, struct cmp_list *out)
{
    static const char *const v[] = {"1", "2", "3", "4", "8"};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) cmp_add(out, v[i]);
}

static int set_backend(struct session *s, const struct setting *st, const char *v, char *err, size_t errlen)
{
    static const char *const names[] = {"auto", "gpu", "sim"};
    static const lab_backend be[] = {LAB_BACKEND_AUTO, LAB_BACKEND_GPU, LAB_BACKEND_SIM};
    int k = parse_lookup(v, names, 3, NULL, 0, NULL);
    if (k < 0) {
        snprintf(err, errlen, _("unknown backend \"%s\"; allowed: auto (GPU when there is one), gpu, sim"), v);
        return -1;
    }
    if (be[k] == LAB_BACKEND_GPU && !lab_gpu_available()) {
        const char *off = lab_device_disabled();
        snprintf(err, errlen, _("no GPU here (%s); allowed: auto or sim"),
                 off ? off : lab_device()->why_not[0] ? lab_device()->why_not : _("none found"));
        return -1;
    }
    s->cfg.backend = be[k];
    return 0;
}

static void show_backend(const struct session *s, char *buf, size_t len)
{
    if (s->cfg.backend == LAB_BACKEND_AUTO)
        snprintf(buf, len, "%s",
                 lab_kernel_backend(&s->cfg) == LAB_BACKEND_GPU ? _("auto (now: the GPU)")
                                                                : _("auto (now: the simulator)"));
    else
        snprintf(buf, len, "%s", lab_backend_name(s->cfg.backend));
}

static void complete_backend(struct session *s, struct cmp_list *out)
{
    cmp_add(out, "auto");
    cmp_add(out, "gpu");
    cmp_add(out, "sim");
}

static int set_sim_limit(struct session *s, const struct setting *st, const char *v, char *err, size_t errlen)
{
    long long x;
    if (parse_size(v, (long long)st->min, (long long)st->max, &x, err, errlen) != 0) return -1;
    s->cfg.sim_limit = x;
    return 0;
}

static void show_sim_limit(const struct session *s, char *buf, size_t len)
{
    char a[32];
    parse_fmt_size(s->cfg.sim_limit, a, sizeof a);
    snprintf(buf, len, "%s", a);
}

static void complete_sim_limit(struct session *s, struct cmp_list *out)
{
    cmp_add(out, "2^20");
    cmp_add(out, "8Mi");
    cmp_add(out, "64Mi");
}

static int set_onoff(int *dst, const char *v, char *err, size_t errlen)
{
    int b;
    if (parse_bool(v, &b, err, errlen) != 0) return -1;
    *dst = b;
    return 0;
}

static int set_race(struct session *s, const struct setting *st, const char *v, char *err, size_t errlen)
{
    return set_onoff(&s->cfg.race_check, v, err, errlen);
}

static void show_race(const struct session *s, char *buf, size_t len)
{
    snprintf(buf, len, "%s", s->cfg.race_check ? "on" : "off");
}

static int set_pad(struct session *s, const struct setting *st, const char *v, char *err, size_t errlen)
{
    lab_config c = s->cfg;
    if (set_onoff(&c.pad, v, err, errlen) != 0) return -1;
    if (validate(s, &c, err, errlen) != 0) return -1;
    s->cfg = c;
    return 0;
}

static void show_pad(const struct session *s, char *buf, size_t len)
{
    snprintf(buf, len, "%s", s->cfg.pad ? "on" : "off");
}

/* set check MODE[,N]: the simulator's memory checks (kernels/sim/check.h),
 * as compute-sanitizer's tools: memcheck is always part of them */
static const struct {
    const char *name;
    int bits;
} check_modes[] = {
    {"off", 0},
    {"memcheck", PROG_CHECK_MEMCHECK},
    {"initcheck", PROG_CHECK_MEMCHECK | PROG_CHECK_INITCHECK},
    {"leaks", PROG_CHECK_MEMCHECK | PROG_CHECK_LEAKS},
    {"all", PROG_CHECK_MEMCHECK | PROG_CHECK_INITCHECK | PROG_CHECK_LEAKS},
};

static const char *check_name(int check)
{
    int m = check ? check & 7 : PROG_CHECK_DEFAULT;
    for (size_t i = 0; i < sizeof check_modes / sizeof check_modes[0]; i++)
        if (check_modes[i].bits == m) return check_modes[i].name;
    return "memcheck";
}

static int set_check(struct session *s, const struct setting *st, const char *v, char *err, size_t errlen)
{
    char mode[32];
    const char *comma = strchr(v, ',');
    size_t l = comma ? (size_t)(comma - v) : strlen(v);
    if (l >= sizeof mode) return -1;
    memcpy(mode, v, l);
    mode[l] = 0;
    int m = -1;
    for (size_t i = 0; i < sizeof check_modes / sizeof check_modes[0]; i++)
        if (strcmp(mode, check_modes[i].name) == 0) m = check_modes[i].bits;
    if (m < 0) return -1;
    int limit = 0;
    if (comma) {
        char *end;
        long x = strtol(comma + 1, &end, 10);
        if (*end || end == comma + 1 || x < 1 || x > 1000) {
            snprintf(err, errlen, _("the number after the comma is how many distinct errors a launch reports, 1 to 1000"));
            return -1;
        }
        limit = (int)x;
    }
    s->check = m | PROG_CHECK_SET;
    s->check_limit = limit;
    prog_check_mode(s->check, s->check_limit); /* the built-in variants' launches */
    return 0;
}

static void show_check(const struct session *s, char *buf, size_t len)
{
    snprintf(buf, len, "%s,%d", check_name(s->check), s->check_limit ? s->check_limit : PROG_CHECK_LIMIT_DEFAULT);
}

static void complete_check(struct session *s, struct cmp_list *out)
{
    for (size_t i = 0; i < sizeof check_modes / sizeof check_modes[0]; i++) cmp_add(out, check_modes[i].name);
}

/* set schedule KIND[,SEED]: the order the simulator runs threads and blocks
 * in (kernels/sim/schedule.cpp); set schedules N: a run tries N orders */
static int set_schedule(struct session *s, const struct setting *st, const char *v, char *err, size_t errlen)
{
    (void)st;
    char kind[32];
    const char *comma = strchr(v, ',');
    size_t l = comma ? (size_t)(comma - v) : strlen(v);
    if (l >= sizeof kind) return -1;
    memcpy(kind, v, l);
    kind[l] = 0;
    int k = prog_schedule_parse(kind);
    if (k < 0) return -1;
    unsigned long long seed = 0;
    if (comma) {
        char *end;
        errno = 0;
        seed = strtoull(comma + 1, &end, 0);
        if (*end || end == comma + 1 || errno || comma[1] == '-') {
            snprintf(err, errlen, _("the number after the comma is the schedule's seed, such as 42 or 0x2a"));
            return -1;
        }
    }
    s->schedule = k;
    s->schedule_seed = seed;
    prog_schedule(k, seed); /* the built-in variants' launches */
    return 0;
}

static void show_schedule(const struct session *s, char *buf, size_t len)
{
    if (s->schedule_seed) snprintf(buf, len, "%s,0x%llx", prog_schedule_name(s->schedule), s->schedule_seed);
    else snprintf(buf, len, "%s", prog_schedule_name(s->schedule));
}

static void complete_schedule(struct session *s, struct cmp_list *out)
{
    (void)s;
    for (int k = PROG_SCHED_FIXED; k <= PROG_SCHED_ADVERSARIAL; k++) cmp_add(out, prog_schedule_name(k));
}

static int set_schedules(struct session *s, const struct setting *st, const char *v, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (end == v || *end || errno || x < st->min || x > st->max) {
        snprintf(err, errlen, _("a number from 1 to 64"));
        return -1;
    }
    s->schedules = (int)x;
    return 0;
}

static void show_schedules(const struct session *s, char *buf, size_t len)
{
    snprintf(buf, len, "%d", s->schedules > 1 ? s->schedules : 1);
}

/* set sim-threads N|auto: the worker threads a launch's blocks run on */
static int set_sim_threads(struct session *s, const struct setting *st, const char *v, char *err, size_t errlen)
{
    long x = 0;
    if (strcmp(v, "auto") != 0) {
        char *end;
        errno = 0;
        x = strtol(v, &end, 10);
        if (end == v || *end || errno || x < st->min || x > st->max) {
            snprintf(err, errlen, _("a number from 1 to 32, or auto for one per core"));
            return -1;
        }
    }
    if (prog_sim_threads((int)x) != 0) {
        snprintf(err, errlen, _("a number from 1 to 32, or auto for one per core"));
        return -1;
    }
    s->sim_threads = (int)x;
    return 0;
}

static void show_sim_threads(const struct session *s, char *buf, size_t len)
{
    if (s->sim_threads > 0) snprintf(buf, len, "%d", s->sim_threads);
    else snprintf(buf, len, "auto");
}

static void complete_sim_threads(struct session *s, struct cmp_list *out)
{
    (void)s;
    cmp_add(out, "auto");
    cmp_add(out, "1");
    cmp_add(out, "2");
}

static void complete_onoff(struct session *s, struct cmp_list *out)
{
    cmp_add(out, "on");
    cmp_add(out, "off");
}

/* ------------------------------------------------------------- 2D data */

static int set_dim(int *dst, const struct setting *st, const char *v, char *err, size_t errlen)
{
    long long x;
    if (parse_is_auto(v)) {
        *dst = 0;
        return 0;
    }
    if (parse_size(v, (long long)st->min, (long long)st->max, &x, err, errlen) != 0) return -1;
    *dst = (int)x;
    return 0;
}

static int set_width(struct session *s, const struct setting *st, const char *v, char *err, size_t errlen)
{
    return set_dim(&s->cfg.width, st, v, err, errlen);
}

static int set_height(struct session *s, const struct setting *st, const char *v, char *err, size_t errlen)
{
    return set_dim(&s->cfg.height, st, v, err, errlen);
}

static void show_width(const struct session *s, char *buf, size_t len)
{
    if (s->cfg.width > 0) snprintf(buf, len, "%d", s->cfg.width);
    else snprintf(buf, len, "auto");
}

static void show_height(const struct session *s, char *buf, size_t len)
{
    if (s->cfg.height > 0) snprintf(buf, len, "%d", s->cfg.height);
    else snprintf(buf, len, "auto");
}

static int set_image(struct session *s, const struct setting *st, const char *v, char *err, size_t errlen)
{
    if (!*v || strcmp(v, "none") == 0 || strcmp(v, "generated") == 0) {
        s->cfg.image[0] = 0;
        return 0;
    }
    if (strlen(v) >= sizeof s->cfg.image) {
        snprintf(err, errlen, _("the path is too long (at most %zu bytes)"), sizeof s->cfg.image - 1);
        return -1;
    }
    if (s->confined && !safefile_lesson_read_ok(v, s->confined_from, 0, err, errlen)) return -1;
    char why[PATH_MAX + 256];
    int fd = safefile_open_read(v, SAFEFILE_IMAGE_MAX, why, sizeof why);
    if (fd < 0 && (errno == EISDIR || errno == EINVAL)) {
        snprintf(err, errlen,
                 errno == EISDIR ? _("%s is a directory, not an image file; give a PGM or PNG file, or none")
                                 : _("%s is not a regular file, not an image file; give a PGM or PNG file, or none"),
                 v);
        return -1;
    }
    if (fd < 0) {
        snprintf(err, errlen, _("%s; give a PGM or PNG file, or none for the generated image"), why);
        return -1;
    }
    close(fd);
    snprintf(s->cfg.image, sizeof s->cfg.image, "%s", v);
    return 0;
}

static void show_image(const struct session *s, char *buf, size_t len)
{
    snprintf(buf, len, "%s", s->cfg.image[0] ? out_vis(s->cfg.image) : _("none (generated)"));
}

/* The models the occupancy calculator knows (kernels/device/occupancy.h). */
static int set_model(struct session *s, const struct setting *st, const char *v, char *err, size_t errlen)
{
    const occ_model *m = occ_model_find(v);
    if (!m) {
        char names[256];
        occ_model_names(names, sizeof names);
        snprintf(err, errlen, _("gpulab has no model of a GPU called \"%s\"; models: %s"), v, names);
        return -1;
    }
    snprintf(s->cfg.model, sizeof s->cfg.model, "%s", m->name);
    return 0;
}

static void show_model(const struct session *s, char *buf, size_t len)
{
    snprintf(buf, len, "%s", s->cfg.model);
}

static void complete_model(struct session *s, struct cmp_list *out)
{
    for (int i = 0; i < occ_model_count(); i++) cmp_add(out, occ_model_at(i)->name);
}

static int set_pager(struct session *s, const struct setting *st, const char *v, char *err, size_t errlen)
{
    int on;
    if (set_onoff(&on, v, err, errlen) != 0) return -1;
    out_set_pager(on);
    return 0;
}

static void show_pager(const struct session *s, char *buf, size_t len)
{
    const char *p = getenv("PAGER");
    snprintf(buf, len, _("%s (%s, at a terminal only)"), out_pager_enabled() ? "on" : "off",
             p ? (*p ? p : _("PAGER is empty: none")) : "less -FRX");
}

/* ------------------------------------------------------------ programs */

/* A program always has a time limit: one that runs forever holds the
 * session (and a lesson could hold it on purpose). The row's maximum is
 * the user's; a lesson or lecture sets at most this. */
#define TIME_LIMIT_LESSON_MAX 120.0

static int set_time_limit(struct session *s, const struct setting *st, const char *v, char *err, size_t errlen)
{
    char *end = NULL;
    errno = 0;
    double t = strtod(v, &end);
    double max = s->confined ? TIME_LIMIT_LESSON_MAX : st->max;
    if (end == v || *end || errno || !(t >= st->min) || t > max) {
        if (s->confined) snprintf(err, errlen, _("seconds from 0.1 to %g (a lesson or lecture sets at most that)"), max);
        else snprintf(err, errlen, _("seconds from 0.1 to %g"), max);
        return -1;
    }
    s->time_limit = t;
    return 0;
}

static void show_time_limit(const struct session *s, char *buf, size_t len)
{
    snprintf(buf, len, _("%g s (the GPU: 10 times that)"), s->time_limit);
}

static int set_sandbox(struct session *s, const struct setting *st, const char *v, char *err, size_t errlen)
{
    (void)st;
    int on;
    if (set_onoff(&on, v, err, errlen) != 0) return -1;
    if (s->confined && !on) {
        snprintf(err, errlen, "%s", _("a lesson or lecture cannot turn the sandbox off"));
        return -1;
    }
    prog_sandbox_set(on);
    if (!on)
        out_warn(_("the sandbox is off: students' programs and their builds now run with their time, memory and "
                   "process limits only, and can read and write every file you can, use the network and "
                   "signal your processes; run only programs you trust (set sandbox on turns it on again)"));
    return 0;
}

static void show_sandbox(const struct session *s, char *buf, size_t len)
{
    (void)s;
    char why[256];
    int state = prog_sandbox_state(why, sizeof why);
    if (!prog_sandbox_on()) snprintf(buf, len, "%s", _("off"));
    else if (state == 2) snprintf(buf, len, "%s", _("on (namespaces, seccomp, limits)"));
    else if (state == 1) snprintf(buf, len, _("on (namespaces, seccomp, limits but %s)"), why);
    else if (prog_sandbox_landlock()) snprintf(buf, len, _("on, without namespaces (%s), with Landlock"), why);
    else snprintf(buf, len, _("on, without namespaces: %s"), why);
}

/* the program's arguments, split at spaces, for every run that names none */
static int set_args(struct session *s, const struct setting *st, const char *v, char *err, size_t errlen)
{
    (void)st;
    char *words[33];
    int n = 0;
    char *copy = strdup(v), *save = NULL;
    if (!copy) return -1;
    for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        if (n == 0 && !strcmp(w, "none")) break; /* set args none */
        if (n == 32) {
            free(copy);
            snprintf(err, errlen, _("at most 32 arguments"));
            return -1;
        }
        words[n++] = w;
    }
    for (int i = 0; s->prog_args[i]; i++) {
        free(s->prog_args[i]);
        s->prog_args[i] = NULL;
    }
    for (int i = 0; i < n; i++) s->prog_args[i] = strdup(words[i]);
    free(copy);
    return 0;
}

static void show_args(const struct session *s, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; s->prog_args[i] && o < len; i++) o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? " " : "", s->prog_args[i]);
    if (!s->prog_args[0]) snprintf(buf, len, _("none"));
}

static int set_trace_blocks(struct session *s, const struct setting *st, const char *v, char *err, size_t errlen)
{
    char *end = NULL;
    errno = 0;
    unsigned long b = strtoul(v, &end, 10);
    if (end == v || *end || errno || b < st->min || b > st->max || v[0] == '-') {
        snprintf(err, errlen, "%s", _("a number of blocks from 1 to 65536"));
        return -1;
    }
    s->trace_blocks = (unsigned)b;
    return 0;
}

static void show_trace_blocks(const struct session *s, char *buf, size_t len)
{
    snprintf(buf, len, "%u", s->trace_blocks);
}

/* ------------------------------------------------- what exports record */

static void auto_or(char *buf, size_t len, long long v)
{
    if (v > 0) snprintf(buf, len, "%lld", v);
    else snprintf(buf, len, "auto");
}

static void value_n(const lab_config *c, char *buf, size_t len) { auto_or(buf, len, c->n); }

static void value_block(const lab_config *c, char *buf, size_t len)
{
    if (c->block > 0 && c->block_y > 0) snprintf(buf, len, "%dx%d", c->block, c->block_y);
    else auto_or(buf, len, c->block);
}

static void value_grid(const lab_config *c, char *buf, size_t len)
{
    if (c->grid > 0 && c->grid_y > 0) snprintf(buf, len, "%lldx%lld", c->grid, c->grid_y);
    else auto_or(buf, len, c->grid);
}

static void value_dtype(const lab_config *c, char *buf, size_t len) { snprintf(buf, len, "%s", lab_dtype_name(c->dtype)); }
static void value_pattern(const lab_config *c, char *buf, size_t len) { snprintf(buf, len, "%s", c->pattern); }
static void value_value(const lab_config *c, char *buf, size_t len) { snprintf(buf, len, "%g", c->value); }
static void value_seed(const lab_config *c, char *buf, size_t len) { snprintf(buf, len, "%u", c->seed); }
static void value_repeats(const lab_config *c, char *buf, size_t len) { snprintf(buf, len, "%d", c->repeats); }
static void value_backend(const lab_config *c, char *buf, size_t len) { snprintf(buf, len, "%s", lab_backend_name(c->backend)); }
static void value_gpus(const lab_config *c, char *buf, size_t len) { snprintf(buf, len, "%d", c->gpus); }
static void value_sim_limit(const lab_config *c, char *buf, size_t len) { snprintf(buf, len, "%lld", c->sim_limit); }
static void value_race(const lab_config *c, char *buf, size_t len) { snprintf(buf, len, "%s", c->race_check ? "on" : "off"); }
static void value_pad(const lab_config *c, char *buf, size_t len) { snprintf(buf, len, "%s", c->pad ? "on" : "off"); }
static void value_width(const lab_config *c, char *buf, size_t len) { auto_or(buf, len, c->width); }
static void value_height(const lab_config *c, char *buf, size_t len) { auto_or(buf, len, c->height); }
static void value_image(const lab_config *c, char *buf, size_t len) { snprintf(buf, len, "%s", c->image[0] ? c->image : "none"); }
static void value_model(const lab_config *c, char *buf, size_t len) { snprintf(buf, len, "%s", c->model); }

/* -------------------------------------------------------------- table */

/* One row per setting: name, kind, where it lives, range (min, max), the
 * default and an example as typed, what is allowed, the help line, and its
 * functions. The allowed values and the help line are marked for
 * translation, the names, defaults and examples never (they are what people
 * type). The defaults of the rows that live in lab_config are the ones
 * lab_config_defaults() and the algorithm give (the test tables_settings
 * holds the text to them); the others are applied from the text. */
#define TEXT_OF(x) #x
#define DEFAULT_TEXT(x) TEXT_OF(x)
#define RUN SETTING_RUN
#define SESSION SETTING_SESSION
#define OUTPUT SETTING_OUTPUT
static const struct setting settings[] = {
    {"n", SETTING_SIZE, RUN, 1, 1LL << 50, "auto", "1Mi",
     N_("a size like 1000000, 1e6, 64Mi, 4k, 2^26, 1<<26 or 3*2^20, or auto"), /* PARSE_SIZE_FORMS */
     N_("elements of the input (matrix side for 2D)"), set_n, show_n, complete_n, value_n},
    {"block", SETTING_SHAPE, RUN, 1, 1024, "auto", "128",
     N_("threads per block: a number (or BXxBY for 2D), or auto for the variant's default"),
     N_("threads per block"), set_block, show_block, complete_block, value_block},
    {"grid", SETTING_SHAPE, RUN, 1, INT_MAXV, "auto", "64", N_("a number of blocks (or GXxGY), or auto"),
     N_("blocks in the grid"), set_grid, show_grid, complete_auto, value_grid},
    {"dtype", SETTING_WORD, RUN, 0, 0, NULL, "float", N_("the data types the algorithm takes (int, float, double, u8)"),
     N_("element type"), set_dtype, show_dtype, complete_dtype, value_dtype},
    {"pattern", SETTING_WORD, RUN, 0, 0, NULL, "ones", N_("one of the algorithm's patterns (show lists them)"),
     N_("how the input is made"), set_pattern, show_pattern, complete_pattern, value_pattern},
    {"value", SETTING_NUMBER, RUN, 0, 0, "1.23", "2.5", N_("a number like 1.23"), N_("the constant of pattern const"),
     set_value, show_value, NULL, value_value},
    {"seed", SETTING_INT, RUN, 0, 4294967295.0, "1", "42", N_("a whole number 0..4294967295"),
     N_("seed of pattern random"), set_seed, show_seed, NULL, value_seed},
    {"repeats", SETTING_INT, RUN, 1, LAB_MAX_REPEATS, "5", "10", "1..1000",
     N_("timed runs after the warm-up (median, min, max)"), set_repeats, show_repeats, complete_repeats,
     value_repeats},
    {"backend", SETTING_WORD, RUN, 0, 0, "auto", "sim", N_("auto, gpu or sim"), N_("where kernel variants run"),
     set_backend, show_backend, complete_backend, value_backend},
    {"gpus", SETTING_INT, RUN, 1, LAB_MAX_GPUS, "1", "2", N_("1..8 on the simulator; on a GPU machine 1 to its number of GPUs"),
     N_("GPUs a reduction splits its input over (run shows each GPU and the combine)"), set_gpus, show_gpus,
     complete_gpus, value_gpus},
    {"sim-limit", SETTING_SIZE, RUN, 1, 1LL << 40, "8Mi", "16Mi", N_("a size like 4Mi"),
     N_("largest n the simulator accepts"), set_sim_limit, show_sim_limit, complete_sim_limit, value_sim_limit},
    {"race-check", SETTING_FLAG, RUN, 0, 0, "off", "on", N_("on or off"), N_("simulator: report races in global and shared memory"),
     set_race, show_race, complete_onoff, value_race},
    {"check", SETTING_WORD, SESSION, 0, 0, "leaks", "all,50",
     N_("off, memcheck, initcheck, leaks or all, optionally with how many distinct errors a launch reports: all,50"),
     N_("simulator: memory checks (bounds, alignment and use after free; initcheck adds reads of unwritten memory, "
        "leaks the allocations never freed)"),
     set_check, show_check, complete_check, NULL},
    {"schedule", SETTING_WORD, SESSION, 0, 0, "fixed", "random",
     N_("fixed, random, reverse or adversarial, optionally with a seed: random,0x2a"),
     N_("simulator: the order threads and blocks run in (docs/simulator.md)"), set_schedule, show_schedule,
     complete_schedule, NULL},
    {"schedules", SETTING_INT, SESSION, 1, 64, "1", "8", N_("1 to 64"),
     N_("simulator: run a program under this many schedules and say where its output differs"), set_schedules,
     show_schedules, NULL, NULL},
    {"sim-threads", SETTING_WORD, SESSION, 1, 32, "auto", "2", N_("a number from 1 to 32, or auto for one per core"),
     N_("simulator: worker threads a launch's blocks run on (the output is the same with any number)"),
     set_sim_threads, show_sim_threads, complete_sim_threads, NULL},
    {"pad", SETTING_FLAG, RUN, 0, 0, "off", "on", N_("on or off"),
     N_("pad n up to a power of two where a variant needs one"), set_pad, show_pad, complete_onoff, value_pad},
    {"width", SETTING_SIZE, RUN, 1, 65536, "auto", "320", N_("1..65536, or auto"),
     N_("width of 2D data (images, Mandelbrot)"), set_width, show_width, complete_auto, value_width},
    {"height", SETTING_SIZE, RUN, 1, 65536, "auto", "200", N_("1..65536, or auto"), N_("height of 2D data"),
     set_height, show_height, complete_auto, value_height},
    {"image", SETTING_FILE, RUN, 0, 0, "none", NULL, N_("a PGM or PNG file, or none"), N_("histogram input image"),
     set_image, show_image, NULL, value_image},
    {"time-limit", SETTING_NUMBER, SESSION, 0.1, 3600, "30", "2.5", N_("seconds from 0.1 to 3600, e.g. 30 or 2.5"),
     N_("how long a program (open) may run on the simulator"), set_time_limit, show_time_limit, NULL, NULL},
    {"sandbox", SETTING_FLAG, SESSION, 0, 0, "on", "off", N_("on or off"),
     N_("students' programs and builds confined (docs/reliability.md)"), set_sandbox, show_sandbox, complete_onoff,
     NULL},
    {"args", SETTING_WORD, SESSION, 0, 0, "none", "64", N_("the words, quoted together (none: no arguments)"),
     N_("the arguments of the open program's main when run names none"), set_args, show_args, NULL, NULL},
    {"trace-blocks", SETTING_INT, SESSION, 1, 65536, DEFAULT_TEXT(ACC_DEFAULT_BLOCKS), "8", N_("a number of blocks from 1 to 65536"),
     N_("blocks of each launch that animate records of every access (the first ones)"), set_trace_blocks,
     show_trace_blocks, NULL, NULL},
    {"model", SETTING_WORD, RUN, 0, 0, "h200", "t4", N_("a GPU model name (h200, a100, t4, ...: Tab lists them)"),
     N_("occupancy model on the simulator"), set_model, show_model, complete_model, value_model},
    {"pager", SETTING_FLAG, OUTPUT, 0, 0, "on", "off", N_("on or off"),
     N_("long output through $PAGER (less -R) at a terminal"), set_pager, show_pager, complete_onoff, NULL},
};
#undef RUN
#undef SESSION
#undef OUTPUT
#define NSETTINGS ((int)(sizeof settings / sizeof settings[0]))

const struct setting *setting_at(int i)
{
    return i >= 0 && i < NSETTINGS ? &settings[i] : NULL;
}

const struct setting *setting_find(const char *name, char *err, size_t errlen)
{
    const char *names[NSETTINGS];
    for (int i = 0; i < NSETTINGS; i++) names[i] = settings[i].name;
    int amb[NSETTINGS], namb = 0;
    int k = parse_lookup(name, names, NSETTINGS, amb, NSETTINGS, &namb);
    if (k >= 0) return &settings[k];
    size_t off;
    if (k == -2) {
        off = (size_t)snprintf(err, errlen, _("ambiguous setting \"%s\": could be "), name);
        for (int i = 0; i < namb && off < errlen; i++)
            off += (size_t)snprintf(err + off, errlen - off, "%s%s", i ? ", " : "", names[amb[i]]);
        return NULL;
    }
    off = (size_t)snprintf(err, errlen, _("unknown setting \"%s\"; settings: "), name);
    if (off < errlen) setting_names(err + off, errlen - off);
    return NULL;
}

void setting_names(char *out, size_t len)
{
    size_t off = 0;
    if (len) out[0] = 0;
    for (int i = 0; i < NSETTINGS && off < len; i++)
        off += (size_t)snprintf(out + off, len - off, "%s%s", i ? ", " : "", settings[i].name);
}


int setting_name_width(void)
{
    int w = 0;
    for (int i = 0; i < NSETTINGS; i++)
        if ((int)strlen(settings[i].name) > w) w = (int)strlen(settings[i].name);
    return w;
}

void settings_use_algo(struct session *s, const lab_algo *a)
{
    if (!a) return;
    s->cfg.n = 0; /* auto: the algorithm's default for the backend */
    s->cfg.dtype = a->dtype_default;
    if (a->patterns && a->patterns[0]) snprintf(s->cfg.pattern, sizeof s->cfg.pattern, "%s", a->patterns[0]);
    s->cfg.block = s->cfg.block_y = 0;
    s->cfg.grid = s->cfg.grid_y = 0;
}

void settings_reset(struct session *s)
{
    char err[512];
    lab_config_defaults(&s->cfg);
    settings_use_algo(s, s->algo);
    for (int i = 0; i < NSETTINGS; i++) {
        const struct setting *st = &settings[i];
        /* a row's own default never fails its own parser (tables_settings tries each) */
        if (st->home != SETTING_RUN && st->def) st->set(s, st, st->def, err, sizeof err);
    }
}
