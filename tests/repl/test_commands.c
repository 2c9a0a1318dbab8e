/* Unit tests of the command table, lookup by prefix, settings, completion,
 * error reports with carets, JSON rows and the registry listing. Output is
 * captured through out_set_streams(); nothing here needs a terminal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <jansson.h>

#include "kernels/program/program.h"
#include "repl/cmd.h"
#include "repl/complete.h"
#include "tests/common/golden.h"
#include "repl/out.h"
#include "repl/session.h"
#include "repl/settings.h"
#include "repl/results.h"
#include "repl/repl.h"

/* ---- capture */

static char *cap_out, *cap_err;
static size_t cap_out_len, cap_err_len;
static FILE *f_out, *f_err;

static void cap_begin(void)
{
    free(cap_out);
    free(cap_err);
    cap_out = cap_err = NULL;
    f_out = open_memstream(&cap_out, &cap_out_len);
    f_err = open_memstream(&cap_err, &cap_err_len);
    out_set_streams(f_out, f_err);
}

static void cap_end(void)
{
    fclose(f_out);
    fclose(f_err);
    out_set_streams(NULL, NULL);
}

/* Run a line in s and capture what it printed. */
static enum cmd_status exec(struct session *s, const char *line)
{
    cap_begin();
    enum cmd_status st = repl_exec_line(s, line);
    cap_end();
    return st;
}

static void must_contain(const char *hay, const char *needle)
{
    if (!hay || !strstr(hay, needle)) fail_msg("\"%s\" not found in:\n%s", needle, hay ? hay : "(null)");
}

/* ---- the table */

static void table_is_sane(void **state)
{
    (void)state;
    int n = 0;
    for (int i = 0; cmd_at(i); i++, n++) {
        const struct cmd *c = cmd_at(i);
        assert_non_null(c->name);
        assert_non_null(c->usage);
        assert_non_null(c->help);
        assert_non_null(c->run);
        assert_true(strlen(c->help) > 5);
        /* the usage starts with the name */
        assert_int_equal(strncmp(c->usage, c->name, strlen(c->name)), 0);
        for (const char *p = c->name; *p; p++) assert_true((*p >= 'a' && *p <= 'z') || *p == '-');
        for (int j = 0; j < i; j++) assert_string_not_equal(cmd_at(j)->name, c->name);
    }
    assert_true(n >= 12);
    static const char *const required[] = {"help", "list", "use", "set", "show", "run", "compare",
                                           "device", "source", "trace", "quit"};
    char err[256];
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        const struct cmd *c = cmd_find(required[i], err, sizeof err);
        assert_non_null(c);
        assert_string_equal(c->name, required[i]);
    }
}

static void lookup(void **state)
{
    (void)state;
    char err[512];
    assert_string_equal(cmd_find("help", err, sizeof err)->name, "help");
    assert_string_equal(cmd_find("?", err, sizeof err)->name, "help");
    assert_string_equal(cmd_find("exit", err, sizeof err)->name, "quit");
    assert_string_equal(cmd_find("comp", err, sizeof err)->name, "compare");
    assert_string_equal(cmd_find("tr", err, sizeof err)->name, "trace");
    assert_string_equal(cmd_find("dev", err, sizeof err)->name, "device");
    assert_null(cmd_find("r", err, sizeof err));
    must_contain(err, "ambiguous");
    must_contain(err, "could be");
    must_contain(err, "run");
    must_contain(err, "reset");
    assert_null(cmd_find("s", err, sizeof err));
    must_contain(err, "set");
    must_contain(err, "show");
    assert_null(cmd_find("frobnicate", err, sizeof err));
    must_contain(err, "unknown command");
    assert_null(cmd_find("compre", err, sizeof err));
    must_contain(err, "did you mean compare");
}

