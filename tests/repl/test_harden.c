/* Unit tests of what keeps gpulab safe from its input (docs/reliability.md):
 * the size parser's bounds, the lesson reader's line ends and depth limit,
 * the answer normaliser's bounds, control characters made visible, JSON
 * text that is not UTF-8, the script reader, and safefile's writes (temp
 * file and rename, modes, links, a failed write, the lesson rule): each
 * crash of hostile input found so far is one of these checks. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "repl/input.h"
#include "repl/lessons/lesson.h"
#include "repl/out.h"
#include "repl/parse.h"
#include "repl/safefile.h"

static char tmpdir[256];

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "%s/gpulab-harden-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    assert_non_null(mkdtemp(tmpdir));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *in_tmp(const char *name)
{
    static char p[8][512];
    static int k;
    k = (k + 1) % 8;
    snprintf(p[k], sizeof p[k], "%s/%s", tmpdir, name);
    return p[k];
}

static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static char *get_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    char *b = calloc(1, 65536);
    size_t n = fread(b, 1, 65535, f);
    b[n] = 0;
    fclose(f);
    return b;
}

/* files in tmpdir whose names start with a dot: temporary files left behind */
static int leftovers(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "ls -A '%s' | grep -q '^\\.'", tmpdir);
    return system(cmd) == 0;
}

/* ------------------------------------------------------------ the parser */

static void size_parser_bounds(void **state)
{
    (void)state;
    char err[256], num[300];
    long long v;
    /* 126 digits and e5 wrote one byte past a 128-byte buffer */
    memset(num, '1', 126);
    strcpy(num + 126, "e5");
    assert_int_equal(parse_size(num, 1, 1LL << 50, &v, err, sizeof err), -1);
    assert_non_null(strstr(err, "too long"));
    for (int len = 120; len < 140; len++) { /* every length around the buffer's */
        memset(num, '9', (size_t)len);
        strcpy(num + len, "e+5");
        assert_int_equal(parse_size(num, 1, 1LL << 50, &v, err, sizeof err), -1);
    }
    /* the ordinary forms still parse */
    assert_int_equal(parse_size("2.5e6", 1, 1LL << 50, &v, err, sizeof err), 0);
    assert_int_equal(v, 2500000);
    assert_int_equal(parse_size("1_000_000", 1, 1LL << 50, &v, err, sizeof err), 0);
    assert_int_equal(v, 1000000);
    assert_int_equal(parse_size("3*2^20", 1, 1LL << 50, &v, err, sizeof err), 0);
    assert_int_equal(v, 3 << 20);
}

/* ------------------------------------------------------------ lessons */

static struct lesson *parse_text(const char *bytes, size_t len, char *err, size_t errlen)
{
    char *t = lesson_text_clean(bytes, len, "t.md", err, errlen);
    return t ? lesson_parse("t.md", t, err, errlen) : NULL;
}

static void lesson_line_ends(void **state)
{
    (void)state;
    char err[512];
    /* a lone CR after --- used to be a NULL + 1 dereference */
    struct lesson *l = parse_text("---\r", 4, err, sizeof err);
    assert_null(l);
    assert_non_null(strstr(err, "never closed"));
    static const char cr[] = "---\rtitle: CR only\r---\r## One\rtext\r## Two\r```gpulab\ruse reduce\r```\r";
    static const char crlf[] = "---\r\ntitle: CR only\r\n---\r\n## One\r\ntext\r\n## Two\r\n```gpulab\r\nuse reduce\r\n```\r\n";
    static const char lf[] = "---\ntitle: CR only\n---\n## One\ntext\n## Two\n```gpulab\nuse reduce\n```\n";
    const char *texts[] = {cr, crlf, lf};
    for (int i = 0; i < 3; i++) {
        l = parse_text(texts[i], strlen(texts[i]), err, sizeof err);
        if (!l) fail_msg("form %d: %s", i, err);
        assert_string_equal(l->title, "CR only");
        assert_int_equal(l->nsteps, 2);
        assert_int_equal(l->steps[1].ncmds, 1);
        assert_string_equal(l->steps[1].cmds[0].text, "use reduce");
        assert_int_equal(l->steps[1].cmds[0].line, 8); /* the same line in every form */
        lesson_free(l);
    }
    /* a NUL byte: refused with its line */
    static const char nul[] = "# T\n## a\nx\0y\n";
    assert_null(lesson_text_clean(nul, sizeof nul - 1, "t.md", err, sizeof err));
    assert_non_null(strstr(err, "t.md:3:"));
}

