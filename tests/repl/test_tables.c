/* The settings table (repl/settings.c) walked row by row: each setting takes
 * its default and an example through `set`, `show` says so, `reset` puts it
 * back, its range is what its parser takes, and the settings a run reads are
 * exactly the ones an export records. Output is captured through
 * out_set_streams(); nothing here needs a terminal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <jansson.h>

#include "repl/cmd.h"
#include "repl/explore/sweep.h"
#include "repl/out.h"
#include "repl/session.h"
#include "repl/settings.h"
#include "repl/repl.h"

static char *cap_out, *cap_err;
static size_t cap_out_len, cap_err_len;

static void must_have(const char *hay, const char *needle)
{
    if (!hay || !strstr(hay, needle)) fail_msg("\"%s\" not found in:\n%s", needle, hay ? hay : "(null)");
}

static enum cmd_status exec(struct session *s, const char *line)
{
    free(cap_out);
    free(cap_err);
    cap_out = cap_err = NULL;
    FILE *o = open_memstream(&cap_out, &cap_out_len), *e = open_memstream(&cap_err, &cap_err_len);
    out_set_streams(o, e);
    enum cmd_status st = repl_exec_line(s, line);
    fclose(o);
    fclose(e);
    out_set_streams(NULL, NULL);
    return st;
}

/* `show NAME` as it prints: "NAME = value". */
static char *shown(struct session *s, const char *name)
{
    char line[128];
    snprintf(line, sizeof line, "show %s", name);
    if (exec(s, line) != CMD_OK) fail_msg("%s failed: %s", line, cap_err);
    return strdup(cap_out);
}

/* A small PGM file: the example value of the image setting. */
static const char *example_image(void)
{
    static char path[64];
    if (path[0]) return path;
    snprintf(path, sizeof path, "tables-example-%d.pgm", (int)getpid());
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fprintf(f, "P5\n2 2\n255\n");
    fputc(1, f), fputc(2, f), fputc(3, f), fputc(4, f);
    fclose(f);
    return path;
}

static const char *example_of(const struct setting *st)
{
    return st->kind == SETTING_FILE ? example_image() : st->example;
}

static void rows_are_whole(void **state)
{
    (void)state;
    int n = 0, w = 0;
    for (const struct setting *st; (st = setting_at(n)); n++) {
        assert_non_null(st->name);
        for (const char *p = st->name; *p; p++) assert_true((*p >= 'a' && *p <= 'z') || *p == '-');
        for (int j = 0; j < n; j++) assert_string_not_equal(setting_at(j)->name, st->name);
        assert_true(st->allowed && *st->allowed);
        assert_true(st->help && *st->help);
        assert_non_null(st->set);
        assert_non_null(st->show);
        /* a run reads it: the export records it; otherwise it has no run value */
        if ((st->home == SETTING_RUN) != (st->value != NULL))
            fail_msg("%s: a setting a run reads has a value for exports, and only such a setting", st->name);
        if (st->kind == SETTING_FILE && st->complete) fail_msg("%s: a file setting completes file names", st->name);
        if (st->kind != SETTING_FILE && !st->example) fail_msg("%s has no example value", st->name);
        if (st->def && st->example && strcmp(st->def, st->example) == 0)
            fail_msg("%s: the example is the default", st->name);
        if (st->home != SETTING_RUN && !st->def) fail_msg("%s: only a run's settings take the algorithm's default", st->name);
        if ((st->kind == SETTING_INT || st->kind == SETTING_SIZE) && !(st->min < st->max))
            fail_msg("%s: a number setting has a range", st->name);
        /* the range in words is the range the parser takes */
        if (st->kind == SETTING_INT) {
            char lo[32], hi[32];
            snprintf(lo, sizeof lo, "%.0f", st->min);
            snprintf(hi, sizeof hi, "%.0f", st->max);
            if (!strstr(st->allowed, lo) || !strstr(st->allowed, hi))
                fail_msg("%s: allowed says \"%s\", the range is %s..%s", st->name, st->allowed, lo, hi);
        }
        if ((int)strlen(st->name) > w) w = (int)strlen(st->name);
    }
    assert_true(n >= 20);
    assert_int_equal(setting_name_width(), w);
}

