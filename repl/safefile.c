/* safefile.c - writing files without surprises (see safefile.h). */
#define _GNU_SOURCE /* fopencookie */
#include "repl/safefile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "repl/i18n.h"

/* The temporary file being written, for safefile_signal_cleanup. */
static char *volatile g_tmp;

static void fail(char *err, size_t errlen, const char *path, const char *why)
{
    if (err && errlen) snprintf(err, errlen, _("cannot write %s: %s"), path, why);
}

/* The folder part of path ("." when there is none), malloc'd. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return strdup(".");
    if (slash == path) return strdup("/");
    return strndup(path, (size_t)(slash - path));
}

static mode_t default_mode(void)
{
    mode_t um = umask(0); /* the only way to read it; put back at once */
    umask(um);
    return 0666 & ~um;
}

/* The stream's bytes go to the temporary file through here, so the first
 * error keeps its errno (stdio alone may report a full disk later, with
 * errno long gone). */
static ssize_t cookie_write(void *c, const char *buf, size_t n)
{
    struct safefile *w = c;
    size_t done = 0;
    while (done < n) {
        ssize_t r = write(w->fd, buf + done, n - done);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            if (!w->err) w->err = r < 0 ? errno : ENOSPC;
            return done > 0 ? (ssize_t)done : -1;
        }
        done += (size_t)r;
    }
    return (ssize_t)done;
}

static int cookie_close(void *c)
{
    (void)c; /* the descriptor is closed by commit or abort, after fsync */
    return 0;
}

int safefile_open(struct safefile *w, const char *path, unsigned flags, char *err, size_t errlen)
{
    memset(w, 0, sizeof *w);
    w->fd = -1;
    w->flags = flags;
    if (!path || !*path) {
        fail(err, errlen, "\"\"", _("the file name is empty"));
        return -1;
    }
    size_t pl = strlen(path);
    if (path[pl - 1] == '/') {
        fail(err, errlen, path, _("that names a directory; give a file name"));
        return -1;
    }
    mode_t mode = (flags & SAFEFILE_PRIVATE) ? 0600 : default_mode();
    struct stat sb;
    if (lstat(path, &sb) == 0) {
        if (S_ISLNK(sb.st_mode)) {
            fail(err, errlen, path,
                 _("it is a symbolic link, and gpulab does not write through links (give the file it "
                   "points to, or another name)"));
            errno = ELOOP;
            return -1;
        }
        if (S_ISDIR(sb.st_mode)) {
            fail(err, errlen, path, _("it is a directory"));
            errno = EISDIR;
            return -1;
        }
        if (!S_ISREG(sb.st_mode)) {
            fail(err, errlen, path,
                 _("it is not a regular file (a device, pipe or socket); gpulab writes regular files only"));
            errno = EINVAL;
            return -1;
        }
        if (access(path, W_OK) != 0) {
            int e = errno;
            fail(err, errlen, path, strerror(e));
            errno = e;
            return -1;
        }
        if (flags & SAFEFILE_NEW) {
            fail(err, errlen, path, _("it is already there, and gpulab does not write over it"));
            errno = EEXIST;
            return -1;
        }
        w->replaced = 1;
        if (!(flags & SAFEFILE_PRIVATE)) mode = sb.st_mode & 07777;
    } else if (errno != ENOENT) {
        int e = errno;
        fail(err, errlen, path, strerror(e));
        errno = e;
        return -1;
    }
    /* DIR/.NAME.XXXXXX: hidden, beside the target, on the same file system */
    char *dir = dir_of(path);
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t tl = strlen(dir) + strlen(base) + 16;
    w->tmp = malloc(tl);
    w->path = strdup(path);
    if (!dir || !w->tmp || !w->path) {
        free(dir);
        safefile_abort(w);
        fail(err, errlen, path, strerror(ENOMEM));
        return -1;
    }
    snprintf(w->tmp, tl, "%s/.%s.XXXXXX", dir, base);
    free(dir);
    int fd = mkostemp(w->tmp, O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        free(w->tmp);
        w->tmp = NULL;
        safefile_abort(w);
        fail(err, errlen, path, strerror(e));
        errno = e;
        return -1;
    }
    g_tmp = w->tmp;
    w->fd = fd;
    static const cookie_io_functions_t io = {.write = cookie_write, .close = cookie_close};
    if (fchmod(fd, mode) != 0 || !(w->f = fopencookie(w, "w", io))) {
        int e = errno;
        safefile_abort(w);
        fail(err, errlen, path, strerror(e));
        errno = e;
        return -1;
    }
    return 0;
}

