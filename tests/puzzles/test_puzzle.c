/* Unit tests of the puzzle table (repl/lessons/puzzle.c): the references against
 * values worked out by hand, lookup, the comparison, the header and the
 * driver text, the shipped skeletons and reference solutions matching the
 * harness's launch, and `puzzle N` writing (and then keeping) a file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "repl/out.h"
#include "repl/lessons/puzzle.h"
#include "repl/lessons/puzzle_def.h"
#include "repl/session.h"
#include "repl/repl.h"

#ifndef SOURCE_DIR
#error SOURCE_DIR must name the source tree
#endif

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return strdup(buf);
}

static void expect_values(const char *what, const float *want, int n)
{
    const struct puzzle *p = puzzle_find(what);
    assert_non_null(p);
    int len = puzzle_arg_len(puzzle_out(p));
    assert_int_equal(len, n);
    float got[64];
    puzzle_expected(p, got);
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) fail_msg("%s: element %d is %g, worked out by hand %g", what, i, got[i], want[i]);
}

static void references(void **state)
{
    (void)state;
    expect_values("map", (float[]){10, 11, 12, 13}, 4);
    expect_values("zip", (float[]){100, 102, 104, 106}, 4);
    expect_values("guard", (float[]){10, 11, 12, 13}, 4);
    expect_values("broadcast", (float[]){0, 1, 2, 10, 11, 12, 20, 21, 22}, 9);
    expect_values("pool", (float[]){0, 1, 3, 6, 9, 12, 15, 18}, 8);
    /* a = 0..7, b = 1..8: sum of i * (i + 1) */
    expect_values("dot", (float[]){168}, 1);
    expect_values("scan", (float[]){0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78, 91, 105, 120}, 16);
    expect_values("rowsum", (float[]){15, 51, 87, 123}, 4);
    /* a = 0..8 and b = 1..9 as 3 x 3 matrices */
    expect_values("matmul", (float[]){18, 21, 24, 54, 66, 78, 90, 111, 132}, 9);
    expect_values("warp-sum", (float[]){496, 1520}, 2);
    /* a = 1..13, exclusive: out[i] = i (i + 1) / 2 */
    expect_values("scan-exclusive", (float[]){0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78}, 13);
    /* a = 0..28, inclusive: out[i] = i (i + 1) / 2 */
    const struct puzzle *sl = puzzle_find("scan-long");
    float lo[29];
    assert_int_equal(puzzle_arg_len(puzzle_out(sl)), 29);
    puzzle_expected(sl, lo);
    for (int i = 0; i < 29; i++) assert_true(lo[i] == (float)(i * (i + 1) / 2));
    /* a = -3 -2 -1 0 1 2 3 -3 -2 -1 0 1 2: the positives packed, then 0s */
    expect_values("compact", (float[]){1, 2, 3, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0}, 13);
    /* a = 0..44 % 7: 7 each of 0, 1, 2, 6 each of 3..6, none of 7 */
    expect_values("histogram", (float[]){7, 7, 7, 6, 6, 6, 6, 0}, 8);
    /* softmax: each row 1/(1 + e + ... + e^5) times e^j; rows alike */
    const struct puzzle *sm = puzzle_find("softmax");
    float so[18];
    puzzle_expected(sm, so);
    double z = 0;
    for (int j = 0; j < 6; j++) z += exp(j);
    for (int i = 0; i < 18; i++) assert_true(fabs(so[i] - exp(i % 6) / z) < 1e-7);
    /* layer norm: each row of 6 consecutive numbers, mean + 2.5, var 35 / 12 */
    const struct puzzle *ln = puzzle_find("layernorm");
    float lv[24];
    puzzle_expected(ln, lv);
    for (int i = 0; i < 24; i++) assert_true(fabs(lv[i] - (i % 6 - 2.5) / sqrt(35.0 / 12 + 1e-5)) < 1e-6);
    /* 2D convolution, a = 0..35 (6 x 6), b = 0..8: a corner and the middle */
    const struct puzzle *cv = puzzle_find("conv2d");
    float co[36];
    puzzle_expected(cv, co);
    assert_true(co[0] == 0 * 4 + 1 * 5 + 6 * 7 + 7 * 8);
    float mid = 0;
    for (int di = 0; di < 3; di++)
        for (int dj = 0; dj < 3; dj++) mid += (float)((1 + di) * 6 + 1 + dj) * (float)(di * 3 + dj);
    assert_true(co[2 * 6 + 2] == mid);
    /* a = 0..14, b = 1 2 3 4 */
    const struct puzzle *c = puzzle_find("conv1d");
    float out[15];
    puzzle_expected(c, out);
    assert_true(out[0] == 0 * 1 + 1 * 2 + 2 * 3 + 3 * 4);
    assert_true(out[12] == 12 * 1 + 13 * 2 + 14 * 3);
    assert_true(out[14] == 14);
    /* tiled: the same product as the naive one at 6 x 6 */
    const struct puzzle *t = puzzle_find("matmul-tiled");
    float m[36];
    puzzle_expected(t, m);
    float s = 0;
    for (int k = 0; k < 6; k++) s += (float)(5 * 6 + k) * (float)(1 + k * 6 + 5);
    assert_true(m[35] == s);
}

