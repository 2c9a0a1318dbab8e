/* profile_ncu.c - profile on a GPU: Nsight Compute (ncu) run on gpulab
 * itself with the session's settings as a script, its CSV read back into the
 * same counts the simulator gives, printed as profile_words.c words them.
 * The command is cmd_profile.c. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "kernels/profile/profile.h"
#include "repl/i18n.h"
#include "repl/out.h"
#include "repl/parse.h"
#include "repl/profile_words.h"
#include "repl/session.h"
#include "repl/profile_ncu.h"

/* ------------------------------------------------------------------ GPU */

/* Nsight Compute's command line tool: on the PATH, in CUDA_HOME, or where
 * the toolkit installs itself. */
static int find_ncu(char *path, size_t len)
{
    const char *env = getenv("GPULAB_NCU");
    if (env && *env) {
        snprintf(path, len, "%s", env);
        return access(path, X_OK) == 0 ? 0 : -1;
    }
    const char *p = getenv("PATH");
    while (p && *p) {
        const char *e = strchr(p, ':');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l) {
            snprintf(path, len, "%.*s/ncu", (int)l, p);
            if (access(path, X_OK) == 0) return 0;
        }
        p = e ? e + 1 : NULL;
    }
    const char *home = getenv("CUDA_HOME");
    if (home && *home) {
        snprintf(path, len, "%s/bin/ncu", home);
        if (access(path, X_OK) == 0) return 0;
    }
    snprintf(path, len, "/usr/local/cuda/bin/ncu");
    return access(path, X_OK) == 0 ? 0 : -1;
}

/* A shell word in single quotes. */
static void shell_quote(const char *s, char *out, size_t len)
{
    size_t o = 0;
    if (len < 3) return;
    out[o++] = '\'';
    for (; *s && o + 5 < len; s++) {
        if (*s == '\'') {
            memcpy(out + o, "'\\''", 4);
            o += 4;
        } else {
            out[o++] = *s;
        }
    }
    out[o++] = '\'';
    out[o] = '\0';
}

/* The settings as `set` lines, so that the child runs what this session would. */
static void settings_script(const struct session *s, const lab_variant *v, char *buf, size_t len)
{
    const lab_config *c = &s->cfg;
    char n[32], blk[32], grid[64], w[16], h[16];
    if (c->n > 0) snprintf(n, sizeof n, "%lld", c->n);
    else snprintf(n, sizeof n, "auto");
    if (c->block <= 0) snprintf(blk, sizeof blk, "auto");
    else if (c->block_y > 0) snprintf(blk, sizeof blk, "%dx%d", c->block, c->block_y);
    else snprintf(blk, sizeof blk, "%d", c->block);
    if (c->grid <= 0) snprintf(grid, sizeof grid, "auto");
    else if (c->grid_y > 0) snprintf(grid, sizeof grid, "%lldx%lld", c->grid, c->grid_y);
    else snprintf(grid, sizeof grid, "%lld", c->grid);
    if (c->width > 0) snprintf(w, sizeof w, "%d", c->width);
    else snprintf(w, sizeof w, "auto");
    if (c->height > 0) snprintf(h, sizeof h, "%d", c->height);
    else snprintf(h, sizeof h, "auto");
    size_t o = (size_t)snprintf(buf, len,
                                "use %s/%s; set n %s; set block %s; set grid %s; set dtype %s; set value %.17g; "
                                "set seed %u; set pad %s; set width %s; set height %s; ",
                                s->algo->name, v->name, n, blk, grid, lab_dtype_name(c->dtype), c->value, c->seed,
                                c->pad ? "on" : "off", w, h);
    if (c->pattern[0] && o < len) o += (size_t)snprintf(buf + o, len - o, "set pattern %s; ", c->pattern);
    if (c->model[0] && o < len) o += (size_t)snprintf(buf + o, len - o, "set model %s; ", c->model);
    if (c->image[0] && o < len) o += (size_t)snprintf(buf + o, len - o, "set image \"%s\"; ", c->image);
    if (o < len) snprintf(buf + o, len - o, "set backend gpu; set repeats 1; run %s", v->name);
}

/* Split one CSV line into at most max fields (quotes removed). */
static int csv_split(char *line, char **f, int max)
{
    int n = 0;
    char *p = line;
    while (*p && n < max) {
        if (*p == '"') {
            p++;
            f[n++] = p;
            char *w = p;
            while (*p && !(*p == '"' && p[1] != '"')) {
                if (*p == '"') p++;
                *w++ = *p++;
            }
            if (*p == '"') p++;
            *w = '\0';
            if (*p == ',') p++;
        } else {
            f[n++] = p;
            while (*p && *p != ',') p++;
            if (*p == ',') *p++ = '\0';
        }
    }
    return n;
}

