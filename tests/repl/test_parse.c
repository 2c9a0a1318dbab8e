/* Unit tests of repl/parse.c: sizes as people write them, the tokenizer
 * (quotes, ';', '#', positions for carets), numbers, on/off and prefix
 * lookup. Pure functions: no session, no terminal, no GPU. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "kernels/lab.h" /* lab_fmt_bytes */
#include "repl/parse.h"

static long long size_ok(const char *s)
{
    long long v = -1;
    char err[256] = "";
    int rc = parse_size(s, 0, LLONG_MAX, &v, err, sizeof err);
    if (rc != 0) fail_msg("parse_size(\"%s\") failed: %s", s, err);
    return v;
}

static void size_bad(const char *s, long long min, long long max, const char *needle)
{
    long long v = 12345;
    char err[256] = "";
    int rc = parse_size(s, min, max, &v, err, sizeof err);
    if (rc == 0) fail_msg("parse_size(\"%s\") accepted it as %lld", s, v);
    assert_int_equal(v, 12345); /* untouched on failure */
    if (needle && !strstr(err, needle)) fail_msg("parse_size(\"%s\"): \"%s\" lacks \"%s\"", s, err, needle);
}

static void sizes_plain_and_scientific(void **state)
{
    (void)state;
    assert_int_equal(size_ok("1000000"), 1000000);
    assert_int_equal(size_ok("1_000_000"), 1000000);
    assert_int_equal(size_ok("0"), 0);
    assert_int_equal(size_ok("1e6"), 1000000);
    assert_int_equal(size_ok("1E6"), 1000000);
    assert_int_equal(size_ok("2.5e6"), 2500000);
    assert_int_equal(size_ok("1e8"), 100000000);
    assert_int_equal(size_ok("1.1e1"), 11);
    assert_int_equal(size_ok("0x100"), 256);
    assert_int_equal(size_ok("+7"), 7);
}

static void sizes_suffixes(void **state)
{
    (void)state;
    assert_int_equal(size_ok("64Mi"), 64LL << 20);
    assert_int_equal(size_ok("1Ki"), 1024);
    assert_int_equal(size_ok("1Mi"), 1 << 20);
    assert_int_equal(size_ok("1Gi"), 1LL << 30);
    assert_int_equal(size_ok("2Ti"), 2LL << 40);
    assert_int_equal(size_ok("1.5Ki"), 1536);
    assert_int_equal(size_ok("4k"), 4000);
    assert_int_equal(size_ok("4K"), 4000);
    assert_int_equal(size_ok("1M"), 1000000);
    assert_int_equal(size_ok("3G"), 3000000000LL);
}

static void sizes_powers_and_products(void **state)
{
    (void)state;
    assert_int_equal(size_ok("2^26"), 1LL << 26);
    assert_int_equal(size_ok("2**26"), 1LL << 26);
    assert_int_equal(size_ok("1<<26"), 1LL << 26);
    assert_int_equal(size_ok("3<<20"), 3LL << 20);
    assert_int_equal(size_ok("10^9"), 1000000000LL);
    assert_int_equal(size_ok("2^0"), 1);
    assert_int_equal(size_ok("3*2^20"), 3LL << 20);
    assert_int_equal(size_ok("2^20*3"), 3LL << 20);
    assert_int_equal(size_ok("2^62"), 1LL << 62);
    assert_int_equal(size_ok("1 << 10"), 1024); /* quoted words may hold spaces */
}

static void sizes_refused(void **state)
{
    (void)state;
    size_bad("", 0, LLONG_MAX, "1e6");
    size_bad("-5", 0, LLONG_MAX, "negative");
    size_bad("-1e6", 0, LLONG_MAX, "negative");
    size_bad("0", 1, 100, "zero");
    size_bad("101", 1, 100, "1..100");
    size_bad("abc", 0, LLONG_MAX, "64Mi");
    size_bad("12x", 0, LLONG_MAX, "unexpected");
    size_bad("1.5", 0, LLONG_MAX, "whole");
    size_bad("1e-3", 0, LLONG_MAX, "whole");
    size_bad("2^64", 0, LLONG_MAX, "too large");
    size_bad("2^63", 0, LLONG_MAX, "too large");
    size_bad("1<<70", 0, LLONG_MAX, "too large");
    size_bad("99999999999999999999", 0, LLONG_MAX, "too large");
    size_bad("1e30", 0, LLONG_MAX, "too large");
    size_bad("16Ei", 0, LLONG_MAX, NULL);
    size_bad("4m", 0, LLONG_MAX, "suffix");
    size_bad("2^", 0, LLONG_MAX, "number");
    size_bad("1.5^2", 0, LLONG_MAX, "whole");
    size_bad("^3", 0, LLONG_MAX, "number");
    size_bad("3*", 0, LLONG_MAX, "number");
}