static void settings_table(void **state)
{
    (void)state;
    char err[1024];
    static const char *const required[] = {"n", "block", "grid", "dtype", "pattern", "value",
                                           "seed", "repeats", "backend", "sim-limit",
                                           "race-check", "check", "pad", "width", "height", "image", "model"};
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        const struct setting *st = setting_find(required[i], err, sizeof err);
        assert_non_null(st);
        assert_string_equal(st->name, required[i]);
        assert_non_null(st->set);
        assert_non_null(st->show);
        assert_non_null(st->allowed);
    }
    assert_string_equal(setting_find("rep", err, sizeof err)->name, "repeats");
    assert_null(setting_find("r", err, sizeof err));
    must_contain(err, "repeats");
    must_contain(err, "race-check");
    assert_null(setting_find("colour", err, sizeof err));
    must_contain(err, "unknown setting");
}

/* ---- the session */

static void registry_listing(void **state)
{
    (void)state;
    struct session s;
    sess_init(&s);
    assert_int_equal(exec(&s, "list"), CMD_OK);
    assert_true(lab_algo_count() >= 1);
    for (int i = 0; i < lab_algo_count(); i++) {
        const lab_algo *a = lab_algo_at(i);
        must_contain(cap_out, a->name);
        must_contain(cap_out, a->summary);
        for (int v = 0; v < a->nvariants; v++) must_contain(cap_out, a->variants[v].name);
    }
    sess_free(&s);
}

static void use_and_show(void **state)
{
    (void)state;
    struct session s;
    sess_init(&s);
    const lab_algo *a = lab_algo_at(0);
    char line[256];
    const lab_variant *v = &a->variants[a->nvariants > 1 ? 1 : 0];
    snprintf(line, sizeof line, "use %s/%s", a->name, v->name);
    assert_int_equal(exec(&s, line), CMD_OK);
    assert_ptr_equal(s.algo, a);
    assert_ptr_equal(s.variant, v);
    assert_int_equal(exec(&s, "show"), CMD_OK);
    must_contain(cap_out, v->name);
    must_contain(cap_out, "limits of");
    must_contain(cap_out, "dtypes");
    must_contain(cap_out, "trace");
    assert_int_equal(exec(&s, "show rep"), CMD_OK);
    must_contain(cap_out, "repeats = 5");
    assert_int_equal(exec(&s, "use nosuchthing"), CMD_ERROR);
    must_contain(cap_err, "error:");
    sess_free(&s);
}

static void set_values(void **state)
{
    (void)state;
    struct session s;
    sess_init(&s);
    assert_int_equal(exec(&s, "use reduce"), CMD_OK);
    assert_int_equal(exec(&s, "set n 64Mi"), CMD_OK);
    assert_int_equal(s.cfg.n, 64LL << 20);
    assert_int_equal(exec(&s, "set n 1<<20; set repeats 7; set seed 42"), CMD_OK);
    assert_int_equal(s.cfg.n, 1LL << 20);
    assert_int_equal(s.cfg.repeats, 7);
    assert_int_equal(s.cfg.seed, 42);
    assert_int_equal(exec(&s, "set grid auto; set block auto; set n auto"), CMD_OK);
    assert_int_equal(s.cfg.grid, 0);
    assert_int_equal(s.cfg.block, 0);
    assert_int_equal(s.cfg.n, 0);
    assert_int_equal(exec(&s, "set race-check on; set pad off; set backend sim"), CMD_OK);
    assert_int_equal(exec(&s, "set check initcheck,50"), CMD_OK);
    assert_int_equal(s.check, PROG_CHECK_MEMCHECK | PROG_CHECK_INITCHECK | PROG_CHECK_SET);
    assert_int_equal(s.check_limit, 50);
    assert_int_equal(exec(&s, "set check leaks"), CMD_OK);
    assert_int_equal(s.cfg.race_check, 1);
    assert_int_equal(s.cfg.backend, LAB_BACKEND_SIM);
    assert_int_equal(exec(&s, "set value 1.23; set dtype float"), CMD_OK);
    assert_true(s.cfg.value == 1.23);
    assert_int_equal(s.cfg.dtype, LAB_FLOAT);
    assert_int_equal(exec(&s, "set width 640; set height 480; set model a100"), CMD_OK);
    assert_int_equal(s.cfg.width, 640);
    assert_string_equal(s.cfg.model, "a100");
    assert_int_equal(exec(&s, "reset"), CMD_OK);
    assert_int_equal(s.cfg.repeats, 5);
    assert_int_equal(s.errors, 0);
    sess_free(&s);
}

