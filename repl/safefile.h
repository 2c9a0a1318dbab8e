/* safefile.h - every file gpulab writes goes through here: exports, trace
 * save, lesson progress and history.
 *
 * A file is written to a temporary file beside its target (same folder, so
 * the same file system) and renamed over the target only once every byte is
 * written, flushed and synced: a failed write (a full disk, a quota, Ctrl-C)
 * leaves the old file as it was and no half-written new one. A symbolic
 * link, a directory or a device at the target is refused instead of being
 * followed or replaced, and every error names the file and the reason (the
 * system's errno text).
 *
 * Commands that come from a lesson or a lecture may write only below the
 * current directory (safefile_confined_ok), so a lesson file cannot write
 * into ~/.bashrc.
 */
#ifndef GPULAB_SAFEFILE_H
#define GPULAB_SAFEFILE_H

#include <stddef.h>
#include <stdio.h>

/* safefile_open flags */
#define SAFEFILE_PRIVATE 1u /* mode 0600 (history, progress); else the old file's mode, or 0666 & ~umask */
#define SAFEFILE_NEW 2u     /* never over an existing file, nor one made meanwhile (a student's puzzle) */
#define SAFEFILE_NOSYNC 4u  /* no fsync: still whole and atomic for other processes and crashes, not
                               for a power cut (history, written at every prompt, where a sync's
                               latency would show) */

struct safefile {
    FILE *f;       /* write here */
    char *path;    /* the target */
    char *tmp;     /* the temporary file beside it */
    int replaced;  /* a file of that name was there before */
    unsigned flags;
    int fd;        /* the temporary file */
    int err;       /* the first write error (an errno), 0 none */
};

/* Start writing path: checks the target (no link, directory or device; a
 * read-only file is not replaced) and creates the temporary file. 0 ok,
 * -1 with "cannot write PATH: why" in err. */
int safefile_open(struct safefile *w, const char *path, unsigned flags, char *err, size_t errlen);

/* Flush, sync and close the temporary file and rename it over the target.
 * 0 ok; -1 with "cannot write PATH: why" in err, the temporary file removed
 * and the old file untouched. w is finished either way. */
int safefile_commit(struct safefile *w, char *err, size_t errlen);

/* Give up: remove the temporary file; the target is untouched. */
void safefile_abort(struct safefile *w);

/* For a fatal signal: remove the temporary file being written, if any
 * (async-signal-safe: unlink only). */
void safefile_signal_cleanup(void);

/* May a command from a lesson or a lecture write path? Only a relative path
 * that stays inside the current directory: no leading / or ~, no .. that
 * climbs above it, no link in the folders on the way that leads out of it.
 * 1 yes; 0 with the reason in err. */
int safefile_confined_ok(const char *path, char *err, size_t errlen);

/* Hold an advisory lock (flock, exclusive) on the folder of path around a
 * read-modify-write of a file in it, so two gpulab sessions updating the
 * same progress or history file take turns instead of losing each other's
 * lines. Returns a descriptor for safefile_unlock, or -1 (then go on
 * without the lock: errno says why). */
int safefile_lock(const char *path);
void safefile_unlock(int fd);

/* mkdir -p of the folders above path, mode 0700 (gpulab's state folder). */
int safefile_mkdirs(const char *path);

/* ---- reading: every file gpulab reads on a user's or a lesson's behalf
 * (code, open, source, check FILE, set image, lessons) is opened here. A
 * regular file of at most max bytes (0: any size); a FIFO or a device is
 * refused without waiting for it. -1 / NULL with the reason in err
 * (translated) and errno set. */
#define SAFEFILE_SOURCE_MAX (8ll << 20)  /* a program, a kernel, a lesson's file */
#define SAFEFILE_SCRIPT_MAX (16ll << 20) /* a script for source */
#define SAFEFILE_IMAGE_MAX (256ll << 20) /* an image for set image */
int safefile_open_read(const char *path, long long max, char *err, size_t errlen);
FILE *safefile_fopen_read(const char *path, long long max, char *err, size_t errlen);
/* The whole file, NUL-terminated, its length in *len (malloc'd). */
char *safefile_read(const char *path, long long max, size_t *len, char *err, size_t errlen);

/* A file a lesson's or lecture's command reads: 1 when path is inside the
 * folder of the lesson file (links resolved) and, with cu_only (open, code,
 * check FILE), a .cu or .cuh file; 0 with the reason. */
int safefile_lesson_read_ok(const char *path, const char *lesson, int cu_only, char *err, size_t errlen);

#endif
