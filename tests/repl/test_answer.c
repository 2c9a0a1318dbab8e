/* test_answer.c - the answer checker alone (repl/lessons/answer.c): what counts as
 * the same answer, what does not, and replies of any length. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "repl/lessons/answer.h"

static void same_words(void **state)
{
    (void)state;
    assert_true(answer_match("Flat", "flat"));
    assert_true(answer_match("  the   flat image. ", "flat image"));
    assert_true(answer_match("\"result\"", "result"));
    assert_true(answer_match("`result`!", "the result"));
    assert_false(answer_match("photo", "flat"));
    assert_false(answer_match("", "flat"));
    assert_false(answer_match("not flat", "flat"));
}

static void numbers(void **state)
{
    (void)state;
    assert_true(answer_match("3,321,858,913", "3321858913"));
    assert_true(answer_match("3321858913.0", "3321858913"));
    assert_true(answer_match("1e6", "1000000"));
    assert_true(answer_match("64Mi", "67108864"));
    assert_true(answer_match("six", "6"));
    assert_true(answer_match("Thirty-two", "32"));
    assert_true(answer_match("thirty two", "32"));
    assert_true(answer_match("two hundred and fifty-six", "256"));
    assert_true(answer_match("one thousand twenty-four", "1024"));
    assert_false(answer_match("3321858914", "3321858913"));
    assert_false(answer_match("seven", "6"));
    assert_false(answer_match("2 of 32", "2"));
}

/* A decimal comma, as the German, Slovenian and Ukrainian lessons write
 * numbers; a comma before three digits reads both ways. */
static void decimal_comma(void **state)
{
    (void)state;
    assert_true(answer_match("4,8", "4.8"));
    assert_true(answer_match("4,8 ms", "4.8 ms"));
    assert_true(answer_match("0,5", "50%"));
    assert_true(answer_match("1,234", "1.234"));
    assert_true(answer_match("1,234", "1234"));
    assert_false(answer_match("4,8", "48"));
    assert_false(answer_match("4,8", "4.9"));
    assert_false(answer_match("4,8 threads", "4.8 ms"));
    assert_false(answer_match("1,2,3", "1.23"));
    assert_false(answer_match("1,5.5", "1.55"));
}

static void units(void **state)
{
    (void)state;
    assert_true(answer_match("313 blocks", "313"));
    assert_true(answer_match("313", "313 blocks"));
    assert_true(answer_match("313 block", "313 blocks"));
    assert_false(answer_match("313 threads", "313 blocks"));
    assert_true(answer_match("1.17 milliseconds", "1.17 ms"));
    assert_true(answer_match("2 times", "2x"));
    assert_true(answer_match("two launches", "2 launches"));
    assert_false(answer_match("two passes", "two launches"));
}

static void fractions_and_percentages(void **state)
{
    (void)state;
    assert_true(answer_match("100%", "1"));
    assert_true(answer_match("1.0", "100%"));
    assert_true(answer_match("1", "100%"));
    assert_true(answer_match("50 percent", "0.5"));
    assert_true(answer_match("1/2", "50%"));
    assert_true(answer_match("half", "0.5"));
    assert_true(answer_match("50", "50%"));
    assert_false(answer_match("25%", "50%"));
    assert_false(answer_match("0.25", "50%"));
    assert_false(answer_match("1/0", "1"));
}

static void choices(void **state)
{
    (void)state;
    const char *const ch[] = {"fewer additions", "packed warps", "no barriers"};
    assert_int_equal(answer_choice("b", ch, 3), 1);
    assert_int_equal(answer_choice("(B)", ch, 3), 1);
    assert_int_equal(answer_choice("c)", ch, 3), 2);
    assert_int_equal(answer_choice("a.", ch, 3), 0);
    assert_int_equal(answer_choice("Packed warps", ch, 3), 1);
    assert_int_equal(answer_choice("d", ch, 3), -1);
    assert_int_equal(answer_choice("something else", ch, 3), -1);
}

/* A choice put in other words: a part of it, its distinctive words, stems
 * alike; words of two choices, or none, name no choice. */
static void paraphrases(void **state)
{
    (void)state;
    const char *const ch[] = {
        "thread 0 may read a square that another thread has not written yet",
        "the barrier makes the kernel faster",
        "without the barrier the compiler removes the loop"};
    assert_int_equal(answer_choice("another thread has not written its square yet", ch, 3), 0);
    assert_int_equal(answer_choice("it reads a square not written yet", ch, 3), 0);
    assert_int_equal(answer_choice("makes it faster", ch, 3), 1);
    assert_int_equal(answer_choice("the compiler would remove the loop", ch, 3), 2);
    assert_int_equal(answer_choice("faster because the compiler removes it", ch, 3), -1);
    assert_int_equal(answer_choice("the barrier", ch, 3), -1);
    assert_int_equal(answer_choice("bananas", ch, 3), -1);
    const char *const uk[] = {"потоки одного блоку чекають", "ядро працює швидше"};
    assert_int_equal(answer_choice("потоків блоку чекають", uk, 2), 0);
    assert_int_equal(answer_choice("швидше", uk, 2), 1);
}

/* Bounds by construction: any length, any spacing, is cut and compared,
 * never written past a buffer (this is run under ASan in the asan preset). */
static void long_replies(void **state)
{
    (void)state;
    size_t n = 5000;
    char *a = malloc(n + 1);
    for (size_t i = 0; i < n; i++) a[i] = i % 2 ? ' ' : 'x';
    a[n] = 0;
    assert_false(answer_match(a, "x"));
    memset(a, ' ', n);
    a[510] = 'y'; /* 510 spaces, then "y z": the old normaliser wrote past 512 here */
    a[511] = ' ';
    a[512] = 'z';
    assert_true(answer_match(a, "y z"));
    memset(a, 'y', n);
    a[n] = 0;
    assert_false(answer_match(a, "y"));
    for (size_t i = 0; i < n; i++) a[i] = "1,"[i % 2];
    a[n - 1] = '1';
    assert_false(answer_match(a, "1"));
    char out[8];
    answer_normalize(a, out, sizeof out);
    assert_true(strlen(out) < sizeof out);
    answer_normalize("A  B", out, 1);
    assert_string_equal(out, "");
    free(a);
}

/* Replies in the lessons' other languages: upper case of any script, their
 * quotation marks, and bytes that are not UTF-8 kept as they are. */
static void other_scripts(void **state)
{
    (void)state;
    assert_true(answer_match("Однотонне", "однотонне"));
    assert_true(answer_match("ОДНОТОННЕ.", "однотонне"));
    assert_true(answer_match("«Übung»", "übung"));
    assert_true(answer_match("Zakaj ČŠŽ", "zakaj čšž"));
    assert_true(answer_match("Ґанок Є І Ї", "ґанок є і ї"));
    assert_false(answer_match("однотонне", "фото"));
    assert_true(answer_match("两次启动", "两次启动"));
    char out[32];
    answer_normalize("A\xC3(B", out, sizeof out);
    assert_string_equal(out, "a\xC3(b");
    answer_normalize("ЖЖЖЖ", out, 6); /* room for two characters of two bytes */
    assert_string_equal(out, "жж");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_words),
        cmocka_unit_test(numbers),
        cmocka_unit_test(units),
        cmocka_unit_test(fractions_and_percentages),
        cmocka_unit_test(choices),
        cmocka_unit_test(decimal_comma),
        cmocka_unit_test(paraphrases),
        cmocka_unit_test(long_replies),
        cmocka_unit_test(other_scripts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
