/* lanes.c - the source pass's second step on the simulator: a kernel whose
 * barriers split it into regions gets a second form that runs each region
 * as a loop over the block's threads (kernels/sim/lanes.cpp runs it).
 *
 * On the simulator every GPU thread is a fiber, and each __syncthreads()
 * switches through all of a block's threads: a tree reduction of blocks of
 * 256 makes nine switches per thread, most of its time. Between two
 * barriers, though, the fixed schedule runs thread 0's region to the
 * barrier, then thread 1's, and so on: a loop over the threads does the
 * same, with no switch. So a kernel
 *
 *     A; __syncthreads(); for (s = ...; ...; ...) { B; __syncthreads(); } C;
 *
 * also becomes K__sim_lanes, with "for each thread: A" and so on, the loop's
 * header run once (it must be the same for every thread), and a variable
 * declared in one region and used in a later one kept per thread.
 *
 * Only what this pass can prove is given the form; anything else keeps the
 * fibers: a barrier inside an `if`, a return before the last barrier, warp
 * collectives, fences, atomics that can build locks, volatile, a call to a
 * function this file does not show, a loop whose bounds may differ between
 * threads, a parameter the kernel changes. The pass works on the translated
 * text (translate.c's output), after every other rewrite. The second form
 * follows its kernel, under #line directives that keep the student's line
 * numbers, and is used at run time only where nothing needs the threads'
 * own interleaving (lanes.cpp). */
#define _GNU_SOURCE
#include "kernels/program/program.h"
#include "kernels/program/translate.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- buffers */

typedef struct sb {
    char *p;
    size_t n, cap;
    int oom;
} sb;

static void sb_add(sb *b, const char *s, size_t n)
{
    if (b->oom) return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap < b->n + n + 1) cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) { b->oom = 1; return; }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

static void sb_puts(sb *b, const char *s) { sb_add(b, s, strlen(s)); }

static void sb_printf(sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sb *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (n < 0) { b->oom = 1; return; }
    sb_add(b, s, (size_t)n);
    free(s);
}

/* ------------------------------------------------------------- tokens */

static int is(const tx *x, int k, const char *w) { return tx_is(x, k, w); }
static int is_ident(const tx *x, int k) { return k >= 0 && k < x->nt && x->t[k].kind == T_IDENT; }
static int tok_eq(const tx *x, int a, int b)
{
    size_t la = x->t[a].e - x->t[a].s, lb = x->t[b].e - x->t[b].s;
    return la == lb && memcmp(x->src + x->t[a].s, x->src + x->t[b].s, la) == 0;
}
static int tok_starts(const tx *x, int k, const char *pre)
{
    size_t l = strlen(pre);
    return k >= 0 && k < x->nt && x->t[k].e - x->t[k].s >= l && memcmp(x->src + x->t[k].s, pre, l) == 0;
}

/* The index of the bracket closing the one at k, or -1. */
static int close_of(const tx *x, int k)
{
    if (!is(x, k, "(") && !is(x, k, "[") && !is(x, k, "{")) return -1;
    int d = 0;
    for (int j = k; j < x->nt; j++) {
        if (is(x, j, "(") || is(x, j, "[") || is(x, j, "{")) d++;
        else if (is(x, j, ")") || is(x, j, "]") || is(x, j, "}")) {
            if (--d == 0) return j;
        }
    }
    return -1;
}

/* The end (one past) of the statement that begins at k, or -1. */
static int stmt_end(const tx *x, int k, int lim)
{
    if (k >= lim) return -1;
    if (x->t[k].kind == T_PP) return k + 1;
    if (is(x, k, "{")) {
        int c = close_of(x, k);
        return c < 0 || c >= lim ? -1 : c + 1;
    }
    if (is(x, k, "if") || is(x, k, "for") || is(x, k, "while") || is(x, k, "switch")) {
        int c = is(x, k + 1, "(") ? close_of(x, k + 1) : -1;
        if (c < 0) return -1;
        int e = stmt_end(x, c + 1, lim);
        if (e > 0 && is(x, k, "if") && e < lim && is(x, e, "else")) e = stmt_end(x, e + 1, lim);
        return e;
    }
    if (is(x, k, "do")) {
        int e = stmt_end(x, k + 1, lim);
        if (e < 0 || !is(x, e, "while") || !is(x, e + 1, "(")) return -1;
        int c = close_of(x, e + 1);
        return c < 0 || !is(x, c + 1, ";") ? -1 : c + 2;
    }
    for (int j = k; j < lim; j++) {
        if (is(x, j, "(") || is(x, j, "[") || is(x, j, "{")) {
            j = close_of(x, j);
            if (j < 0 || j >= lim) return -1;
        } else if (is(x, j, ";")) {
            return j + 1;
        }
    }
    return -1;
}

/* ------------------------------------------------------ what may run so */

/* names that need the threads' own interleaving, or that this pass cannot
 * see through */
static const char *const blocked_words[] = {
    "__syncwarp", "__activemask", "__nanosleep", "__threadfence", "__threadfence_block", "__threadfence_system",
    "atomicCAS", "atomicCAS_block", "atomicCAS_system", "atomicExch", "atomicExch_block", "atomicExch_system",
    "volatile", "asm", "__asm__", "__asm", "cooperative_groups", "cg", "this_thread_block", "this_grid",
    "tiled_partition", "coalesced_threads", "thread_block", "thread_block_tile", "grid_group", "wmma", "nvcuda",
    "cuda", "memcpy_async", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or", "clock", "clock64",
    "__trap", "goto", "thread_local", "extern", "setjmp", "longjmp", "throw", "try",
    "co_await", "co_yield", "co_return", "this", NULL};
static const char *const blocked_prefixes[] = {"__shfl", "__ballot", "__any", "__all", "__match", "__reduce_",
                                               "__pipeline", "__cluster", "__uni", NULL};

/* functions a kernel may call (math, intrinsics, atomics that do not wait) */
static const char *const free_calls[] = {
    "sqrt", "sqrtf", "rsqrt", "rsqrtf", "cbrt", "cbrtf", "rcbrt", "rcbrtf", "exp", "expf", "exp2", "exp2f",
    "exp10", "exp10f", "expm1", "expm1f", "log", "logf", "log2", "log2f", "log10", "log10f", "log1p", "log1pf",
    "pow", "powf", "sin", "sinf", "cos", "cosf", "tan", "tanf", "sincos", "sincosf", "sinpi", "sinpif", "cospi",
    "cospif", "sincospi", "sincospif", "asin", "asinf", "acos", "acosf", "atan", "atanf", "atan2", "atan2f",
    "sinh", "sinhf", "cosh", "coshf", "tanh", "tanhf", "asinh", "asinhf", "acosh", "acoshf", "atanh", "atanhf",
    "fabs", "fabsf", "abs", "labs", "llabs", "fmin", "fminf", "fmax", "fmaxf", "min", "max", "umin", "umax",
    "llmin", "llmax", "ullmin", "ullmax", "floor", "floorf", "ceil", "ceilf", "round", "roundf", "trunc",
    "truncf", "rint", "rintf", "nearbyint", "nearbyintf", "lrint", "lrintf", "llrint", "llrintf", "lround",
    "lroundf", "llround", "llroundf", "fmod", "fmodf", "remainder", "remainderf", "modf", "modff", "frexp",
    "frexpf", "ldexp", "ldexpf", "scalbn", "scalbnf", "fma", "fmaf", "fdim", "fdimf", "erf", "erff", "erfc",
    "erfcf", "erfinv", "erfinvf", "hypot", "hypotf", "norm3d", "norm3df", "rhypot", "rhypotf", "isnan", "isinf",
    "isfinite", "signbit", "copysign", "copysignf", "nan", "nanf", "nextafter", "nextafterf", "tgamma", "lgamma",
    "tgammaf", "lgammaf", "saturate", "fdividef", "atomicAdd", "atomicSub", "atomicMin", "atomicMax", "atomicInc",
    "atomicDec", "atomicAnd", "atomicOr", "atomicXor", "atomicAdd_block", "atomicAdd_system", "atomicMin_block",
    "atomicMax_block", "atomicAnd_block", "atomicOr_block", "atomicXor_block", "atomicSub_block", "printf",
    "assert", "sizeof", "alignof", "decltype", "int", "unsigned", "float", "double", "char", "short", "long",
    "bool", "size_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
    "static_cast", "reinterpret_cast", "const_cast", "dim3", "sim_printf", "sim_dev_memcpy", "sim_dev_memset",
    "sim_addr", "if", "for", "while", "switch", "return", NULL};