static void table_and_lookup(void **state)
{
    (void)state;
    int n;
    const struct puzzle *all = puzzle_all(&n);
    assert_true(n >= 14);
    for (int i = 0; i < n; i++) {
        /* the table's from 1 on, then the folders' (24 on), in order */
        assert_true(!all[i].def ? all[i].number == i + 1 : all[i].number > all[i - 1].number);
        assert_non_null(puzzle_out(&all[i]));
        assert_true(all[i].spec && *all[i].spec);
        assert_true(all[i].block[0] * all[i].block[1] <= 1024);
    }
    assert_ptr_equal(puzzle_find("1"), &all[0]);
    assert_ptr_equal(puzzle_find("map"), &all[0]);
    assert_ptr_equal(puzzle_find("15-matmul-tiled"), puzzle_find("matmul-tiled"));
    assert_ptr_equal(puzzle_find("somewhere/puzzles/16-warp-sum.cu"), &all[15]);
    assert_null(puzzle_find("0"));
    assert_null(puzzle_find("99"));
    assert_null(puzzle_find("nope"));
    char idx[32];
    puzzle_index_text(puzzle_find("map2d"), 5, idx, sizeof idx);
    assert_string_equal(idx, "out[1][2]");
}

static void comparison(void **state)
{
    (void)state;
    const struct puzzle *p = puzzle_find("map");
    float got[4] = {10, 11, 12, 13};
    struct puzzle_verdict v;
    puzzle_compare(p, got, &v);
    assert_true(v.pass);
    assert_int_equal(v.first, -1);
    got[2] = 2;
    unsigned u = PUZZLE_UNWRITTEN;
    memcpy(&got[3], &u, 4);
    puzzle_compare(p, got, &v);
    assert_false(v.pass);
    assert_int_equal(v.first, 2);
    assert_true(v.expected == 12 && v.got == 2);
    assert_false(v.unwritten);
    assert_int_equal(v.nwrong, 2);
    assert_int_equal(v.nunwritten, 1);
}

/* The skeleton and the solution of every puzzle declare the kernel the
 * harness launches, with the parameters in the harness's order. */
static void files_match_the_harness(void **state)
{
    (void)state;
    int n;
    const struct puzzle *all = puzzle_all(&n);
    for (int i = 0; i < n; i++) {
        char stem[64], path[1024];
        puzzle_stem(&all[i], stem, sizeof stem);
        for (int f = 0; f < 2; f++) {
            if (all[i].def) /* a folder puzzle: its skeleton and reference */
                snprintf(path, sizeof path, "%s/lessons/en/puzzles/%s/%s", SOURCE_DIR, stem,
                         f == 0 ? "skeleton.cu" : "reference.cu");
            else if (f == 0) snprintf(path, sizeof path, "%s/lessons/en/puzzles/%s.cu", SOURCE_DIR, stem);
            else snprintf(path, sizeof path, "%s/lessons/en/puzzles/solutions/%s.cu", SOURCE_DIR, stem);
            char *text = slurp(path);
            if (!text) fail_msg("missing %s", path);
            char sig[128];
            snprintf(sig, sizeof sig, "__global__ void %s(", all[i].kernel);
            const char *at = strstr(text, sig);
            if (!at) fail_msg("%s does not declare %s", path, sig);
            const char *close = strchr(at, ')');
            for (int k = 0; k < all[i].nargs; k++) {
                const char *name = all[i].args[k].name;
                const char *hit = strstr(at, name);
                if (!hit || hit > close) fail_msg("%s: parameter %s missing from %s", path, name, all[i].kernel);
                at = hit + strlen(name);
            }
            free(text);
        }
    }
}

/* The lesson has a step per puzzle: its `puzzle N` command and the
 * formula of the spec (up to its conditions), as the table has it. */
