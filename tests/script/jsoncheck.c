/* jsoncheck - validate gpulab's JSON output for the script tests.
 *
 *   jsoncheck rows  < lines   every line is a result row with every key and
 *                             the right types; prints "variant backend ran
 *                             correct" per row for the shell to grep
 *   jsoncheck trace FILE      FILE is a saved trace: header, launches, events
 *
 * Exit status 0 when valid, 1 with a message otherwise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

static int fail(int line, const char *msg, const char *detail)
{
    fprintf(stderr, "jsoncheck: line %d: %s%s%s\n", line, msg, detail ? ": " : "", detail ? detail : "");
    return 1;
}

static int check_row(json_t *o, int line)
{
    static const char *const strings[] = {"algo", "variant", "backend", "dtype", "note"};
    static const char *const ints[] = {"n", "block", "grid", "repeats"};
    static const char *const nums[] = {"ms", "ms_min", "ms_max", "gbps", "pct_peak", "speedup", "rel_error"};
    if (!json_is_object(o)) return fail(line, "not an object", NULL);
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++)
        if (!json_is_string(json_object_get(o, strings[i]))) return fail(line, "missing string", strings[i]);
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        if (!json_is_integer(json_object_get(o, ints[i]))) return fail(line, "missing integer", ints[i]);
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        json_t *v = json_object_get(o, nums[i]);
        if (!v || !(json_is_number(v) || json_is_null(v))) return fail(line, "missing number", nums[i]);
    }
    json_t *ran = json_object_get(o, "ran"), *correct = json_object_get(o, "correct");
    json_t *result = json_object_get(o, "result");
    if (!json_is_boolean(ran)) return fail(line, "missing boolean", "ran");
    if (!correct || !(json_is_boolean(correct) || json_is_null(correct)))
        return fail(line, "correct is not true, false or null", NULL);
    if (!result || !(json_is_string(result) || json_is_null(result)))
        return fail(line, "result is not a string or null", NULL);
    const char *be = json_string_value(json_object_get(o, "backend"));
    if (strcmp(be, "gpu") && strcmp(be, "sim") && strcmp(be, "cpu")) return fail(line, "bad backend", be);
    const char *note = json_string_value(json_object_get(o, "note"));
    if (json_is_false(ran) && !*note) return fail(line, "a row that did not run must say why", NULL);
    if (json_is_true(ran) && !json_is_number(json_object_get(o, "ms"))) return fail(line, "ran without ms", NULL);
    if (!strcmp(be, "sim") && json_is_number(json_object_get(o, "gbps")))
        return fail(line, "a simulator row must not claim GB/s", NULL);
    printf("%s %s %s %s\n", json_string_value(json_object_get(o, "variant")), be,
           json_is_true(ran) ? "ran" : "not-run",
           json_is_null(correct) ? "unchecked" : json_is_true(correct) ? "correct" : "wrong");
    return 0;
}

static int rows(void)
{
    char *buf = NULL;
    size_t cap = 0;
    ssize_t got;
    int line = 0, n = 0, bad = 0;
    while ((got = getline(&buf, &cap, stdin)) >= 0) {
        line++;
        if (got <= 1) continue;
        json_error_t e;
        json_t *o = json_loads(buf, 0, &e);
        if (!o) {
            bad |= fail(line, "not JSON", e.text);
            continue;
        }
        bad |= check_row(o, line);
        json_decref(o);
        n++;
    }
    free(buf);
    if (n == 0) return fail(line, "no rows", NULL);
    return bad;
}

static int trace(const char *path)
{
    json_error_t e;
    json_t *o = json_load_file(path, 0, &e);
    if (!o) return fail(e.line, "not JSON", e.text);
    int bad = 0;
    if (!json_is_string(json_object_get(o, "algo"))) bad |= fail(0, "missing", "algo");
    if (!json_is_string(json_object_get(o, "variant"))) bad |= fail(0, "missing", "variant");
    if (!json_is_integer(json_object_get(o, "n"))) bad |= fail(0, "missing", "n");
    json_t *in = json_object_get(o, "input"), *ls = json_object_get(o, "launches");
    json_t *ev = json_object_get(o, "events");
    if (!json_is_array(in) || (json_int_t)json_array_size(in) != json_integer_value(json_object_get(o, "n")))
        bad |= fail(0, "input must hold n values", NULL);
    if (!json_is_array(ls) || json_array_size(ls) == 0) bad |= fail(0, "no launches", NULL);
    if (!json_is_array(ev) || json_array_size(ev) == 0) bad |= fail(0, "no events", NULL);
    size_t i;
    json_t *x;
    json_array_foreach(ev, i, x) {
        static const char *const keys[] = {"launch", "block", "thread", "epoch", "seq", "a", "b"};
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            if (!json_is_integer(json_object_get(x, keys[k]))) {
                bad |= fail((int)i, "event without", keys[k]);
                break;
            }
        if (!json_is_string(json_object_get(x, "kind"))) bad |= fail((int)i, "event without", "kind");
        if (bad) break;
    }
    if (!bad)
        printf("trace %s/%s: %zu launches, %zu events\n", json_string_value(json_object_get(o, "algo")),
               json_string_value(json_object_get(o, "variant")), json_array_size(ls), json_array_size(ev));
    json_decref(o);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "rows")) return rows();
    if (argc == 3 && !strcmp(argv[1], "trace")) return trace(argv[2]);
    fprintf(stderr, "usage: jsoncheck rows < lines | jsoncheck trace FILE\n");
    return 2;
}