static int blocked(const tx *x, int k)
{
    if (!is_ident(x, k)) return 0;
    if (tx_is_word_of(x, k, blocked_words)) return 1;
    for (int i = 0; blocked_prefixes[i]; i++)
        if (tok_starts(x, k, blocked_prefixes[i])) return 1;
    /* a group's or a barrier object's member: tile.shfl_down(...), bar.wait() */
    if (is(x, k - 1, ".") || is(x, k - 1, "->")) {
        static const char *const members[] = {"sync", "wait", "arrive", "arrive_and_wait", "shfl", "shfl_down",
                                              "shfl_up", "shfl_xor", "ballot", "any", "all", "match_any",
                                              "match_all", NULL};
        if (tx_is_word_of(x, k, members)) return 1;
    }
    return 0;
}

/* ------------------------------------------------------------- the file */

#define LN_MAX_FNS 256
#define LN_MAX 256

typedef struct devfn {
    int name, body, end; /* tokens: the name, its body's `{` and `}` */
    int state;           /* 0 unknown, 1 being checked, 2 ok, 3 not */
} devfn;

typedef struct lf {
    tx x;
    char file[1024];     /* the #line name, quoted as the text has it */
    devfn fns[LN_MAX_FNS];
    int nfns;
    int vars[LN_MAX_FNS]; /* file-scope __device__ variables: not the same for every thread */
    int nvars;
    char macros[LN_MAX_FNS][64]; /* #define names whose text hides a barrier or what needs the fibers */
    int nmacros;
    int builtin;         /* gpulab's own kernels (kernels/kern.h's macros), not a student's */
} lf;

/* kernels/kern.h's macros a built-in kernel may use in its lane form:
 * shared memory (run once, as the first pass's SIM_SHARED) and the trace,
 * which is off wherever the lane form runs */
static const char *const kern_shared[] = {"SHARED", "SHARED2", "DYNAMIC_SHARED", NULL};
static const char *const kern_calls[] = {"TRACE_READ", "TRACE_WRITE", "TRACE_ADD", "TRACE_CSWAP", "TRACE_ATOMIC",
                                         "TRACE_MARK", "LAB_TRACING", NULL};

static int blocked_macro(const lf *f, int k)
{
    for (int i = 0; i < f->nmacros; i++) {
        size_t l = strlen(f->macros[i]);
        if (f->x.t[k].e - f->x.t[k].s == l && memcmp(f->x.src + f->x.t[k].s, f->macros[i], l) == 0) return 1;
    }
    return 0;
}

static int fn_ok(lf *f, int i);

/* A call at k (a name followed by `(`) this pass may run in lanes. */
static int call_ok(lf *f, int k)
{
    const tx *x = &f->x;
    if (is(x, k - 1, ".") || is(x, k - 1, "->")) return !blocked(x, k);
    if (is(x, k - 1, "::")) {
        /* gpulab_sim's own (the first pass's rewrites) and std's math */
        if (is(x, k - 2, "gpulab_sim")) return tx_is_word_of(x, k, free_calls);
        if (is(x, k - 2, "std")) return tx_is_word_of(x, k, free_calls);
        return 0;
    }
    /* the file's own device functions first: one may be named like a
     * math function */
    int any = 0;
    for (int i = 0; i < f->nfns; i++)
        if (tok_eq(x, f->fns[i].name, k)) {
            any = 1;
            if (!fn_ok(f, i)) return 0;
        }
    if (any) return 1;
    if (tx_is_word_of(x, k, free_calls)) return 1;
    if (f->builtin && (tx_is_word_of(x, k, kern_shared) || tx_is_word_of(x, k, kern_calls))) return 1;
    /* the first pass's shared-memory declarations */
    if (tok_starts(x, k, "SIM_SHARED") || tok_starts(x, k, "SIM_DYNAMIC_SHARED")) return 1;
    if (tok_starts(x, k, "__") && !blocked(x, k)) return 1; /* intrinsics: __fdividef, __ldg, __float2int_rn ... */
    if (tok_starts(x, k, "make_")) return 1;
    return 0;
}

/* tokens [a, b) hold nothing that needs the fibers */
static int range_ok(lf *f, int a, int b)
{
    const tx *x = &f->x;
    for (int k = a; k < b; k++) {
        if (x->t[k].kind == T_PP) {
            if (!tok_starts(x, k, "#pragma") && !tok_starts(x, k, "# pragma")) return 0;
            continue;
        }
        if (blocked(x, k) || (is_ident(x, k) && blocked_macro(f, k))) return 0;
        if (is_ident(x, k) && is(x, k + 1, "(") && !call_ok(f, k)) return 0;
        /* a lambda: its body is not looked into */
        if (is(x, k, "[") && (is(x, k + 1, "]") || is(x, k + 1, "&") || is(x, k + 1, "=")) &&
            !is_ident(x, k - 1) && !is(x, k - 1, "]") && !is(x, k - 1, ")"))
            return 0;
    }
    return 1;
}

static int fn_ok(lf *f, int i)
{
    devfn *d = &f->fns[i];
    if (d->state == 1) return 1; /* recursion: the rest of the body decides */
    if (d->state) return d->state == 2;
    d->state = 1;
    int ok = range_ok(f, d->body, d->end + 1);
    /* a reference parameter would change the caller's variable behind the
     * pass's back (a const one cannot) */
    for (int k = d->name + 1; ok && k < d->body; k++)
        if (is(&f->x, k, "&") && !is(&f->x, k - 1, "&") && !is(&f->x, k + 1, "&")) {
            int c = 0;
            for (int j = k - 1; j > d->name && !is(&f->x, j, ",") && !is(&f->x, j, "("); j--) c |= is(&f->x, j, "const");
            if (!c) ok = 0;
        }
    /* a device function with a barrier waits in its caller's lanes; one
     * that reads threadIdx keeps it in a register (shim.h), which a loop
     * over the threads cannot have */
    for (int k = d->body; ok && k <= d->end; k++)
        if (is(&f->x, k, "__syncthreads") || is(&f->x, k, "threadIdx")) ok = 0;
    d->state = ok ? 2 : 3;
    return ok;
}

/* ---------------------------------------------------------- a kernel's regions */

enum { EV_STMT, EV_BAR, EV_LOOP, EV_END };

typedef struct ev {
    int kind;
    int s, e;       /* EV_STMT: its tokens; EV_BAR: the __syncthreads token; EV_LOOP: `for` .. its `{` */
    int region;     /* EV_STMT: the region it belongs to */
    int loop;       /* the innermost barrier loop around it (an EV_LOOP's index), -1 none */
    int block;      /* EV_STMT: a shared-memory declaration (the block's, run once) */
    int uniform;    /* EV_STMT: declares values the same for every thread (run once) */
    int tdef;       /* EV_STMT: a typedef or alias of the kernel's body (made once, first) */
} ev;

/* made once for the block, not in a region's loop */
static int once(const ev *E) { return E->block || E->uniform || E->tdef; }