static void lesson_matches_the_table(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/lessons/en/11-puzzles.md", SOURCE_DIR);
    char *text = slurp(path);
    assert_non_null(text);
    for (char *c = text; *c; c++) /* the text wraps: one space for any run of blanks */
        if (*c == '\n') *c = ' ';
    char *w = text;
    for (char *r = text; *r; r++)
        if (!(*r == ' ' && w > text && w[-1] == ' ')) *w++ = *r;
    *w = 0;
    int n;
    const struct puzzle *all = puzzle_all(&n);
    for (int i = 0; i < n; i++) {
        char cmd[32], formula[256];
        snprintf(cmd, sizeof cmd, "```gpulab puzzle %d ", all[i].number);
        if (!strstr(text, cmd)) fail_msg("the lesson has no `puzzle %d` command", all[i].number);
        snprintf(formula, sizeof formula, "%s", all[i].spec);
        char *cut = strstr(formula, " (");
        if (cut) *cut = 0;
        if ((cut = strstr(formula, ", "))) *cut = 0;
        if (!strstr(text, formula)) fail_msg("the lesson does not give puzzle %d's rule %s", all[i].number, formula);
    }
    free(text);
}

static void header_and_driver(void **state)
{
    (void)state;
    const struct puzzle *p = puzzle_find("conv1d");
    char *h = puzzle_header(p);
    assert_non_null(h);
    assert_non_null(strstr(h, "Puzzle 11: 1D convolution"));
    assert_non_null(strstr(h, "conv1d<<<2, 8>>>(out, a, b, 15)"));
    assert_non_null(strstr(h, "at most 2 times"));
    assert_non_null(strstr(h, "60 bytes"));
    for (const char *l = h; *l; l = strchr(l, '\n') + 1) { /* a comment, lines of at most 80 */
        const char *e = strchr(l, '\n');
        assert_non_null(e);
        assert_true(e == l || strncmp(l, "//", 2) == 0);
        assert_true(e - l <= 80);
    }
    free(h);
    const char *src = "__global__ void conv1d(float *out, const float *a, const float *b, int size) {}";
    struct puzzle_case cs[PUZZLE_MAX_CASES];
    int nc = puzzle_cases(p, 7, cs);
    assert_true(nc >= 3);
    char *d = puzzle_driver(cs, nc, "/x/puzzles/11-conv1d.cu", src, strlen(src), "gpulab puzzle harness", "MARK ");
    assert_non_null(d);
    const char *head = "#line 1 \"/x/puzzles/11-conv1d.cu\"\n__global__";
    assert_true(strncmp(d, head, strlen(head)) == 0);
    assert_non_null(strstr(d, "#line 1 \"gpulab puzzle harness\"\n"));
    /* the stated case, then the others at their sizes, each marked */
    assert_non_null(strstr(d, "conv1d<<<dim3(2, 1), dim3(8, 1)>>>(out + 113, a + 113, b + 124, 15);"));
    assert_non_null(strstr(d, "conv1d<<<dim3(2, 1), dim3(8, 1)>>>(out + 64, a + 64, b + 64, 16);"));
    assert_non_null(strstr(d, "conv1d<<<dim3(3, 1), dim3(8, 1)>>>(out + 111, a + 111, b + 124, 17);"));
    assert_non_null(strstr(d, "fprintf(stderr, \"MARK 0\\n\")"));
    /* b = 1 2 3 4 as bit patterns, after the poison in front (flush with the end) */
    assert_non_null(strstr(d, "0x7fc0bad0u, 0x3f800000u, 0x40000000u, 0x40400000u, 0x40800000u}"));
    free(d);
    puzzle_cases_free(cs, nc);
}

/* The cases: sizes, grids, layouts and random inputs repeat from the seed;
 * a stray write outside the output is caught. */
/* Puzzles 20, 21, 23: a stated tolerance, a range of their own for the
 * random inputs, an output that starts at 0, a limit on a block's writes. */
