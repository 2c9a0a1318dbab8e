/* lecture.c - the minimal --lecture: run the file as a script.
 * The lessons module replaces this file with the real lecture runner. */
#include "lecture.h"

#include "session.h"

int lecture_main(struct session *s, const char *path)
{
    sess_run_file(s, path);
    return s->errors > 0 ? 1 : 0;
}