typedef struct decl {
    int name;       /* token */
    int stmt;       /* the EV_STMT that declares it */
    int spec_s, spec_e, dcl_s, dcl_e; /* its type's tokens and its declarator's (up to its initializer) */
    int hoist;      /* used in a later region: kept per thread */
    int uniform;    /* the same for every thread: one variable of the block's */
    int init_s, init_e; /* its initializer's tokens (after `=`), or empty */
    int array, plain_ok;
} decl;

typedef struct kern {
    lf *f;
    int head, name, lp, rp, lb, rb; /* the declaration's first token, name, parameters, body */
    ev evs[LN_MAX * 4];
    int nev;
    int nregions;
    decl decls[LN_MAX];
    int ndecls;
    int params[64];
    int nparams;
    int fail;
} kern;

static void k_fail(kern *K) { K->fail = 1; }

static int k_ev(kern *K, int kind, int s, int e, int region, int loop)
{
    if (K->nev >= (int)(sizeof K->evs / sizeof K->evs[0])) {
        k_fail(K);
        return -1;
    }
    K->evs[K->nev] = (ev){kind, s, e, region, loop, 0, 0, 0};
    return K->nev++;
}

static int contains_barrier(const tx *x, int a, int b)
{
    for (int k = a; k < b; k++)
        if (is(x, k, "__syncthreads")) return 1;
    return 0;
}

/* the statements of [a, b), a kernel body's or a barrier loop's */
static void k_seq(kern *K, int a, int b, int loop, int *region)
{
    const tx *x = &K->f->x;
    for (int k = a; k < b && !K->fail;) {
        int e = stmt_end(x, k, b);
        if (e < 0) { k_fail(K); return; }
        if (!contains_barrier(x, k, e)) {
            k_ev(K, EV_STMT, k, e, *region, loop);
        } else if (is(x, k, "__syncthreads") && is(x, k + 1, "(") && is(x, k + 2, ")") && is(x, k + 3, ";") &&
                   e == k + 4) {
            k_ev(K, EV_BAR, k, e, *region, loop);
            ++*region;
        } else if (is(x, k, "for") && is(x, k + 1, "(")) {
            int rp = close_of(x, k + 1);
            if (rp < 0 || !is(x, rp + 1, "{") || close_of(x, rp + 1) != e - 1) { k_fail(K); return; }
            int me = k_ev(K, EV_LOOP, k, rp + 2, *region, loop);
            ++*region;
            k_seq(K, rp + 2, e - 1, me, region);
            k_ev(K, EV_END, e - 1, e, *region, loop);
            ++*region;
        } else {
            k_fail(K); /* a barrier inside an if, a while, a block... */
            return;
        }
        k = e;
    }
}

/* ------------------------------------------------------------ declarations */

static const char *const not_spec_words[] = {"return", "else", "case", "default", "goto", "new", "delete",
                                             "throw", "break", "continue", "do", "if", "for", "while",
                                             "switch", "sizeof", NULL};

/* A declaration statement [s, e): its names into K->decls. 1 a declaration
 * (understood), 0 not one, -1 one this pass cannot take apart. */
static int k_decl(kern *K, int si, int s, int e)
{
    const tx *x = &K->f->x;
    if (!is_ident(x, s) || tx_is_word_of(x, s, not_spec_words)) return 0;
    /* the first declarator ends at the first `=`, `,`, `[`, `{`, `(` or `;` of depth 0 */
    int k = s, depth = 0;
    for (; k < e; k++) {
        if (is(x, k, "<")) depth++; /* template arguments in the type: best effort, checked below */
        else if (is(x, k, ">") && depth > 0) depth--;
        else if (is(x, k, ">>") && depth > 0) depth = depth > 1 ? depth - 2 : 0;
        if (depth) continue;
        if (is(x, k, "(") && (is(x, k - 1, "decltype") || is(x, k - 1, "__typeof__"))) {
            k = close_of(x, k);
            if (k < 0) return -1;
            continue;
        }
        if (is(x, k, "=") || is(x, k, ",") || is(x, k, "[") || is(x, k, "{") || is(x, k, "(") || is(x, k, ";"))
            break;
    }
    if (k >= e || k == s || !is_ident(x, k - 1)) return 0;
    int name = k - 1, ds = name;
    while (ds - 1 > s && (is(x, ds - 1, "*") || is(x, ds - 1, "&") || is(x, ds - 1, "const") ||
                          is(x, ds - 1, "__restrict__")))
        ds--;
    int spec_e = ds;
    if (spec_e <= s) return 0;
    /* the type: names, ::, template arguments; an expression is not one */
    for (int j = s; j < spec_e; j++) {
        if (is_ident(x, j) || is(x, j, "::")) continue;
        if (is(x, j, "<")) {
            int d = 0;
            for (; j < spec_e; j++) {
                if (is(x, j, "<")) d++;
                else if (is(x, j, ">") && --d == 0) break;
                else if (is(x, j, ">>") && (d -= 2) <= 0) break;
            }
            continue;
        }
        if (is(x, j, "(") && (is(x, j - 1, "decltype") || is(x, j - 1, "__typeof__"))) {
            j = close_of(x, j);
            continue;
        }
        return 0;
    }
    /* two names in a row, or a name and a qualified name: a type then */
    if (spec_e - s == 1 && !is_ident(x, s)) return 0;
    /* every declarator of the statement */
    for (int d0 = ds; d0 < e;) {
        int n = d0;
        while (n < e && (is(x, n, "*") || is(x, n, "&") || is(x, n, "const") || is(x, n, "__restrict__"))) n++;
        if (!is_ident(x, n)) return -1;
        int j = n + 1, array = 0;
        while (is(x, j, "[")) {
            array = 1;
            j = close_of(x, j);
            if (j < 0) return -1;
            j++;
        }
        int dcl_e = j, ctor = 0;
        if (is(x, j, "(")) ctor = 1;
        /* to the declarator's end: a `,` or `;` of depth 0 */
        for (; j < e; j++) {
            if (is(x, j, "(") || is(x, j, "[") || is(x, j, "{")) {
                j = close_of(x, j);
                if (j < 0) return -1;
            } else if (is(x, j, ",") || is(x, j, ";")) {
                break;
            }
        }
        if (K->ndecls >= LN_MAX) return -1;
        decl *D = &K->decls[K->ndecls++];
        memset(D, 0, sizeof *D);
        D->name = n;
        D->stmt = si;
        D->spec_s = s;
        D->spec_e = spec_e;
        D->dcl_s = d0;
        D->dcl_e = dcl_e;
        D->init_s = is(x, dcl_e, "=") ? dcl_e + 1 : dcl_e;
        D->init_e = j;
        D->array = array;
        /* kept across a barrier only if its type can be written again:
         * no auto, no reference, no constructor call */
        D->plain_ok = !ctor;
        for (int q = s; q < spec_e; q++)
            if (is(x, q, "auto") || is(x, q, "constexpr") || is(x, q, "register")) D->plain_ok = 0;
        for (int q = d0; q < n; q++)
            if (is(x, q, "&")) D->plain_ok = 0;
        d0 = j + 1;
    }
    return 1;
}

/* the first pass's shared-memory declaration: `using sim_T_x = T;`,
 * SIM_SHARED...(...); or `static constexpr size_t sim_sizeof_x = ...;` */
static int block_stmt(const lf *f, int s)
{
    const tx *x = &f->x;
    if (f->builtin && tx_is_word_of(x, s, kern_shared) && is(x, s + 1, "(")) return 1;
    if (is(x, s, "using") && tok_starts(x, s + 1, "sim_T_")) return 1;
    if (tok_starts(x, s, "SIM_SHARED") || tok_starts(x, s, "SIM_DYNAMIC_SHARED")) return 1;
    if (is(x, s, "static") && is(x, s + 1, "constexpr") && tok_starts(x, s + 3, "sim_sizeof_")) return 1;
    return 0;
}

