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

typedef struct edit {
    size_t s, e;
    char *text;
} edit;

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
    /* template kernels: a launch without template arguments deduces them */
    const prog_tx_opts *opts;
    /* the driver API was named (once a file) */
    int driver_said;
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