/* Each bad input: an error with a caret, counted, and the session goes on. */
static void bad_inputs(void **state)
{
    (void)state;
    static const struct { const char *line, *needle; } bad[] = {
        {"frob", "unknown command"},
        {"set n 12x", "expected a size"},
        {"set n -5", "negative"},
        {"set n 0", "zero"},
        {"set block 0", "at least one thread"},
        {"set block 2000", "1024"},
        {"set block 100", "power of two"},
        {"set grid 0", "grid"},
        {"set grid lots", "grid"},
        {"set dtype xyz", "int"},
        {"set pattern zebra", "lecture"},
        {"set repeats 0", "1..1000"},
        {"set repeats 5000", "1..1000"},
        {"set race-check maybe", "on or off"},
        {"set check everything", "off, memcheck, initcheck, leaks or all"},
        {"set check all,0", "1 to 1000"},
        {"set backend quantum", "auto"},
        {"set n", "needs a value"},
        {"set", "KEY VALUE"},
        {"set colour red", "unknown setting"},
        {"set n 5 6", "one value"},
        {"use reduce/nope", "no variant"},
        {"run nope", "no variant"},
        {"help nope", "unknown command"},
        {"set image /no/such/file.pgm", "cannot open"},
        {"source /no/such/script.gl", "cannot open"},
        {"echo 'open", "unterminated"},
        {"trace nope", "no variant"},
        {"compare extra", "no arguments"},
    };
    struct session s;
    sess_init(&s);
    assert_int_equal(exec(&s, "use reduce/sequential"), CMD_OK);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int before = s.errors;
        enum cmd_status st = exec(&s, bad[i].line);
        if (st != CMD_ERROR) fail_msg("\"%s\" did not fail", bad[i].line);
        assert_int_equal(s.errors, before + 1);
        must_contain(cap_err, "error: ");
        must_contain(cap_err, bad[i].needle);
        must_contain(cap_err, "^");
        assert_int_equal(exec(&s, "echo alive"), CMD_OK);
        must_contain(cap_out, "alive");
    }
    sess_free(&s);
}

static void caret_position_and_location(void **state)
{
    (void)state;
    struct session s;
    sess_init(&s);
    s.script = "lesson.gl";
    s.line = 7;
    exec(&s, "echo first; set repeats many");
    must_contain(cap_err, "error: line 7 of lesson.gl: ");
    /* only the failing command is shown, the caret under its value */
    must_contain(cap_err, "\n    set repeats many\n                ^~~~\n");
    exec(&s, "set n");
    must_contain(cap_err, "\n    set n\n          ^\n");
    sess_free(&s);
}

static void quit_stops_the_line(void **state)
{
    (void)state;
    struct session s;
    sess_init(&s);
    assert_int_equal(exec(&s, "echo a; quit; echo b"), CMD_QUIT);
    must_contain(cap_out, "a\n");
    assert_null(strstr(cap_out, "b\n"));
    sess_free(&s);
}

static void bail_stops_the_line(void **state)
{
    (void)state;
    struct session s;
    sess_init(&s);
    s.bail = 1;
    assert_int_equal(exec(&s, "echo a; frob; echo b"), CMD_ERROR);
    assert_null(strstr(cap_out, "b\n"));
    s.bail = 0;
    assert_int_equal(exec(&s, "echo a; frob; echo b"), CMD_ERROR);
    must_contain(cap_out, "b\n");
    sess_free(&s);
}

