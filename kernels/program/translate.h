/* translate.h - within kernels/program/: the source pass's state (the
 * tokens of one file, the edits to make, what it found) and the token and
 * edit helpers of translate_lex.c that translate.c's rewrites use. */
#ifndef GPULAB_PROGRAM_TRANSLATE_H
#define GPULAB_PROGRAM_TRANSLATE_H

#include <stddef.h>

#include "kernels/program/program.h"

enum { T_IDENT = 1, T_NUM, T_STR, T_CHR, T_PUNCT, T_PP, T_LOPEN, T_LCLOSE };

typedef struct tok {
    int kind;
    size_t s, e;
    int line;
} tok;

/* Which copy of the text an edit belongs to: both, the file as it is, or
 * the device copy of a __host__ __device__ function (hd_twin, translate.c) */
enum { ED_BOTH = 0, ED_MAIN, ED_TWIN };

typedef struct edit {
    size_t s, e;
    char *text;
    int only; /* ED_* */
    int seq;  /* the order it was made in: of two at one place, the first goes first */
} edit;

/* A __host__ __device__ function that tests __CUDA_ARCH__ inside its body:
 * source bytes [s, e) (its declaration's first token to its closing brace)
 * are written a second time after it, as nvcc's device pass would compile
 * them, under the name the dispatch at the body's top calls in device code */
typedef struct hd_twin {
    size_t s, e, open; /* open: the body's `{` */
    int line, eline;   /* of s, and of the closing brace */
    int declare;       /* at file or namespace scope: declared before the function */
    size_t decl_s, decl_e; /* a member defined outside its class: its declaration there (0, 0: none) */
} hd_twin;
enum { TX_MAX_TWINS = 32 };

typedef struct tx {
    const char *src;
    size_t len;
    const char *shown;
    enum prog_mode mode;
    tok *t;
    int nt, capt;
    edit *ed;
    int ned, caped;
    prog_source *out;
    int oom;
    /* file-scope __shared__ variables: later uses become sim_get_NAME() */
    char globals[16][64];
    int nglobals;
    /* every __shared__ name, for pointers made from them */
    char shared[64][64];
    int nshared;
    /* __shared__ arrays: sizeof(NAME) becomes sim_sizeof_NAME, the array's bytes */
    char sized[64][64];
    int nsized;
    /* kernels that cudaLaunchKernel(const void *) can find: plain functions at file scope */
    char reg[PROG_MAX_KERNELS][64];
    int nreg;
    /* host code's arrays at file scope, with their lines (host_arrays) */
    char hostvar[PROG_MAX_KERNELS][64];
    int hostvar_line[PROG_MAX_KERNELS];
    int nhostvar;
    /* template kernels: a launch without template arguments deduces them */
    const prog_tx_opts *opts;
    /* the driver API was named (once a file) */
    int driver_said;
    /* the file's name as the #line directives give it */
    const char *path;
    /* what tx_edit_add's edits belong to (ED_*) */
    int edit_only;
    hd_twin twins[TX_MAX_TWINS];
    int ntwins;
    /* the tokenizer follows `#line N` directives (a translated text) */
    int line_directives;
} tx;

/* The tokens of x->src into x->t (x->oom when memory ran out). */
void tx_tokenize(tx *x);
/* Token k is word (0 for a k out of range). */
int tx_is(const tx *x, int k, const char *word);
/* Token k is one of words (NULL-terminated). */
int tx_is_word_of(const tx *x, int k, const char *const *words);
/* Tokens a..b-1 as the source spells them (newlines as spaces), cut to len. */
void tx_text_of(const tx *x, int a, int b, char *buf, size_t len);
/* Replace source bytes [s, e) with the printf text, followed by as many
 * newlines as the range held, so that no line moves. */
void tx_edit_add(tx *x, size_t s, size_t e, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Something the simulator cannot run, at line (one message a line). */
void tx_issue(tx *x, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