/* Every row: its default changes nothing on a fresh session (so the
 * table's default is the one the session starts with), its example is
 * taken and shown, `reset` brings the first value back, and so does a
 * second `reset` after every setting has changed at once. */
static void set_show_reset(void **state)
{
    (void)state;
    struct session s;
    sess_init(&s);
    /* a variant that takes every example (a grid of its own too); the
     * test runs with GPULAB_NO_GPU, so that backend auto is the simulator
     * and gpus 2 a value on any machine */
    assert_int_equal(exec(&s, "use reduce/warp-shuffle"), CMD_OK);
    int n = 0;
    while (setting_at(n)) n++;
    char **first = calloc((size_t)n, sizeof *first);
    for (int i = 0; i < n; i++) first[i] = shown(&s, setting_at(i)->name);
    char line[1024];
    for (int i = 0; i < n; i++) {
        const struct setting *st = setting_at(i);
        if (st->def) {
            snprintf(line, sizeof line, "set %s %s", st->name, st->def);
            if (exec(&s, line) != CMD_OK) fail_msg("%s: %s", line, cap_err);
            char *now = shown(&s, st->name);
            if (strcmp(now, first[i]) != 0)
                fail_msg("%s: the table's default gives \"%s\", a fresh session has \"%s\"", st->name, now, first[i]);
            free(now);
        }
        snprintf(line, sizeof line, "set %s %s", st->name, example_of(st));
        if (exec(&s, line) != CMD_OK) fail_msg("%s: %s", line, cap_err);
        char *now = shown(&s, st->name);
        if (strcmp(now, first[i]) == 0) fail_msg("%s did not change the setting: %s", line, now);
        free(now);
        assert_int_equal(exec(&s, "reset"), CMD_OK);
        now = shown(&s, st->name);
        if (strcmp(now, first[i]) != 0) fail_msg("reset left %s at \"%s\", not \"%s\"", st->name, now, first[i]);
        free(now);
    }
    /* all changed at once, one reset */
    for (int i = 0; i < n; i++) {
        const struct setting *st = setting_at(i);
        snprintf(line, sizeof line, "set %s %s", st->name, example_of(st));
        if (exec(&s, line) != CMD_OK) fail_msg("%s: %s", line, cap_err);
    }
    assert_int_equal(exec(&s, "reset"), CMD_OK);
    for (int i = 0; i < n; i++) {
        char *now = shown(&s, setting_at(i)->name);
        if (strcmp(now, first[i]) != 0) fail_msg("reset left %s", now);
        free(now);
        free(first[i]);
    }
    free(first);
    unlink(example_image());
    sess_free(&s);
}

/* The range a row gives is the range its parser takes. */
static void ranges_are_kept(void **state)
{
    (void)state;
    struct session s;
    sess_init(&s);
    assert_int_equal(exec(&s, "use reduce; set backend sim"), CMD_OK);
    char line[256];
    for (int i = 0; setting_at(i); i++) {
        const struct setting *st = setting_at(i);
        if (st->kind != SETTING_INT && !(st->kind == SETTING_NUMBER && st->min < st->max)) continue;
        snprintf(line, sizeof line, "set %s %.17g", st->name, st->min);
        if (exec(&s, line) != CMD_OK) fail_msg("%s refused: %s", line, cap_err);
        snprintf(line, sizeof line, "set %s %.17g", st->name, st->max);
        if (exec(&s, line) != CMD_OK) fail_msg("%s refused: %s", line, cap_err);
        snprintf(line, sizeof line, "set %s %.17g", st->name, st->max + 1);
        if (exec(&s, line) != CMD_ERROR) fail_msg("%s was taken", line);
        if (!strstr(cap_err, st->name)) fail_msg("the refusal of %s does not name the setting: %s", line, cap_err);
        snprintf(line, sizeof line, "set %s %.17g", st->name, st->min - 1);
        if (exec(&s, line) != CMD_ERROR) fail_msg("%s was taken", line);
    }
    sess_free(&s);
}

/* An export records every setting a run reads, by its name in the table,
 * with the value the run had; and no other. */
