/* cmd_puzzle.h - the REPL's side of the puzzles (cmd_puzzle.c): what check
 * and code ask of it. */
#ifndef GPULAB_CMD_PUZZLE_H
#define GPULAB_CMD_PUZZLE_H

#include <stddef.h>

struct session;
struct puzzle;
struct cmp_list;

/* The file of the puzzle last named by `puzzle` or `check` (s->puzzle). 0
 * with its path, -1 when there is none yet. */
int puzzle_current_file(const struct session *s, char *buf, size_t len);
/* Store that p was tried, and solved when passed (solved stays solved). */
void puzzle_note_progress(const struct puzzle *p, int passed);
/* Completion of a puzzle's number or name (a cmd_complete_fn). */
void puzzle_complete(struct session *s, int argc, char **argv, const char *text, struct cmp_list *out);

#endif
