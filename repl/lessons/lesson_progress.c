/* lesson_progress.c - how far the user got in each lesson.
 *
 * One line per lesson in $XDG_STATE_HOME/gpulab/progress:
 *     ID STEP NSTEPS SEEN CORRECT
 * rewritten whole after every step through safefile (a temporary file beside
 * it, synced, then renamed over the old one, mode 0600), so a crash or
 * Ctrl-C leaves either the old file or the new one, never half of one; the
 * read-modify-write holds the folder's lock, so two sessions lose nothing. */
#include "repl/lessons/lesson.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "repl/safefile.h"

void lesson_progress_path(char *out, size_t len)
{
    const char *xdg = getenv("XDG_STATE_HOME");
    const char *home = getenv("HOME");
    if (xdg && xdg[0] == '/')
        snprintf(out, len, "%s/gpulab/progress", xdg);
    else if (home && *home)
        snprintf(out, len, "%s/.local/state/gpulab/progress", home);
    else if (len)
        out[0] = 0;
}

static int parse_line(const char *line, struct lesson_progress *p)
{
    memset(p, 0, sizeof *p);
    return sscanf(line, "%127s %d %d %d %d", p->id, &p->step, &p->nsteps, &p->seen, &p->correct) == 5 ? 0 : -1;
}

int lesson_progress_get(const char *id, struct lesson_progress *p)
{
    char path[4096], line[512];
    lesson_progress_path(path, sizeof path);
    memset(p, 0, sizeof *p);
    snprintf(p->id, sizeof p->id, "%s", id);
    FILE *f = path[0] ? fopen(path, "r") : NULL;
    if (!f) return -1;
    int found = -1;
    struct lesson_progress q;
    while (fgets(line, sizeof line, f))
        if (parse_line(line, &q) == 0 && strcmp(q.id, id) == 0) {
            *p = q;
            found = 0;
        }
    fclose(f);
    return found;
}

int lesson_progress_put(const struct lesson_progress *p)
{
    char path[4096], line[512], err[256];
    lesson_progress_path(path, sizeof path);
    if (!path[0]) {
        errno = ENOENT;
        return -1;
    }
    if (safefile_mkdirs(path) != 0) return -1;
    /* The whole read-modify-write under the folder's lock: a second gpulab
     * storing its own lesson at the same time waits, then reads this line. */
    int lock = safefile_lock(path);
    struct safefile w;
    if (safefile_open(&w, path, SAFEFILE_PRIVATE, err, sizeof err) != 0) {
        int e = errno;
        safefile_unlock(lock);
        errno = e;
        return -1;
    }
    FILE *in = fopen(path, "r");
    int written = 0;
    if (in) {
        struct lesson_progress q;
        while (fgets(line, sizeof line, in)) {
            if (parse_line(line, &q) != 0) continue; /* a damaged line is dropped */
            if (strcmp(q.id, p->id) == 0) {
                if (written) continue;
                q = *p;
                written = 1;
            }
            fprintf(w.f, "%s %d %d %d %d\n", q.id, q.step, q.nsteps, q.seen, q.correct);
        }
        fclose(in);
    }
    if (!written) fprintf(w.f, "%s %d %d %d %d\n", p->id, p->step, p->nsteps, p->seen, p->correct);
    int rc = safefile_commit(&w, err, sizeof err);
    int e = errno;
    safefile_unlock(lock);
    errno = e;
    return rc;
}
