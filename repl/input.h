/* input.h - reading scripts: gpulab FILE, source FILE, standard input that
 * is not a terminal, and the lines of a lecture script.
 *
 * A script is text. Its lines end in LF, CRLF or a lone CR; a read error is
 * an error with the reason (never taken for the end of the file); a NUL
 * byte stops it with the line and column (it is not a text file, and the
 * rest of such a line used to be dropped silently); a line longer than
 * INPUT_MAX_LINE is refused, and the next line is read. Directories and
 * devices are refused before reading.
 */
#ifndef GPULAB_INPUT_H
#define GPULAB_INPUT_H

#include <stddef.h>
#include <stdio.h>

#define INPUT_MAX_LINE (64 * 1024)

enum input_status {
    INPUT_LINE,   /* a line in buf (its end removed), len bytes */
    INPUT_EOF,    /* the end */
    INPUT_ERROR,  /* a read error: err holds the errno */
    INPUT_NUL,    /* a NUL byte at column col (1-based) of this line */
    INPUT_LONG,   /* a line past INPUT_MAX_LINE; it was skipped */
};

struct input {
    FILE *f;
    char *buf;
    size_t cap, len;
    int col;      /* INPUT_NUL: where the NUL is */
    int err;      /* INPUT_ERROR: the errno */
    int (*interrupted)(void); /* when set and true, a read cut by a signal (EINTR) ends with INPUT_ERROR */
};

/* The next line of in->f. */
enum input_status input_line(struct input *in);
void input_free(struct input *in);

/* Can f be read as a script? A regular file, a pipe, a socket or a
 * terminal yes (and /dev/null, an empty script); a directory or another
 * device no. 0 ok; -1 with "NAME: why" in err. */
int input_check(FILE *f, const char *name, char *err, size_t errlen);

#endif