static void tolerance_range_and_zero_start(void **state)
{
    (void)state;
    assert_true(puzzle_tolerance(puzzle_find("map")) == 1e-5f);
    assert_true(puzzle_tolerance(puzzle_find("softmax")) == 1e-5f);
    const struct puzzle *ln = puzzle_find("layernorm");
    assert_true(puzzle_tolerance(ln) == 1e-3f);
    struct puzzle_case c[PUZZLE_MAX_CASES];
    int n = puzzle_cases(ln, 7, c);
    assert_true(n >= 3);
    /* random rows near 1000 */
    for (int i = 0; i < puzzle_arg_len(&c[1].inst.args[1]); i++)
        assert_true(c[1].in[0][i] >= 995 && c[1].in[0][i] <= 1005);
    /* the stated case: within 1e-3 times the magnitude is right, 5e-3 off is not */
    int alloc = puzzle_case_out_floats(&c[0]), len = puzzle_arg_len(puzzle_out(&c[0].inst));
    float *got = malloc((size_t)alloc * sizeof *got), *want = malloc((size_t)len * sizeof *want);
    unsigned u = PUZZLE_UNWRITTEN;
    for (int i = 0; i < alloc; i++) memcpy(&got[i], &u, 4);
    puzzle_expected(&c[0].inst, want);
    for (int i = 0; i < len; i++) got[c[0].front[0] + i] = want[i] * (1 + 5e-4f);
    struct puzzle_verdict v;
    puzzle_case_compare(&c[0], got, want, &v);
    assert_true(v.pass);
    got[c[0].front[0]] = want[0] + 5e-3f;
    puzzle_case_compare(&c[0], got, want, &v);
    assert_false(v.pass);
    assert_int_equal(v.first, 0);
    free(got);
    free(want);
    puzzle_cases_free(c, n);
    /* softmax: inputs up to 100 apart, so some exceed where expf overflows */
    const struct puzzle *sm = puzzle_find("softmax");
    n = puzzle_cases(sm, 7, c);
    int big = 0;
    for (int k = 1; k < n; k++)
        for (int i = 0; i < puzzle_arg_len(&c[k].inst.args[1]); i++) {
            assert_true(c[k].in[0][i] >= -100 && c[k].in[0][i] <= 100);
            big |= c[k].in[0][i] > 89;
        }
    assert_true(big);
    puzzle_cases_free(c, n);
    char *h = puzzle_header(sm);
    assert_non_null(strstr(h, "float math is not exact"));
    free(h);
    /* the histogram: values 0..7, out 0 before the launch (its spare floats keep the fill) */
    const struct puzzle *hi = puzzle_find("histogram");
    assert_int_equal(hi->max_block_writes, 8);
    n = puzzle_cases(hi, 7, c);
    for (int i = 0; i < puzzle_arg_len(&c[4].inst.args[1]); i++) assert_true(c[4].in[0][i] >= 0 && c[4].in[0][i] <= 7);
    h = puzzle_header(hi);
    assert_non_null(strstr(h, "//   out: 8 floats, 0 before the launch\n"));
    assert_non_null(strstr(h, "each block writes global memory at most 8 times"));
    free(h);
    const char *src = "__global__ void histogram(float *out, const float *a, int size) {}";
    char *d = puzzle_driver(c, n, "/x/puzzles/23-histogram.cu", src, strlen(src), "gpulab puzzle harness", "MARK ");
    assert_non_null(d);
    /* case 1: out flush with the end of its 128 floats, 120 of fill, then 8 zeros */
    const char *o = strstr(d, "static const unsigned gpulab_v_out[128] = {0x7fc0deadu, ");
    assert_non_null(o);
    const char *z = strstr(o, "0x0u");
    assert_non_null(z);
    const char *tail = "0x7fc0deadu,\n        0x0u, 0x0u, 0x0u, 0x0u, 0x0u, 0x0u, 0x0u, 0x0u};";
    assert_true(strncmp(z - 21, tail, strlen(tail)) == 0);
    free(d);
    puzzle_cases_free(c, n);
}

