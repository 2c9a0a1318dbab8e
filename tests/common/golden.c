/* golden.c - see golden.h. */
#include "tests/common/golden.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    fclose(f);
    if (s) {
        s[n] = 0;
        *len = (size_t)n;
    }
    return s;
}

void golden_check(const char *path, const char *got, size_t len)
{
    const char *upd = getenv("GPULAB_UPDATE_GOLDEN");
    if (upd && *upd && strcmp(upd, "0") != 0) {
        FILE *f = fopen(path, "wb");
        if (!f) fail_msg("cannot write %s", path);
        fwrite(got, 1, len, f);
        fclose(f);
        return;
    }
    size_t wlen = 0;
    char *want = slurp(path, &wlen);
    if (!want) fail_msg("no golden file %s (GPULAB_UPDATE_GOLDEN=1 writes it)", path);
    if (wlen == len && memcmp(want, got, len) == 0) {
        free(want);
        return;
    }
    /* the first line that differs, whole, to read in the log */
    size_t i = 0;
    int line = 1;
    while (i < wlen && i < len && want[i] == got[i]) {
        if (want[i] == '\n') line++;
        i++;
    }
    size_t a = i, b = i;
    while (a > 0 && want[a - 1] != '\n') a--;
    while (b > 0 && got[b - 1] != '\n') b--;
    printf("%s differs from line %d\n--- golden:\n%.300s\n--- drawn:\n%.300s\n", path, line,
           want + a, got + b);
    free(want);
    fail_msg("%s: the drawing changed (line %d)", path, line);
}