/* is name k used in [a, b) as a variable (not a member) */
static int uses(const tx *x, int name, int a, int b)
{
    for (int k = a; k < b; k++)
        if (tok_eq(x, k, name) && !is(x, k - 1, ".") && !is(x, k - 1, "->") && !is(x, k - 1, "::")) return 1;
    return 0;
}

/* the operator that begins at token k: the tokenizer keeps only :: -> <<
 * >> whole, so `+=`, `++`, `==`, `<<=` are joined here from adjacent tokens */
static void op_at(const tx *x, int k, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    for (int j = k; j < x->nt && x->t[j].kind == T_PUNCT && n + 2 < len; j++) {
        if (j > k && x->t[j].s != x->t[j - 1].e) break;
        size_t l = x->t[j].e - x->t[j].s;
        if (n + l + 1 > len || n + l > 3) break;
        memcpy(buf + n, x->src + x->t[j].s, l);
        n += l;
        buf[n] = 0;
        if (x->src[x->t[j].s] == ';' || x->src[x->t[j].s] == ')' || x->src[x->t[j].s] == '(') break;
    }
}

/* is name k written in [a, b): assigned, incremented, its address taken */
static int written(const tx *x, int name, int a, int b)
{
    static const char *const assign[] = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "++", "--",
                                         NULL};
    for (int k = a; k < b; k++) {
        if (!tok_eq(x, k, name) || is(x, k - 1, ".") || is(x, k - 1, "->") || is(x, k - 1, "::")) continue;
        /* a member of a struct variable: name.m, name.m[i], name.m.n */
        int after = k + 1;
        while (is(x, after, ".") && is_ident(x, after + 1)) {
            after += 2;
            if (is(x, after, "(")) return 1; /* a member function may change it */
            while (is(x, after, "[")) {
                int c = close_of(x, after);
                if (c < 0) return 1;
                after = c + 1;
            }
        }
        char op[8];
        op_at(x, after, op, sizeof op);
        for (int i = 0; assign[i]; i++) {
            size_t l = strlen(assign[i]);
            /* `=` but not `==`; `+=` but not `+==`... */
            if (strncmp(op, assign[i], l) == 0 && (op[l] != '=' || assign[i][l - 1] == '+' || assign[i][l - 1] == '-'))
                return 1;
        }
        if (k >= 2 && is(x, k - 1, "+") && is(x, k - 2, "+") && x->t[k - 2].e == x->t[k - 1].s) return 1;
        if (k >= 2 && is(x, k - 1, "-") && is(x, k - 2, "-") && x->t[k - 2].e == x->t[k - 1].s) return 1;
        /* &name (not a && b, not a & b): its address, through which it may change */
        if (is(x, k - 1, "&") && !is(x, k + 1, "[") && !is(x, k + 1, ".") && !is(x, k + 1, "->") &&
            !is_ident(x, k - 2) && !is(x, k - 2, ")") && !is(x, k - 2, "]") && !is(x, k - 2, "&"))
            return 1;
    }
    return 0;
}

/* tokens [a, b), an initializer, hold a value the same for every thread
 * of the block, read without touching memory: literals, blockIdx, blockDim,
 * gridDim, parameters the kernel never changes, values already found so,
 * names the kernel does not declare (constants, template parameters), and
 * pure arithmetic */
static int uniform_expr(kern *K, int a, int b)
{
    const tx *x = &K->f->x;
    static const char *const impure[] = {"printf", "assert", "sim_printf", "sim_dev_memcpy", "sim_dev_memset",
                                         "sim_addr", NULL};
    if (a >= b) return 0;
    for (int k = a; k < b; k++) {
        if (x->t[k].kind == T_PUNCT) {
            if (is(x, k, "[") || is(x, k, "->") || is(x, k, "{")) return 0;
            char op[8];
            op_at(x, k, op, sizeof op);
            if (strcmp(op, "++") == 0 || strcmp(op, "--") == 0 || (op[0] == '=' && op[1] != '=')) return 0;
            /* unary * and &: a read of memory, an address */
            if ((is(x, k, "*") || is(x, k, "&")) &&
                (k == a || !(is_ident(x, k - 1) || is(x, k - 1, ")") || x->t[k - 1].kind == T_NUM)))
                return 0;
            continue;
        }
        if (!is_ident(x, k) || is(x, k - 1, ".") || is(x, k - 1, "::")) continue;
        if (is(x, k, "threadIdx") || blocked(x, k) || tx_is_word_of(x, k, impure) || tok_starts(x, k, "atomic")) return 0;
        if (is(x, k + 1, "(") && !tx_is_word_of(x, k, free_calls)) return 0;
        for (int d = 0; d < K->ndecls; d++)
            if (tok_eq(x, K->decls[d].name, k) && !K->decls[d].uniform) return 0;
        for (int v = 0; v < K->f->nvars; v++)
            if (tok_eq(x, K->f->vars[v], k)) return 0;
        for (int p = 0; p < K->nparams; p++)
            if (tok_eq(x, K->params[p], k) && written(x, k, K->lb, K->rb)) return 0;
    }
    return 1;
}

/* does the kernel take the address of variable D (a pointer to it would
 * outlive the region whose copy it points into): &name, or an array's
 * name not indexed */
static int escapes(const kern *K, const decl *D)
{
    const tx *x = &K->f->x;
    for (int k = K->lb; k < K->rb; k++) {
        if (!tok_eq(x, k, D->name) || is(x, k - 1, ".") || is(x, k - 1, "->") || is(x, k - 1, "::")) continue;
        if (is(x, k - 1, "&") && !is_ident(x, k - 2) && !is(x, k - 2, ")") && !is(x, k - 2, "]") &&
            !is(x, k - 2, "&") && x->t[k - 2].kind != T_NUM)
            return 1;
        if (D->array && k != D->name && !is(x, k + 1, "[")) return 1;
    }
    return 0;
}

/* A barrier loop's header (for (init; cond; step)) is the same for every
 * thread: its names are its own variables, the kernel's parameters that
 * the kernel never changes, the enclosing loops' variables, blockDim,
 * gridDim, blockIdx, warpSize, and names the kernel does not declare. */
static int header_uniform(kern *K, int li)
{
    const tx *x = &K->f->x;
    const ev *L = &K->evs[li];
    int lp = L->s + 1, rp = close_of(x, lp);
    for (int k = lp + 1; k < rp; k++) {
        if (!is_ident(x, k) || is(x, k - 1, ".") || is(x, k - 1, "->") || is(x, k - 1, "::")) continue;
        if (is(x, k, "threadIdx") || is(x, k, "__syncthreads") || blocked(x, k)) return 0;
        if (is(x, k + 1, "(") && !tx_is_word_of(x, k, free_calls)) return 0;
        /* a local variable of the kernel (not this loop's own) */
        for (int d = 0; d < K->ndecls; d++)
            if (!K->decls[d].uniform && tok_eq(x, K->decls[d].name, k)) return 0;
        for (int v = 0; v < K->f->nvars; v++)
            if (tok_eq(x, K->f->vars[v], k)) return 0;
    }
    /* its own variables: declared in the init, changed only by the step */
    int semi = -1;
    for (int k = lp + 1; k < rp; k++)
        if (is(x, k, ";")) { semi = k; break; }
    if (semi < 0) return 0;
    int body_s = L->e, body_e = -1;
    for (int j = li + 1; j < K->nev; j++)
        if (K->evs[j].kind == EV_END && K->evs[j].loop == L->loop) {
            /* the matching end: the first EV_END at this loop's level after it */
            body_e = K->evs[j].s;
            break;
        }
    if (body_e < 0) return 0;
    for (int k = lp + 1; k < semi; k++)
        if (is_ident(x, k) && (is(x, k + 1, "=") || is(x, k + 1, ",") || is(x, k + 1, ";")) &&
            written(x, k, body_s, body_e))
            return 0;
    return 1;
}