static double csv_number(const char *s)
{
    char b[64];
    size_t o = 0;
    for (; *s && o + 1 < sizeof b; s++)
        if (*s != ',' && *s != ' ') b[o++] = *s;
    b[o] = '\0';
    return strtod(b, NULL);
}

static void parse_dim(const char *s, unsigned d[3])
{
    d[0] = d[1] = d[2] = 1;
    sscanf(s, " (%u , %u , %u)", &d[0], &d[1], &d[2]);
}

/* Store the GPU's value of metric name into the counts. */
static void gpu_set(prof_counts *c, const char *name, double v)
{
    unsigned long long x = (unsigned long long)llround(v);
    /* RED (an atomic whose result is unused) joins ATOM: the simulator
     * cannot tell them apart */
    if (!strcmp(name, "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum")) {
        c->mem[PROF_GLOBAL][PROF_ATOM].requests += x;
        return;
    }
    if (!strcmp(name, "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum")) {
        c->mem[PROF_GLOBAL][PROF_ATOM].units += x;
        return;
    }
    for (int i = 0; i < prof_metric_count(); i++) {
        const prof_metric *m = prof_metric_at(i);
        if (strcmp(m->ncu, name) != 0) continue;
        switch (m->field) {
        case PROF_F_REQUESTS: c->mem[m->space][m->kind].requests += x; break;
        case PROF_F_UNITS: c->mem[m->space][m->kind].units += x; break;
        case PROF_F_CONFLICTS: /* kept as ideal = units - conflicts once both are in */
            c->mem[m->space][m->kind].ideal += x;
            break;
        case PROF_F_BARRIERS: c->barriers += x; break;
        case PROF_F_READ_BYTES: c->read_bytes += x; break;
        case PROF_F_WRITE_BYTES: c->write_bytes += x; break;
        }
    }
}

static void gpu_add(prof_counts *t, const prof_counts *c)
{
    t->launches += c->launches;
    for (int sp = 0; sp < PROF_NSPACES; sp++)
        for (int k = 0; k < PROF_NKINDS; k++) {
            t->mem[sp][k].requests += c->mem[sp][k].requests;
            t->mem[sp][k].units += c->mem[sp][k].units;
            t->mem[sp][k].ideal += c->mem[sp][k].ideal;
        }
    t->barriers += c->barriers;
    t->read_bytes += c->read_bytes;
    t->write_bytes += c->write_bytes;
}

static const char *const gpu_extra_metrics[] = {
    "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
};