static void cases_and_guards(void **state)
{
    (void)state;
    const struct puzzle *p = puzzle_find("blocks");
    struct puzzle_case a[PUZZLE_MAX_CASES], b[PUZZLE_MAX_CASES], c[PUZZLE_MAX_CASES];
    int na = puzzle_cases(p, 7, a), nb = puzzle_cases(p, 7, b), nc = puzzle_cases(p, 8, c);
    assert_int_equal(na, 6);
    assert_int_equal(nb, 6);
    assert_int_equal(nc, 6);
    assert_int_equal(a[0].seed, 0);
    assert_int_equal(a[2].n, 13);
    assert_int_equal(a[2].inst.grid[0], 4);          /* ceil(13 / 4) */
    assert_int_equal(a[3].inst.grid[0], 1);          /* size 1 */
    assert_int_equal(puzzle_arg_len(puzzle_out(&a[2].inst)), 13);
    int same = 1, other = 0;
    for (int i = 0; i < 13; i++) {
        same &= a[2].in[0][i] == b[2].in[0][i];
        other |= a[2].in[0][i] != c[2].in[0][i];
        assert_true(a[2].in[0][i] >= -5 && a[2].in[0][i] <= 5);
    }
    assert_true(same);
    assert_true(other);
    /* even: flush with the end of a 256-byte multiple; odd: 64 floats in */
    int alloc = puzzle_case_out_floats(&a[0]);
    assert_int_equal(alloc % 64, 0);
    assert_int_equal(a[0].front[0] + 9, alloc);
    assert_int_equal(a[1].front[0], 64);
    /* a right output passes; one write before element 0 fails for bounds */
    float *got = malloc((size_t)alloc * sizeof *got), want[16];
    unsigned u = PUZZLE_UNWRITTEN;
    for (int i = 0; i < alloc; i++) memcpy(&got[i], &u, 4);
    for (int i = 0; i < 9; i++) got[a[0].front[0] + i] = a[0].in[0][i] + 10;
    struct puzzle_verdict v;
    puzzle_case_compare(&a[0], got, want, &v);
    assert_true(v.pass);
    got[a[0].front[0] - 1] = 0;
    puzzle_case_compare(&a[0], got, want, &v);
    assert_false(v.pass);
    assert_int_equal(v.outside, 1);
    assert_int_equal(v.first_outside, -1);
    assert_int_equal(v.nwrong, 0);
    free(got);
    /* puzzle 13: rows follow m, columns n; the grid's y is the rows */
    const struct puzzle *r = puzzle_find("rowsum");
    struct puzzle_case rc[PUZZLE_MAX_CASES];
    int nr = puzzle_cases(r, 1, rc);
    assert_true(nr >= 3);
    assert_int_equal(rc[1].inst.grid[1], 3);
    assert_int_equal(puzzle_arg_len(puzzle_out(&rc[1].inst)), 3);
    assert_int_equal(puzzle_arg_len(&rc[1].inst.args[1]), 24);
    puzzle_cases_free(a, na);
    puzzle_cases_free(b, nb);
    puzzle_cases_free(c, nc);
    puzzle_cases_free(rc, nr);
}

static void puzzle_writes_and_keeps(void **state)
{
    (void)state;
    char tmpl[] = "/tmp/gpulab-puzzle-XXXXXX";
    char *dir = mkdtemp(tmpl);
    assert_non_null(dir);
    char old[4096];
    assert_non_null(getcwd(old, sizeof old));
    assert_int_equal(chdir(dir), 0);
    struct session s;
    sess_init(&s);
    char *o = NULL, *e = NULL;
    size_t ol, el;
    FILE *fo = open_memstream(&o, &ol), *fe = open_memstream(&e, &el);
    out_set_streams(fo, fe);
    assert_int_equal(repl_exec_line(&s, "puzzle 3"), CMD_OK);
    char *text = slurp("puzzles/03-guard.cu");
    assert_non_null(text);
    assert_non_null(strstr(text, "// Puzzle 3: Guards"));
    assert_non_null(strstr(text, "__global__ void guard(float *out, const float *a, int size)"));
    free(text);
    FILE *f = fopen("puzzles/03-guard.cu", "w");
    fputs("my work\n", f);
    fclose(f);
    assert_int_equal(repl_exec_line(&s, "puzzle guard"), CMD_OK);
    text = slurp("puzzles/03-guard.cu");
    assert_string_equal(text, "my work\n");
    free(text);
    assert_int_equal(repl_exec_line(&s, "puzzle 99"), CMD_ERROR);
    fclose(fo);
    fclose(fe);
    out_set_streams(NULL, NULL);
    if (!strstr(o, "already there: keeping your work")) fail_msg("no keep message in:\n%s", o);
    if (!strstr(e, "there are puzzles 1 to")) fail_msg("no range in:\n%s", e);
    free(o);
    free(e);
    sess_free(&s);
    unlink("puzzles/03-guard.cu");
    rmdir("puzzles");
    assert_int_equal(chdir(old), 0);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(references),
        cmocka_unit_test(table_and_lookup),
        cmocka_unit_test(comparison),
        cmocka_unit_test(files_match_the_harness),
        cmocka_unit_test(lesson_matches_the_table),
        cmocka_unit_test(header_and_driver),
        cmocka_unit_test(cases_and_guards),
        cmocka_unit_test(tolerance_range_and_zero_start),
        cmocka_unit_test(puzzle_writes_and_keeps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