int safefile_commit(struct safefile *w, char *err, size_t errlen)
{
    if (!w->f) {
        fail(err, errlen, w->path ? w->path : "?", _("the file was not opened"));
        safefile_abort(w);
        return -1;
    }
    int e = 0;
    if (fflush(w->f) != 0 || ferror(w->f) || w->err) e = w->err ? w->err : errno ? errno : EIO;
    fclose(w->f);
    w->f = NULL;
    /* fsync makes a full disk or a quota show here, not after the rename */
    if (!e && !(w->flags & SAFEFILE_NOSYNC) && fsync(w->fd) != 0 && errno != EINVAL && errno != ENOTSUP)
        e = errno;
    if (close(w->fd) != 0 && !e) e = errno;
    w->fd = -1;
    if (!e && (w->flags & SAFEFILE_NEW)) {
        /* link, unlike rename, fails when the name was taken meanwhile */
        if (link(w->tmp, w->path) != 0) e = errno;
        else unlink(w->tmp);
    } else if (!e && rename(w->tmp, w->path) != 0) {
        e = errno;
    }
    if (e) {
        fail(err, errlen, w->path, strerror(e));
        safefile_abort(w);
        errno = e;
        return -1;
    }
    if (!(w->flags & SAFEFILE_NOSYNC)) { /* the rename itself reaches the disk with the folder */
        char *dir = dir_of(w->path);
        int dfd = dir ? open(dir, O_RDONLY | O_DIRECTORY) : -1;
        if (dfd >= 0) {
            fsync(dfd);
            close(dfd);
        }
        free(dir);
    }
    g_tmp = NULL;
    free(w->tmp);
    free(w->path);
    w->tmp = w->path = NULL;
    return 0;
}

void safefile_abort(struct safefile *w)
{
    if (w->f) fclose(w->f);
    w->f = NULL;
    if (w->fd >= 0) close(w->fd);
    w->fd = -1;
    if (w->tmp) {
        g_tmp = NULL;
        unlink(w->tmp);
    }
    free(w->tmp);
    free(w->path);
    w->tmp = w->path = NULL;
}

void safefile_signal_cleanup(void)
{
    char *t = g_tmp;
    if (t) unlink(t);
}

/* ------------------------------------------------------------ confinement */

int safefile_confined_ok(const char *path, char *err, size_t errlen)
{
    static const char rule[] = N_("a lesson or lecture may write files only below the current directory");
    if (!path || !*path) {
        snprintf(err, errlen, "%s", _("the file name is empty"));
        return 0;
    }
    if (path[0] == '/' || path[0] == '~') {
        snprintf(err, errlen, _("%s is not a relative path: %s"), path, _(rule));
        return 0;
    }
    int depth = 0;
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, "/");
        if (n == 2 && p[0] == '.' && p[1] == '.') {
            if (--depth < 0) {
                snprintf(err, errlen, _("%s climbs out of the current directory: %s"), path, _(rule));
                return 0;
            }
        } else if (n > 0 && !(n == 1 && p[0] == '.')) {
            depth++;
        }
        p += n;
        while (*p == '/') p++;
    }
    /* Folders on the way may be links: where they really lead must be here too. */
    char here[PATH_MAX], there[PATH_MAX];
    char *dir = dir_of(path);
    int ok = 1;
    if (dir && realpath(".", here) && realpath(dir, there)) {
        size_t hl = strlen(here);
        int inside = strncmp(there, here, hl) == 0 && (there[hl] == 0 || there[hl] == '/' || hl == 1);
        if (!inside) {
            snprintf(err, errlen, _("%s leads through a link to %s, outside the current directory: %s"),
                     path, there, _(rule));
            ok = 0;
        }
    }
    free(dir);
    return ok;
}

/* ------------------------------------------------------------ locking */

