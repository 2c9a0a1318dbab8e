/* puzzle.h - the puzzles track: a table of small kernels to write, each with
 * its spec, fixed launch shape, inputs, limits and CPU reference.
 *
 * The student's file holds only the kernel. gpulab supplies everything else:
 * puzzle_driver() writes a main() that allocates the arrays, fills the
 * inputs, launches the kernel with the puzzle's shape and writes the output
 * array to a file; puzzle_compare() holds that output against the reference.
 * docs/puzzles.md explains the design. Nothing here prints or runs a
 * program; repl/lessons/cmd_puzzle.c does.
 */
#ifndef GPULAB_PUZZLE_H
#define GPULAB_PUZZLE_H

#include <stddef.h>

#define PUZZLE_MAX_ARGS 8

enum puzzle_arg_kind {
    PZ_OUT = 1, /* the output array: filled with PUZZLE_UNWRITTEN, compared */
    PZ_IN,      /* an input array: values base + step * (i % mod) */
    PZ_INT      /* an int passed by value */
};

struct puzzle_arg {
    enum puzzle_arg_kind kind;
    const char *name;   /* the parameter's name in the kernel ("out", "a", "size") */
    int rows, cols;     /* arrays: rows x cols floats (rows 1 for a vector) */
    float base, step;   /* inputs: a[i] = base + step * (i % mod) */
    int mod;            /* 0: no modulus */
    int value;          /* PZ_INT */
};

struct puzzle {
    int number;              /* 1-based, as `puzzle N` takes it */
    const char *name;        /* file name part: "map" -> puzzles/01-map.cu */
    const char *title;       /* "Map" */
    const char *kernel;      /* the __global__ function the harness launches */
    const char *spec;        /* exact, one line: "out[i] = a[i] + 10" */
    const char *detail;      /* the spec's conditions and conventions, or NULL */
    unsigned grid[2], block[2]; /* x, y */
    struct puzzle_arg args[PUZZLE_MAX_ARGS];
    int nargs;
    int max_global_reads;    /* per thread; -1: no limit */
    int max_shared_bytes;    /* per block, static and dynamic; -1: no limit */
    const char *watch;       /* a built-in variant showing the same idea ("reduce/sequential"), or NULL */
    /* the reference: in[k] is the k-th PZ_IN array in argument order */
    void (*expect)(const struct puzzle *p, const float *const *in, float *out);
    int need_shared;         /* every thread that writes out must read shared memory */
    int reads_per_tile;      /* > 0: the read limit is this many per tile of block[0] elements
                              * along size (a case of another size gets its own) */
    float tolerance;         /* > 0: right within tolerance * max(1, |expected|), stated because
                              * the math is not exact in float (softmax, layer norm); 0: 1e-5 */
    int rand_lo, rand_hi;    /* random inputs: whole numbers in [rand_lo, rand_hi]; both 0: [-5, 5] */
    int out_zero;            /* the output holds 0 before the launch (a histogram adds into it),
                              * not the never-written fill; its spare floats keep the fill */
    int max_block_writes;    /* > 0: a block writes global memory (stores and atomics) at most
                              * this many times; 0: no limit */
    /* a puzzle written as a folder (puzzle_def.h); NULL for the table's */
    const struct puzzle_def *def;
    int max_global_writes;   /* folder puzzles: per thread; -1: no limit */
    int max_barriers;        /* folder puzzles: __syncthreads() per block; -1: no limit */
};

/* The bit pattern the output array is filled with before the launch (a
 * quiet NaN no arithmetic produces), so an element never written shows. */
#define PUZZLE_UNWRITTEN 0x7fc0deadu

/* The puzzles in order (the table's, then gpulab's folder puzzles, then
 * those opened from a folder); *n their count. */
const struct puzzle *puzzle_all(int *n);

/* The relative tolerance the comparison allows (p->tolerance, else 1e-5). */
float puzzle_tolerance(const struct puzzle *p);

/* Put a folder puzzle beside the others (one of the same number is replaced
 * in place, so pointers to it stay good). The registered copy, or NULL when
 * the list is full or the number is one of gpulab's. */
const struct puzzle *puzzle_register(const struct puzzle *p);

/* Its hint (untranslated, for _()), or NULL. */
const char *puzzle_hint(const struct puzzle *p);

/* By number (1-based), name ("map"), file stem ("01-map") or a file path
 * ending in one ("puzzles/01-map.cu"). NULL when none matches. */
const struct puzzle *puzzle_find(const char *what);

/* The output argument, and the number of floats in an array argument. */
const struct puzzle_arg *puzzle_out(const struct puzzle *p);
int puzzle_arg_len(const struct puzzle_arg *a);

/* "01-map" */
void puzzle_stem(const struct puzzle *p, char *buf, size_t len);

