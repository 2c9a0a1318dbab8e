/* puzzle_def.h - puzzles written as a folder (a lecturer's, or gpulab's own
 * puzzles 24 and up): puzzle.txt (title, idea, rule, launch, arguments,
 * cases, limits, tolerance, hint), skeleton.cu, reference.cu and wrong/NAME.cu.
 *
 * The folder is untrusted input: only regular files of fixed names are read
 * (never a link), each up to a size cap, and puzzle.txt is parsed strictly;
 * an error names the file, the line and what is allowed. A loaded folder
 * becomes a struct puzzle like the C table's, with `def` set: its cases
 * come from puzzle.txt, and its expected outputs from running reference.cu
 * in the same harness on the simulator (cmd_check.c). docs/puzzles.md has
 * the format with a complete example. */
#ifndef GPULAB_PUZZLE_DEF_H
#define GPULAB_PUZZLE_DEF_H

#include <limits.h>
#include <stddef.h>

#include "repl/lessons/puzzle.h"

#define PUZZLE_DEF_TEXT_MAX (64 << 10)   /* puzzle.txt */
#define PUZZLE_DEF_CU_MAX (256 << 10)    /* skeleton, reference, each wrong version */
#define PUZZLE_DEF_MAX_VARS 4
#define PUZZLE_DEF_MAX_WRONG 32
#define PUZZLE_DEF_MAX_FLOATS 65536      /* one array of one case */
#define PUZZLE_DEF_MAX_THREADS 65536     /* one case's launch */

struct puzzle_def_arg {
    char *dim[2];        /* arrays: rows (NULL for a vector) and length/cols; ints: the value */
    int line;            /* where it was declared */
    float base, step;    /* the stated inputs: base + step * i */
    int lo, hi;          /* the random inputs: whole numbers in [lo, hi] */
};

struct puzzle_def {
    char dir[PATH_MAX];  /* the folder, as real path */
    int shipped;         /* one of gpulab's (lessons/en/puzzles/NN-name/) */
    char *hint;
    struct puzzle_def_arg args[PUZZLE_MAX_ARGS];
    char *grid[2], *block[2];
    char *reads, *writes, *shared, *barriers; /* NULL: no limit */
    int nvars;
    char vars[PUZZLE_DEF_MAX_VARS][32];
    int ncases;
    int vals[PUZZLE_MAX_CASES][PUZZLE_DEF_MAX_VARS];
    char *strings;       /* every text above lives in one block */
};

/* Load the folder dir: its puzzle.txt (and, for lang other than "en", the
 * translated texts in tr_dir/puzzle.txt when tr_dir is not NULL). Fills *p
 * (def, strings and all malloc'd, never freed: a puzzle lives as long as
 * gpulab). shipped: gpulab's own (numbers 1 to 99), else a lecturer's
 * (numbers 100 to 999). Returns 0, or -1 with the reason in err. */
int puzzle_def_load(const char *dir, int shipped, const char *tr_dir, struct puzzle *p, char *err, size_t errlen);

/* Is dir a folder with a puzzle.txt (so `puzzle DIR` and `check DIR` mean it)? */
int puzzle_def_is_dir(const char *dir);

/* Load a lecturer's folder and register it beside the shipped puzzles (an
 * earlier load of the same number is replaced in place). The puzzle, or
 * NULL with err. */
const struct puzzle *puzzle_def_open(const char *dir, char *err, size_t errlen);

/* The case count and cases of a folder puzzle (puzzle_cases calls it). */
int puzzle_def_cases(const struct puzzle *p, unsigned seed, struct puzzle_case *c);

/* "n = 37, d = 4, " for case index ci. */
void puzzle_def_case_sizes(const struct puzzle *p, int ci, char *buf, size_t len);

/* A file of the folder (skeleton.cu, reference.cu, wrong/NAME.cu): read
 * only when it is a regular file (not a link) under the size cap. For
 * "skeleton.cu" the session language's skeleton of a shipped puzzle first.
 * malloc'd, or NULL with err. */
char *puzzle_def_read(const struct puzzle *p, const char *lang, const char *name, size_t *len, char *path,
                      size_t pathlen, char *err, size_t errlen);

/* Load gpulab's own folder puzzles (lessons/en/puzzles/NN-name/) into all[]
 * after *n entries (at most cap); translated texts from lang. */
void puzzle_def_load_shipped(const char *lang, struct puzzle *all, int *n, int cap);

#endif