static void ints_and_doubles(void **state)
{
    (void)state;
    long long v;
    char err[256];
    assert_int_equal(parse_int("-4", -10, 10, &v, err, sizeof err), 0);
    assert_int_equal(v, -4);
    assert_int_equal(parse_int("256", 1, 1024, &v, err, sizeof err), 0);
    assert_int_equal(v, 256);
    assert_int_not_equal(parse_int("2000", 1, 1024, &v, err, sizeof err), 0);
    assert_non_null(strstr(err, "1..1024"));
    double d;
    assert_int_equal(parse_double("1.23", &d, err, sizeof err), 0);
    assert_true(d == 1.23);
    assert_int_equal(parse_double("-1e-3", &d, err, sizeof err), 0);
    assert_true(d == -1e-3);
    assert_int_not_equal(parse_double("inf", &d, err, sizeof err), 0);
    assert_int_not_equal(parse_double("1.2.3", &d, err, sizeof err), 0);
    assert_int_not_equal(parse_double("", &d, err, sizeof err), 0);
}

static void bools_dims_auto(void **state)
{
    (void)state;
    int b;
    char err[256];
    assert_int_equal(parse_bool("on", &b, err, sizeof err), 0);
    assert_int_equal(b, 1);
    assert_int_equal(parse_bool("OFF", &b, err, sizeof err), 0);
    assert_int_equal(b, 0);
    assert_int_equal(parse_bool("yes", &b, err, sizeof err), 0);
    assert_int_equal(b, 1);
    assert_int_not_equal(parse_bool("maybe", &b, err, sizeof err), 0);
    assert_non_null(strstr(err, "on or off"));
    long long x, y;
    assert_int_equal(parse_dims("16x16", 1, 1024, &x, &y, err, sizeof err), 0);
    assert_int_equal(x, 16);
    assert_int_equal(y, 16);
    assert_int_equal(parse_dims("256", 1, 1024, &x, &y, err, sizeof err), 0);
    assert_int_equal(x, 256);
    assert_int_equal(y, 0);
    assert_int_equal(parse_dims("0x100", 1, 1024, &x, &y, err, sizeof err), 0);
    assert_int_equal(x, 256);
    assert_int_not_equal(parse_dims("16x", 1, 1024, &x, &y, err, sizeof err), 0);
    assert_true(parse_is_auto("auto"));
    assert_true(parse_is_auto("AUTO"));
    assert_false(parse_is_auto("autox"));
}

static void tokenizer_words_and_positions(void **state)
{
    (void)state;
    struct tok_line t;
    char err[256];
    int pos;
    const char *line = "  set  block 256 ; run\tsequential # the rest is a comment; run";
    assert_int_equal(tok_split(line, &t, err, sizeof err, &pos), 0);
    assert_int_equal(t.ncmds, 2);
    assert_int_equal(t.cmds[0].argc, 3);
    assert_string_equal(t.cmds[0].argv[0], "set");
    assert_string_equal(t.cmds[0].argv[1], "block");
    assert_string_equal(t.cmds[0].argv[2], "256");
    assert_null(t.cmds[0].argv[3]);
    assert_int_equal(t.cmds[0].pos[0], 2);
    assert_int_equal(t.cmds[0].len[0], 3);
    assert_int_equal(t.cmds[0].pos[1], 7);
    assert_int_equal(t.cmds[0].pos[2], 13);
    assert_int_equal(t.cmds[1].argc, 2);
    assert_string_equal(t.cmds[1].argv[1], "sequential");
    assert_int_equal(t.cmds[1].pos[1], (int)(strchr(line, '\t') - line) + 1);
    tok_line_free(&t);
}