static void export_records_the_run_settings(void **state)
{
    (void)state;
    struct session s;
    sess_init(&s);
    assert_int_equal(exec(&s, "use reduce; set gpus 2; set seed 7; set backend sim"), CMD_OK);
    lab_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.variant, sizeof r.variant, "x");
    char *buf = NULL, err[256];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(results_export_json(f, &r, 1, &s.cfg, s.algo, 0, err, sizeof err), 0);
    fclose(f);
    json_error_t je;
    json_t *j = json_loads(buf, 0, &je);
    assert_non_null(j);
    json_t *set = json_object_get(j, "settings");
    assert_non_null(set);
    int nrun = 0;
    for (int i = 0; setting_at(i); i++) {
        const struct setting *st = setting_at(i);
        json_t *v = json_object_get(set, st->name);
        if (st->home != SETTING_RUN) {
            if (v) fail_msg("the export records %s, which no run reads", st->name);
            continue;
        }
        nrun++;
        if (!json_is_string(v)) fail_msg("the export does not record %s", st->name);
        char want[600];
        st->value(&s.cfg, want, sizeof want);
        assert_string_equal(json_string_value(v), want);
    }
    assert_int_equal((int)json_object_size(set), nrun);
    assert_string_equal(json_string_value(json_object_get(set, "gpus")), "2");
    json_decref(j);
    free(buf);
    /* the CSV's comment line names the same */
    buf = NULL;
    f = open_memstream(&buf, &len);
    assert_int_equal(results_export_csv(f, &r, 1, &s.cfg, s.algo, 0, err, sizeof err), 0);
    fclose(f);
    for (int i = 0; setting_at(i); i++) {
        char kv[64];
        snprintf(kv, sizeof kv, " %s=", setting_at(i)->name);
        if ((strstr(buf, kv) != NULL) != (setting_at(i)->home == SETTING_RUN))
            fail_msg("the CSV's settings line and the table disagree on %s:\n%s", setting_at(i)->name, buf);
    }
    if (!strstr(buf, " gpus=2")) fail_msg("the CSV does not record gpus=2:\n%s", buf);
    free(buf);
    sess_free(&s);
}

/* ---- the last output, which export writes */

static char *exported(struct session *s, const char *name)
{
    char line[256];
    snprintf(line, sizeof line, "export %s", name);
    if (exec(s, line) != CMD_OK) fail_msg("%s failed: %s", line, cap_err);
    FILE *f = fopen(name, "rb");
    assert_non_null(f);
    char *buf = calloc(1, 1 << 16);
    size_t n = fread(buf, 1, (1 << 16) - 1, f);
    buf[n] = 0;
    fclose(f);
    unlink(name);
    return buf;
}

/* Whatever printed a table last is what export writes, whatever the
 * allocator did: a profile, then a run, then a sweep, then a profile. */
static void export_writes_the_last_output(void **state)
{
    (void)state;
    struct session s;
    sess_init(&s);
    char csv[64];
    snprintf(csv, sizeof csv, "last-output-%d.csv", (int)getpid());
    assert_int_equal(exec(&s, "use reduce/sequential; set backend sim; set n 1000; set repeats 1"), CMD_OK);
    assert_int_equal(s.last.kind, SESS_OUTPUT_NONE);
    assert_int_equal(exec(&s, "export x.csv"), CMD_ERROR);
    unsigned long g = s.last.generation;
    for (int round = 0; round < 3; round++) {
        assert_int_equal(exec(&s, "profile"), CMD_OK);
        assert_int_equal(s.last.kind, SESS_OUTPUT_PROFILE);
        assert_true(s.last.generation == ++g);
        char *f = exported(&s, csv);
        if (!strstr(f, "algo,variant,source,kernel")) fail_msg("after profile, export wrote:\n%s", f);
        must_have(cap_out, "the last profile");
        free(f);
        assert_int_equal(exec(&s, "run"), CMD_OK);
        assert_int_equal(s.last.kind, SESS_OUTPUT_TABLE);
        assert_true(s.last.generation == ++g);
        f = exported(&s, csv);
        if (strstr(f, "algo,variant,source,kernel") || !strstr(f, "# gpulab") || !strstr(f, "variant,backend,n"))
            fail_msg("after profile; run, export wrote:\n%s", f);
        if (!strstr(f, "sequential")) fail_msg("the run's row is not in:\n%s", f);
        must_have(cap_out, "the last table, 1 row");
        free(f);
    }
    assert_int_equal(exec(&s, "sweep block 32,64"), CMD_OK);
    assert_int_equal(s.last.kind, SESS_OUTPUT_SWEEP);
    assert_true(s.last.generation == ++g);
    char *f = exported(&s, csv);
    if (!strstr(f, "swept_block")) fail_msg("after sweep, export wrote:\n%s", f);
    free(f);
    /* a command that fails before printing a result leaves the last output */
    assert_int_equal(exec(&s, "run nosuchvariant"), CMD_ERROR);
    assert_true(s.last.generation == g);
    assert_int_equal(s.last.kind, SESS_OUTPUT_SWEEP);
    sess_free(&s);
}