static void lesson_depth_limit(void **state)
{
    (void)state;
    char err[512];
    size_t n = 40000;
    char *deep = malloc(n + 64);
    int off = sprintf(deep, "# T\n## a\n");
    memset(deep + off, '>', n);
    strcpy(deep + off + n, " deep\n");
    struct lesson *l = parse_text(deep, strlen(deep), err, sizeof err);
    assert_null(l);
    assert_non_null(strstr(err, "t.md:3:"));
    assert_non_null(strstr(err, "nest deeper than 32"));
    /* nested list items and emphasis the same way */
    off = sprintf(deep, "# T\n## a\n");
    for (int i = 0; i < 200; i++) off += sprintf(deep + off, "%*s- item\n", 2 * (i % 100), "");
    deep[off] = 0;
    l = parse_text(deep, strlen(deep), err, sizeof err);
    assert_null(l);
    assert_non_null(strstr(err, "nest deeper"));
    free(deep);
    /* 30 levels are fine, and render */
    char ok[256];
    off = sprintf(ok, "# T\n## a\n");
    memset(ok + off, '>', 28);
    strcpy(ok + off + 28, " fine\n");
    l = parse_text(ok, strlen(ok), err, sizeof err);
    if (!l) fail_msg("%s", err);
    FILE *sink = fopen("/dev/null", "w");
    out_set_streams(sink, sink);
    lesson_render_step(NULL, l, 0, 80, 0);
    out_set_streams(NULL, NULL);
    fclose(sink);
    lesson_free(l);
}

static void answer_bounds(void **state)
{
    (void)state;
    /* an answer of 512 characters with a space wrote past a 512-byte buffer */
    char ans[700], typed[700];
    memset(ans, 'a', sizeof ans);
    ans[300] = ' ';
    ans[sizeof ans - 1] = 0;
    char *answers[] = {ans};
    struct lesson_question q = {.text = "q", .answers = answers, .nanswers = 1};
    for (int len = 505; len < 520; len++) {
        memcpy(typed, ans, sizeof typed);
        typed[len] = 0;
        typed[len - 2] = ' ';
        lesson_check_answer(&q, typed); /* under ASan: no write out of bounds */
    }
    assert_int_equal(lesson_check_answer(&q, ans), 1);
}

/* ------------------------------------------------------------ visible text */

static void control_characters(void **state)
{
    (void)state;
    static const char mixed[] = "a\033[2Jb\x7f\n\tc\xc2\x9b" "2J\xc3\xa9";
    char *e = out_escape(mixed, sizeof mixed - 1, "\n\t");
    assert_string_equal(e, "a^[[2Jb^?\n\tc^[[2J\xc3\xa9");
    free(e);
    e = out_escape("x\ny", 3, NULL);
    assert_string_equal(e, "x^Jy");
    free(e);
    assert_string_equal(out_vis("\033]52;c;aGk=\007"), "^[]52;c;aGk=^G");
    /* a long string is cut, not inside a UTF-8 character */
    char *big = malloc(9000);
    for (int i = 0; i < 4500; i++) memcpy(big + 2 * i, "\xc3\xa9", 2);
    big[9000 - 1] = 0;
    const char *v = out_vis(big);
    size_t vl = strlen(v);
    assert_true(vl <= 4096 + 3);
    assert_string_equal(v + vl - 3, "...");
    assert_true(((unsigned char)v[vl - 4] & 0xC0) == 0x80 && (unsigned char)v[vl - 5] == 0xc3);
    free(big);
    /* an error echoes typed words and the line made visible, the caret under the word */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    out_set_streams(f, f);
    struct out_loc loc = {.text = "frob\033[2J x", .pos = 9, .len = 1};
    out_error(&loc, "unknown command \"%s\"", "frob\033[2J");
    out_set_streams(NULL, NULL);
    fclose(f);
    assert_null(strchr(buf, '\033'));
    assert_non_null(strstr(buf, "\"frob^[[2J\""));
    assert_non_null(strstr(buf, "    frob^[[2J x\n              ^"));
    free(buf);
    /* table cells too */
    f = open_memstream(&buf, &len);
    out_set_streams(f, f);
    const char *hdr[] = {"a"}, *row[] = {"\033[31mred"};
    struct out_table *t = out_table_new(1, hdr, "l");
    out_table_row(t, row);
    out_table_print(t);
    out_table_free(t);
    out_set_streams(NULL, NULL);
    fclose(f);
    assert_null(strchr(buf, '\033'));
    assert_non_null(strstr(buf, "^[[31mred"));
    free(buf);
}