static void help_texts(void **state)
{
    (void)state;
    struct session s;
    sess_init(&s);
    assert_int_equal(exec(&s, "help"), CMD_OK);
    for (int i = 0; cmd_at(i); i++) must_contain(cap_out, cmd_at(i)->help);
    assert_int_equal(exec(&s, "help set"), CMD_OK);
    must_contain(cap_out, "usage: set KEY VALUE");
    must_contain(cap_out, "sim-limit");
    assert_int_equal(exec(&s, "help comp"), CMD_OK);
    must_contain(cap_out, "usage: compare");
    sess_free(&s);
}

/* ---- completion */

static int has(const struct cmp_list *l, const char *w)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->words[i], w) == 0) return 1;
    return 0;
}

static void completion(void **state)
{
    (void)state;
    struct session s;
    sess_init(&s);
    struct cmp_list l = {0};
    int files;
    const lab_algo *a = s.algo;
    char buf[256];

    cmp_candidates(&s, "", 0, "", &l, &files);
    assert_true(has(&l, "set") && has(&l, "run") && has(&l, "compare") && has(&l, "exit"));
    cmp_free(&l);
    cmp_candidates(&s, "set n 5; ru", 9, "ru", &l, &files);
    assert_true(has(&l, "run"));
    cmp_free(&l);
    cmp_candidates(&s, "set ", 4, "", &l, &files);
    assert_true(has(&l, "block") && has(&l, "dtype") && has(&l, "race-check"));
    cmp_free(&l);
    cmp_candidates(&s, "set dtype ", 10, "", &l, &files);
    assert_true(has(&l, "int"));
    cmp_free(&l);
    cmp_candidates(&s, "set backend ", 12, "", &l, &files);
    assert_true(has(&l, "auto") && has(&l, "gpu") && has(&l, "sim"));
    cmp_free(&l);
    cmp_candidates(&s, "set pad ", 8, "", &l, &files);
    assert_true(has(&l, "on") && has(&l, "off"));
    cmp_free(&l);
    cmp_candidates(&s, "set pattern ", 12, "", &l, &files);
    for (int i = 0; a->patterns && a->patterns[i]; i++) assert_true(has(&l, a->patterns[i]));
    cmp_free(&l);
    cmp_candidates(&s, "use ", 4, "", &l, &files);
    snprintf(buf, sizeof buf, "%s/", a->name);
    assert_true(has(&l, buf));
    snprintf(buf, sizeof buf, "%s/%s", a->name, a->variants[0].name);
    assert_true(has(&l, buf));
    cmp_free(&l);
    cmp_candidates(&s, "run ", 4, "", &l, &files);
    for (int v = 0; v < a->nvariants; v++) assert_true(has(&l, a->variants[v].name));
    cmp_free(&l);
    cmp_candidates(&s, "help ", 5, "", &l, &files);
    assert_true(has(&l, "trace"));
    cmp_free(&l);
    cmp_candidates(&s, "source ", 7, "", &l, &files);
    assert_int_equal(files, 1);
    cmp_free(&l);
    sess_free(&s);
}

/* ---- JSON rows */

static void json_rows(void **state)
{
    (void)state;
    lab_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.algo, sizeof r.algo, "reduce");
    snprintf(r.variant, sizeof r.variant, "cub");
    r.backend = LAB_BACKEND_GPU;
    r.n = 1000;
    r.correct = -1;
    r.pct_peak = r.speedup = r.rel_error = -1;
    snprintf(r.note, sizeof r.note, "needs a GPU");
    json_t *o = out_result_json(&r);
    static const char *const keys[] = {"algo", "variant", "backend", "n", "dtype", "block", "grid",
                                       "ms", "ms_min", "ms_max", "gbps", "pct_peak", "speedup",
                                       "result", "correct", "rel_error", "repeats", "note", "ran"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!json_object_get(o, keys[i])) fail_msg("key %s missing", keys[i]);
    assert_true(json_is_false(json_object_get(o, "ran")));
    assert_true(json_is_null(json_object_get(o, "correct")));
    assert_true(json_is_null(json_object_get(o, "ms")));
    assert_string_equal(json_string_value(json_object_get(o, "backend")), "gpu");
    assert_string_equal(json_string_value(json_object_get(o, "note")), "needs a GPU");
    json_decref(o);

    r.ran = 1;
    r.backend = LAB_BACKEND_SIM;
    r.ms = 2.5;
    r.ms_min = 2;
    r.ms_max = 3;
    r.correct = 1;
    r.repeats = 1;
    snprintf(r.result, sizeof r.result, "500500");
    o = out_result_json(&r);
    assert_true(json_is_true(json_object_get(o, "correct")));
    assert_true(json_real_value(json_object_get(o, "ms")) == 2.5);
    assert_string_equal(json_string_value(json_object_get(o, "backend")), "sim");
    assert_true(json_is_null(json_object_get(o, "speedup")));
    json_decref(o);
}

