/* input.c - script lines (see input.h). */
#include "repl/input.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "repl/i18n.h"

static int put(struct input *in, char c)
{
    if (in->len + 2 > in->cap) {
        size_t cap = in->cap ? in->cap * 2 : 256;
        char *b = realloc(in->buf, cap);
        if (!b) return -1;
        in->buf = b;
        in->cap = cap;
    }
    in->buf[in->len++] = c;
    in->buf[in->len] = 0;
    return 0;
}

/* getc that retries a read cut by a signal, unless the caller wants to stop. */
static int next_char(struct input *in)
{
    for (;;) {
        errno = 0;
        int c = getc(in->f);
        if (c != EOF || !ferror(in->f)) return c;
        if (errno == EINTR && !(in->interrupted && in->interrupted())) {
            clearerr(in->f);
            continue;
        }
        return EOF;
    }
}

enum input_status input_line(struct input *in)
{
    in->len = 0;
    in->col = 0;
    in->err = 0;
    if (put(in, 0) != 0) goto nomem;
    in->len = 0;
    int c, any = 0, nul = 0, toolong = 0;
    while ((c = next_char(in)) != EOF) {
        any = 1;
        if (c == '\n') break;
        if (c == '\r') { /* CRLF, or a lone CR (old Mac files) */
            int d = next_char(in);
            if (d != '\n' && d != EOF) ungetc(d, in->f);
            break;
        }
        if (c == 0 && !nul) nul = (int)in->len + 1;
        if (in->len >= INPUT_MAX_LINE) {
            toolong = 1;
            continue; /* read to the end of the line, keep nothing more */
        }
        if (put(in, (char)c) != 0) goto nomem;
    }
    if (ferror(in->f)) {
        in->err = errno ? errno : EIO;
        return INPUT_ERROR;
    }
    if (!any) return INPUT_EOF;
    if (nul) {
        in->col = nul;
        return INPUT_NUL;
    }
    return toolong ? INPUT_LONG : INPUT_LINE;
nomem:
    in->err = ENOMEM;
    return INPUT_ERROR;
}

void input_free(struct input *in)
{
    free(in->buf);
    in->buf = NULL;
    in->cap = in->len = 0;
}

int input_check(FILE *f, const char *name, char *err, size_t errlen)
{
    struct stat sb, null;
    if (fstat(fileno(f), &sb) != 0) {
        snprintf(err, errlen, "%s: %s", name, strerror(errno));
        return -1;
    }
    if (S_ISDIR(sb.st_mode)) {
        snprintf(err, errlen, _("%s is a directory, not a script"), name);
        return -1;
    }
    if (S_ISREG(sb.st_mode) || S_ISFIFO(sb.st_mode) || S_ISSOCK(sb.st_mode)) return 0;
    if (S_ISCHR(sb.st_mode)) {
        if (isatty(fileno(f))) return 0;
        if (stat("/dev/null", &null) == 0 && S_ISCHR(null.st_mode) && null.st_rdev == sb.st_rdev) return 0;
    }
    snprintf(err, errlen, _("%s is a device, not a script"), name);
    return -1;
}