int profile_gpu(struct session *s, const lab_variant *v, prof_row **rows, int *nrows, int *cap)
{
    char ncu[1024];
    if (find_ncu(ncu, sizeof ncu) != 0)
        return sess_error(s, -1, _("the GPU's counters come from Nsight Compute, and its command `ncu` was not found "
                                   "(on the PATH, in $CUDA_HOME/bin or /usr/local/cuda/bin; GPULAB_NCU names it). It "
                                   "ships with the CUDA toolkit (the nsight-compute package); or `set backend sim` to "
                                   "count on the simulator"));
    char self[1024];
    ssize_t l = readlink("/proc/self/exe", self, sizeof self - 1);
    if (l <= 0) return sess_error(s, -1, _("cannot find gpulab's own executable to run under ncu: %s"), strerror(errno));
    self[l] = '\0';
    char script[8192], qscript[9000], qself[1100], qncu[1100];
    settings_script(s, v, script, sizeof script);
    shell_quote(script, qscript, sizeof qscript);
    shell_quote(self, qself, sizeof qself);
    shell_quote(ncu, qncu, sizeof qncu);
    /* the metric names; one this ncu does not know is left out and the run
     * made again (ncu refuses the whole list otherwise) */
    const char *names[64];
    int nnames = 0;
    for (int i = 0; i < prof_metric_count() && nnames < 64; i++)
        if (strstr(prof_metric_at(i)->ncu, "__")) names[nnames++] = prof_metric_at(i)->ncu;
    for (size_t i = 0; i < sizeof gpu_extra_metrics / sizeof gpu_extra_metrics[0] && nnames < 64; i++)
        names[nnames++] = gpu_extra_metrics[i];
    char dropped[512] = "";
    int perm = 0, status = 0;
    char err_line[1024] = "", child_err[1024] = "";
    struct launch {
        int id;
        prof_counts c;
    } *ls = NULL;
    int nls = 0, capls = 0;
    for (int attempt = 0; attempt < 4; attempt++) {
        char metrics[4096];
        size_t o = 0;
        for (int i = 0; i < nnames && o < sizeof metrics; i++)
            o += (size_t)snprintf(metrics + o, sizeof metrics - o, "%s%s", o ? "," : "", names[i]);
        char cmd[16384];
        snprintf(cmd, sizeof cmd,
                 "%s --csv --print-units base --print-kernel-base function --metrics %s %s --json "
                 "--no-color -c %s 2>&1",
                 qncu, metrics, qself, qscript);
        if (s->interactive && !s->json) out_progress(_("  profiling %s on the GPU with Nsight Compute..."), v->name);
        FILE *p = popen(cmd, "r");
        if (!p) {
            out_progress_clear();
            return sess_error(s, -1, _("cannot start ncu: %s"), strerror(errno));
        }
        char line[8192];
        int ncols = 0, c_id = -1, c_name = -1, c_block = -1, c_grid = -1, c_metric = -1, c_value = -1;
        nls = 0;
        err_line[0] = child_err[0] = '\0';
        while (fgets(line, sizeof line, p)) {
            line[strcspn(line, "\r\n")] = '\0';
            if (strstr(line, "ERR_NVGPUCTRPERM")) perm = 1;
            if (!strncmp(line, "==ERROR==", 9) && !err_line[0]) snprintf(err_line, sizeof err_line, "%s", line + 9);
            if (line[0] == '{') {
                json_error_t je;
                json_t *j = json_loads(line, 0, &je);
                if (j && json_is_false(json_object_get(j, "ran")) && !child_err[0]) {
                    const char *note = json_string_value(json_object_get(j, "note"));
                    snprintf(child_err, sizeof child_err, "%s", note ? note : "did not run");
                }
                json_decref(j);
                continue;
            }
            if (line[0] != '"') continue;
            char *f[64];
            int nf = csv_split(line, f, 64);
            if (nf > 0 && !strcmp(f[0], "ID")) {
                ncols = nf;
                for (int i = 0; i < nf; i++) {
                    if (!strcmp(f[i], "ID")) c_id = i;
                    else if (!strcmp(f[i], "Kernel Name")) c_name = i;
                    else if (!strcmp(f[i], "Block Size")) c_block = i;
                    else if (!strcmp(f[i], "Grid Size")) c_grid = i;
                    else if (!strcmp(f[i], "Metric Name")) c_metric = i;
                    else if (!strcmp(f[i], "Metric Value")) c_value = i;
                }
                continue;
            }
            if (!ncols || nf < ncols || c_id < 0 || c_metric < 0 || c_value < 0) continue;
            int id = atoi(f[c_id]), k;
            for (k = 0; k < nls && ls[k].id != id; k++) {}
            if (k == nls) {
                if (nls == capls) {
                    capls = capls ? capls * 2 : 32;
                    struct launch *x = realloc(ls, sizeof *x * (size_t)capls);
                    if (!x) break;
                    ls = x;
                }
                memset(&ls[nls], 0, sizeof ls[nls]);
                ls[nls].id = id;
                if (c_name >= 0) snprintf(ls[nls].c.kernel, sizeof ls[nls].c.kernel, "%s", f[c_name]);
                if (c_block >= 0) parse_dim(f[c_block], ls[nls].c.block);
                if (c_grid >= 0) parse_dim(f[c_grid], ls[nls].c.grid);
                ls[nls].c.launches = 1;
                nls++;
            }
            gpu_set(&ls[k].c, f[c_metric], csv_number(f[c_value]));
        }
        status = pclose(p);
        int unknown = -1;
        for (int i = 0; nls == 0 && err_line[0] && i < nnames; i++)
            if (strstr(err_line, names[i])) unknown = i;
        if (unknown < 0) break;
        size_t dl = strlen(dropped);
        snprintf(dropped + dl, sizeof dropped - dl, "%s%s", dl ? ", " : "", names[unknown]);
        names[unknown] = names[--nnames];
    }
    out_progress_clear();
    if (perm) {
        free(ls);
        return sess_error(s, -1, _("Nsight Compute may not read the GPU's performance counters as this user "
                                   "(ERR_NVGPUCTRPERM). Run gpulab as root, or let every user profile: load the "
                                   "nvidia module with NVreg_RestrictProfilingToAdminUsers=0 (see "
                                   "https://developer.nvidia.com/ERR_NVGPUCTRPERM); meanwhile `set backend sim` "
                                   "counts on the simulator"));
    }
    if (nls == 0) {
        free(ls);
        if (child_err[0]) return sess_error(s, -1, _("%s did not run on the GPU: %s"), v->name, child_err);
        return sess_error(s, -1, _("ncu returned no counters for %s (exit status %d)%s%s"), v->name,
                          WIFEXITED(status) ? WEXITSTATUS(status) : -1, err_line[0] ? ":" : "", err_line);
    }
    /* conflicts arrived in .ideal: make it units - conflicts */
    for (int i = 0; i < nls; i++)
        for (int k = 0; k < PROF_NKINDS; k++) {
            prof_mem *m = &ls[i].c.mem[PROF_SHARED][k];
            unsigned long long conf = m->ideal;
            m->ideal = m->units > conf ? m->units - conf : 0;
        }
    /* group launches of one kernel and shape */
    prof_counts *gs = calloc((size_t)nls + 1, sizeof *gs), total;
    int ng = 0;
    memset(&total, 0, sizeof total);
    snprintf(total.kernel, sizeof total.kernel, "total");
    for (int i = 0; gs && i < nls; i++) {
        const prof_counts *c = &ls[i].c;
        int g;
        for (g = 0; g < ng; g++)
            if (!strcmp(gs[g].kernel, c->kernel) && !memcmp(gs[g].grid, c->grid, sizeof c->grid) &&
                !memcmp(gs[g].block, c->block, sizeof c->block))
                break;
        if (g == ng) {
            snprintf(gs[ng].kernel, sizeof gs[ng].kernel, "%s", c->kernel);
            memcpy(gs[ng].grid, c->grid, sizeof c->grid);
            memcpy(gs[ng].block, c->block, sizeof c->block);
            ng++;
        }
        gpu_add(&gs[g], c);
        gpu_add(&total, c);
    }
    free(ls);
    if (!gs) return sess_error(s, -1, _("out of memory"));
    if (dropped[0] && !s->json) out_note(_("this ncu does not know %s: left out"), dropped);
    if (!s->json)
        out_printf(ngettext("%sprofile of %s/%s%s on the GPU: Nsight Compute's counters, %d kernel shape\n",
                            "%sprofile of %s/%s%s on the GPU: Nsight Compute's counters, %d kernel shapes\n",
                            (unsigned long)ng),
                   out_color(OUT_BOLD), s->algo->name, v->name, out_color(OUT_RESET), ng);
    for (int g = 0; g <= ng; g++) {
        prof_row pr;
        memset(&pr, 0, sizeof pr);
        snprintf(pr.algo, sizeof pr.algo, "%s", s->algo->name);
        snprintf(pr.variant, sizeof pr.variant, "%s", v->name);
        snprintf(pr.source, sizeof pr.source, "ncu");
        pr.c = g < ng ? gs[g] : total;
        pr.n = s->cfg.n;
        if (g == ng && ng == 1 && !s->json) continue; /* the total of one shape is that shape */
        profile_rows_add(rows, nrows, cap, &pr);
        if (s->json) {
            out_json(profile_row_json(&pr));
        } else {
            if (g < ng)
                out_printf(ngettext("%s%s%s  grid (%u,%u,%u)  block (%u,%u,%u)  %d launch\n",
                                    "%s%s%s  grid (%u,%u,%u)  block (%u,%u,%u)  %d launches\n",
                                    (unsigned long)pr.c.launches),
                           out_color(OUT_ACCENT), pr.c.kernel, out_color(OUT_RESET), pr.c.grid[0], pr.c.grid[1],
                           pr.c.grid[2], pr.c.block[0], pr.c.block[1], pr.c.block[2], pr.c.launches);
            else
                out_printf(_("%sall launches%s  %d\n"), out_color(OUT_ACCENT), out_color(OUT_RESET), pr.c.launches);
            const char *const head[] = {_("counter"), _("value"), _("Nsight Compute metric")};
            struct out_table *t = out_table_new(3, head, "lrl");
            for (int i = 0; i < prof_metric_count(); i++) {
                const prof_metric *m = prof_metric_at(i);
                if (!strstr(m->ncu, "__")) continue; /* the simulator's own */
                char val[64];
                snprintf(val, sizeof val, "%.0f", prof_metric_value(&pr.c, m));
                const char *cells[3] = {m->label, val, m->ncu};
                out_table_row(t, cells);
            }
            out_table_print(t);
            out_table_free(t);
            profile_say_global(NULL, -1, &pr.c, PROF_LD);
            profile_say_global(NULL, -1, &pr.c, PROF_ST);
            profile_say_shared(NULL, -1, &pr.c, PROF_LD);
            profile_say_shared(NULL, -1, &pr.c, PROF_ST);
        }
    }
    free(gs);
    return 0;
}
