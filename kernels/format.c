/* format.c - lab.h's byte counts as people read them. Its own file, with
 * nothing but the C library, so that the REPL's parser tests link it alone. */
#include "kernels/lab.h"

#include <stdio.h>

void lab_fmt_bytes(double b, char *buf, size_t len)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    if (b < 0) {
        snprintf(buf, len, "?");
        return;
    }
    int u = 0;
    while (b >= 1024 && u < 4) {
        b /= 1024;
        u++;
    }
    snprintf(buf, len, u == 0 || b == (double)(long long)b ? "%.0f %s" : "%.1f %s", b, unit[u]);
}