/* "puzzles/01-map.cu": where `puzzle N` writes and `check N` reads. */
void puzzle_student_path(const struct puzzle *p, char *buf, size_t len);

/* A whole file, malloc'd and NUL-terminated (*len its bytes); NULL with
 * errno when it cannot be read. */
char *puzzle_read_file(const char *path, size_t *len);

/* Fill the input array a (puzzle_arg_len floats). */
void puzzle_fill(const struct puzzle_arg *a, float *v);

/* "map<<<1, 4>>>(out, a)" (a 2D shape as dim3(x, y)). */
void puzzle_launch_text(const struct puzzle *p, char *buf, size_t len);

/* The header comment `puzzle N` writes above the skeleton: title, spec,
 * launch, inputs, limits, how to check. malloc'd. */
char *puzzle_header(const struct puzzle *p);

/* ----------------------------------------------------------------- cases
 * A check runs the kernel on several cases: the stated one (case 0, the
 * header's inputs), then the puzzle at other sizes (not multiples of the
 * block or of 16 bytes, the edge cases 1 and one full block) with random
 * whole-number inputs from a seed. Every array lies in an allocation of a
 * multiple of 256 bytes: in even cases flush with its end (a read or write
 * past the last element leaves the allocation), in odd ones 256 bytes after
 * its start (a write before element 0 stays in it and shows). The output's
 * other floats hold
 * PUZZLE_UNWRITTEN and come back, so a stray write shows; the inputs' hold
 * PUZZLE_POISON, a NaN that spoils any sum it enters. */
#define PUZZLE_MAX_CASES 8
#define PUZZLE_POISON 0x7fc0bad0u

struct puzzle_case {
    struct puzzle inst;       /* the puzzle at this case's size: arrays, ints, grid */
    int index, count;         /* 0-based, of count */
    int n, m;                 /* its size (and rows, puzzle 13) */
    unsigned seed;            /* 0: the stated inputs; else the random inputs' seed */
    float *in[PUZZLE_MAX_ARGS]; /* the k-th input array's values (PZ_IN order) */
    int alloc[PUZZLE_MAX_ARGS]; /* floats allocated for argument k */
    int front[PUZZLE_MAX_ARGS]; /* floats before argument k's element 0 */
    float *want;              /* folder puzzles: the reference's output (NULL: p->expect) */
};

/* The cases of p with random inputs from seed; their count (at most
 * PUZZLE_MAX_CASES), -1 when out of memory. Free with puzzle_cases_free. */
int puzzle_cases(const struct puzzle *p, unsigned seed, struct puzzle_case *c);
void puzzle_cases_free(struct puzzle_case *c, int n);

/* "size 13, grid 4 x 4 threads, random inputs (seed 7)" */
void puzzle_case_text(const struct puzzle_case *c, char *buf, size_t len);

/* Floats the driver writes for case c (its output allocation), and for all. */
int puzzle_case_out_floats(const struct puzzle_case *c);

/* The whole file the harness compiles: `#line 1 "student_path"`, the
 * student's text unchanged, then the driver under `#line 1 "harness_name"`.
 * The driver runs every case in order and writes each case's whole output
 * allocation (raw floats) to the file named by its first argument, and exits
 * 0; 3 when a launch failed (on stderr: which case, and why). Before each
 * case's launch it writes the line "<mark><case index>" on stderr.
 * malloc'd; NULL when out of memory. */
char *puzzle_driver(const struct puzzle_case *c, int ncases, const char *student_path, const char *student_text,
                    size_t student_len, const char *harness_name, const char *mark);

/* The result of holding an output against the reference. */
struct puzzle_verdict {
    int pass;
    int first;          /* first wrong index, -1 when none */
    float expected, got;
    int unwritten;      /* the first wrong element was never written */
    int nwrong;         /* how many elements are wrong */
    int nunwritten;
    int outside;        /* elements written outside the output (puzzle_case_compare) */
    int first_outside;  /* the first of them: -1 before element 0, len after the last */
};

/* Compare got (the output array) with the reference of p. */
void puzzle_compare(const struct puzzle *p, const float *got, struct puzzle_verdict *v);

/* Compare a case's whole output allocation (puzzle_case_out_floats) with
 * its reference; want gets the reference (len of the output floats). */
void puzzle_case_compare(const struct puzzle_case *c, const float *alloc, float *want, struct puzzle_verdict *v);

/* The reference output (puzzle_arg_len(puzzle_out(p)) floats) into out. */
void puzzle_expected(const struct puzzle *p, float *out);

/* "out[3]" or "out[1][2]" for element i of the output. */
void puzzle_index_text(const struct puzzle *p, int i, char *buf, size_t len);

/* Is the float's bit pattern the fill of an unwritten element? */
int puzzle_is_unwritten(float f);

#endif