static void tokenizer_quotes_and_escapes(void **state)
{
    (void)state;
    struct tok_line t;
    char err[256];
    int pos;
    assert_int_equal(tok_split("echo 'a b;c' \"d \\\"e\\\" f\" g\\ h '' x#y", &t, err, sizeof err, &pos), 0);
    assert_int_equal(t.ncmds, 1);
    assert_int_equal(t.cmds[0].argc, 6);
    assert_string_equal(t.cmds[0].argv[1], "a b;c");
    assert_string_equal(t.cmds[0].argv[2], "d \"e\" f");
    assert_string_equal(t.cmds[0].argv[3], "g h");
    assert_string_equal(t.cmds[0].argv[4], "");
    assert_string_equal(t.cmds[0].argv[5], "x#y"); /* # inside a word is not a comment */
    assert_int_equal(t.cmds[0].pos[1], 5);
    assert_int_equal(t.cmds[0].len[1], 7); /* quotes included */
    tok_line_free(&t);

    assert_int_equal(tok_split("set n 'unterminated", &t, err, sizeof err, &pos), -1);
    assert_int_equal(pos, 6);
    assert_non_null(strstr(err, "unterminated"));
    assert_int_equal(tok_split("echo \"open", &t, err, sizeof err, &pos), -1);
    assert_int_equal(pos, 5);
}

static void tokenizer_empty_and_comments(void **state)
{
    (void)state;
    struct tok_line t;
    char err[256];
    int pos;
    assert_int_equal(tok_split("", &t, err, sizeof err, &pos), 0);
    assert_int_equal(t.ncmds, 0);
    tok_line_free(&t);
    assert_int_equal(tok_split("   # only a comment", &t, err, sizeof err, &pos), 0);
    assert_int_equal(t.ncmds, 0);
    tok_line_free(&t);
    assert_int_equal(tok_split(";; ; run;", &t, err, sizeof err, &pos), 0);
    assert_int_equal(t.ncmds, 1);
    assert_string_equal(t.cmds[0].argv[0], "run");
    tok_line_free(&t);
}

static void lookup_prefixes(void **state)
{
    (void)state;
    const char *names[] = {"run", "repeats", "reset", "show", "set", "sequential"};
    int amb[8], namb = 0;
    assert_int_equal(parse_lookup("run", names, 6, amb, 8, &namb), 0);
    assert_int_equal(parse_lookup("sh", names, 6, amb, 8, &namb), 3);
    assert_int_equal(parse_lookup("rep", names, 6, amb, 8, &namb), 1);
    assert_int_equal(parse_lookup("set", names, 6, amb, 8, &namb), 4); /* exact beats prefix */
    assert_int_equal(parse_lookup("r", names, 6, amb, 8, &namb), -2);
    assert_int_equal(namb, 3);
    assert_int_equal(amb[0], 0);
    assert_int_equal(amb[1], 1);
    assert_int_equal(amb[2], 2);
    assert_int_equal(parse_lookup("se", names, 6, amb, 8, &namb), -2);
    assert_int_equal(parse_lookup("xyz", names, 6, amb, 8, &namb), -1);
    assert_int_equal(parse_lookup("", names, 6, amb, 8, &namb), -1);
    assert_int_equal(parse_edit_distance("rnu", "run"), 2);
    assert_int_equal(parse_edit_distance("compre", "compare"), 1);
}

static void formatting(void **state)
{
    (void)state;
    char b[64];
    parse_fmt_size(64LL << 20, b, sizeof b);
    assert_string_equal(b, "64Mi");
    parse_fmt_size(1000000, b, sizeof b);
    assert_string_equal(b, "1000000");
    parse_fmt_size(3 << 10, b, sizeof b);
    assert_string_equal(b, "3Ki");
    parse_fmt_size(33177600, b, sizeof b);
    assert_string_equal(b, "33177600");
    parse_fmt_size(1LL << 30, b, sizeof b);
    assert_string_equal(b, "1Gi");
    lab_fmt_bytes(256.0 * 1024 * 1024, b, sizeof b);
    assert_string_equal(b, "256 MiB");
    lab_fmt_bytes(1.5 * 1024 * 1024 * 1024, b, sizeof b);
    assert_string_equal(b, "1.5 GiB");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sizes_plain_and_scientific),
        cmocka_unit_test(sizes_suffixes),
        cmocka_unit_test(sizes_powers_and_products),
        cmocka_unit_test(sizes_refused),
        cmocka_unit_test(ints_and_doubles),
        cmocka_unit_test(bools_dims_auto),
        cmocka_unit_test(tokenizer_words_and_positions),
        cmocka_unit_test(tokenizer_quotes_and_escapes),
        cmocka_unit_test(tokenizer_empty_and_comments),
        cmocka_unit_test(lookup_prefixes),
        cmocka_unit_test(formatting),
    };
    return cmocka_run_group_tests_name("repl_parse", tests, NULL, NULL);
}