/* ----------------------------------------------------------- the kernel */

static void copy_toks(sb *o, lf *f, int a, int b)
{
    if (a >= b) return;
    const tx *x = &f->x;
    sb_printf(o, "\n#line %d %s\n", x->t[a].line - 1, f->file);
    /* from the token's own column: the same column in messages */
    size_t bol = x->t[a].s;
    while (bol > 0 && x->src[bol - 1] != '\n') bol--;
    for (size_t c = bol; c < x->t[a].s; c++) sb_puts(o, " ");
    sb_add(o, x->src + x->t[a].s, x->t[b - 1].e - x->t[a].s);
}

/* a statement of region r: the last region's `return` (the thread ends)
 * goes on with the next thread */
static void copy_region_stmt(sb *o, lf *f, int a, int b, int region)
{
    const tx *x = &f->x;
    int from = a;
    for (int k = a; k < b; k++) {
        if (!is(x, k, "return")) continue;
        copy_toks(o, f, from, k);
        sb_printf(o, "\n#line %d %s\n", x->t[k].line - 1, f->file);
        sb_printf(o, "goto sim_lane_next_%d_", region);
        from = k + 1;
    }
    copy_toks(o, f, from, b);
}

/* is a variable declared in barrier loop `decl_loop` (-1: the kernel's
 * body) in scope in a region inside barrier loop `loop`: that loop or one
 * enclosing it is decl_loop */
static int in_scope(const kern *K, int decl_loop, int loop)
{
    for (int l = loop;; l = K->evs[l].loop) {
        if (l == decl_loop) return 1;
        if (l < 0) return 0;
    }
}

/* D, a variable of an earlier region, is in scope in the region of events
 * [from, to) (at loop depth `loop`) and used there: the region takes it in */
static int taken_in(kern *K, const decl *D, int region, int loop, int from, int to)
{
    const ev *S = &K->evs[D->stmt];
    if (!D->hoist || S->region >= region || !in_scope(K, S->loop, loop)) return 0;
    for (int i = from; i < to; i++)
        if (K->evs[i].kind == EV_STMT && uses(&K->f->x, D->name, K->evs[i].s, K->evs[i].e)) return 1;
    return 0;
}

/* region r's statements as a loop over the threads */
static void emit_region(kern *K, sb *o, int from, int to)
{
    lf *f = K->f;
    const tx *x = &f->x;
    int any = 0, region = -1, loop = -2;
    for (int i = from; i < to; i++)
        if (K->evs[i].kind == EV_STMT && !once(&K->evs[i]) && x->t[K->evs[i].s].kind != T_PP) {
            any = 1;
            region = K->evs[i].region;
            loop = K->evs[i].loop;
        }
    if (!any) return;
    sb_puts(o, "\nfor (unsigned sim_li_ = 0; sim_li_ < sim_ln_; sim_li_++) { ::gpulab_sim::sim_lane_enter(sim_li_); {");
    /* the variables of earlier regions this one uses, in scope here */
    for (int d = 0; d < K->ndecls; d++) {
        decl *D = &K->decls[d];
        if (!taken_in(K, D, region, loop, from, to)) continue;
        char nm[128];
        tx_text_of(x, D->name, D->name + 1, nm, sizeof nm);
        if (D->array) /* a copy of its own, that nothing else in the block may alias */
            sb_printf(o,
                      " auto sim_LB_%s = ::gpulab_sim::sim_lane_get_array<sim_LT_%s>(&sim_LV_%s[sim_li_]);"
                      " sim_LT_%s &%s = sim_LB_%s.v();",
                      nm, nm, nm, nm, nm, nm);
        else
            sb_printf(o, " sim_LT_%s %s = ::gpulab_sim::sim_lane_get(&sim_LV_%s[sim_li_]);", nm, nm, nm);
    }
    for (int i = from; i < to; i++)
        if (K->evs[i].kind == EV_STMT && !once(&K->evs[i]) && x->t[K->evs[i].s].kind != T_PP)
            copy_region_stmt(o, f, K->evs[i].s, K->evs[i].e, region);
    /* the variables kept: this region's own and the earlier ones it used */
    sb_puts(o, "\n");
    for (int d = 0; d < K->ndecls; d++) {
        decl *D = &K->decls[d];
        if (!D->hoist || D->array) continue;
        const ev *S = &K->evs[D->stmt];
        int mine = S->region == region;
        int used = 0;
        if (!mine && S->region < region)
            for (int i = from; i < to && !used; i++)
                if (K->evs[i].kind == EV_STMT) used = written(x, D->name, K->evs[i].s, K->evs[i].e);
        if (!mine && !used) continue;
        if (!in_scope(K, S->loop, loop)) continue;
        char nm[128];
        tx_text_of(x, D->name, D->name + 1, nm, sizeof nm);
        sb_printf(o, " ::gpulab_sim::sim_lane_keep(&sim_LV_%s[sim_li_], %s);", nm, nm);
    }
    for (int d = 0; d < K->ndecls; d++) {
        decl *D = &K->decls[d];
        if (!D->hoist || !D->array) continue;
        char nm[128];
        tx_text_of(x, D->name, D->name + 1, nm, sizeof nm);
        if (K->evs[D->stmt].region == region)
            sb_printf(o, " ::gpulab_sim::sim_lane_keep_array(&sim_LV_%s[sim_li_], %s);", nm, nm);
        /* an earlier region's array this one took in: its copy goes back (an
         * element written through an index is not told from one read) */
        else if (taken_in(K, D, region, loop, from, to))
            sb_printf(o, " ::gpulab_sim::sim_lane_keep(&sim_LV_%s[sim_li_], sim_LB_%s);", nm, nm);
    }
    /* where a `return` of the region goes (copy_region_stmt) */
    int ret = 0;
    for (int i = from; i < to; i++)
        if (K->evs[i].kind == EV_STMT && !once(&K->evs[i]))
            for (int k = K->evs[i].s; k < K->evs[i].e; k++) ret |= is(x, k, "return");
    if (ret) sb_printf(o, " } sim_lane_next_%d_: ; }", region);
    else sb_puts(o, " } }");
}

/* a `break` or `continue` of statement [a, b) that is not inside a loop or
 * switch of its own: it would leave the loop over the threads */
static int stray_jump(const tx *x, int a, int b)
{
    for (int k = a; k < b; k++) {
        if (!is(x, k, "break") && !is(x, k, "continue")) continue;
        int inside = 0;
        for (int j = a; j < k && !inside; j++)
            if (is(x, j, "for") || is(x, j, "while") || is(x, j, "do") || (is(x, j, "switch") && is(x, k, "break"))) {
                int e = stmt_end(x, j, b);
                inside = e > k;
            }
        if (!inside) return 1;
    }
    return 0;
}

/* a __shared__ array declared inside a loop (as the CUDA samples' matrixMul
 * declares its tiles) is the block's one array all the same: it may be made
 * first, with the others, where its name means nothing else in the kernel
 * outside that loop and its size names none of the loop's variables */
static int shared_in_loop_ok(kern *K, const ev *E)
{
    const tx *x = &K->f->x;
    int name = -1;
    if (tok_starts(x, E->s, "SIM_SHARED") || (K->f->builtin && tx_is_word_of(x, E->s, kern_shared))) {
        for (int k = E->s + 2; k < E->e && name < 0; k++)
            if (is(x, k, ",")) name = k + 1;
        if (name < 0 || !is_ident(x, name)) return 0;
    } else if (!is(x, E->s, "using") && !is(x, E->s, "static")) {
        return 0; /* dynamic shared memory: not taken apart */
    }
    for (int d = 0; d < K->ndecls; d++)
        if (K->evs[K->decls[d].stmt].loop != -1 && uses(x, K->decls[d].name, E->s, E->e)) return 0;
    if (name < 0) return 1; /* its type's and size's names (translate.c), made with it */
    int l = E->loop;
    while (K->evs[l].loop != -1) l = K->evs[l].loop;
    int open = K->evs[l].e - 1, close = is(x, open, "{") ? close_of(x, open) : -1;
    if (close < 0) return 0;
    return !uses(x, name, K->lb + 1, K->evs[l].s) && !uses(x, name, close + 1, K->rb);
}