/* ---- a real run: the simulator (or the GPU) against the CPU */

static void run_small(void **state)
{
    (void)state;
    struct session s;
    sess_init(&s);
    s.json = 1;
    char line[256];
    snprintf(line, sizeof line, "use reduce/sequential; set n 1000; set repeats 1; run");
    assert_int_equal(exec(&s, line), CMD_OK);
    assert_int_equal(s.last.kind, SESS_OUTPUT_TABLE);
    assert_int_equal(s.last.nrows, 1);
    assert_int_equal(s.last.rows[0].ran, 1);
    assert_int_equal(s.last.rows[0].correct, 1);
    assert_true(s.last.rows[0].backend == LAB_BACKEND_SIM || s.last.rows[0].backend == LAB_BACKEND_GPU);
    json_error_t je;
    json_t *o = json_loads(cap_out, JSON_DISABLE_EOF_CHECK, &je);
    assert_non_null(o);
    assert_true(json_is_true(json_object_get(o, "ran")));
    json_decref(o);
    sess_free(&s);
}

/* ---- output that fits the terminal */

/* The widest line of text, in display columns. */
static int widest(const char *t)
{
    int w = 0;
    while (t && *t) {
        size_t l = strcspn(t, "\n");
        int lw = out_text_width(t, l);
        if (lw > w) w = lw;
        t += l;
        if (*t) t++;
    }
    return w;
}

static lab_result fixed_result(const char *variant, lab_backend be, double ms, double gbps)
{
    lab_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.algo, sizeof r.algo, "reduce");
    snprintf(r.variant, sizeof r.variant, "%s", variant);
    r.backend = be;
    r.n = 1 << 20;
    r.block = be == LAB_BACKEND_CPU ? 0 : 256;
    r.grid = be == LAB_BACKEND_CPU ? 0 : 4096;
    r.ran = 1;
    r.ms = ms;
    r.ms_min = ms * 0.9;
    r.ms_max = ms * 1.2;
    r.gbps = gbps;
    r.pct_peak = gbps > 0 ? gbps / 40 : -1;
    r.speedup = be == LAB_BACKEND_CPU ? 1.0 : -1;
    r.correct = 1;
    r.rel_error = -1;
    r.repeats = 5;
    snprintf(r.result, sizeof r.result, "%s", "51937448");
    return r;
}

/* The timing table at 80 columns: columns leave in the stated order, min and
 * max first (after columns with nothing in them), no line is wider than the terminal, a line says what went; at
 * 200 columns every column stays. The text is pinned by a golden file. */
/* The OpenMP row flagged where it cannot show OpenMP, silent where it can. */
static void omp_baseline_flag(void **state)
{
    (void)state;
    lab_result rows[2] = {
        fixed_result("cpu-omp", LAB_BACKEND_CPU, 0.1, 40),
        fixed_result("cpu-seq", LAB_BACKEND_CPU, 0.8, 5),
    };
    char f[512];
    assert_int_equal(results_omp_flag(rows, 2, 0, 16, 1.0, f, sizeof f), 0); /* 16 idle cores, 8x faster */
    assert_string_equal(f, "");
    assert_int_equal(results_omp_flag(rows, 2, 0, 2, 0.1, f, sizeof f), 1);
    must_contain(f, "this machine has 2 cores");
    assert_int_equal(results_omp_flag(rows, 2, 0, 8, 20.0, f, sizeof f), 1);
    must_contain(f, "busy (load 20.0 on 8 cores)");
    rows[0].ms = 3.2; /* slower than cpu-seq even on 16 idle cores */
    assert_int_equal(results_omp_flag(rows, 2, 0, 16, 1.0, f, sizeof f), 1);
    must_contain(f, "cpu-omp took 4.0x as long as cpu-seq");
}