static void json_text_not_utf8(void **state)
{
    (void)state;
    json_t *j = out_json_text("/tmp/caf\xe9.pgm");
    assert_non_null(j);
    assert_string_equal(json_string_value(j), "/tmp/caf\\xe9.pgm");
    json_decref(j);
    j = out_json_text("caf\xc3\xa9");
    assert_string_equal(json_string_value(j), "caf\xc3\xa9");
    json_decref(j);
    j = out_json_text("\xed\xa0\x80"); /* a surrogate is not a character either */
    assert_string_equal(json_string_value(j), "\\xed\\xa0\\x80");
    json_decref(j);
}

/* ------------------------------------------------------------ scripts */

static void script_lines(void **state)
{
    (void)state;
    static const char text[] = "a\nb\r\nc\rd\0e\n" "f";
    FILE *f = fmemopen((void *)text, sizeof text - 1, "rb");
    struct input in = {.f = f};
    assert_int_equal(input_line(&in), INPUT_LINE);
    assert_string_equal(in.buf, "a");
    assert_int_equal(input_line(&in), INPUT_LINE);
    assert_string_equal(in.buf, "b");
    assert_int_equal(input_line(&in), INPUT_LINE);
    assert_string_equal(in.buf, "c");
    assert_int_equal(input_line(&in), INPUT_NUL);
    assert_int_equal(in.col, 2);
    assert_int_equal(input_line(&in), INPUT_LINE);
    assert_string_equal(in.buf, "f");
    assert_int_equal(input_line(&in), INPUT_EOF);
    input_free(&in);
    fclose(f);
    /* a line past the limit is refused, and the next one read */
    char *big = malloc(INPUT_MAX_LINE + 16);
    memset(big, 'x', INPUT_MAX_LINE + 5);
    memcpy(big + INPUT_MAX_LINE + 5, "\nok\n", 4);
    f = fmemopen(big, INPUT_MAX_LINE + 9, "rb");
    in = (struct input){.f = f};
    assert_int_equal(input_line(&in), INPUT_LONG);
    assert_int_equal(input_line(&in), INPUT_LINE);
    assert_string_equal(in.buf, "ok");
    input_free(&in);
    fclose(f);
    free(big);
    /* directories and devices are not scripts; /dev/null is an empty one */
    char err[256];
    f = fopen(tmpdir, "r");
    assert_non_null(f);
    assert_int_equal(input_check(f, tmpdir, err, sizeof err), -1);
    assert_non_null(strstr(err, "is a directory"));
    fclose(f);
    f = fopen("/dev/zero", "r");
    assert_int_equal(input_check(f, "/dev/zero", err, sizeof err), -1);
    assert_non_null(strstr(err, "device"));
    fclose(f);
    f = fopen("/dev/null", "r");
    assert_int_equal(input_check(f, "/dev/null", err, sizeof err), 0);
    fclose(f);
}

/* ------------------------------------------------------------ safefile */

static int write_text(const char *path, unsigned flags, const char *text, char *err, size_t errlen)
{
    struct safefile w;
    if (safefile_open(&w, path, flags, err, errlen) != 0) return -1;
    fputs(text, w.f);
    return safefile_commit(&w, err, errlen);
}