/* K's lane form into o; 0 when it cannot have one */
static int kernel_lanes(kern *K, sb *o)
{
    lf *f = K->f;
    const tx *x = &f->x;
    if (!contains_barrier(x, K->lb, K->rb)) return 0; /* no barrier: the fibers never switch */
    if (!range_ok(f, K->lb, K->rb)) return 0;
    int region = 0;
    k_seq(K, K->lb + 1, K->rb, -1, &region);
    if (K->fail) return 0;
    K->nregions = region + 1;
    /* the last region (after the last barrier, outside every loop) may return */
    for (int i = 0; i < K->nev; i++) {
        ev *E = &K->evs[i];
        if (E->kind != EV_STMT) continue;
        for (int k = E->s; k < E->e; k++)
            if (is(x, k, "return") && (E->region != region || E->loop != -1)) return 0;
        if (stray_jump(x, E->s, E->e)) return 0;
        /* a static local is one variable for every thread: not a region's */
        for (int k = E->s; k < E->e; k++)
            if (is(x, k, "static") && !block_stmt(f, E->s)) return 0;
        if (block_stmt(f, E->s)) {
            if (E->loop != -1 && !shared_in_loop_ok(K, E)) return 0;
            E->block = 1;
            continue;
        }
        /* a type's name for the whole body: made first, once (a later
         * region names it too) */
        if (is(x, E->s, "typedef") || (is(x, E->s, "using") && is_ident(x, E->s + 1) && is(x, E->s + 2, "="))) {
            if (E->loop != -1) return 0;
            E->tdef = 1;
            continue;
        }
        int r = k_decl(K, i, E->s, E->e);
        if (r < 0) return 0;
        if (r == 0) {
            /* two names in a row outside a nested statement: a declaration
             * not understood */
            if (is(x, E->s, "if") || is(x, E->s, "for") || is(x, E->s, "while") || is(x, E->s, "do") ||
                is(x, E->s, "switch") || is(x, E->s, "{") || x->t[E->s].kind == T_PP)
                continue;
            for (int k = E->s; k + 1 < E->e; k++)
                if (is_ident(x, k) && is_ident(x, k + 1) && !tx_is_word_of(x, k, not_spec_words)) return 0;
        }
    }
    /* a type made first may not name the body's variables (decltype(x)) */
    for (int i = 0; i < K->nev; i++)
        for (int d = 0; K->evs[i].tdef && d < K->ndecls; d++)
            if (uses(x, K->decls[d].name, K->evs[i].s, K->evs[i].e)) return 0;
    /* names declared twice at a region's top level: not taken apart */
    for (int a = 0; a < K->ndecls; a++)
        for (int b = a + 1; b < K->ndecls; b++)
            if (tok_eq(x, K->decls[a].name, K->decls[b].name)) return 0;
    /* parameters are the block's one copy: never changed */
    for (int p = 0; p < K->nparams; p++)
        if (written(x, K->params[p], K->lb, K->rb)) return 0;
    /* declarations outside every loop whose values are the same for every
     * thread and never change: one variable each, made before the regions
     * (a loop's bounds may use them) */
    for (int d = 0; d < K->ndecls;) {
        int si = K->decls[d].stmt, e = d, ok = K->evs[si].loop == -1 && !K->evs[si].block && !K->evs[si].tdef;
        while (e < K->ndecls && K->decls[e].stmt == si) e++;
        for (int q = d; q < e && ok; q++) {
            decl *D = &K->decls[q];
            /* (its own `=` is its initialization) */
            ok = !D->array && D->init_s < D->init_e && uniform_expr(K, D->init_s, D->init_e) &&
                 !written(x, D->name, K->lb, D->name) && !written(x, D->name, D->name + 1, K->rb);
            D->uniform = ok; /* the next declarator may use it */
        }
        for (int q = d; q < e; q++) K->decls[q].uniform = ok;
        K->evs[si].uniform = ok;
        d = e;
    }
    for (int i = 0; i < K->nev; i++)
        if (K->evs[i].kind == EV_LOOP && !header_uniform(K, i)) return 0;
    /* a variable whose address is taken: its pointer may be kept across a
     * barrier while the copy it points to is not */
    for (int d = 0; d < K->ndecls; d++)
        if (!K->decls[d].uniform && escapes(K, &K->decls[d])) return 0;
    /* which variables live across a barrier */
    for (int d = 0; d < K->ndecls; d++) {
        decl *D = &K->decls[d];
        if (D->uniform) continue;
        int reg = K->evs[D->stmt].region;
        for (int i = 0; i < K->nev && !D->hoist; i++) {
            const ev *E = &K->evs[i];
            if (E->region > reg && E->kind == EV_STMT && uses(x, D->name, E->s, E->e)) D->hoist = 1;
            /* a barrier loop's header reading it: not the same for every thread */
            if (E->kind == EV_LOOP && E->region >= reg && uses(x, D->name, E->s, E->e)) return 0;
        }
        if (D->hoist && !D->plain_ok) return 0;
    }
    /* the header, renamed */
    for (int k = K->head; k < K->lb; k++) {
        if (k == K->name) {
            char nm[128];
            tx_text_of(x, k, k + 1, nm, sizeof nm);
            sb_printf(o, " %s__sim_lanes", nm);
        } else {
            sb_puts(o, " ");
            sb_add(o, x->src + x->t[k].s, x->t[k].e - x->t[k].s);
        }
    }
    /* threadIdx changes from thread to thread inside this function: read
     * where used (shim.h keeps it in a register in a fiber's kernel) */
    sb_puts(o, " {\n#pragma push_macro(\"threadIdx\")\n#undef threadIdx\n#define threadIdx (::gpulab_sim::sim_lane_tid())\n");
    /* the body's own type names, first */
    for (int i = 0; i < K->nev; i++)
        if (K->evs[i].kind == EV_STMT && K->evs[i].tdef) copy_toks(o, f, K->evs[i].s, K->evs[i].e);
    /* the block's shared memory and the values every thread computes
     * alike, made once in the order written (a size may be a constant) */
    for (int i = 0; i < K->nev; i++)
        if (K->evs[i].kind == EV_STMT && (K->evs[i].block || K->evs[i].uniform))
            copy_toks(o, f, K->evs[i].s, K->evs[i].e);
    sb_puts(o, "\n::gpulab_sim::sim_lanes sim_L_; const unsigned sim_ln_ = sim_L_.n;");
    /* the kept variables' types and per-thread copies */
    for (int d = 0; d < K->ndecls; d++) {
        decl *D = &K->decls[d];
        if (!D->hoist) continue;
        char nm[128];
        tx_text_of(x, D->name, D->name + 1, nm, sizeof nm);
        sb_puts(o, " typedef");
        for (int k = D->spec_s; k < D->spec_e; k++) {
            sb_puts(o, " ");
            sb_add(o, x->src + x->t[k].s, x->t[k].e - x->t[k].s);
        }
        for (int k = D->dcl_s; k < D->dcl_e; k++) {
            sb_puts(o, " ");
            if (k == D->name) sb_printf(o, "sim_LT_%s", nm);
            else sb_add(o, x->src + x->t[k].s, x->t[k].e - x->t[k].s);
        }
        sb_printf(o, "; typename std::remove_cv<sim_LT_%s>::type *sim_LV_%s = (typename std::remove_cv<sim_LT_%s>::type *)"
                     "sim_L_.slot(sizeof(sim_LT_%s), alignof(sim_LT_%s));",
                  nm, nm, nm, nm, nm);
    }
    /* the regions, barriers and loops */
    int from = 0;
    for (int i = 0; i < K->nev; i++) {
        const ev *E = &K->evs[i];
        if (E->kind == EV_STMT) continue;
        emit_region(K, o, from, i);
        from = i + 1;
        if (E->kind == EV_BAR) {
            sb_printf(o, "\n#line %d %s\nsim_L_.barrier(__LINE__, __FILE__);", x->t[E->s].line - 1, f->file);
        } else if (E->kind == EV_LOOP) {
            copy_toks(o, f, E->s, E->e);
        } else {
            sb_puts(o, "\n}");
        }
    }
    emit_region(K, o, from, K->nev);
    /* every path ends here (a `return` goes to its region's next thread) */
    sb_puts(o, "\nsim_L_.end();\n#pragma pop_macro(\"threadIdx\")\n}");
    return 1;
}