/* ---- the documentation's lists */

static char *slurp(const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", SOURCE_DIR, rel);
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot read %s", path);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    char chunk[4096];
    size_t k;
    while ((k = fread(chunk, 1, sizeof chunk, f)) > 0) fwrite(chunk, 1, k, m);
    fclose(f);
    fclose(m);
    return buf;
}

static void spill(const char *rel, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", SOURCE_DIR, rel);
    FILE *f = fopen(path, "wb");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
}

/* The default in words. */
static const char *default_text(const struct setting *st)
{
    return st->def ? st->def : "the algorithm's";
}

/* docs/commands.md: one table row per setting. */
static char *settings_markdown(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fprintf(f, "| setting | values | default | meaning |\n|---|---|---|---|\n");
    for (int i = 0; setting_at(i); i++) {
        const struct setting *st = setting_at(i);
        fprintf(f, "| `%s` | ", st->name);
        for (const char *p = st->allowed; *p; p++) fprintf(f, *p == '|' ? "\\|" : *p == '*' ? "\\*" : "%c", *p);
        fprintf(f, " | %s%s%s | %s |\n", st->def ? "`" : "", default_text(st), st->def ? "`" : "", st->help);
    }
    fclose(f);
    return buf;
}

static void roff(FILE *f, const char *s)
{
    for (const char *p = s; *p; p++) {
        if (*p == '-') fputs("\\-", f);
        else if (*p == '\\') fputs("\\e", f);
        else fputc(*p, f);
    }
}

/* docs/gpulab.1: a tagged paragraph per setting. */
static char *settings_roff(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fprintf(f, ".RS\n");
    for (int i = 0; setting_at(i); i++) {
        const struct setting *st = setting_at(i);
        fprintf(f, ".TP\n.B ");
        roff(f, st->name);
        fputc('\n', f);
        roff(f, st->help);
        fputs(".\nValues: ", f);
        roff(f, st->allowed);
        fputs(". Default: ", f);
        roff(f, default_text(st));
        fputs(".\n", f);
    }
    fprintf(f, ".RE\n");
    fclose(f);
    return buf;
}

/* README.md: the names, in the table's order. */
static char *settings_names_line(void)
{
    char names[1024];
    setting_names(names, sizeof names);
    char *line = malloc(strlen(names) + 64);
    sprintf(line, "| `set KEY VALUE` | %s |\n", names);
    return line;
}

/* Replace what stands between the line starting with begin and the line
 * starting with end (both kept) by made; or the line starting with begin
 * itself when end is NULL. 1 when the text changes, 0 when it is the same;
 * fails the test when a marker is missing. */
static int splice(char **text, const char *rel, const char *begin, const char *end, const char *made)
{
    char *t = *text, *a = NULL, *b = NULL;
    for (char *p = t; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        if (!a && strncmp(p, begin, strlen(begin)) == 0) {
            a = p;
            if (!end) {
                b = strchr(p, '\n');
                b = b ? b + 1 : p + strlen(p);
                break;
            }
            a = strchr(p, '\n') + 1;
            continue;
        }
        if (a && end && strncmp(p, end, strlen(end)) == 0) {
            b = p;
            break;
        }
    }
    if (!a || !b) fail_msg("%s has no line starting with \"%s\"%s%s", rel, begin, end ? " followed by one starting with " : "", end ? end : "");
    if ((size_t)(b - a) == strlen(made) && memcmp(a, made, strlen(made)) == 0) return 0;
    size_t na = (size_t)(a - t), nb = strlen(b);
    char *out = malloc(na + strlen(made) + nb + 1);
    memcpy(out, t, na);
    memcpy(out + na, made, strlen(made));
    memcpy(out + na + strlen(made), b, nb + 1);
    free(t);
    *text = out;
    return 1;
}