static void safe_writes(void **state)
{
    (void)state;
    char err[512];
    const char *p = in_tmp("out.csv");
    mode_t um = umask(022);
    assert_int_equal(write_text(p, 0, "one\n", err, sizeof err), 0);
    struct stat sb;
    assert_int_equal(stat(p, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0644);
    assert_int_equal(write_text(p, SAFEFILE_PRIVATE, "two\n", err, sizeof err), 0);
    assert_int_equal(stat(p, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0600);
    char *c = get_file(p);
    assert_string_equal(c, "two\n");
    free(c);
    umask(um);
    /* given up half-way: the old file stays */
    struct safefile w;
    assert_int_equal(safefile_open(&w, p, 0, err, sizeof err), 0);
    assert_int_equal(w.replaced, 1);
    fputs("half", w.f);
    safefile_abort(&w);
    c = get_file(p);
    assert_string_equal(c, "two\n");
    free(c);
    /* a failed write (here: past the file size limit, as a full disk would
     * be) names the reason, and the old file stays */
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit old, lim = {4096, 4096};
    getrlimit(RLIMIT_FSIZE, &old);
    lim.rlim_max = old.rlim_max;
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    assert_int_equal(safefile_open(&w, p, 0, err, sizeof err), 0);
    for (int i = 0; i < 2000; i++) fputs("0123456789", w.f);
    assert_int_equal(safefile_commit(&w, err, sizeof err), -1);
    setrlimit(RLIMIT_FSIZE, &old);
    assert_non_null(strstr(err, p));
    assert_non_null(strstr(err, strerror(EFBIG)));
    c = get_file(p);
    assert_string_equal(c, "two\n");
    free(c);
    assert_false(leftovers());
    /* a symbolic link is not followed, a directory not replaced */
    const char *victim = in_tmp("victim"), *link = in_tmp("link.csv");
    put_file(victim, "keep\n");
    assert_int_equal(symlink(victim, link), 0);
    assert_int_equal(write_text(link, 0, "evil\n", err, sizeof err), -1);
    assert_non_null(strstr(err, "symbolic link"));
    c = get_file(victim);
    assert_string_equal(c, "keep\n");
    free(c);
    assert_int_equal(write_text(tmpdir, 0, "x", err, sizeof err), -1);
    assert_non_null(strstr(err, "directory"));
    assert_int_equal(write_text("/dev/null", 0, "x", err, sizeof err), -1);
    assert_non_null(strstr(err, "not a regular file"));
    /* SAFEFILE_NEW: never over a file, also not one made while writing */
    const char *fresh = in_tmp("fresh.cu");
    assert_int_equal(write_text(fresh, SAFEFILE_NEW, "mine\n", err, sizeof err), 0);
    assert_int_equal(write_text(fresh, SAFEFILE_NEW, "again\n", err, sizeof err), -1);
    assert_non_null(strstr(err, "already there"));
    const char *race = in_tmp("race.cu");
    assert_int_equal(safefile_open(&w, race, SAFEFILE_NEW, err, sizeof err), 0);
    put_file(race, "the student's\n");
    fputs("skeleton\n", w.f);
    assert_int_equal(safefile_commit(&w, err, sizeof err), -1);
    assert_non_null(strstr(err, strerror(EEXIST)));
    c = get_file(race);
    assert_string_equal(c, "the student's\n");
    free(c);
    assert_int_equal(write_text(in_tmp("no/such/dir.csv"), 0, "x", err, sizeof err), -1);
    assert_non_null(strstr(err, strerror(ENOENT)));
    assert_false(leftovers());
}

static void lesson_rule(void **state)
{
    (void)state;
    char err[512], cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(tmpdir), 0);
    assert_int_equal(mkdir("sub", 0700), 0);
    assert_int_equal(symlink("/tmp", "out"), 0);
    assert_int_equal(safefile_confined_ok("steps.json", err, sizeof err), 1);
    assert_int_equal(safefile_confined_ok("./sub/../steps.json", err, sizeof err), 1);
    assert_int_equal(safefile_confined_ok("sub/steps.json", err, sizeof err), 1);
    const char *no[] = {"/tmp/x.json", "~/.bashrc", "../x.json", "sub/../../x.json", "out/x.json"};
    for (int i = 0; i < 5; i++) {
        err[0] = 0;
        if (safefile_confined_ok(no[i], err, sizeof err)) fail_msg("%s was allowed", no[i]);
        assert_non_null(strstr(err, "below the current directory"));
    }
    assert_int_equal(chdir(cwd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(size_parser_bounds),
        cmocka_unit_test(lesson_line_ends),
        cmocka_unit_test(lesson_depth_limit),
        cmocka_unit_test(answer_bounds),
        cmocka_unit_test(control_characters),
        cmocka_unit_test(json_text_not_utf8),
        cmocka_unit_test(script_lines),
        cmocka_unit_test(safe_writes),
        cmocka_unit_test(lesson_rule),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