/* ---------------------------------------------------------------- pass */

typedef struct ins {
    size_t at, end;  /* replace [at, end) */
    char *text;
} ins;

static int ins_cmp(const void *a, const void *b)
{
    const ins *x = a, *y = b;
    return x->at < y->at ? -1 : x->at > y->at;
}

/* text t (taken) replaces [at, end); -1 out of memory (t freed) */
static int ins_add(ins **v, int *n, int *cap, size_t at, size_t end, char *t)
{
    if (*n == *cap) {
        int c = *cap ? *cap * 2 : 16;
        ins *n2 = realloc(*v, (size_t)c * sizeof **v);
        if (!n2) {
            free(t);
            return -1;
        }
        *v = n2;
        *cap = c;
    }
    (*v)[(*n)++] = (ins){at, end, t};
    return 0;
}

/* the parameter names of (lp, rp) */
static int param_names(const tx *x, int lp, int rp, int *out, int max)
{
    int n = 0, last = -1, d = 0;
    for (int k = lp + 1; k <= rp; k++) {
        if (is(x, k, "(") || is(x, k, "[") || is(x, k, "<")) d++;
        else if ((is(x, k, ")") || is(x, k, "]") || is(x, k, ">")) && k < rp) d--;
        if (d == 0 && is_ident(x, k)) last = k;
        if (d == 0 && is(x, k, "=")) return -1; /* a default argument */
        if ((d == 0 && is(x, k, ",")) || k == rp) {
            if (last >= 0 && n < max) out[n++] = last;
            last = -1;
        }
    }
    return n;
}

/* LAUNCH(kernel, ...) of a built-in kernel (kernels/kern.h) given a lane
 * form before it: LAUNCH_LANES(kernel, its form, ...) */
static int builtin_launches(lf *f, char lanes_of[][64], int nlanes, ins **v, int *n, int *cap)
{
    const tx *x = &f->x;
    for (int k = 0; k + 1 < x->nt; k++) {
        if (!is(x, k, "LAUNCH") || !is(x, k + 1, "(")) continue;
        /* the first argument: to the first `,` outside parentheses */
        int c = k + 2, d = 0;
        for (; c < x->nt; c++) {
            if (is(x, c, "(") || is(x, c, "[") || is(x, c, "{")) d++;
            else if (is(x, c, ")") || is(x, c, "]") || is(x, c, "}")) d--;
            else if (d == 0 && is(x, c, ",")) break;
            if (d < 0) break;
        }
        if (c >= x->nt || !is(x, c, ",")) continue;
        int nm = k + 2;
        while (nm < c && !is_ident(x, nm)) nm++;
        if (nm >= c) continue;
        char name[64];
        tx_text_of(x, nm, nm + 1, name, sizeof name);
        int found = 0;
        for (int i = 0; i < nlanes; i++) found |= strcmp(lanes_of[i], name) == 0;
        /* its form was inserted before this launch */
        char want[80];
        snprintf(want, sizeof want, " %s__sim_lanes", name);
        int declared = 0;
        for (int i = 0; found && i < *n; i++)
            declared |= (*v)[i].at < x->t[k].s && strstr((*v)[i].text, want) != NULL;
        if (!declared) continue;
        const char *a0 = x->src + x->t[k + 2].s;
        size_t pre = (size_t)(x->t[nm].e - x->t[k + 2].s), post = (size_t)(x->t[c].s - x->t[nm].e);
        char *t = NULL;
        if (asprintf(&t, "LAUNCH_LANES(%.*s, %.*s__sim_lanes%.*s", (int)(x->t[c].s - x->t[k + 2].s), a0, (int)pre,
                     a0, (int)post, a0 + pre) < 0)
            return -1;
        if (ins_add(v, n, cap, x->t[k].s, x->t[c].s, t) != 0) return -1;
    }
    return 0;
}