#define MD_BEGIN "<!-- the settings table: made from repl/settings.c by test_repl_tables --write -->"
#define MD_END "<!-- end of the settings table -->"
#define MAN_BEGIN ".\\\" the settings: made from repl/settings.c by test_repl_tables --write"
#define MAN_END ".\\\" end of the settings"

/* The settings lists of the documentation, made from the table: write
 * them (--write) or fail where a file differs. */
static int settings_docs(int write)
{
    static const struct {
        const char *rel, *begin, *end;
        char *(*make)(void);
    } parts[] = {
        {"docs/commands.md", MD_BEGIN, MD_END, settings_markdown},
        {"docs/gpulab.1", MAN_BEGIN, MAN_END, settings_roff},
        {"README.md", "| `set KEY VALUE` |", NULL, settings_names_line},
    };
    int stale = 0;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        char *text = slurp(parts[i].rel), *made = parts[i].make();
        if (splice(&text, parts[i].rel, parts[i].begin, parts[i].end, made)) {
            if (write) spill(parts[i].rel, text);
            else print_error("%s: the settings list is not the table's (run test_repl_tables --write)\n", parts[i].rel);
            stale++;
        }
        free(made);
        free(text);
    }
    return stale;
}

static void docs_list_the_settings(void **state)
{
    (void)state;
    if (settings_docs(0)) fail_msg("the documentation's settings lists differ from the table");
}

/* ---- the documentation's commands */

static int is_command(const char *w)
{
    for (int i = 0; cmd_at(i); i++)
        if (strcmp(cmd_at(i)->name, w) == 0) return 1;
    return 0;
}

static int is_alias(const char *w)
{
    for (int i = 0; cmd_at(i); i++) {
        const char *a = cmd_at(i)->aliases;
        size_t n = strlen(w);
        for (const char *p = a; p && *p;) {
            size_t k = strcspn(p, " ,");
            if (k == n && strncmp(p, w, n) == 0) return 1;
            p += k;
            p += strspn(p, " ,");
        }
    }
    return 0;
}

/* The first word of every `code span` in line[0..len), in order. */
static int span_words(const char *line, size_t len, char words[][32], int max)
{
    int n = 0;
    const char *end = line + len;
    for (const char *p = memchr(line, '`', len); p && p < end && n < max;) {
        const char *q = memchr(p + 1, '`', (size_t)(end - p - 1));
        if (!q) break;
        size_t k = strcspn(p + 1, " `[");
        if (k > 31) k = 31;
        memcpy(words[n], p + 1, k);
        words[n][k] = 0;
        n++;
        p = q + 1 < end ? memchr(q + 1, '`', (size_t)(end - q - 1)) : NULL;
    }
    return n;
}

/* Every command is documented where the lists are, and every name a list
 * gives is a command (or an alias where it says so). */