static void tables_fit_the_terminal(void **state)
{
    (void)state;
    struct session s;
    sess_init(&s);
    lab_result rows[4] = {
        fixed_result("interleaved", LAB_BACKEND_SIM, 2259.7, -1),
        fixed_result("warp-shuffle", LAB_BACKEND_SIM, 1148.9, -1),
        fixed_result("cpu-omp", LAB_BACKEND_CPU, 32.0, 0.1),
        fixed_result("cpu-seq", LAB_BACKEND_CPU, 0.547, 7.7),
    };
    out_set_width(80);
    cap_begin();
    results_print(&s, rows, 4);
    cap_end();
    if (widest(cap_out) > 80) fail_msg("a line is wider than 80 columns:\n%s", cap_out);
    must_contain(cap_out, "left out to fit 80 columns: min, max");
    if (strstr(cap_out, "  min  ")) fail_msg("min should be left out first:\n%s", cap_out);
    must_contain(cap_out, "variant");
    must_contain(cap_out, "  ok");
    /* cpu-omp took 58x as long as cpu-seq: flagged, whatever the machine */
    must_contain(cap_out, "32.00!");
    must_contain(cap_out, "! cpu-omp took 58.5x as long as cpu-seq");
    golden_check(GOLDEN_DIR "/timing-table-80.txt", cap_out, cap_out_len);
    out_set_width(200);
    cap_begin();
    results_print(&s, rows, 4);
    cap_end();
    /* the keys were explained under the first table: one short line now */
    must_contain(cap_out, "* simulator time on this CPU, not GPU time\n");
    if (strstr(cap_out, "no GB/s")) fail_msg("the full key again under the second table:\n%s", cap_out);
    must_contain(cap_out, "min");
    must_contain(cap_out, "% peak");
    if (strstr(cap_out, "left out")) fail_msg("nothing is left out at 200 columns:\n%s", cap_out);
    /* simulator rows alone: their empty GB/s, % peak and speedup columns
     * leave first, so min, max and grid stay at 80 */
    out_set_width(80);
    cap_begin();
    results_print(&s, rows, 2);
    cap_end();
    if (widest(cap_out) > 80) fail_msg("a line is wider than 80 columns:\n%s", cap_out);
    must_contain(cap_out, "left out to fit 80 columns: % peak, speedup;");
    must_contain(cap_out, "  grid  ");
    must_contain(cap_out, "  min  ");
    /* help and lists wrap between words at 80 */
    out_set_width(80);
    assert_int_equal(exec(&s, "help set; list; help"), CMD_OK);
    if (widest(cap_out) > 80) fail_msg("help or list is wider than 80 columns:\n%s", cap_out);
    out_set_width(-1);
    sess_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_is_sane),
        cmocka_unit_test(lookup),
        cmocka_unit_test(settings_table),
        cmocka_unit_test(registry_listing),
        cmocka_unit_test(use_and_show),
        cmocka_unit_test(set_values),
        cmocka_unit_test(bad_inputs),
        cmocka_unit_test(caret_position_and_location),
        cmocka_unit_test(quit_stops_the_line),
        cmocka_unit_test(bail_stops_the_line),
        cmocka_unit_test(help_texts),
        cmocka_unit_test(completion),
        cmocka_unit_test(json_rows),
        cmocka_unit_test(run_small),
        cmocka_unit_test(tables_fit_the_terminal),
        cmocka_unit_test(omp_baseline_flag),
    };
    return cmocka_run_group_tests_name("repl_commands", tests, NULL, NULL);
}