int safefile_lock(const char *path)
{
    char *dir = dir_of(path);
    if (!dir) return -1;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(dir);
    if (fd < 0) return -1;
    while (flock(fd, LOCK_EX) != 0) {
        if (errno == EINTR) continue;
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

void safefile_unlock(int fd)
{
    if (fd < 0) return;
    flock(fd, LOCK_UN);
    close(fd);
}

int safefile_mkdirs(const char *path)
{
    char *p = strdup(path);
    if (!p) return -1;
    for (char *q = p + 1; *q; q++) {
        if (*q != '/') continue;
        *q = 0;
        if (mkdir(p, 0700) != 0 && errno != EEXIST) {
            free(p);
            return -1;
        }
        *q = '/';
    }
    free(p);
    return 0;
}

/* ------------------------------------------------------------ reading */

int safefile_open_read(const char *path, long long max, char *err, size_t errlen)
{
    /* O_NONBLOCK: opening a FIFO or a device must not wait; the descriptor
     * says what it is before a byte is read */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        snprintf(err, errlen, _("cannot open %s: %s"), path, strerror(e));
        errno = e;
        return -1;
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        int dir = S_ISDIR(sb.st_mode);
        snprintf(err, errlen,
                 dir ? _("%s is a directory: give a file")
                     : _("%s is not a regular file (a device, pipe or socket): gpulab reads regular files only"),
                 path);
        close(fd);
        errno = dir ? EISDIR : EINVAL;
        return -1;
    }
    if (max > 0 && (long long)sb.st_size > max) {
        snprintf(err, errlen, _("%s is %lld bytes: too large (gpulab reads at most %lld MiB here)"), path,
                 (long long)sb.st_size, max >> 20);
        close(fd);
        errno = EFBIG;
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return fd;
}

FILE *safefile_fopen_read(const char *path, long long max, char *err, size_t errlen)
{
    int fd = safefile_open_read(path, max, err, errlen);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, "r");
    if (!f) {
        int e = errno;
        snprintf(err, errlen, _("cannot open %s: %s"), path, strerror(e));
        close(fd);
        errno = e;
    }
    return f;
}

char *safefile_read(const char *path, long long max, size_t *len, char *err, size_t errlen)
{
    int fd = safefile_open_read(path, max, err, errlen);
    if (fd < 0) return NULL;
    struct stat sb;
    size_t cap = fstat(fd, &sb) == 0 && sb.st_size > 0 ? (size_t)sb.st_size + 1 : 4096, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        ssize_t k = read(fd, buf + n, cap - n);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) {
            int e = errno;
            snprintf(err, errlen, _("cannot read %s: %s"), path, strerror(e));
            free(buf);
            close(fd);
            errno = e;
            return NULL;
        }
        if (k == 0) break;
        n += (size_t)k;
        if (max > 0 && (long long)n > max) { /* it grew while read */
            snprintf(err, errlen, _("%s grew past %lld MiB while gpulab read it"), path, max >> 20);
            free(buf);
            close(fd);
            errno = EFBIG;
            return NULL;
        }
        if (n == cap) {
            char *nb = realloc(buf, cap * 2 + 1);
            if (!nb) break;
            buf = nb;
            cap *= 2;
        }
    }
    close(fd);
    if (!buf) {
        snprintf(err, errlen, _("cannot read %s: %s"), path, strerror(ENOMEM));
        errno = ENOMEM;
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

/* ------------------------------------------------------------ lessons */

int safefile_lesson_read_ok(const char *path, const char *lesson, int cu_only, char *err, size_t errlen)
{
    static const char rule[] = N_("a lesson or lecture may open, show and check only .cu and .cuh files of its "
                                  "own folder, and read no file outside it");
    size_t l = strlen(path);
    int cu = (l > 3 && !strcmp(path + l - 3, ".cu")) || (l > 4 && !strcmp(path + l - 4, ".cuh"));
    if (cu_only && !cu) {
        snprintf(err, errlen, _("%s is not a .cu or .cuh file: %s"), path, _(rule));
        return 0;
    }
    char there[PATH_MAX], dir[PATH_MAX];
    char *lesson_dir = lesson ? dir_of(lesson) : NULL;
    int found = lesson_dir && realpath(lesson_dir, dir);
    free(lesson_dir);
    if (!found) {
        snprintf(err, errlen, _("%s: the lesson's folder cannot be found: %s"), path, _(rule));
        return 0;
    }
    if (!realpath(path, there)) {
        int e = errno;
        snprintf(err, errlen, _("cannot open %s: %s"), path, strerror(e));
        return 0;
    }
    size_t dl = strlen(dir);
    if (strncmp(there, dir, dl) != 0 || (there[dl] != '/' && dl != 1)) {
        snprintf(err, errlen, _("%s is outside the lesson's folder %s: %s"), path, dir, _(rule));
        return 0;
    }
    return 1;
}