static int lanes_pass(prog_source *src, int builtin)
{
    lf *f = calloc(1, sizeof *f);
    if (!f) return -1;
    f->builtin = builtin;
    tx *x = &f->x;
    x->src = src->text;
    x->len = src->len;
    x->mode = PROG_SIM;
    x->line_directives = 1; /* a __host__ __device__ function's twin (translate.c) adds lines */
    tx_tokenize(x);
    int rc = 0;
    ins *ins = NULL;
    int nins = 0, capins = 0;
    kern *K = malloc(sizeof *K);
    if (x->oom || !K) { rc = -1; goto out; }
    /* the #line name of the first line */
    {
        const char *q = strchr(src->text, '"'), *nl = strchr(src->text, '\n');
        const char *e = q && nl ? nl : NULL;
        while (e && e > q && *e != '"') e--;
        if (!q || !e || e <= q || (size_t)(e - q + 2) > sizeof f->file) goto out;
        memcpy(f->file, q, (size_t)(e - q + 1));
        f->file[e - q + 1] = 0;
    }
    /* #defines whose text holds a barrier, a collective or another blocked
     * word: a kernel that names one keeps the fibers */
    for (int k = 0; k < x->nt; k++) {
        if (x->t[k].kind != T_PP) continue;
        const char *p = x->src + x->t[k].s, *end = x->src + x->t[k].e;
        p++;
        while (p < end && (*p == ' ' || *p == '\t')) p++;
        if (end - p < 7 || strncmp(p, "define", 6) != 0) continue;
        p += 6;
        while (p < end && (*p == ' ' || *p == '\t')) p++;
        const char *n0 = p;
        while (p < end && (isalnum((unsigned char)*p) || *p == '_')) p++;
        size_t nl = (size_t)(p - n0);
        if (nl == 0 || nl >= sizeof f->macros[0] || f->nmacros >= LN_MAX_FNS) continue;
        /* its text, tokenized on its own */
        tx m;
        memset(&m, 0, sizeof m);
        m.src = p;
        m.len = (size_t)(end - p);
        m.mode = PROG_SIM;
        tx_tokenize(&m);
        int bad = m.oom;
        for (int j = 0; j < m.nt && !bad; j++) bad = blocked(&m, j) || is(&m, j, "__syncthreads") || is(&m, j, "return");
        free(m.t);
        free(m.ed);
        if (bad) {
            memcpy(f->macros[f->nmacros], n0, nl);
            f->macros[f->nmacros++][nl] = 0;
        }
    }
    /* the file's __device__ functions, for the calls kernels make */
    int depth = 0;
    for (int k = 0; k < x->nt; k++) {
        if (is(x, k, "{")) depth++;
        else if (is(x, k, "}")) depth--;
        if (depth != 0 || !(is(x, k, "__device__") || is(x, k, "__managed__"))) continue;
        int j = k;
        while (j < x->nt && !is(x, j, "(") && !is(x, j, ";") && !is(x, j, "{") && !is(x, j, "=")) j++;
        if (!is(x, j, "(")) {
            /* a variable: its name before the `;`, `=` or `[` */
            int n = j;
            for (int q = k + 1; q < j; q++)
                if (is_ident(x, q) && !is(x, q + 1, "::")) n = q;
            if (n < j && f->nvars < LN_MAX_FNS) f->vars[f->nvars++] = n;
            continue;
        }
        if (!is_ident(x, j - 1)) continue;
        int rp = close_of(x, j);
        int b = rp + 1;
        while (b > 0 && b < x->nt && !is(x, b, "{") && !is(x, b, ";")) b++;
        if (b <= 0 || !is(x, b, "{") || f->nfns >= LN_MAX_FNS) continue;
        int end = close_of(x, b);
        if (end < 0) continue;
        f->fns[f->nfns++] = (devfn){j - 1, b, end, 0};
    }
    /* the kernels at file scope */
    char lanes_of[PROG_MAX_KERNELS][64];
    int nlanes = 0;
    depth = 0;
    for (int k = 0; k < x->nt; k++) {
        if (is(x, k, "{")) depth++;
        else if (is(x, k, "}")) depth--;
        if (depth != 0 || !is(x, k, "__global__")) continue;
        /* its name: before the first `(` that is not an attribute's */
        int j = k + 1;
        while (j < x->nt && !is(x, j, ";") && !is(x, j, "{")) {
            if ((is(x, j, "__attribute__") || is(x, j, "__launch_bounds__") || is(x, j, "__declspec")) &&
                is(x, j + 1, "(")) {
                j = close_of(x, j + 1);
                if (j < 0) break;
                j++;
                continue;
            }
            if (is(x, j, "(")) break;
            j++;
        }
        if (j < 0 || !is(x, j, "(") || !is_ident(x, j - 1)) continue;
        int rp = close_of(x, j);
        if (rp < 0 || !is(x, rp + 1, "{")) continue; /* a declaration only */
        int rb = close_of(x, rp + 1);
        if (rb < 0) continue;
        /* the declaration's first token: after the previous ; } { or directive */
        int head = k;
        while (head > 0 && !is(x, head - 1, ";") && !is(x, head - 1, "}") && !is(x, head - 1, "{") &&
               x->t[head - 1].kind != T_PP)
            head--;
        int extern_c = 0;
        for (int q = head; q < j; q++) extern_c |= is(x, q, "extern");
        memset(K, 0, sizeof *K);
        K->f = f;
        K->head = head;
        K->name = j - 1;
        K->lp = j;
        K->rp = rp;
        K->lb = rp + 1;
        K->rb = rb;
        K->nparams = param_names(x, j, rp, K->params, 64);
        sb o = {0};
        int templ = 0;
        for (int q = head; q < j; q++) templ |= is(x, q, "template");
        if (!extern_c && K->nparams >= 0 && kernel_lanes(K, &o) && !o.oom &&
            nlanes < PROG_MAX_KERNELS) {
            /* found by address, for a launch through a variable (a
             * built-in kernel's launches name it: LAUNCH_LANES) */
            if (!templ && !builtin) {
                char nm[128];
                tx_text_of(x, K->name, K->name + 1, nm, sizeof nm);
                sb_printf(&o, "\nstatic const int sim_lanes_reg_%s = ::gpulab_sim::sim_lanes_reg((const void *)%s, "
                              "(const void *)%s__sim_lanes);",
                          nm, nm, nm);
            }
            sb_printf(&o, "\n#line %d %s\n", x->t[rb].line - 1, f->file);
            /* the rest of the closing brace's line keeps its column */
            size_t bol = x->t[rb].s;
            while (bol > 0 && src->text[bol - 1] != '\n') bol--;
            for (size_t c = bol; c <= x->t[rb].s; c++) sb_add(&o, " ", 1);
            if (ins_add(&ins, &nins, &capins, x->t[rb].e, x->t[rb].e, o.p) != 0) { rc = -1; goto out; }
            tx_text_of(x, K->name, K->name + 1, lanes_of[nlanes], sizeof lanes_of[0]);
            nlanes++;
        } else {
            free(o.p);
        }
        k = rb;
    }
    /* launches of those kernels (translate.c's body): both forms */
    static const char pre[] = "[=](auto ...sim_a_) { ";
    for (const char *p = src->text; nlanes && (p = strstr(p, pre)) != NULL; p += sizeof pre - 1) {
        const char *nm = p + sizeof pre - 1, *e = strstr(nm, "(sim_a_...); }");
        if (!e || memchr(nm, '\n', (size_t)(e - nm))) continue;
        size_t base = 0;
        while (nm + base < e && (isalnum((unsigned char)nm[base]) || nm[base] == '_')) base++;
        /* a launch through a variable (translate.c names it "?NAME"): the
         * kernel it holds is looked up when it runs */
        char via[160];
        snprintf(via, sizeof via, "\"?%.*s\", __FILE__", (int)base, nm);
        const char *ls = p;
        while (ls > src->text && ls[-1] != '\n') ls--;
        if (base == (size_t)(e - nm) && memmem(ls, (size_t)(p - ls), via, strlen(via))) {
            size_t at = (size_t)(p - src->text), end = (size_t)(e - src->text) + strlen("(sim_a_...); }");
            char *t = NULL;
            if (asprintf(&t, "::gpulab_sim::sim_with_lanes_of(%.*s, %.*s)", (int)base, nm, (int)(end - at), p) < 0) {
                rc = -1;
                goto out;
            }
            if (ins_add(&ins, &nins, &capins, at, end, t) != 0) { rc = -1; goto out; }
            continue;
        }
        int found = 0;
        for (int i = 0; i < nlanes; i++)
            if (strlen(lanes_of[i]) == base && strncmp(lanes_of[i], nm, base) == 0) found = 1;
        if (!found) continue;
        /* the kernel's lane form is declared before this launch */
        size_t at = (size_t)(p - src->text);
        int declared = 0;
        for (int i = 0; i < nins; i++)
            if (ins[i].at < at && strstr(ins[i].text, "__sim_lanes")) {
                char want[80];
                snprintf(want, sizeof want, " %.*s__sim_lanes", (int)base, nm);
                declared |= strstr(ins[i].text, want) != NULL;
            }
        if (!declared) continue;
        size_t end = (size_t)(e - src->text) + strlen("(sim_a_...); }");
        char *t = NULL;
        if (asprintf(&t, "::gpulab_sim::sim_with_lanes(%.*s, [=](auto ...sim_a_) { %.*s__sim_lanes%.*s(sim_a_...); })",
                     (int)(end - at), p, (int)base, nm, (int)(e - nm - base), nm + base) < 0) {
            rc = -1;
            goto out;
        }
        if (ins_add(&ins, &nins, &capins, at, end, t) != 0) { rc = -1; goto out; }
    }
    if (builtin && nlanes && builtin_launches(f, lanes_of, nlanes, &ins, &nins, &capins) != 0) {
        rc = -1;
        goto out;
    }
    if (nins) {
        qsort(ins, (size_t)nins, sizeof *ins, ins_cmp);
        sb o = {0};
        size_t pos = 0;
        for (int i = 0; i < nins; i++) {
            if (ins[i].at < pos) continue;
            sb_add(&o, src->text + pos, ins[i].at - pos);
            sb_add(&o, ins[i].text, strlen(ins[i].text));
            pos = ins[i].end;
        }
        sb_add(&o, src->text + pos, src->len - pos);
        if (o.oom) {
            free(o.p);
            rc = -1;
            goto out;
        }
        free(src->text);
        src->text = o.p;
        src->len = o.n;
        src->lanes = nlanes;
    }
out:
    for (int i = 0; i < nins; i++) free(ins[i].text);
    free(ins);
    free(K);
    free(x->t);
    free(x->ed);
    free(f);
    return rc;
}

int prog_lanes(prog_source *src) { return lanes_pass(src, 0); }
int prog_lanes_builtin(prog_source *src) { return lanes_pass(src, 1); }