static void docs_list_the_commands(void **state)
{
    (void)state;
    int ncmd = 0;
    while (cmd_at(ncmd)) ncmd++;
    /* docs/commands.md: a "### " heading per command, under "## Commands" */
    char *md = slurp("docs/commands.md");
    int *seen = calloc((size_t)ncmd, sizeof *seen);
    char *sec = strstr(md, "\n## Commands\n");
    assert_non_null(sec);
    char *stop = strstr(sec + 1, "\n## ");
    for (char *p = sec; p && (!stop || p < stop); p = strchr(p + 1, '\n')) {
        if (strncmp(p, "\n### ", 5) != 0) continue;
        const char *line = p + 1;
        size_t len = strcspn(line, "\n");
        const char *alias = strstr(line, "(alias");
        size_t cmds_len = alias && alias < line + len ? (size_t)(alias - line) : len;
        char words[16][32];
        int n = span_words(line, cmds_len, words, 16);
        if (n == 0) fail_msg("docs/commands.md: a heading that names no command: %.*s", (int)len, line);
        for (int k = 0; k < n; k++) {
            if (!is_command(words[k])) fail_msg("docs/commands.md documents \"%s\", which is no command", words[k]);
            for (int c = 0; c < ncmd; c++)
                if (strcmp(cmd_at(c)->name, words[k]) == 0) {
                    seen[c] = 1;
                    /* the heading names its aliases */
                    const char *a = cmd_at(c)->aliases;
                    if (a && *a) {
                        char want[64];
                        snprintf(want, sizeof want, "`%s`", a);
                        if (!alias || alias > line + len || !strstr(alias, want))
                            fail_msg("docs/commands.md: the heading of %s does not give its alias %s", words[k], a);
                    }
                }
        }
    }
    for (int c = 0; c < ncmd; c++)
        if (!seen[c]) fail_msg("docs/commands.md has no heading for the command %s", cmd_at(c)->name);
    free(md);
    /* README.md: the first column of the commands table */
    char *rd = slurp("README.md");
    memset(seen, 0, (size_t)ncmd * sizeof *seen);
    sec = strstr(rd, "\n## Commands\n");
    assert_non_null(sec);
    stop = strstr(sec + 1, "\n## ");
    for (char *p = sec; p && (!stop || p < stop); p = strchr(p + 1, '\n')) {
        if (strncmp(p, "\n| `", 4) != 0) continue;
        const char *line = p + 2;
        size_t len = 0; /* the first cell: up to a '|' that is not "\\|" */
        while (line[len] && line[len] != '\n' && !(line[len] == '|' && line[len - 1] != '\\')) len++;
        char words[16][32];
        int n = span_words(line, len, words, 16);
        for (int k = 0; k < n; k++) {
            if (!is_command(words[k]) && !is_alias(words[k]))
                fail_msg("README.md's commands table names \"%s\", which is no command", words[k]);
            for (int c = 0; c < ncmd; c++)
                if (strcmp(cmd_at(c)->name, words[k]) == 0) seen[c] = 1;
        }
    }
    for (int c = 0; c < ncmd; c++)
        if (!seen[c]) fail_msg("README.md's commands table leaves out %s", cmd_at(c)->name);
    free(rd);
    /* docs/gpulab.1: a tagged paragraph per command under .SH COMMANDS */
    char *man = slurp("docs/gpulab.1");
    memset(seen, 0, (size_t)ncmd * sizeof *seen);
    sec = strstr(man, "\n.SH COMMANDS\n");
    assert_non_null(sec);
    stop = strstr(sec + 1, "\n.SH ");
    int depth = 0;
    for (char *p = sec; p && (!stop || p < stop); p = strchr(p + 1, '\n')) {
        if (strncmp(p, "\n.RS", 4) == 0) depth++;
        if (strncmp(p, "\n.RE", 4) == 0) depth--;
        if (depth > 0 || strncmp(p, "\n.TP\n", 5) != 0) continue;
        const char *line = p + 5;
        size_t len = strcspn(line, "\n");
        if (line[0] != '.' || line[1] != 'B') fail_msg("docs/gpulab.1: a command's paragraph starts %.*s", (int)len, line);
        char head[512];
        snprintf(head, sizeof head, "%.*s", (int)(len < 511 ? len : 511), line);
        int first = 1;
        for (char *w = strtok(head + 3, " \",|"); w; w = strtok(NULL, " \",|")) {
            if (strcmp(w, "\\-") == 0) continue;
            if (is_command(w)) {
                for (int c = 0; c < ncmd; c++)
                    if (strcmp(cmd_at(c)->name, w) == 0) seen[c] = 1;
            } else if (first && !is_alias(w)) {
                fail_msg("docs/gpulab.1 documents \"%s\", which is no command", w);
            }
            first = 0;
        }
    }
    for (int c = 0; c < ncmd; c++)
        if (!seen[c]) fail_msg("docs/gpulab.1 has no paragraph for the command %s", cmd_at(c)->name);
    free(man);
    free(seen);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rows_are_whole),
        cmocka_unit_test(set_show_reset),
        cmocka_unit_test(ranges_are_kept),
        cmocka_unit_test(export_records_the_run_settings),
        cmocka_unit_test(export_writes_the_last_output),
        cmocka_unit_test(docs_list_the_settings),
        cmocka_unit_test(docs_list_the_commands),
    };
    /* --write: make the documentation's settings lists from the table */
    if (argc > 1 && strcmp(argv[1], "--write") == 0) return settings_docs(1) >= 0 ? 0 : 1;
    return cmocka_run_group_tests_name("tables", tests, NULL, NULL);
}
