/* translate.c - the source pass: a student's plain CUDA C++ as the simulator
 * (or the GPU build) compiles it.
 *
 * g++ cannot parse `<<< >>>` and would make a bare __shared__ variable one
 * variable for the whole grid, so on the simulator the pass rewrites exactly
 * those two forms into the shim's calls and leaves every other character
 * alone. It never adds or removes a line: one `#line 1 "file"` at the top
 * keeps every message (compiler errors, the simulator's diagnostics, a
 * crash's source line) in the student's own line numbers.
 *
 * It works on tokens (comments, strings and preprocessor lines are skipped
 * whole), not on a full C++ parse: a declaration is the tokens between the
 * previous `;`/`{`/`}` and the next `;`. What the simulator cannot run
 * (inline PTX, textures, dynamic parallelism, thrust...) is listed with its
 * line before anything is compiled. For the GPU the file stays as it is but
 * for each launch, which is wrapped so that its shape and time are recorded. */
#define _GNU_SOURCE
#include "kernels/program/program.h"
#include "kernels/program/program_build.h"
#include "kernels/program/translate.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------- preprocessor */

/* The name of the directive of token k ("if", "endif"...) in buf. */
static void directive_name(const tx *x, int k, char *buf, size_t len)
{
    const char *p = x->src + x->t[k].s + 1, *end = x->src + x->t[k].e;
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    size_t n = 0;
    while (p < end && isalpha((unsigned char)*p) && n + 1 < len) buf[n++] = *p++;
    buf[n] = 0;
}

/* A conditional at k whose groups (up to its #endif) define device code:
 * nvcc's device pass is the one that compiles them, so their __CUDA_ARCH__
 * is the device's (`#if __CUDA_ARCH__ >= 700` around __device__ helpers). */
static int group_has_device_code(const tx *x, int k)
{
    int depth = 0;
    for (int j = k + 1; j < x->nt; j++) {
        if (x->t[j].kind == T_PP) {
            char d[16];
            directive_name(x, j, d, sizeof d);
            if (strncmp(d, "if", 2) == 0) depth++;
            else if (strcmp(d, "endif") == 0 && depth-- == 0) return 0;
            continue;
        }
        if (x->t[j].kind == T_IDENT && (tx_is(x, j, "__device__") || tx_is(x, j, "__global__"))) return 1;
    }
    return 0;
}

/* __CUDA_ARCH__ in a conditional inside device code: the modelled GPU's
 * compute capability, as nvcc's device pass sees it (GPULAB_CUDA_ARCH,
 * progrt.h); outside device code it stays undefined, as in nvcc's host
 * pass. The directive keeps its line. */
static void arch_conditional(tx *x, const tok *t, const char *p, const char *end)
{
    int ifdef = 0, ifndef = 0;
    if (end - p >= 6 && strncmp(p, "ifndef", 6) == 0) ifndef = 1;
    else if (end - p >= 5 && strncmp(p, "ifdef", 5) == 0) ifdef = 1;
    else if (!((end - p >= 2 && strncmp(p, "if", 2) == 0) || (end - p >= 4 && strncmp(p, "elif", 4) == 0))) return;
    const char *a = memmem(p, (size_t)(end - p), "__CUDA_ARCH__", 13);
    if (!a) return;
    if (ifdef || ifndef) {
        tx_edit_add(x, t->s, t->e, "#if %d /* %s __CUDA_ARCH__: device code */", ifdef, ifdef ? "ifdef" : "ifndef");
        return;
    }
    char out[2048];
    size_t o = 0;
    for (const char *c = x->src + t->s; c < end && o + 32 < sizeof out;) {
        if (*c == '\\' && c + 1 < end && c[1] == '\n') { out[o++] = ' '; c += 2; continue; }
        if (*c == '\n' || *c == '\r') { c++; continue; }
        int word_start = c == x->src + t->s || !(isalnum((unsigned char)c[-1]) || c[-1] == '_');
        if (word_start && end - c >= 7 && strncmp(c, "defined", 7) == 0 && !(isalnum((unsigned char)c[7]) || c[7] == '_')) {
            const char *q = c + 7;
            while (q < end && (*q == ' ' || *q == '\t')) q++;
            int paren = q < end && *q == '(';
            if (paren) q++;
            while (q < end && (*q == ' ' || *q == '\t')) q++;
            if (end - q >= 13 && strncmp(q, "__CUDA_ARCH__", 13) == 0) {
                q += 13;
                while (paren && q < end && (*q == ' ' || *q == '\t')) q++;
                if (!paren || (q < end && *q == ')')) {
                    c = paren ? q + 1 : q;
                    out[o++] = '1';
                    continue;
                }
            }
        }
        if (word_start && end - c >= 13 && strncmp(c, "__CUDA_ARCH__", 13) == 0 &&
            !(c + 13 < end && (isalnum((unsigned char)c[13]) || c[13] == '_'))) {
            o += (size_t)snprintf(out + o, sizeof out - o, "GPULAB_CUDA_ARCH");
            c += 13;
            continue;
        }
        out[o++] = *c++;
    }
    out[o] = 0;
    tx_edit_add(x, t->s, t->e, "%s", out);
}

static int is_word_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* `extern __shared__ TYPE name[];` in a macro's body (the samples'
 * SharedMemory<T> helpers are made by a macro): the same dynamic shared
 * array as in code, written on the same line. */
static void shared_in_define(tx *x, const char *p, const char *end)
{
    for (const char *c = p; c + 6 < end; c++) {
        if (strncmp(c, "extern", 6) != 0 || (c > p && is_word_char(c[-1])) || is_word_char(c[6])) continue;
        const char *q = c + 6;
        while (q < end && (*q == ' ' || *q == '\t')) q++;
        if (end - q < 10 || strncmp(q, "__shared__", 10) != 0 || (q + 10 < end && is_word_char(q[10]))) continue;
        const char *ty = q + 10, *semi = ty;
        while (semi < end && *semi != ';' && *semi != '\n' && *semi != '\\') semi++;
        if (semi >= end || *semi != ';') continue;
        /* TYPE name [ ] ; */
        const char *b = semi;
        while (b > ty && (b[-1] == ' ' || b[-1] == '\t')) b--;
        if (b - ty < 2 || b[-1] != ']') continue;
        b--;
        while (b > ty && (b[-1] == ' ' || b[-1] == '\t')) b--;
        if (b[-1] != '[') continue;
        b--;
        while (b > ty && (b[-1] == ' ' || b[-1] == '\t')) b--;
        const char *ne = b;
        while (b > ty && is_word_char(b[-1])) b--;
        const char *nb = b;
        while (b > ty && (b[-1] == ' ' || b[-1] == '\t')) b--;
        while (ty < b && (*ty == ' ' || *ty == '\t')) ty++;
        if (nb == ne || ty >= b || ne - nb > 60 || b - ty > 120) continue;
        tx_edit_add(x, (size_t)(c - x->src), (size_t)(semi + 1 - x->src),
                    "using sim_T_%.*s = %.*s; SIM_DYNAMIC_SHARED(sim_T_%.*s, %.*s);", (int)(ne - nb), nb,
                    (int)(b - ty), ty, (int)(ne - nb), nb, (int)(ne - nb), nb);
        c = semi;
    }
}

/* device: the copies the device pass compiles the directive in (ED_BOTH: the
 * file's; ED_TWIN: a __host__ __device__ function's twin only; -1: none) */
static void directive(tx *x, int k, int device)
{
    const tok *t = &x->t[k];
    const char *p = x->src + t->s + 1;
    const char *end = x->src + t->e;
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    if (x->mode == PROG_SIM && device >= 0) {
        x->edit_only = device;
        arch_conditional(x, t, p, end);
        x->edit_only = ED_BOTH;
    }
    if (x->mode == PROG_SIM && end - p > 6 && strncmp(p, "define", 6) == 0 &&
        memmem(p, (size_t)(end - p), "__shared__", 10))
        shared_in_define(x, p + 6, end);
    if (end - p < 7 || strncmp(p, "include", 7) != 0) return;
    p += 7;
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    if (p >= end) return;
    char name[256];
    char close = *p == '<' ? '>' : *p == '"' ? '"' : 0;
    if (!close) return;
    const char *q = p + 1;
    size_t l = 0;
    while (q < end && *q != close && l + 1 < sizeof name) name[l++] = *q++;
    name[l] = 0;
    if (close == '"') {
        prog_source *o = x->out;
        int seen = 0;
        for (int i = 0; i < o->nincludes; i++) seen |= strcmp(o->includes[i], name) == 0;
        if (!seen && o->nincludes < PROG_MAX_INCLUDES) snprintf(o->includes[o->nincludes++], 256, "%s", name);
    }
    /* a header of the program's own (beside a file of it, or in a folder
     * given with -I): its translated copy */
    char repl[300];
    if (x->opts && x->opts->resolve && x->opts->resolve(x->opts->ctx, name, close == '>', repl, sizeof repl) == 0) {
        tx_edit_add(x, t->s, t->e, "#include \"%s\"", repl);
        return;
    }
    /* the CUDA libraries a program names: nvcc links them (GPU backend) */
    static const char *const lib_headers[] = {"curand", "cublas", "cufft", "cusparse", NULL};
    for (int i = 0; lib_headers[i]; i++)
        if (strncmp(name, lib_headers[i], strlen(lib_headers[i])) == 0) x->out->libs |= 1 << i;
    if (strcmp(name, "cuda.h") == 0) x->out->libs |= PROG_LIB_CUDA;
    if (x->mode != PROG_SIM) return;
    if ((strcmp(name, "curand.h") == 0 || strcmp(name, "curand_kernel.h") == 0) && prog_toolkit_include()) {
        /* cuRAND: the device generators are the simulator's own
         * (include/curand_kernel.h), the host API the toolkit's library */
        return;
    }
    if (strncmp(name, "curand_mtgp32", 13) == 0) {
        tx_issue(x, t->line, "#include <%s>: cuRAND's MTGP32 generator is not simulated; XORWOW (curandState), "
                          "Philox4_32_10, MRG32k3a and Sobol are, or run on the GPU", name);
        tx_edit_add(x, t->s, t->s, "//");
        return;
    }
    if (strncmp(name, "thrust/", 7) == 0 && prog_thrust_dir()) {
        /* the toolkit's thrust on its C++ backend (program_build.c) */
        x->out->thrust = 1;
        return;
    }
    if (strncmp(name, "thrust/", 7) == 0) {
        tx_issue(x, t->line, "#include <%s>: the simulator runs the CUDA toolkit's own thrust (on its C++ "
                          "backend), and no toolkit's thrust headers were found: install the CUDA toolkit or set "
                          "CUDA_HOME, or run on the GPU", name);
        tx_edit_add(x, t->s, t->s, "//");
        return;
    }
    if (strncmp(name, "cub/", 4) == 0) {
        tx_issue(x, t->line, "#include <%s>: CUB is written for the GPU's hardware (warp and block primitives "
                          "in PTX), so the simulator has no CUB: write the kernel yourself, or run on the GPU",
              name);
        tx_edit_add(x, t->s, t->s, "//");
        return;
    }
    /* the simulator's (include/cublas_v2.h, and the legacy API's cublas.h) */
    if (strcmp(name, "cublas_v2.h") == 0 || strcmp(name, "cublas.h") == 0) return;
    if (strncmp(name, "cublas", 6) == 0) {
        tx_issue(x, t->line, "#include <%s>: the simulator has cuBLAS's cublas_v2.h and legacy cublas.h routines "
                          "only (level 1, gemv, ger, gemm and its batched forms); cublasLt and cublasXt run on the "
                          "GPU", name);
        tx_edit_add(x, t->s, t->s, "//");
        return;
    }
    if (strncmp(name, "curand", 6) == 0 || strncmp(name, "cufft", 5) == 0 ||
        strncmp(name, "cusparse", 8) == 0) {
        tx_issue(x, t->line, "#include <%s>: %s is not simulated (it runs on the GPU only)", name,
              "this CUDA library");
        tx_edit_add(x, t->s, t->s, "//");
        return;
    }
    if (strcmp(name, "cuda/annotated_ptr") == 0) {
        tx_issue(x, t->line, "#include <%s>: cache-residency hints (cuda::annotated_ptr) are not simulated: the "
                          "simulator has no caches; plain pointers do the same work, or run on the GPU", name);
        tx_edit_add(x, t->s, t->s, "//");
        return;
    }
    if (strcmp(name, "nvrtc.h") == 0 || strncmp(name, "nvJitLink", 9) == 0) {
        tx_issue(x, t->line, "#include <%s>: compiling kernels at run time (NVRTC) needs the GPU's compiler; the "
                          "simulator compiles the program's own kernels only", name);
        tx_edit_add(x, t->s, t->s, "//");
        return;
    }
    /* the CUDA headers (cuda_runtime.h, cuda_fp16.h, assert.h...) are the
     * runtime's own (kernels/program/include), found by the compiler */
}

/* ------------------------------------------------------- __shared__ decls */

static int stmt_start(const tx *x, int k)
{
    int j = k - 1;
    while (j >= 0) {
        const tok *t = &x->t[j];
        if (t->kind == T_PP) break;
        if (t->kind == T_PUNCT && (tx_is(x, j, ";") || tx_is(x, j, "{") || tx_is(x, j, "}"))) break;
        if (tx_is(x, j, ":") && j > 0 && (tx_is(x, j - 1, "public") || tx_is(x, j - 1, "private") || tx_is(x, j - 1, "protected")))
            break;
        j--;
    }
    return j + 1;
}

static int stmt_end(const tx *x, int k)
{
    int depth = 0;
    for (int j = k; j < x->nt; j++) {
        if (tx_is(x, j, "(") || tx_is(x, j, "[") || tx_is(x, j, "{")) depth++;
        else if (tx_is(x, j, ")") || tx_is(x, j, "]") || tx_is(x, j, "}")) depth--;
        else if (depth == 0 && tx_is(x, j, ";")) return j;
        if (depth < 0) return -1;
    }
    return -1;
}

static int global_shared(const tx *x, int k)
{
    for (int i = 0; i < x->nglobals; i++)
        if (tx_is(x, k, x->globals[i])) return i;
    return -1;
}

/* One __shared__ declaration, tokens [s, e) (e is its `;`), at file scope
 * when file_scope. */
static void shared_decl(tx *x, int s, int e, int file_scope)
{
    int line = x->t[s].line;
    int is_extern = 0;
    /* the tokens that stay: type and declarators */
    int keep[512], nk = 0;
    for (int j = s; j < e && nk < 512; j++) {
        if (tx_is(x, j, "__shared__") || tx_is(x, j, "static") || tx_is(x, j, "volatile") || tx_is(x, j, "__volatile__"))
            continue;
        if (tx_is(x, j, "extern")) { is_extern = 1; continue; }
        if ((tx_is(x, j, "__align__") || tx_is(x, j, "alignas") || tx_is(x, j, "__attribute__")) && tx_is(x, j + 1, "(")) {
            int d = 0;
            j++;
            for (; j < e; j++) {
                if (tx_is(x, j, "(")) d++;
                else if (tx_is(x, j, ")") && --d == 0) break;
            }
            continue;
        }
        keep[nk++] = j;
    }
    /* split the declarators at top-level commas */
    int seg[32][2], nseg = 0, d = 0, ang = 0, from = 0;
    for (int i = 0; i <= nk && nseg < 32; i++) {
        if (i == nk) { seg[nseg][0] = from; seg[nseg][1] = nk; nseg++; break; }
        int j = keep[i];
        if (tx_is(x, j, "(") || tx_is(x, j, "[") || tx_is(x, j, "{")) d++;
        else if (tx_is(x, j, ")") || tx_is(x, j, "]") || tx_is(x, j, "}")) d--;
        else if (tx_is(x, j, "<") && i > 0 && x->t[keep[i - 1]].kind == T_IDENT) ang++;
        else if (tx_is(x, j, ">") && ang > 0) ang--;
        else if (tx_is(x, j, ">>") && ang > 0) ang = ang > 1 ? ang - 2 : 0;
        else if (d == 0 && ang == 0 && tx_is(x, j, ",")) { seg[nseg][0] = from; seg[nseg][1] = i; nseg++; from = i + 1; }
    }
    char type[512] = "", out[4096];
    size_t o = 0;
    out[0] = 0;
    for (int g = 0; g < nseg; g++) {
        int a = seg[g][0], b = seg[g][1];
        /* the name: the last identifier before the first [ or = */
        int stop = b;
        for (int i = a; i < b; i++)
            if (tx_is(x, keep[i], "[") || tx_is(x, keep[i], "=")) { stop = i; break; }
        int name = -1;
        for (int i = stop - 1; i >= a; i--)
            if (x->t[keep[i]].kind == T_IDENT) { name = i; break; }
        if (name < 0 || (g == 0 && name == a)) {
            tx_issue(x, line, "this __shared__ declaration is not understood: write it as "
                           "`__shared__ TYPE name[SIZE];`");
            return;
        }
        char nm[64], prefix[256];
        tx_text_of(x, keep[name], keep[name] + 1, nm, sizeof nm);
        if (x->nshared < 64) snprintf(x->shared[x->nshared++], 64, "%s", nm);
        if (g == 0) {
            /* the type: tokens before the name (they are contiguous in keep
             * order but may have had qualifiers removed between them) */
            size_t to = 0;
            type[0] = 0;
            for (int i = a; i < name; i++) {
                char w[256];
                tx_text_of(x, keep[i], keep[i] + 1, w, sizeof w);
                to += (size_t)snprintf(type + to, sizeof type - to, "%s%s", to ? " " : "", w);
                if (to >= sizeof type) break;
            }
            prefix[0] = 0;
        } else {
            size_t po = 0;
            prefix[0] = 0;
            for (int i = a; i < name; i++) {
                char w[64];
                tx_text_of(x, keep[i], keep[i] + 1, w, sizeof w);
                po += (size_t)snprintf(prefix + po, sizeof prefix - po, "%s", w);
                if (po >= sizeof prefix) break;
            }
        }
        int has_init = 0;
        for (int i = stop; i < b; i++) has_init |= tx_is(x, keep[i], "=");
        if (has_init) {
            tx_issue(x, line, "__shared__ %s has an initializer: shared memory cannot be initialised where it is "
                           "declared (nvcc refuses it too); assign it in the kernel, then __syncthreads()",
                  nm);
            return;
        }
        /* the dimensions */
        char dims[4][256];
        int nd = 0, empty = 0;
        for (int i = stop; i < b;) {
            if (!tx_is(x, keep[i], "[")) { i++; continue; }
            int depth = 0, j = i;
            for (; j < b; j++) {
                if (tx_is(x, keep[j], "[")) depth++;
                else if (tx_is(x, keep[j], "]") && --depth == 0) break;
            }
            if (nd < 4) {
                if (j == i + 1) { dims[nd][0] = 0; empty++; }
                else tx_text_of(x, keep[i + 1], keep[j - 1] + 1, dims[nd], sizeof dims[nd]);
                nd++;
            }
            i = j + 1;
        }
        char T[600];
        snprintf(T, sizeof T, "%s%s", type, prefix);
        int n;
        if (file_scope) {
            int dynamic = is_extern && nd == 1 && empty == 1;
            if ((is_extern && !dynamic) || nd > 2) {
                tx_issue(x, line, "__shared__ %s at file scope: declare it inside the kernel (the simulator "
                               "supports file-scope shared scalars, 1D/2D arrays and `extern __shared__ T "
                               "name[]`)",
                      nm);
                return;
            }
            if (x->nglobals < 16) snprintf(x->globals[x->nglobals++], 64, "%s", nm);
            /* extern __shared__ T name[]: the block's dynamic shared memory */
            n = dynamic ? snprintf(out + o, sizeof out - o,
                                   "using sim_T_%s = %s; SIM_SHARED_GLOBAL_DYNAMIC(sim_T_%s, %s); ", nm, T, nm, nm)
              : nd == 0 ? snprintf(out + o, sizeof out - o,
                                   "using sim_T_%s = %s; SIM_SHARED_GLOBAL_SCALAR(sim_T_%s, %s); ", nm, T, nm, nm)
              : nd == 1 ? snprintf(out + o, sizeof out - o, "using sim_T_%s = %s; SIM_SHARED_GLOBAL(sim_T_%s, %s, %s); ",
                                   nm, T, nm, nm, dims[0])
                        : snprintf(out + o, sizeof out - o,
                                   "using sim_T_%s = %s; SIM_SHARED_GLOBAL2(sim_T_%s, %s, %s, %s); ", nm, T, nm, nm,
                                   dims[0], dims[1]);
        } else if (is_extern) {
            if (nd < 1 || dims[0][0] || empty != 1 || nd > 4) {
                tx_issue(x, line, "extern __shared__ %s: the dynamic shared array is declared `extern __shared__ "
                               "TYPE name[];` (no size in its first dimension: the launch gives the bytes; "
                               "`TYPE name[][N]` for rows of N)",
                      nm);
                return;
            }
            /* name[][C]...: a dynamic array of rows, each a plain C array */
            char rows[800] = "";
            size_t ro = 0;
            for (int i = 1; i < nd && ro < sizeof rows; i++)
                ro += (size_t)snprintf(rows + ro, sizeof rows - ro, "[%s]", dims[i]);
            if (ro >= sizeof rows) {
                tx_issue(x, line, "this __shared__ declaration is too long to translate");
                return;
            }
            n = snprintf(out + o, sizeof out - o, "using sim_T_%s = %s%s; SIM_DYNAMIC_SHARED(sim_T_%s, %s); ", nm, T,
                         rows, nm, nm);
        } else if (empty) {
            tx_issue(x, line, "__shared__ %s[] has no size: only an extern __shared__ array takes its size from the "
                           "launch",
                  nm);
            return;
        } else if (nd == 0) {
            n = snprintf(out + o, sizeof out - o, "using sim_T_%s = %s; SIM_SHARED_SCALAR(sim_T_%s, %s); ", nm, T,
                         nm, nm);
        } else if (nd == 1) {
            n = snprintf(out + o, sizeof out - o, "using sim_T_%s = %s; SIM_SHARED(sim_T_%s, %s, %s); ", nm, T, nm,
                         nm, dims[0]);
        } else if (nd == 2) {
            n = snprintf(out + o, sizeof out - o, "using sim_T_%s = %s; SIM_SHARED2(sim_T_%s, %s, %s, %s); ", nm,
                         T, nm, nm, dims[0], dims[1]);
        } else {
            char all[800] = "", prod[800] = "";
            size_t ao = 0, po = 0;
            for (int i = 0; i < nd && i < 4; i++) {
                ao += (size_t)snprintf(all + ao, sizeof all - ao, "[%s]", dims[i]);
                po += (size_t)snprintf(prod + po, sizeof prod - po, "%s(size_t)(%s)", i ? " * " : "", dims[i]);
                if (ao >= sizeof all || po >= sizeof prod) break;
            }
            n = snprintf(out + o, sizeof out - o, "using sim_T_%s = %s; SIM_SHARED_ND(sim_T_%s, %s, %s, %s); ", nm,
                         T, nm, nm, prod, all);
        }
        if (n < 0 || (size_t)n >= sizeof out - o) {
            tx_issue(x, line, "this __shared__ declaration is too long to translate");
            return;
        }
        o += (size_t)n;
        /* sizeof(NAME) of an array is the array's bytes, not its proxy's */
        if (nd >= 1 && !is_extern && nd <= 4) {
            n = snprintf(out + o, sizeof out - o, "static constexpr size_t sim_sizeof_%s = sizeof(sim_T_%s)", nm, nm);
            for (int i = 0; i < nd && n > 0 && (size_t)n < sizeof out - o; i++)
                n += snprintf(out + o + n, sizeof out - o - (size_t)n, " * (size_t)(%s)", dims[i]);
            if (n > 0 && (size_t)n + 2 < sizeof out - o) {
                n += snprintf(out + o + n, sizeof out - o - (size_t)n, "; ");
                o += (size_t)n;
                int seen = 0;
                for (int i = 0; i < x->nsized; i++) seen |= strcmp(x->sized[i], nm) == 0;
                if (!seen && x->nsized < 64) snprintf(x->sized[x->nsized++], 64, "%s", nm);
            }
        }
    }
    tx_edit_add(x, x->t[s].s, x->t[e].e, "%s", out);
}

/* ---------------------------------------------------------------- launches */

/* The kernel expression before `<<<` at k: tokens [a, k). -1 if none. */
static int callee_start(const tx *x, int k)
{
    int j = k - 1;
    for (;;) {
        if (j < 0) return -1;
        if (tx_is(x, j, ">") || tx_is(x, j, ">>")) {
            int d = 0;
            for (; j >= 0; j--) {
                if (tx_is(x, j, ">")) d++;
                else if (tx_is(x, j, ">>")) d += 2;
                else if (tx_is(x, j, "<")) { if (--d == 0) break; }
                else if (tx_is(x, j, ";") || tx_is(x, j, "{") || tx_is(x, j, "}")) return -1;
            }
            j--;
        }
        if (j < 0 || x->t[j].kind != T_IDENT) return -1;
        if (j > 0 && tx_is(x, j - 1, "::")) {
            j -= 2;
            if (j < 0 || x->t[j].kind != T_IDENT) return j + 1;
            continue;
        }
        if (j > 0 && (tx_is(x, j - 1, ".") || tx_is(x, j - 1, "->"))) {
            j -= 2;
            continue;
        }
        return j;
    }
}

static int match_close(const tx *x, int k, const char *open, const char *close)
{
    int d = 0;
    for (int j = k; j < x->nt; j++) {
        if (tx_is(x, j, open)) d++;
        else if (tx_is(x, j, close) && --d == 0) return j;
    }
    return -1;
}

/* returns the token after the launch, or k + 1 when it was not one */
static int launch(tx *x, int k, int in_device)
{
    int line = x->t[k].line;
    /* a child launch (dynamic parallelism) is rewritten like any other */
    if (in_device) x->out->device_launches++;
    int a = callee_start(x, k);
    int close = -1, d = 0;
    for (int j = k; j < x->nt; j++) {
        if (x->t[j].kind == T_LOPEN) d++;
        else if (x->t[j].kind == T_LCLOSE && --d == 0) { close = j; break; }
    }
    if (a < 0 || close < 0 || !tx_is(x, close + 1, "(")) {
        if (x->mode == PROG_SIM)
            tx_issue(x, line, "this launch is not understood: write it as kernel<<<grid, block>>>(arguments) "
                           "(or kernel<<<grid, block, shared, stream>>>)");
        return k + 1;
    }
    int rp = match_close(x, close + 1, "(", ")");
    if (rp < 0) return k + 1;
    char name[256], cfg[1024];
    tx_text_of(x, a, k, name, sizeof name);
    tx_text_of(x, k + 1, close, cfg, sizeof cfg);
    char quoted[300];
    size_t q = 0;
    for (const char *c = name; *c && q + 2 < sizeof quoted; c++) {
        if (*c == '"' || *c == '\\') quoted[q++] = '\\';
        quoted[q++] = *c;
    }
    quoted[q] = 0;
    int noargs = rp == close + 2;
    /* a kernel launched through a variable: the runtime finds its real name */
    int known = 0;
    for (int i = 0; i < x->out->nkernels; i++) {
        size_t l = strlen(x->out->kernels[i].name);
        known |= strncmp(name, x->out->kernels[i].name, l) == 0 && (name[l] == 0 || name[l] == '<');
    }
    /* template arguments that are names (T, BLOCK): the runtime finds the instance's */
    const char *lt = strchr(name, '<');
    for (const char *c = lt; known && c && *c; c++)
        if (isalpha((unsigned char)*c) || *c == '_') known = 0;
    if (!known && x->mode == PROG_SIM && q + 1 < sizeof quoted) {
        memmove(quoted + 1, quoted, q + 1);
        quoted[0] = '?';
    }
    /* a template kernel named without its arguments: the compiler deduces
     * them from the call, so it has no address to take here */
    int deduced = 0, given = 0;
    if (lt) { /* K<A, B>: the arguments given, by top-level commas */
        int d = 0;
        given = 1;
        for (const char *c = lt; *c; c++) {
            if (*c == '<' || *c == '(') d++;
            else if (*c == '>' || *c == ')') d--;
            else if (*c == ',' && d == 1) given++;
        }
    }
    size_t base = lt ? (size_t)(lt - name) : strlen(name);
    for (int i = 0; i < x->out->ntemplate_kernels; i++)
        if (strlen(x->out->template_kernels[i]) == base && strncmp(name, x->out->template_kernels[i], base) == 0)
            deduced |= given < x->out->template_kernel_needs[i];
    for (int i = 0; x->opts && i < x->opts->ntemplate_kernels; i++)
        if (strlen(x->opts->template_kernels[i]) == base && strncmp(name, x->opts->template_kernels[i], base) == 0)
            deduced |= given < x->opts->template_kernel_needs[i];
    if (x->mode == PROG_SIM) {
        /* K<<<cfg>>>(args)  ->  sim_launch_prog(addr, "K", line, sim_cfg(cfg), body, args) */
        if (deduced)
            tx_edit_add(x, x->t[a].s, x->t[k].e,
                        "::gpulab_sim::sim_launch_prog(nullptr, \"%s\", __FILE__, __LINE__, ::gpulab_sim::sim_cfg(",
                        quoted);
        else
            tx_edit_add(x, x->t[a].s, x->t[k].e,
                        "::gpulab_sim::sim_launch_prog(::gpulab_sim::sim_kaddr(%s), \"%s\", __FILE__, __LINE__, "
                        "::gpulab_sim::sim_cfg(",
                        name, quoted);
        tx_edit_add(x, x->t[close].s, x->t[close + 1].e, "), [=](auto ...sim_a_) { %s(sim_a_...); }%s", name,
                 noargs ? "" : ", ");
    } else if (!in_device) {
        /* the launch record is the host's: a child launch (dynamic
         * parallelism) is left to the device runtime as it is written */
        tx_edit_add(x, x->t[a].s, x->t[a].s, "(::gpulab_gpu_pre(\"%s\", __FILE__, __LINE__, %s), ", quoted, cfg);
        tx_edit_add(x, x->t[rp].e, x->t[rp].e, ", ::gpulab_gpu_post())");
    }
    return rp + 1;
}

/* ------------------------------------------------------- device pointers */

static const char *const arith_words[] = {"int", "unsigned", "signed", "float", "double", "long", "short", "char",
                                          "bool", "size_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t",
                                          "uint16_t", "uint32_t", "uint64_t", NULL};

static int is_arith_word(const tx *x, int k)
{
    for (int i = 0; arith_words[i]; i++)
        if (tx_is(x, k, arith_words[i])) return 1;
    return 0;
}

static int is_shared_name(const tx *x, int k)
{
    for (int i = 0; i < x->nshared; i++)
        if (tx_is(x, k, x->shared[i])) return 1;
    return 0;
}

static int is_template_device_fn(const tx *x, int k)
{
    for (int i = 0; i < x->out->ntemplate_devfns; i++)
        if (tx_is(x, k, x->out->template_devfns[i])) return 1;
    for (int i = 0; x->opts && i < x->opts->ntemplate_devfns; i++)
        if (tx_is(x, k, x->opts->template_devfns[i])) return 1;
    return 0;
}

static int is_template_kernel(const tx *x, int k)
{
    for (int i = 0; i < x->out->ntemplate_kernels; i++)
        if (tx_is(x, k, x->out->template_kernels[i])) return 1;
    for (int i = 0; x->opts && i < x->opts->ntemplate_kernels; i++)
        if (tx_is(x, k, x->opts->template_kernels[i])) return 1;
    return 0;
}

/* In device code, a pointer to numbers that is volatile (the warp-synchronous
 * idiom) or made from a shared array becomes a sim_vptr: its accesses are
 * seen by race-check like the array's own. `[const] [volatile] T [volatile]
 * * name` at k (k is the first word); returns the token after the rewritten
 * part, or k when there is nothing to do. */
static int device_pointer(tx *x, int k)
{
    if (x->t[k].kind != T_IDENT) return k;
    if (!is_arith_word(x, k) && !tx_is(x, k, "volatile") && !tx_is(x, k, "const")) return k;
    /* only at the start of a declaration or a parameter */
    if (k > 0 && !tx_is(x, k - 1, "(") && !tx_is(x, k - 1, ",") && !tx_is(x, k - 1, ";") && !tx_is(x, k - 1, "{") &&
        !tx_is(x, k - 1, "}"))
        return k;
    int j = k, vol = 0, arith = 0;
    while (j < x->nt && (tx_is(x, j, "volatile") || tx_is(x, j, "const") || is_arith_word(x, j))) {
        vol |= tx_is(x, j, "volatile");
        arith |= is_arith_word(x, j);
        j++;
    }
    if (!arith || !tx_is(x, j, "*") || j + 1 >= x->nt || x->t[j + 1].kind != T_IDENT) return k;
    int name = j + 1;
    int from_shared = 0;
    if (tx_is(x, name + 1, "=")) {
        for (int m = name + 2; m < x->nt && !tx_is(x, m, ";") && !tx_is(x, m, ","); m++)
            if (is_shared_name(x, m)) { from_shared = 1; break; }
    }
    if (!vol && !from_shared) return k;
    char type[256];
    tx_text_of(x, k, j, type, sizeof type);
    tx_edit_add(x, x->t[k].s, x->t[j].e, "::gpulab_sim::sim_vptr<%s> ", type);
    return name;
}

/* A __device__ variable at file scope (`__device__ int counter;`, an
 * array, several names): it stays a variable of the program, in the
 * section gpulab_devvars so that all of them lie together, and registers
 * its address, size, name and line (race.h: sim_devvar_register), so that
 * memcheck and the race check watch it like device memory and name it.
 * Constants (const, constexpr, __constant__), extern declarations and
 * templates are left alone: nothing writes them, or they are defined
 * elsewhere. k is the `__device__` word. */
static void device_variable(tx *x, int k)
{
    int s = stmt_start(x, k), e = stmt_end(x, k);
    if (e < 0) return;
    static const char *const skip[] = {"extern", "template", "const", "constexpr", "__shared__",
                                       "typedef", "using", "static_assert", "friend", "__global__", "operator", NULL};
    for (int j = s; j < e; j++)
        for (int i = 0; skip[i]; i++)
            if (tx_is(x, j, skip[i])) return;
    int names[16], nn = 0, depth = 0, angle = 0, init = 0;
    for (int j = k + 1; j <= e; j++) {
        int end = j == e || (depth == 0 && angle == 0 && tx_is(x, j, ","));
        if (!init && depth == 0 && angle == 0 && (end || tx_is(x, j, "[") || tx_is(x, j, "="))) {
            if (x->t[j - 1].kind == T_IDENT && nn < 16) names[nn++] = j - 1;
        }
        if (end) {
            init = 0;
            continue;
        }
        if (tx_is(x, j, "(") || tx_is(x, j, "[") || tx_is(x, j, "{")) {
            /* a body (a function's, a struct's) or a function's parameters: not a variable */
            if (tx_is(x, j, "{") && !init && depth == 0) return;
            if (tx_is(x, j, "(") && !init && depth == 0 && x->t[j - 1].kind == T_IDENT &&
                !tx_is(x, j - 1, "__align__") && !tx_is(x, j - 1, "__attribute__") && !tx_is(x, j - 1, "alignas") &&
                !tx_is(x, j - 1, "__declspec") && !tx_is(x, j - 1, "decltype") && !tx_is(x, j - 1, "__launch_bounds__"))
                return;
            depth++;
        } else if (tx_is(x, j, ")") || tx_is(x, j, "]") || tx_is(x, j, "}")) {
            depth--;
        } else if (!init && depth == 0 && tx_is(x, j, "<")) {
            angle++;
        } else if (!init && depth == 0 && tx_is(x, j, ">") && angle > 0) {
            angle--;
        } else if (!init && depth == 0 && tx_is(x, j, ">>") && angle > 0) {
            angle = angle > 1 ? angle - 2 : 0;
        } else if (depth == 0 && angle == 0 && tx_is(x, j, "=")) {
            init = 1;
        }
    }
    if (!nn) return;
    /* `__constant__ __device__`: once, at the first of the two words */
    for (int j = s; j < k; j++)
        if (tx_is(x, j, "__device__") || tx_is(x, j, "__constant__")) return;
    tx_edit_add(x, x->t[k].e, x->t[k].e, " __attribute__((section(\"gpulab_devvars\")))");
    /* an array gets 64 bytes of red zone on each side (the compiler may lay
     * the section's variables out in either order), which memcheck counts
     * as the array's (race.cpp: devvar_sort) */
    for (int i = 0; i < nn; i++) {
        if (!tx_is(x, names[i] + 1, "[")) continue;
        char nm[64];
        tx_text_of(x, names[i], names[i] + 1, nm, sizeof nm);
        for (int side = 0; side < 2; side++)
            tx_edit_add(x, side ? x->t[e].e : x->t[s].s, side ? x->t[e].e : x->t[s].s,
                        "%sstatic char sim_devrz_%d_%s_%d[64] __attribute__((section(\"gpulab_devvars\"), used));%s",
                        side ? " " : "", x->t[k].line, nm, side, side ? "" : " ");
    }
    for (int i = 0; i < nn; i++) {
        char nm[64];
        tx_text_of(x, names[i], names[i] + 1, nm, sizeof nm);
        tx_edit_add(x, x->t[e].e, x->t[e].e,
                    " static const int sim_devvar_%d_%s = ::sim_devvar_register(__builtin_addressof(%s), sizeof(%s), "
                    "\"%s\", %d);",
                    x->t[k].line, nm, nm, nm, nm, x->t[names[i]].line);
    }
}

/* ------------------------------------------------------ local arrays */

/* cuRAND's device API that include/curand_kernel.h does not have */
static const char *const curand_words[] = {"curandStateMtgp32", "curandStateMtgp32_t", "curand_poisson",
                                           "curand_poisson4", "curand_discrete", "curand_discrete4", NULL};

/* cuBLAS's routines that include/cublas_v2.h has, by their roots: cublas
 * then S or D (I and S or D for the index ones), then one of these, with or
 * without _v2 */
static const char *const cublas_roots[] = {"axpy", "scal", "copy", "swap", "dot", "nrm2", "asum", "amax", "amin",
                                           "gemv", "ger", "gemm", "gemmBatched", "gemmStridedBatched", NULL};

/* a cuBLAS routine's name (cublas, a type letter, a lower-case letter; or
 * the Ex/Lt/Xt families) that the simulator does not have */
static int cublas_missing(const tx *x, int k)
{
    const tok *t = &x->t[k];
    size_t n = t->e - t->s;
    char w[80];
    if (n < 8 || n >= sizeof w || strncmp(x->src + t->s, "cublas", 6) != 0 || !tx_is(x, k + 1, "(")) return 0;
    memcpy(w, x->src + t->s, n);
    w[n] = 0;
    if (n > 3 && strcmp(w + n - 3, "_v2") == 0) w[n - 3] = 0;
    static const char *const helpers[] = {"Create", "Destroy", "GetVersion", "SetStream", "GetStream",
                                          "SetPointerMode", "GetPointerMode", "SetMathMode", "GetMathMode",
                                          "SetAtomicsMode", "GetAtomicsMode", "GetStatusName", "GetStatusString",
                                          "SetVector", "GetVector", "SetMatrix", "GetMatrix", "SetVectorAsync",
                                          "GetVectorAsync", "SetMatrixAsync", "GetMatrixAsync",
                                          /* the legacy API's (include/cublas.h) */
                                          "Init", "Shutdown", "GetError", "Alloc", "Free", "SetKernelStream", NULL};
    const char *r = w + 6;
    for (int i = 0; helpers[i]; i++)
        if (strcmp(r, helpers[i]) == 0) return 0;
    if (strncmp(r, "Lt", 2) == 0 || strncmp(r, "Xt", 2) == 0 || strstr(r, "Ex")) return 1;
    if (*r == 'I') /* cublasIsamax: the type in lower case */
        return (r[1] == 'c' || r[1] == 'z') && r[2] == 'a' && r[3] == 'm';
    if (!strchr("SDCZH", *r) || !r[1] || !islower((unsigned char)r[1])) return 0;
    if (*r != 'S' && *r != 'D') return 1;
    for (int i = 0; cublas_roots[i]; i++)
        if (strcmp(r + 1, cublas_roots[i]) == 0) return 0;
    return 1;
}


/* The driver API's names the simulator has (include/cuda.h,
 * progrt_drv.cpp): calls and types. */
static const char *const driver_have[] = {
    "cuInit", "cuDriverGetVersion", "cuGetErrorName", "cuGetErrorString", "cuDeviceGetCount", "cuDeviceGet",
    "cuDeviceGetName", "cuDeviceTotalMem", "cuDeviceGetAttribute", "cuDevicePrimaryCtxRetain",
    "cuDevicePrimaryCtxRelease", "cuCtxGetCurrent", "cuCtxSetCurrent", "cuCtxGetDevice", "cuCtxSynchronize",
    "cuMemGetInfo", "cuMemAlloc", "cuMemFree", "cuMemcpyHtoD", "cuMemcpyDtoH", "cuMemcpyDtoD", "cuMemsetD8",
    "cuMemsetD32", "cuMemGetAllocationGranularity", "cuMemAddressReserve", "cuMemAddressFree", "cuMemCreate",
    "cuMemRelease", "cuMemGetAllocationPropertiesFromHandle", "cuMemMap", "cuMemUnmap", "cuMemSetAccess",
    "CUresult", "CUdevice", "CUdeviceptr", "CUcontext", "CUstream", "CUevent", "CUdevice_attribute",
    "CUmemGenericAllocationHandle", "CUmemAllocationHandleType", "CUmemAccess_flags", "CUmemLocationType",
    "CUmemAllocationType", "CUmemAllocationGranularity_flags", "CUmemAllocationCompType", "CUmemLocation",
    "CUmemAllocationProp", "CUmemAccessDesc", NULL};

/* Token k names a part of the CUDA driver API that the simulator does not
 * have: a type CUxxx (CUmodule, CUfunction) or a call of one of its families
 * (cuModuleLoad, cuLaunchKernel; not cuComplex.h's cuCaddf, nor a program's
 * own cuTiming), not a member of something, and not one of driver_have. */
static int driver_api_word(const tx *x, int k)
{
    const tok *t = &x->t[k];
    const char *w = x->src + t->s;
    size_t n = t->e - t->s;
    if (t->kind != T_IDENT || n < 4 || tx_is(x, k - 1, ".") || tx_is(x, k - 1, "->")) return 0;
    for (int i = 0; driver_have[i]; i++)
        if (strlen(driver_have[i]) == n && strncmp(w, driver_have[i], n) == 0) return 0;
    if (w[0] == 'C' && w[1] == 'U' && w[2] >= 'a' && w[2] <= 'z') return 1;
    if (w[0] != 'c' || w[1] != 'u' || !tx_is(x, k + 1, "(")) return 0;
    static const char *const families[] = {
        "Init",     "Driver",  "Device",  "Ctx",      "Module",   "Library",   "Kernel",   "Func",
        "Launch",   "Mem",     "Stream",  "Event",    "Graph",    "Tex",       "Surf",     "Array",
        "Mipmapped", "Pointer", "Occupancy", "Link",  "Ipc",      "Profiler",  "External", "GetErrorName",
        "GetErrorString", "GetProcAddress", "GetExportTable", "TensorMap", "Multicast", "UserObject",
        "Coredump", "FlushGPUDirectRDMAWrites", "ThreadExchangeStreamCaptureMode", NULL};
    for (int i = 0; families[i]; i++) {
        size_t m = strlen(families[i]);
        if (n >= 2 + m && strncmp(w + 2, families[i], m) == 0) return 1;
    }
    return 0;
}

/* names the simulator does not have, and why (after the name) */
static const struct {
    const char *const *words;
    const char *why;
} refused_names[] = {
    {curand_words, "cuRAND's MTGP32 generator and its Poisson and discrete distributions are not simulated (their "
                   "GPU code uses the GPU's approximate functions and tables); XORWOW (curandState), "
                   "Philox4_32_10, MRG32k3a and Sobol are, or run on the GPU"},
};

/* k names one of refused_names (not a member of something): said, 1 */
static int refused_name(tx *x, int k)
{
    if (tx_is(x, k - 1, ".") || tx_is(x, k - 1, "->")) return 0;
    for (size_t i = 0; i < sizeof refused_names / sizeof refused_names[0]; i++)
        if (tx_is_word_of(x, k, refused_names[i].words)) {
            char nm[64];
            tx_text_of(x, k, k + 1, nm, sizeof nm);
            tx_issue(x, x->t[k].line, "%s: %s", nm, refused_names[i].why);
            return 1;
        }
    return 0;
}

/* Tokens a..b-1 joined by single spaces (comments and newlines left out). */
static void tok_join(const tx *x, int a, int b, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = 0;
    for (int i = a; i < b && o + 1 < len; i++) {
        size_t n = x->t[i].e - x->t[i].s;
        if (o && o + 1 < len) buf[o++] = ' ';
        if (o + n + 1 >= len) n = len - o - 1;
        memcpy(buf + o, x->src + x->t[i].s, n);
        o += n;
    }
    buf[o] = 0;
}

static const char *const not_type_words[] = {
    "return", "else", "case", "default", "goto", "throw", "delete", "new", "do", "typedef", "using", "template",
    "static", "extern", "constexpr", "__shared__", "__constant__", "__device__", "__global__", "thread_local",
    "struct", "class", "union", "enum", "operator", "sizeof", "if", "while", "for", "switch", "auto", "asm",
    "__asm__", "co_return", "co_await", "co_yield", "friend", "__managed__", NULL};

/* The array declared at name (its `[...]` groups end at *last) is used
 * only by plain indexing (or sizeof) in the rest of its block: nothing of
 * it goes to a pointer, so -fsanitize=bounds sees every access. */
static int local_stays_indexed(const tx *x, int name, int nd, int from)
{
    int depth = 0;
    for (int j = from; j < x->nt; j++) {
        if (tx_is(x, j, "{")) depth++;
        else if (tx_is(x, j, "}") && --depth < 0) return 1;
        if (x->t[j].kind != T_IDENT || x->t[j].e - x->t[j].s != x->t[name].e - x->t[name].s ||
            memcmp(x->src + x->t[j].s, x->src + x->t[name].s, x->t[name].e - x->t[name].s) != 0)
            continue;
        if (tx_is(x, j - 1, ".") || tx_is(x, j - 1, "->") || tx_is(x, j - 1, "::")) continue;
        if (tx_is(x, j - 1, "sizeof") || (tx_is(x, j - 1, "(") && tx_is(x, j - 2, "sizeof") && tx_is(x, j + 1, ")")))
            continue;
        int g = 0, m = j + 1;
        while (tx_is(x, m, "[")) {
            int d = 0;
            for (; m < x->nt; m++) {
                if (tx_is(x, m, "[")) d++;
                else if (tx_is(x, m, "]") && --d == 0) break;
            }
            g++;
            m++;
        }
        if (g < nd || tx_is(x, j - 1, "&")) return 0;
    }
    return 1;
}

/* The block holding token k is a function's (or a plain block's) body,
 * not a class's, an initializer's or a switch's (a guard's constructor
 * must not be jumped over by a case label). */
static int local_block_ok(const tx *x, int k)
{
    int d = 0, j = k - 1;
    for (; j >= 0; j--) {
        if (tx_is(x, j, "}")) d++;
        else if (tx_is(x, j, "{") && d-- == 0) break;
    }
    if (j < 0) return 0;
    for (int i = stmt_start(x, j); i < j; i++)
        if (tx_is(x, i, "struct") || tx_is(x, i, "class") || tx_is(x, i, "union") || tx_is(x, i, "enum") ||
            tx_is(x, i, "switch") || tx_is(x, i, "="))
            return 0;
    return 1;
}

/* A local array declaration of device code at k (a statement's first
 * token) whose array goes to a pointer somewhere in its block (handed to a
 * function, `p = a + k`, `&a[i]`): declared between red zones and
 * registered with its thread (shim.h: sim_local_array, sim_local_guard),
 * so that an access through the pointer, in any function, inlined or not,
 * that runs past it is reported with the array. The line count stays.
 * Returns the token to go on after, or k when it is not such a
 * declaration. */
static int local_array(tx *x, int k)
{
    int e = stmt_end(x, k);
    if (e < 0) return k;
    /* the type: identifiers and `::`, template arguments in <...> */
    int j = k, ang = 0;
    for (; j < e; j++) {
        if (ang) {
            if (tx_is(x, j, "<")) ang++;
            else if (tx_is(x, j, ">")) ang--;
            else if (tx_is(x, j, ">>")) ang = ang > 1 ? ang - 2 : 0;
            else if (tx_is(x, j, ";") || tx_is(x, j, "{") || tx_is(x, j, "}")) return k;
            continue;
        }
        if (tx_is(x, j, "<") && j > k && x->t[j - 1].kind == T_IDENT) { ang = 1; continue; }
        if (tx_is(x, j, "::")) continue;
        if (x->t[j].kind != T_IDENT) break;
        if (tx_is_word_of(x, j, not_type_words)) return k;
    }
    /* ... then the first declarator's name and its `[` */
    int name = j - 1;
    if (ang || name <= k || !tx_is(x, j, "[") || x->t[name].kind != T_IDENT) return k;
    int type_end = name; /* tokens [k, type_end) */
    if (!local_block_ok(x, k)) return k;
    char type[256];
    tok_join(x, k, type_end, type, sizeof type);
    if (strchr(type, '"') || strlen(type) + 1 >= sizeof type) return k;
    /* the declarators, split at top-level commas */
    enum { MAXD = 16 };
    int ds[MAXD], de[MAXD], nd = 0, from = name, d = 0;
    for (int i = name; i <= e && nd < MAXD; i++) {
        if (i == e || (d == 0 && tx_is(x, i, ","))) {
            ds[nd] = from;
            de[nd] = i;
            nd++;
            from = i + 1;
            continue;
        }
        if (tx_is(x, i, "(") || tx_is(x, i, "[") || tx_is(x, i, "{")) d++;
        else if (tx_is(x, i, ")") || tx_is(x, i, "]") || tx_is(x, i, "}")) d--;
    }
    if (from <= e) return k; /* more declarators than handled */
    int wrap[MAXD], lastbr[MAXD];
    char post[MAXD][700], wtype[MAXD][700];
    int any = 0;
    for (int i = 0; i < nd; i++) {
        wrap[i] = 0;
        int nm = ds[i];
        if (x->t[nm].kind != T_IDENT || !tx_is(x, nm + 1, "[")) continue;
        int m = nm + 1, dims = 0, empty = 0;
        while (m < de[i] && tx_is(x, m, "[")) {
            int dd = 0, o = m;
            for (; m < de[i]; m++) {
                if (tx_is(x, m, "[")) dd++;
                else if (tx_is(x, m, "]") && --dd == 0) break;
            }
            if (m >= de[i]) break;
            empty |= m == o + 1;
            dims++;
            lastbr[i] = m;
            m++;
        }
        /* after the dimensions: nothing, `= init` or `{init}` */
        if (!dims || empty || (m < de[i] && !tx_is(x, m, "=") && !tx_is(x, m, "{"))) continue;
        if (tx_is(x, m, "{") && match_close(x, m, "{", "}") != de[i] - 1) continue;
        if (local_stays_indexed(x, nm, dims, e + 1)) continue;
        char nmt[64], dimt[400], decl[500];
        tok_join(x, nm, nm + 1, nmt, sizeof nmt);
        tok_join(x, nm + 1, lastbr[i] + 1, dimt, sizeof dimt);
        if (strchr(dimt, '"') || strlen(dimt) + 1 >= sizeof dimt) continue;
        snprintf(decl, sizeof decl, "%s %s%s", type, nmt, dimt);
        /* "[ 8 ]" -> "[8]" in the message */
        char *w = decl;
        for (char *r = decl; *r; r++)
            if (!(*r == ' ' && (r[1] == '[' || r[1] == ']' || (r > decl && r[-1] == '[')))) *w++ = *r;
        *w = 0;
        snprintf(wtype[i], sizeof wtype[i], "::gpulab_sim::sim_local_array<%s %s> sim_la_%s", type, dimt, nmt);
        snprintf(post[i], sizeof post[i],
                 " auto &%s = sim_la_%s.v; ::gpulab_sim::sim_local_guard sim_lg_%s(sim_la_%s, \"%s\", __FILE__, %d);",
                 nmt, nmt, nmt, nmt, decl, x->t[nm].line);
        wrap[i] = 1;
        any = 1;
    }
    if (!any) return k;
    for (int i = 0; i < nd; i++) {
        /* where this declarator begins: the type (the first), or its comma */
        if (i == 0) {
            if (wrap[0]) tx_edit_add(x, x->t[k].s, x->t[lastbr[0]].e, "%s", wtype[0]);
        } else if (wrap[i - 1] || wrap[i]) {
            int comma = ds[i] - 1;
            if (wrap[i])
                tx_edit_add(x, x->t[comma].s, x->t[lastbr[i]].e, ";%s %s", wrap[i - 1] ? post[i - 1] : "", wtype[i]);
            else
                tx_edit_add(x, x->t[comma].s, x->t[comma].e, ";%s %s", wrap[i - 1] ? post[i - 1] : "", type);
        }
        if (!wrap[i]) continue;
        /* the initializer, if any, initializes the array member */
        int m = lastbr[i] + 1;
        if (tx_is(x, m, "=")) {
            tx_edit_add(x, x->t[m].e, x->t[m].e, " {{},");
            tx_edit_add(x, x->t[de[i] - 1].e, x->t[de[i] - 1].e, "}");
        } else if (tx_is(x, m, "{")) {
            tx_edit_add(x, x->t[m].s, x->t[m].s, "{{}, ");
            tx_edit_add(x, x->t[de[i] - 1].e, x->t[de[i] - 1].e, "}");
        }
    }
    if (wrap[nd - 1]) tx_edit_add(x, x->t[e].e, x->t[e].e, "%s", post[nd - 1]);
    return e;
}

/* ------------------------------------------------------------------ pass */

/* the legacy texture and surface references (removed in CUDA 12): the
 * objects (cudaTextureObject_t) are what the simulator has */
static const char *const texture_words[] = {"texture", "surface", "cudaBindTexture", "cudaBindTexture2D",
                                            "cudaBindTextureToArray", "cudaUnbindTexture", "cudaBindSurfaceToArray",
                                            "cudaGetTextureReference", NULL};


/* `template <...>` at k: its parameters that have no default (the ones a
 * launch must give or let the compiler deduce) */
static int template_needs(const tx *x, int k)
{
    if (!tx_is(x, k + 1, "<")) return 0;
    int d = 0, params = 0, defaults = 0, empty = 1;
    for (int j = k + 1; j < x->nt; j++) {
        if (tx_is(x, j, "<") || tx_is(x, j, "(")) d++;
        else if (tx_is(x, j, ">") || tx_is(x, j, ")")) {
            if (--d == 0) break;
        } else if (tx_is(x, j, ">>")) {
            d -= 2;
            if (d <= 0) break;
        } else if (d == 1 && tx_is(x, j, ",")) params++;
        else if (d == 1 && tx_is(x, j, "=")) defaults++;
        if (j > k + 1) empty = 0;
    }
    return empty ? 0 : params + 1 - defaults;
}

/* ------------------------------------------- __host__ __device__ functions */

/* nvcc compiles a __host__ __device__ function twice, and its
 * `#ifdef __CUDA_ARCH__` picks the device's branch in the copy kernels call
 * and the host's in the copy host code calls. The simulator compiles one
 * program, so a body that tests __CUDA_ARCH__ is written twice: the
 * function as it is (the host's copy), and after it, under #line directives
 * that keep its lines, a twin named sim_hd_NAME whose conditionals are the
 * device pass's (arch_conditional). The function's first statement sends
 * kernel code to the twin (sim_device_code, shim.h), with its arguments as
 * they came (static_cast<decltype(a) &&>(a)) and its template arguments
 * named. At file or namespace scope a declaration of the twin goes before
 * the function, on its first line. */

/* `...`: three tokens here */
static int is_ellipsis(const tx *x, int k) { return tx_is(x, k, ".") && tx_is(x, k + 1, ".") && tx_is(x, k + 2, "."); }

/* a word followed by a parenthesized attribute, not a name */
static int attribute_word(const tx *x, int k)
{
    return tx_is(x, k, "__attribute__") || tx_is(x, k, "__launch_bounds__") || tx_is(x, k, "__align__") ||
           tx_is(x, k, "alignas") || tx_is(x, k, "__declspec");
}

static const char *const hd_specifiers[] = {"__host__", "__device__", "__forceinline__", "__noinline__", "inline",
                                            "constexpr", "explicit", "static", "virtual", "extern", "friend", NULL};

/* The name of parameter [a, b) of a list (its last identifier before a
 * default, followed by the end, `[` or a declarator's `)`): its token, or -1
 * for an unnamed one */
static int param_name(const tx *x, int a, int b)
{
    int end = b;
    for (int j = a, d = 0; j < b; j++) {
        if (tx_is(x, j, "(") || tx_is(x, j, "[") || tx_is(x, j, "{")) d++;
        else if (tx_is(x, j, ")") || tx_is(x, j, "]") || tx_is(x, j, "}")) d--;
        else if (d == 0 && tx_is(x, j, "=")) { end = j; break; }
    }
    int name = -1;
    for (int j = a + 1; j < end; j++)
        if (x->t[j].kind == T_IDENT && (j + 1 == end || tx_is(x, j + 1, "[") || tx_is(x, j + 1, ")")) &&
            !is_arith_word(x, j) && !tx_is(x, j, "const") && !tx_is(x, j, "volatile") && !tx_is(x, j, "void") &&
            !tx_is(x, j, "auto") && !tx_is(x, j - 1, "::"))
            name = j;
    return name;
}

/* Splits the list between tokens open and close (`(`...`)` or `<`...`>`) at
 * its top-level commas: the starts of its items in at[], the count; the
 * close token ends the last */
static int list_items(const tx *x, int open, int close, int *at, int max)
{
    int n = 0, d = 0;
    if (close == open + 1) return 0;
    at[n++] = open + 1;
    for (int j = open + 1; j < close; j++) {
        if (tx_is(x, j, "(") || tx_is(x, j, "[") || tx_is(x, j, "{") || tx_is(x, j, "<")) d++;
        else if (tx_is(x, j, ")") || tx_is(x, j, "]") || tx_is(x, j, "}") || tx_is(x, j, ">")) d--;
        else if (tx_is(x, j, ">>")) d -= 2;
        else if (d == 0 && tx_is(x, j, ",")) {
            if (n == max) return -1;
            at[n++] = j + 1;
        }
    }
    return n;
}

static int has_arch_directive(const tx *x, int a, int b)
{
    for (int j = a; j < b; j++) {
        if (x->t[j].kind != T_PP) continue;
        char d[16];
        directive_name(x, j, d, sizeof d);
        if ((strncmp(d, "if", 2) == 0 || strcmp(d, "elif") == 0) &&
            memmem(x->src + x->t[j].s, x->t[j].e - x->t[j].s, "__CUDA_ARCH__", 13))
            return 1;
    }
    return 0;
}

static int same_tok(const tx *x, int a, int b)
{
    return a >= 0 && b >= 0 && a < x->nt && b < x->nt && x->t[a].e - x->t[a].s == x->t[b].e - x->t[b].s &&
           memcmp(x->src + x->t[a].s, x->src + x->t[b].s, x->t[a].e - x->t[a].s) == 0;
}

/* The parameter lists at lp and lp2 declare the same types (their names
 * and defaults aside) */
static int same_params(const tx *x, int lp, int lp2)
{
    int at[64], at2[64];
    int rp = match_close(x, lp, "(", ")"), rp2 = match_close(x, lp2, "(", ")");
    int n = list_items(x, lp, rp, at, 64), n2 = list_items(x, lp2, rp2, at2, 64);
    if (n < 0 || n != n2) return 0;
    for (int i = 0; i < n; i++) {
        int e = i + 1 < n ? at[i + 1] - 1 : rp, e2 = i + 1 < n ? at2[i + 1] - 1 : rp2;
        int m = param_name(x, at[i], e), m2 = param_name(x, at2[i], e2);
        /* the type's tokens: all but the name, up to a default */
        for (int a = at[i], a2 = at2[i];; a++, a2++) {
            if (a == m) a++;
            if (a2 == m2) a2++;
            int end = a >= e || tx_is(x, a, "="), end2 = a2 >= e2 || tx_is(x, a2, "=");
            if (end || end2) {
                if (end != end2) return 0;
                break;
            }
            if (!same_tok(x, a, a2)) return 0;
        }
    }
    return 1;
}

/* The declaration in class cls's body (token cls: its name where the
 * definition qualifies the member) of the member whose definition has the
 * name [n0, lp) and the parameter list at lp: its `;` (its first token in
 * *first, its name's in *name), -1 when this file's text before the
 * definition has none */
static int member_declaration(const tx *x, int cls, int n0, int lp, int *first, int *name)
{
    for (int k = 0; k + 2 < n0; k++) {
        if (!(tx_is(x, k, "struct") || tx_is(x, k, "class")) || !same_tok(x, k + 1, cls)) continue;
        int b = k + 2;
        while (b < n0 && !tx_is(x, b, "{") && !tx_is(x, b, ";")) b++;
        int e = tx_is(x, b, "{") ? match_close(x, b, "{", "}") : -1;
        if (e < 0 || e > n0) continue;
        for (int j = b + 1, d = 0; j < e; j++) {
            if (tx_is(x, j, "{")) d++;
            else if (tx_is(x, j, "}")) d--;
            if (d != 0 || tx_is(x, j - 1, "::") || tx_is(x, j - 1, ".")) continue;
            int same = 1;
            for (int q = 0; q < lp - n0 && same; q++) same = same_tok(x, j + q, n0 + q);
            int l2 = j + (lp - n0);
            if (!same || !tx_is(x, l2, "(") || !same_params(x, lp, l2)) continue;
            int s = match_close(x, l2, "(", ")");
            while (s > 0 && s < e && !tx_is(x, s, ";") && !tx_is(x, s, "{")) s++;
            if (s < 0 || !tx_is(x, s, ";")) continue;
            *first = stmt_start(x, j);
            *name = j;
            return s;
        }
    }
    return -1;
}

/* The body at token open of the __host__ __device__ function whose first
 * __device__ is token dev: its twin when the body tests __CUDA_ARCH__ (the
 * twin's index), -1 when it does not or (with the reason listed as
 * something the simulator cannot run) when the function has a form a twin
 * cannot copy */
static int hd_twin_begin(tx *x, int dev, int open, int at_scope)
{
    int close = match_close(x, open, "{", "}");
    if (close < 0 || !has_arch_directive(x, open, close)) return -1;
    const char *why = NULL;
    int ds = stmt_start(x, dev); /* the declaration's first token */
    /* the name and the parameter list */
    int n0 = -1, n1 = -1, lp = -1;
    for (int j = ds; j < open; j++) {
        if (x->t[j].kind == T_PP) { why = "a preprocessor line inside its declaration"; break; }
        if (tx_is(x, j, "operator")) {
            if (x->t[j + 1].kind == T_IDENT) { why = "a conversion operator"; break; }
            n0 = j;
            lp = (tx_is(x, j + 1, "(") && tx_is(x, j + 2, ")")) || (tx_is(x, j + 1, "[") && tx_is(x, j + 2, "]")) ? j + 3 : j + 2;
            n1 = lp;
            break;
        }
        if (tx_is(x, j, "(")) {
            if (j > ds && x->t[j - 1].kind == T_IDENT &&
                !attribute_word(x, j - 1) && !tx_is(x, j - 1, "decltype")) {
                n0 = j - 1;
                n1 = lp = j;
                break;
            }
            j = match_close(x, j, "(", ")");
            if (j < 0) break;
        }
    }
    if (!why && (lp < 0 || !tx_is(x, lp, "("))) why = "a declaration this pass cannot read";
    int rp = why ? -1 : match_close(x, lp, "(", ")");
    if (!why && (rp < 0 || rp > open)) why = "a declaration this pass cannot read";
    if (!why && tx_is(x, n0 - 1, "~")) why = "a destructor";
    /* a member defined outside its class: its twin is declared beside its
     * declaration in the class, which must be in this file */
    int cls = -1, mdecl = -1, mfirst = -1, mname = -1;
    if (!why && tx_is(x, n0 - 1, "::")) {
        cls = n0 - 2;
        if (x->t[cls].kind != T_IDENT || tx_is(x, cls - 1, "::"))
            why = "a member of a nested class or a class template";
        else if ((mdecl = member_declaration(x, cls, n0, lp, &mfirst, &mname)) < 0)
            why = "a member whose class this file does not declare";
    }
    /* a return type: something before the name that is not a specifier or the template header */
    int tmpl_close = -1;
    if (!why && tx_is(x, ds, "template") && tx_is(x, ds + 1, "<")) {
        int d = 0;
        for (int j = ds + 1; j < n0; j++) {
            if (tx_is(x, j, "<")) d++;
            else if (tx_is(x, j, ">") && --d == 0) { tmpl_close = j; break; }
            else if (tx_is(x, j, ">>") && (d -= 2) <= 0) {
                if (d == 0) tmpl_close = j;
                else why = "a template header this pass cannot read";
                break;
            }
        }
        if (tmpl_close < 0 && !why) why = "a template header this pass cannot read";
    }
    int has_type = 0, deduced = 0;
    for (int j = tmpl_close >= 0 ? tmpl_close + 1 : ds; !why && j < (cls >= 0 ? cls : n0); j++) {
        if (tx_is(x, j, "auto")) deduced = 1; /* decltype(expr) is a type; decltype(auto) has its auto */
        if (x->t[j].kind == T_IDENT && !tx_is_word_of(x, j, hd_specifiers)) has_type = 1;
        if (attribute_word(x, j)) {
            if (tx_is(x, j + 1, "(")) j = match_close(x, j + 1, "(", ")");
            if (j < 0) break;
        }
    }
    /* a constructor: its twin is a member function that runs its body (the
     * initializers run before the dispatch, in both) */
    int ctor = !why && (!has_type || (cls >= 0 && same_tok(x, cls, n0)));
    if (ctor && tmpl_close >= 0) why = "a constructor template";
    if (!why && deduced) {
        int trailing = 0;
        for (int j = rp + 1; j < open; j++) trailing |= tx_is(x, j, "->");
        if (!trailing) why = "a return type the compiler deduces (auto)";
    }
    /* the template's parameters and the function's, as the dispatch names them */
    char targs[512] = "", args[1024] = "";
    int at[64], n;
    if (!why && tmpl_close >= 0) {
        n = list_items(x, ds + 1, tmpl_close, at, 64);
        if (n < 0) why = "too many template parameters";
        for (int i = 0; !why && i < n; i++) {
            int e = i + 1 < n ? at[i + 1] - 1 : tmpl_close, name = -1, pack = 0;
            for (int j = at[i]; j < e && !tx_is(x, j, "="); j++) {
                if (x->t[j].kind == T_IDENT && !tx_is(x, j, "typename") && !tx_is(x, j, "class") &&
                    !is_arith_word(x, j) && !tx_is(x, j, "template"))
                    name = j;
                pack |= is_ellipsis(x, j);
            }
            if (name < 0 || !(name == e - 1 || tx_is(x, name + 1, "="))) {
                int dflt = 0;
                for (int j = at[i]; j < e; j++) dflt |= tx_is(x, j, "=");
                if (dflt) break; /* an unnamed one with a default (enable_if): it and the rest keep theirs */
                why = "a template parameter without a name";
                break;
            }
            char nm[64];
            tx_text_of(x, name, name + 1, nm, sizeof nm);
            size_t l = strlen(targs);
            snprintf(targs + l, sizeof targs - l, "%s%s%s", i ? ", " : "", nm, pack ? "..." : "");
        }
    }
    if (!why) {
        n = list_items(x, lp, rp, at, 64);
        if (n < 0) why = "too many parameters";
        if (n == 1 && tx_is(x, at[0], "void") && at[0] + 1 == rp) n = 0;
        for (int i = 0; !why && i < n; i++) {
            int e = i + 1 < n ? at[i + 1] - 1 : rp, name = param_name(x, at[i], e), pack = 0;
            for (int j = at[i]; j < e && !tx_is(x, j, "="); j++) pack |= is_ellipsis(x, j);
            if (name < 0) { why = "a parameter without a name"; break; }
            char nm[64];
            tx_text_of(x, name, name + 1, nm, sizeof nm);
            size_t l = strlen(args);
            snprintf(args + l, sizeof args - l, "%sstatic_cast<decltype(%s) &&>(%s)%s", i ? ", " : "", nm, nm,
                     pack ? "..." : "");
            /* the twin's own parameters take no default: the dispatch gives each */
            for (int j = at[i]; j < e; j++)
                if (tx_is(x, j, "=")) {
                    x->edit_only = ED_TWIN;
                    tx_edit_add(x, x->t[j].s, x->t[e - 1].e, " ");
                    x->edit_only = ED_BOTH;
                    break;
                }
        }
    }
    if (!why && x->ntwins == TX_MAX_TWINS) why = "more such functions in one file than the pass takes";
    if (why) {
        char nm[64];
        tx_text_of(x, n0 >= 0 ? n0 : dev, n0 >= 0 && n1 > n0 ? n1 : dev + 1, nm, sizeof nm);
        tx_issue(x, x->t[open].line, "%s tests __CUDA_ARCH__ in %s: the simulator makes the device side's copy of "
                                   "a __host__ __device__ function, or of a member of a class this file declares, "
                                   "only; move the #ifdef into such a helper, or run on the GPU", nm, why);
        return -1;
    }
    char twin[96];
    if (ctor) snprintf(twin, sizeof twin, "sim_hd_init_%d", x->ntwins);
    else if (tx_is(x, n0, "operator")) snprintf(twin, sizeof twin, "sim_hd_operator_%d", x->ntwins);
    else {
        char nm[64];
        tx_text_of(x, n0, n0 + 1, nm, sizeof nm);
        snprintf(twin, sizeof twin, "sim_hd_%s", nm);
    }
    const char *fma = x->opts && x->opts->fmad ? " " PROG_SIM_FMAD_ATTR : "";
    x->edit_only = ED_TWIN;
    if (ctor) {
        /* `C(params) : inits {` becomes `void init(params) {` */
        char cn[64] = "";
        if (cls >= 0) tx_text_of(x, cls, cls + 1, cn, sizeof cn);
        tx_edit_add(x, x->t[ds].s, x->t[lp].s, "__host__ __device__%s void %s%s%s", fma, cn, cls >= 0 ? "::" : "",
                    twin);
        if (open > rp + 1) tx_edit_add(x, x->t[rp].e, x->t[open].s, " ");
    } else {
        /* the twin's name, and (kernel code's copy) nvcc's fused multiply-adds */
        tx_edit_add(x, x->t[n0].s, x->t[n1 - 1].e, "%s", twin);
        if (fma[0]) tx_edit_add(x, x->t[dev].e, x->t[dev].e, "%s", fma);
    }
    /* the dispatch, on the body's first line */
    x->edit_only = ED_MAIN;
    tx_edit_add(x, x->t[open].e, x->t[open].e,
                " if (!__builtin_is_constant_evaluated() && ::gpulab_sim::sim_device_code()) %s%s%s%s%s(%s);%s",
                ctor ? "{ " : "return ", twin, targs[0] ? "<" : "", targs, targs[0] ? ">" : "", args,
                ctor ? " return; }" : "");
    x->edit_only = ED_BOTH;
    hd_twin *w = &x->twins[x->ntwins];
    w->decl_s = w->decl_e = 0;
    if (mdecl >= 0) {
        /* the class's declaration of it, once more as the twin's */
        x->edit_only = ED_TWIN;
        if (ctor) tx_edit_add(x, x->t[mfirst].s, x->t[mname + (lp - n0) - 1].e, "__host__ __device__ void %s", twin);
        else tx_edit_add(x, x->t[mname].s, x->t[mname + (lp - n0) - 1].e, "%s", twin);
        x->edit_only = ED_BOTH;
        w->decl_s = x->t[mfirst].s;
        w->decl_e = x->t[mdecl].e;
        at_scope = 0;
    }
    w->s = x->t[ds].s;
    w->e = x->t[close].e;
    w->open = x->t[open].s;
    w->line = x->t[ds].line;
    w->eline = x->t[close].line;
    w->declare = at_scope;
    return x->ntwins++;
}

/* malloc, calloc, realloc, aligned_alloc, free and new in host code: to
 * the runtime's own (gpulab_host.h, which the build includes in every
 * file; progrt_host.cpp) with their file and line, so that a kernel given
 * such memory fails as on a GPU. The last token taken, or -1 when token k
 * is none of them. */
static int host_alloc(tx *x, int k)
{
    static const char *const calls[] = {"malloc", "calloc", "realloc", "aligned_alloc", "free", NULL};
    if (x->t[k].kind != T_IDENT || tx_is(x, k - 1, ".") || tx_is(x, k - 1, "->")) return -1;
    if (tx_is(x, k, "new")) {
        /* not `operator new`, nor a placement new or `new (T)` */
        if (tx_is(x, k - 1, "operator") || tx_is(x, k + 1, "(")) return -1;
        tx_edit_add(x, x->t[k].s, x->t[k].e, "%snew (gpulab_host_at{__FILE__, __LINE__})",
                    tx_is(x, k - 1, "::") ? "" : "::");
        return k;
    }
    if (!tx_is_word_of(x, k, calls) || !tx_is(x, k + 1, "(")) return -1;
    int from = k;
    if (tx_is(x, k - 1, "::")) {
        /* ::malloc or std::malloc, not another namespace's or class's */
        if (tx_is(x, k - 2, "std") && !tx_is(x, k - 3, "::")) from = k - 2;
        else if (x->t[k - 2].kind != T_IDENT) from = k - 1;
        else return -1;
    } else if (k > 0 && (x->t[k - 1].kind == T_IDENT || tx_is(x, k - 1, "*") || tx_is(x, k - 1, "&"))) {
        /* a declaration of the name (`void *malloc(size_t)`) stays */
        static const char *const before[] = {"return", "else", "do", "throw", "case", NULL};
        if (!tx_is_word_of(x, k - 1, before)) return -1;
    }
    char nm[32];
    tx_text_of(x, k, k + 1, nm, sizeof nm);
    if (strcmp(nm, "free") == 0) tx_edit_add(x, x->t[from].s, x->t[k + 1].e, "gpulab_host_free(");
    else tx_edit_add(x, x->t[from].s, x->t[k + 1].e, "gpulab_host_%s(__FILE__, __LINE__, ", nm);
    return k + 1;
}

/* The arrays host code declares at file scope (outside namespaces): their
 * names and lines into x->hostvar, registered with the runtime at the end
 * of the file (prog_translate_opts), so that a kernel handed one fails as
 * on a GPU (progrt_host.cpp). Not: declarations of functions, types,
 * externs, templates, thread_local, const or device variables. */
static void host_arrays(tx *x)
{
    static const char *const skip[] = {"typedef", "extern", "using", "template", "static_assert", "namespace",
                                       "thread_local", "__device__", "__constant__", "__shared__", "__managed__",
                                       "__global__", "__host__", "friend", "operator",
                                       /* a constant array a kernel may name (its values folded) */
                                       "const", "constexpr", NULL};
    int k = 0;
    while (k < x->nt && x->nhostvar < PROG_MAX_KERNELS) {
        /* one statement at file scope: tokens [k, e) */
        if (x->t[k].kind == T_PP || tx_is(x, k, ";")) {
            k++;
            continue;
        }
        int e = k, depth = 0, init = 0, body = 0;
        for (; e < x->nt; e++) {
            if (x->t[e].kind == T_PP) continue;
            if (tx_is(x, e, "=") && depth == 0) init = 1;
            if (tx_is(x, e, "(") || tx_is(x, e, "[") || tx_is(x, e, "{")) {
                if (tx_is(x, e, "{") && depth == 0 && !init) body = 1;
                depth++;
            } else if (tx_is(x, e, ")") || tx_is(x, e, "]") || tx_is(x, e, "}")) {
                if (--depth == 0 && body && tx_is(x, e, "}")) break; /* a function, class or namespace */
                if (depth < 0) return;
            } else if (depth == 0 && tx_is(x, e, ";")) {
                break;
            }
        }
        if (e >= x->nt) return;
        int take = !body;
        for (int j = k; j < e && take; j++)
            if (x->t[j].kind == T_IDENT && tx_is_word_of(x, j, skip)) take = 0;
        /* each declarator NAME[...] before its initialiser; a `(` first: a function */
        int d = 0, in_init = 0;
        for (int j = k; j < e && take; j++) {
            if (x->t[j].kind == T_PP) continue;
            if (d == 0 && tx_is(x, j, ",")) in_init = 0;
            else if (d == 0 && tx_is(x, j, "=")) in_init = 1;
            if (!in_init && d == 0 && tx_is(x, j, "(")) break;
            if (!in_init && d == 0 && x->t[j].kind == T_IDENT && tx_is(x, j + 1, "[") && !tx_is(x, j - 1, "::") &&
                !tx_is(x, j - 1, ".")) {
                tx_text_of(x, j, j + 1, x->hostvar[x->nhostvar], 64);
                x->hostvar_line[x->nhostvar++] = x->t[j].line;
                if (x->nhostvar >= PROG_MAX_KERNELS) return;
            }
            if (tx_is(x, j, "(") || tx_is(x, j, "[") || tx_is(x, j, "{")) d++;
            else if (tx_is(x, j, ")") || tx_is(x, j, "]") || tx_is(x, j, "}")) d--;
        }
        k = e + 1;
    }
}

static void pass(tx *x)
{
    int depth = 0;           /* braces */
    int pending = 0;         /* saw __global__/__device__, waiting for its body */
    int pending_global = 0, pending_template = 0, pending_scope = 0;
    int pending_needs = 0;   /* the template's parameters without a default */
    int dev_depth = -1;      /* brace depth of the device function body we are in */
    int pending_host = 0, dev_host = 0; /* __host__ __device__: compiled for the host too */
    /* the declaration's first __global__/__device__ word, and whether a `(`
     * (a function) or a `=` (a variable's initialiser) followed it */
    int pending_tok = -1, pending_fn = 0, pending_init = 0;
    int ppdev[64], npp = 0;  /* open conditionals: whether theirs is the device's __CUDA_ARCH__ */
    /* open conditionals on the driver API's header (__cuda_cuda_h__, which the
     * simulator's cuda.h does not define, or helper_cuda.h's CUDA_DRIVER_API):
     * their first branch is not compiled here */
    int ppdrv[64], ndrv_open = 0;
    int fn_depth = 0;        /* brace depth that holds function bodies: file scope unless in a namespace */
    int paren = 0;
    int ns_stack[64], nns = 0; /* depths of namespace/extern "C" braces */
    int twin_cur = -1;       /* the __host__ __device__ body we are in has a device twin (hd_twin_begin) */
    for (int k = 0; k < x->nt && !x->oom; k++) {
        const tok *t = &x->t[k];
        if (t->kind == T_PP) {
            /* which pass of nvcc's a conditional's __CUDA_ARCH__ is from */
            char d[16];
            directive_name(x, k, d, sizeof d);
            int device = dev_depth >= 0 && !dev_host;
            if (strncmp(d, "if", 2) == 0) {
                if (!device && memmem(x->src + t->s, t->e - t->s, "__CUDA_ARCH__", 13))
                    device = group_has_device_code(x, k);
                int drv = memmem(x->src + t->s, t->e - t->s, "__cuda_cuda_h__", 15) ||
                          memmem(x->src + t->s, t->e - t->s, "CUDA_DRIVER_API", 15);
                if (npp < 64) {
                    ppdev[npp] = device;
                    ppdrv[npp] = drv && strcmp(d, "ifndef") != 0;
                    ndrv_open += ppdrv[npp];
                }
                npp++;
            } else if (strcmp(d, "elif") == 0 || strcmp(d, "else") == 0) {
                device = npp > 0 && npp <= 64 ? ppdev[npp - 1] : device;
                if (npp > 0 && npp <= 64 && ppdrv[npp - 1]) {
                    ppdrv[npp - 1] = 0;
                    ndrv_open--;
                }
            } else if (strcmp(d, "endif") == 0 && npp > 0) {
                if (npp <= 64 && ppdrv[npp - 1]) ndrv_open--;
                npp--;
            }
            directive(x, k, device ? ED_BOTH : twin_cur >= 0 ? ED_TWIN : -1);
            continue;
        }
        if (t->kind == T_LOPEN) {
            int nk = launch(x, k, dev_depth >= 0);
            if (nk > k + 1) k = nk - 1;
            continue;
        }
        if (t->kind == T_PUNCT) {
            if (tx_is(x, k, "(")) {
                pending_fn |= pending && paren == 0;
                paren++;
            } else if (tx_is(x, k, ")")) {
                paren--;
            } else if (tx_is(x, k, "=")) {
                pending_init |= pending && paren == 0;
            } else if (tx_is(x, k, "{")) {
                /* namespace X {, extern "C" { keep file scope */
                int j = k - 1;
                if ((j >= 0 && x->t[j].kind == T_STR && tx_is(x, j - 1, "extern")) || tx_is(x, j, "namespace") ||
                    (x->t[j].kind == T_IDENT && tx_is(x, j - 1, "namespace"))) {
                    if (nns < 64) ns_stack[nns++] = depth;
                    depth++;
                    fn_depth = depth;
                    continue;
                }
                depth++;
                if (pending && dev_depth < 0 && paren == 0) {
                    dev_depth = depth;
                    dev_host = pending_host;
                    twin_cur = -1;
                    if (x->mode == PROG_SIM && pending_host && pending_fn && !pending_init && pending_tok >= 0)
                        twin_cur = hd_twin_begin(x, pending_tok, k, depth - 1 == fn_depth);
                    /* a __global__ or __device__ function's body (not a
                     * variable's braces, not a lambda's): its a*b + c
                     * become fused multiply-adds, as nvcc makes them by
                     * default (-fmad=true); a __host__ __device__
                     * function's only where it is inlined into device code */
                    if (x->mode == PROG_SIM && x->opts && x->opts->fmad && !pending_host && pending_fn &&
                        !pending_init && pending_tok >= 0 && !tx_is(x, pending_tok - 1, "]"))
                        tx_edit_add(x, x->t[pending_tok].e, x->t[pending_tok].e, " %s", PROG_SIM_FMAD_ATTR);
                }
                pending = 0;
                pending_host = 0;
                pending_fn = pending_init = 0;
            } else if (tx_is(x, k, "}")) {
                if (dev_depth >= 0 && depth == dev_depth) {
                    dev_depth = -1;
                    twin_cur = -1;
                }
                depth--;
                if (nns > 0 && depth == ns_stack[nns - 1]) {
                    nns--;
                    fn_depth = nns ? ns_stack[nns - 1] + 1 : 0;
                }
            } else if (tx_is(x, k, ";") && paren == 0) {
                pending = 0;
                pending_host = 0;
                pending_fn = pending_init = 0;
            }
            continue;
        }
        if (t->kind != T_IDENT) continue;
        if (tx_is(x, k, "__host__")) pending_host = 1;
        if (x->mode == PROG_SIM && tx_is(x, k, "__constant__") && !pending && depth == fn_depth && dev_depth < 0 &&
            paren == 0)
            device_variable(x, k); /* a __constant__ array is watched like a __device__ one */
        if (tx_is(x, k, "__global__") || tx_is(x, k, "__device__")) {
            /* a __device__ variable ends at `;` and clears this */
            if (x->mode == PROG_SIM && tx_is(x, k, "__device__") && !pending && depth == fn_depth && dev_depth < 0 &&
                paren == 0)
                device_variable(x, k);
            if (!pending) pending_tok = k;
            pending = 1;
            if (tx_is(x, k, "__global__")) {
                pending_global = 1;
                /* a template kernel cannot be named without its arguments */
                pending_template = 0;
                for (int j = k - 1; j >= 0 && x->t[j].kind != T_PP && !tx_is(x, j, ";") && !tx_is(x, j, "}") &&
                                    !tx_is(x, j, "{");
                     j--)
                    if (tx_is(x, j, "template")) {
                        pending_template = 1;
                        pending_needs = template_needs(x, j);
                    }
                pending_scope = depth == 0 && nns == 0;
            }
        }
        if (tx_is(x, k, "__device__") && dev_depth < 0 && paren == 0 && x->out->ntemplate_devfns < PROG_MAX_KERNELS) {
            /* a template __device__ function: its name (the first identifier before a `(`) */
            int tmpl = 0;
            for (int j = k - 1; j >= 0 && x->t[j].kind != T_PP && !tx_is(x, j, ";") && !tx_is(x, j, "}") &&
                                !tx_is(x, j, "{");
                 j--)
                if (tx_is(x, j, "template")) tmpl = 1;
            for (int j = k + 1; tmpl && j + 1 < x->nt && !tx_is(x, j, ";") && !tx_is(x, j, "{"); j++)
                if (x->t[j].kind == T_IDENT && tx_is(x, j + 1, "(")) {
                    if (tx_is(x, j, "__launch_bounds__") || tx_is(x, j, "__align__") || tx_is(x, j, "alignas") ||
                        tx_is(x, j, "__attribute__") || tx_is(x, j, "decltype"))
                        break;
                    tx_text_of(x, j, j + 1, x->out->template_devfns[x->out->ntemplate_devfns++], 64);
                    break;
                }
        }
        if (x->mode == PROG_SIM && dev_depth >= 0 && is_template_device_fn(x, k) &&
            !tx_is(x, k - 1, ".") &&
            !tx_is(x, k - 1, "->")) {
            /* f(s_left, n, ...) of a template device function: each plain
             * name among its arguments goes through sim_addr, which gives a
             * shared array's or shared pointer's address and a shared
             * element itself (a proxy would stop the compiler deducing T
             * from `T *` or `T &`), anything else as it is */
            int j = k + 1;
            if (tx_is(x, j, "<")) {
                int ang = 1;
                for (j++; j < x->nt && ang > 0 && !tx_is(x, j, ";"); j++) {
                    if (tx_is(x, j, "<")) ang++;
                    else if (tx_is(x, j, ">")) ang--;
                    else if (tx_is(x, j, ">>")) ang -= 2;
                }
            }
            if (tx_is(x, j, "(")) {
                int d = 0;
                for (int m = j; m < x->nt && !tx_is(x, m, ";"); m++) {
                    if (tx_is(x, m, "(") || tx_is(x, m, "[") || tx_is(x, m, "{")) d++;
                    else if (tx_is(x, m, ")") || tx_is(x, m, "]") || tx_is(x, m, "}")) {
                        if (--d == 0) break;
                    } else if (d == 1 && x->t[m].kind == T_IDENT && (tx_is(x, m - 1, "(") || tx_is(x, m - 1, ",")) &&
                               (tx_is(x, m + 1, ",") || tx_is(x, m + 1, ")")) && global_shared(x, m) < 0) {
                        char nm[64];
                        tx_text_of(x, m, m + 1, nm, sizeof nm);
                        tx_edit_add(x, x->t[m].s, x->t[m].e, "::gpulab_sim::sim_addr(%s)", nm);
                    }
                }
            }
        }
        if (pending_global) {
            /* the kernel's name: the identifier before the first `(` */
            if (tx_is(x, k + 1, "(") && !tx_is(x, k, "__launch_bounds__") && !tx_is(x, k, "__global__") &&
                !tx_is(x, k, "__align__") && !tx_is(x, k, "__attribute__")) {
                prog_source *o = x->out;
                if (o->nkernels < PROG_MAX_KERNELS) {
                    tx_text_of(x, k, k + 1, o->kernels[o->nkernels].name, sizeof o->kernels[0].name);
                    o->kernels[o->nkernels].line = t->line;
                    if (pending_template && o->ntemplate_kernels < PROG_MAX_KERNELS) {
                        o->template_kernel_needs[o->ntemplate_kernels] = pending_needs;
                        memcpy(o->template_kernels[o->ntemplate_kernels++], o->kernels[o->nkernels].name, 64);
                    }
                    o->nkernels++;
                }
                if (x->mode == PROG_SIM && !pending_template && pending_scope && x->nreg < PROG_MAX_KERNELS) {
                    char nm[64];
                    int dup = 0;
                    tx_text_of(x, k, k + 1, nm, sizeof nm);
                    for (int i = 0; i < x->nreg; i++) dup |= strcmp(x->reg[i], nm) == 0;
                    if (!dup) snprintf(x->reg[x->nreg++], 64, "%s", nm);
                }
                pending_global = 0;
            }
        }
        if (x->mode != PROG_SIM) continue;
        if (tx_is(x, k, "__shared__")) {
            int s = stmt_start(x, k), e = stmt_end(x, k);
            if (e < 0) {
                tx_issue(x, t->line, "this __shared__ declaration has no `;`");
                continue;
            }
            shared_decl(x, s, e, depth == fn_depth && dev_depth < 0);
            k = e;
            continue;
        }
        if (dev_depth >= 0 && paren == 0 && k > 0 &&
            (tx_is(x, k - 1, ";") || tx_is(x, k - 1, "{") || tx_is(x, k - 1, "}"))) {
            int nk = local_array(x, k);
            if (nk > k) { k = nk; continue; }
        }
        if (dev_depth >= 0 || pending) {
            int nk = device_pointer(x, k);
            if (nk > k) { k = nk - 1; continue; }
        }
        if (dev_depth < 0 && !pending && tx_is(x, k + 1, "<") && is_template_kernel(x, k) && !tx_is(x, k - 1, "::") &&
            !tx_is(x, k - 1, ".") && !tx_is(x, k - 1, "->") && !tx_is(x, k - 1, "void")) {
            /* the address of a template kernel's instance, `(void *)k<int>`
             * for cudaLaunchKernel or cudaLaunchCooperativeKernel: the
             * instance joins the kernels found by address */
            int j = k + 2, ang = 1;
            for (; j < x->nt && ang > 0 && !tx_is(x, j, ";") && !tx_is(x, j, "{"); j++) {
                if (tx_is(x, j, "<")) ang++;
                else if (tx_is(x, j, ">")) ang--;
                else if (tx_is(x, j, ">>")) ang -= 2;
            }
            if (ang == 0 && j < x->nt && !tx_is(x, j, "(") && x->t[j].kind != T_LOPEN) {
                char nm[200];
                tx_text_of(x, k, j, nm, sizeof nm);
                if (!strchr(nm, '"') && !strchr(nm, '\\')) {
                    tx_edit_add(x, t->s, t->s, "::gpulab_sim::sim_kreg_tmpl(");
                    tx_edit_add(x, x->t[j - 1].e, x->t[j - 1].e, ", \"%s\")", nm);
                    k = j - 1;
                    continue;
                }
            }
        }
        if (dev_depth >= 0 && tx_is(x, k, "reinterpret_cast") && tx_is(x, k + 1, "<")) {
            /* reinterpret_cast<float4 *>(smem) of a shared array or pointer
             * (a class on the simulator): cast its address */
            int j = k + 2, ang = 1;
            for (; j < x->nt && ang > 0 && !tx_is(x, j, ";"); j++) {
                if (tx_is(x, j, "<")) ang++;
                else if (tx_is(x, j, ">")) ang--;
                else if (tx_is(x, j, ">>")) ang -= 2;
            }
            if (ang == 0 && tx_is(x, j, "(") && j + 2 < x->nt && x->t[j + 1].kind == T_IDENT &&
                tx_is(x, j + 2, ")") && !tx_is(x, j + 1, "this")) {
                char nm[64];
                tx_text_of(x, j + 1, j + 2, nm, sizeof nm);
                tx_edit_add(x, x->t[j + 1].s, x->t[j + 1].e, "::gpulab_sim::sim_addr(%s)", nm);
                k = j + 2;
                continue;
            }
        }
        if (dev_depth >= 0 && (tx_is(x, k, "memcpy") || tx_is(x, k, "memset")) && tx_is(x, k + 1, "(") &&
            !tx_is(x, k - 1, ".") && !tx_is(x, k - 1, "->") &&
            (!tx_is(x, k - 1, "::") || (tx_is(x, k - 2, "std") && !tx_is(x, k - 3, "::")))) {
            /* memcpy and memset in device code: the bytes they touch are
             * checked like the accesses of the kernel's own code */
            int from = tx_is(x, k - 1, "::") ? k - 2 : k;
            tx_edit_add(x, x->t[from].s, t->e, "::gpulab_sim::sim_dev_%s", tx_is(x, k, "memcpy") ? "memcpy" : "memset");
            continue;
        }
        if (dev_depth < 0 && !pending) {
            int nk = host_alloc(x, k);
            if (nk >= k) { k = nk; continue; }
        }
        if (dev_depth >= 0 && (!dev_host || twin_cur >= 0) && tx_is(x, k, "__CUDA_ARCH__")) {
            x->edit_only = dev_host ? ED_TWIN : ED_BOTH;
            tx_edit_add(x, t->s, t->e, "GPULAB_CUDA_ARCH");
            x->edit_only = ED_BOTH;
            continue;
        }
        if (x->nsized && dev_depth >= 0 && tx_is(x, k, "sizeof")) {
            /* sizeof(NAME) / sizeof NAME of a __shared__ array */
            int par = tx_is(x, k + 1, "("), at = k + 1 + par;
            int end = par ? (at + 1 < x->nt && tx_is(x, at + 1, ")") ? at + 1 : -1) : at;
            if (end >= 0 && at < x->nt && x->t[at].kind == T_IDENT &&
                !(end + 1 < x->nt && (tx_is(x, end + 1, "[") || tx_is(x, end + 1, ".") || tx_is(x, end + 1, "->")) && !par)) {
                char nm[64];
                tx_text_of(x, at, at + 1, nm, sizeof nm);
                for (int i = 0; i < x->nsized; i++)
                    if (strcmp(x->sized[i], nm) == 0) {
                        tx_edit_add(x, t->s, x->t[end].e, "sim_sizeof_%s", nm);
                        k = end;
                        break;
                    }
                if (k == end) continue;
            }
        }
        if (x->nglobals && global_shared(x, k) >= 0 && !tx_is(x, k - 1, ".") && !tx_is(x, k - 1, "->") &&
            !tx_is(x, k - 1, "::")) {
            char nm[64];
            tx_text_of(x, k, k + 1, nm, sizeof nm);
            tx_edit_add(x, t->s, t->e, "sim_get_%s()", nm);
            continue;
        }
        if ((dev_depth >= 0 || pending) && tx_is(x, k, "printf") && !tx_is(x, k - 1, ".") && !tx_is(x, k - 1, "->") &&
            tx_is(x, k + 1, "(")) {
            /* in device code only: host code has no shared elements, and a
             * .cpp file may not include the runtime at all */
            /* shared-memory elements are proxies: printf gets their values */
            if (tx_is(x, k - 1, "::") && tx_is(x, k - 2, "std"))
                tx_edit_add(x, x->t[k - 2].s, t->e, "::gpulab_sim::sim_printf");
            else if (!tx_is(x, k - 1, "::"))
                tx_edit_add(x, t->s, t->e, "::gpulab_sim::sim_printf");
            continue;
        }
        /* PTX in device code; inline assembly of host code is the host
         * compiler's (a compiler barrier, x87 rounding control in a header) */
        if (dev_depth >= 0 && (tx_is(x, k, "asm") || tx_is(x, k, "__asm__") || tx_is(x, k, "__asm"))) {
            tx_issue(x, t->line, "inline assembly (asm, PTX) runs only on an NVIDIA GPU: the simulator cannot "
                              "execute PTX; use the CUDA intrinsic that does the same");
            continue;
        }
        if (tx_is(x, k, "thrust") && tx_is(x, k + 1, "::") && !prog_thrust_dir()) {
            tx_issue(x, t->line, "thrust: no CUDA toolkit's thrust headers were found (the simulator runs the "
                              "toolkit's own thrust); install the CUDA toolkit or set CUDA_HOME, or run on the GPU");
            continue;
        }
        if (tx_is(x, k, "cub") && tx_is(x, k + 1, "::")) {
            tx_issue(x, t->line, "CUB is a GPU library; the simulator has no CUB (write the kernel yourself, or "
                              "run on the GPU)");
            continue;
        }
        if (tx_is(x, k + 1, "(") && (strncmp(x->src + t->s, "cudaIpc", 7) == 0 ||
                                     tx_is(x, k, "cudaDeviceEnablePeerAccess") || tx_is(x, k, "cudaMemcpyPeer") ||
                                     tx_is(x, k, "cudaMemcpyPeerAsync") || tx_is(x, k, "cudaDeviceCanAccessPeer"))) {
            char nm[64];
            tx_text_of(x, k, k + 1, nm, sizeof nm);
            tx_issue(x, t->line, "%s: the simulator models one GPU in one process; memory shared between processes "
                              "(IPC) or between GPUs (peer access) needs real GPUs", nm);
            continue;
        }
        if (x->mode == PROG_SIM && !x->driver_said && !ndrv_open && driver_api_word(x, k)) {
            char nm[64];
            tx_text_of(x, k, k + 1, nm, sizeof nm);
            tx_issue(x, t->line, "%s is a part of the CUDA driver API that the simulator does not have: of the "
                              "driver API it has cuInit, the device, its primary context, cuMemAlloc and its copies "
                              "and virtual memory management (modules and cuLaunchKernel need a cubin or PTX, which "
                              "it cannot execute); set backend gpu runs the program on a GPU", nm);
            x->driver_said = 1;
            continue;
        }
        if (t->kind == T_IDENT && (x->out->libs & PROG_LIB_CUBLAS) && cublas_missing(x, k)) {
            char nm[64];
            tx_text_of(x, k, k + 1, nm, sizeof nm);
            tx_issue(x, t->line, "%s: this cuBLAS routine is not simulated (the simulator has level 1, gemv, ger, "
                              "gemm, gemmBatched and gemmStridedBatched in float and double); run on the GPU", nm);
            continue;
        }
        if (refused_name(x, k)) continue;
        for (int w = 0; texture_words[w]; w++)
            if (tx_is(x, k, texture_words[w]) && (w > 1 || tx_is(x, k + 1, "<")) && !tx_is(x, k - 1, "::") &&
                !tx_is(x, k - 1, ".")) {
                tx_issue(x, t->line, "%s: the texture and surface references were removed in CUDA 12 and are not "
                                  "simulated; use a texture object (cudaCreateTextureObject, tex2D<T>(obj, x, y)), "
                                  "which the simulator has",
                      texture_words[w]);
                break;
            }
        if (dev_depth >= 0 && !dev_host && tx_is(x, k, "cudaDeviceSynchronize") && tx_is(x, k + 1, "("))
            tx_issue(x, t->line, "cudaDeviceSynchronize() in device code: CUDA 12 removed it (nvcc refuses it for this "
                              "GPU); a parent kernel cannot wait for its children, which finish before the parent's "
                              "grid counts as finished -- read their results in a later kernel or on the host");
    }
}

static int edit_cmp(const void *a, const void *b)
{
    const edit *x = a, *y = b;
    if (x->s != y->s) return x->s < y->s ? -1 : 1;
    if (x->e != y->e) return x->e < y->e ? -1 : 1; /* an insertion before a replacement at its place */
    return x->seq - y->seq;
}

/* Source bytes [a, b) with the first ned edits (sorted) inside them, but
 * those of copy `other` (ED_MAIN or ED_TWIN), into f */
static void render(const tx *x, int ned, size_t a, size_t b, int other, FILE *f)
{
    size_t pos = a;
    for (int i = 0; i < ned; i++) {
        const edit *d = &x->ed[i];
        if (d->only == other || d->s < pos || d->e > b) continue;
        fwrite(x->src + pos, 1, d->s - pos, f);
        fputs(d->text, f);
        pos = d->e;
    }
    if (b > pos) fwrite(x->src + pos, 1, b - pos, f);
}

static void put_quoted(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* Source bytes [a, b) as the twin has them, on one line (no comment, no
 * newline): a declaration; NULL when memory ran out */
static char *one_line(const tx *x, int ned, size_t a, size_t b)
{
    char *head = NULL;
    size_t hl = 0;
    FILE *f = open_memstream(&head, &hl);
    if (!f) return NULL;
    render(x, ned, a, b, ED_MAIN, f);
    if (fclose(f) != 0 || !head) { free(head); return NULL; }
    size_t o = 0;
    char q = 0;
    for (size_t i = 0; i < hl; i++) {
        char c = head[i];
        if (!q && c == '/' && head[i + 1] == '/') { while (i < hl && head[i] != '\n') i++; c = ' '; }
        else if (!q && c == '/' && head[i + 1] == '*') {
            for (i += 2; i + 1 < hl && !(head[i] == '*' && head[i + 1] == '/'); i++) {}
            i++;
            c = ' ';
        } else if (c == '"' || c == '\'') {
            if (!q) q = c;
            else if (c == q && head[i - 1] != '\\') q = 0;
        }
        head[o++] = c == '\n' || c == '\r' ? ' ' : c;
    }
    while (o > 0 && (head[o - 1] == ' ' || head[o - 1] == '\t')) o--;
    head[o] = 0;
    return head;
}

/* The device twin of a __host__ __device__ function (hd_twin_begin) after
 * it, and its declaration before it (or, for a member defined outside its
 * class, beside the member's declaration there), as edits of the file's
 * own copy */
static void twin_edits(tx *x, const hd_twin *w, const char *path, int ned)
{
    char *text = NULL;
    size_t tl = 0;
    FILE *f = open_memstream(&text, &tl);
    if (!f) { x->oom = 1; return; }
    fprintf(f, "\n#line %d ", w->line);
    put_quoted(f, path);
    fputc('\n', f);
    render(x, ned, w->s, w->e, ED_MAIN, f);
    fprintf(f, "\n#line %d ", w->eline);
    put_quoted(f, path);
    fputc('\n', f);
    if (fclose(f) != 0 || !text) { free(text); x->oom = 1; return; }
    x->edit_only = ED_MAIN;
    tx_edit_add(x, w->e, w->e, "%s", text);
    free(text);
    char *head = NULL;
    if (w->declare && (head = one_line(x, ned, w->s, w->open)) != NULL) tx_edit_add(x, w->s, w->s, "%s; ", head);
    else if (w->decl_e && (head = one_line(x, ned, w->decl_s, w->decl_e)) != NULL)
        tx_edit_add(x, w->decl_e, w->decl_e, " %s", head);
    else if (w->declare || w->decl_e) x->oom = 1;
    free(head);
    x->edit_only = ED_BOTH;
}

int prog_translate(const char *src, size_t len, const char *path, const char *shown, enum prog_mode mode,
                   prog_source *out)
{
    return prog_translate_opts(src, len, path, shown, mode, NULL, out);
}

int prog_translate_opts(const char *src, size_t len, const char *path, const char *shown, enum prog_mode mode,
                        const prog_tx_opts *opts, prog_source *out)
{
    memset(out, 0, sizeof *out);
    tx x;
    memset(&x, 0, sizeof x);
    x.src = src;
    x.len = len;
    x.shown = shown ? shown : path;
    x.mode = mode;
    x.out = out;
    x.opts = opts;
    x.path = path;
    tx_tokenize(&x);
    if (!x.oom) pass(&x);
    if (!x.oom && mode == PROG_SIM) host_arrays(&x);
    int rc = -1;
    if (!x.oom) {
        if (x.ned > 1) qsort(x.ed, (size_t)x.ned, sizeof *x.ed, edit_cmp); /* qsort of NULL is undefined, even of 0 */
        if (x.ntwins) {
            /* render reads only the sorted edits before the twins' own */
            int sorted = x.ned;
            for (int w = 0; w < x.ntwins && !x.oom; w++) twin_edits(&x, &x.twins[w], path, sorted);
            qsort(x.ed, (size_t)x.ned, sizeof *x.ed, edit_cmp);
        }
    }
    if (!x.oom) {
        size_t cap = len + 256 + strlen(path) * 2 + (size_t)(x.nreg + x.nhostvar) * 200;
        for (int i = 0; i < x.ned; i++) cap += strlen(x.ed[i].text);
        char *o = malloc(cap + 1);
        if (o) {
            size_t ol = 0;
            /* the file's own name and line numbers from the first line on */
            ol += (size_t)snprintf(o, cap, "#line 1 \"");
            for (const char *c = path; *c; c++) {
                if (*c == '"' || *c == '\\') o[ol++] = '\\';
                o[ol++] = *c;
            }
            o[ol++] = '"';
            o[ol++] = '\n';
            size_t pos = 0;
            for (int i = 0; i < x.ned; i++) {
                if (x.ed[i].s < pos || x.ed[i].only == ED_TWIN) continue; /* overlapping (should not happen) */
                memcpy(o + ol, src + pos, x.ed[i].s - pos);
                ol += x.ed[i].s - pos;
                size_t tl = strlen(x.ed[i].text);
                memcpy(o + ol, x.ed[i].text, tl);
                ol += tl;
                pos = x.ed[i].e;
            }
            memcpy(o + ol, src + pos, len - pos);
            ol += len - pos;
            for (int i = 0; i < x.nreg; i++)
                ol += (size_t)snprintf(o + ol, cap + 1 - ol,
                                       "%sSIM_KREG(%s, \"%s\");\n", i == 0 ? "\n" : "", x.reg[i], x.reg[i]);
            /* host code's file-scope arrays: the host's memory (host_arrays) */
            for (int i = 0; i < x.nhostvar; i++)
                ol += (size_t)snprintf(o + ol, cap + 1 - ol,
                                       "%sstatic const int gpulab_host_var_%d = gpulab_host_global((const void *)&%s, "
                                       "sizeof %s, \"%s\", __FILE__, %d);\n",
                                       i == 0 && x.nreg == 0 ? "\n" : "", i, x.hostvar[i], x.hostvar[i],
                                       x.hostvar[i], x.hostvar_line[i]);
            o[ol] = 0;
            out->text = o;
            out->len = ol;
            rc = 0;
        }
    }
    for (int i = 0; i < x.ned; i++) free(x.ed[i].text);
    free(x.ed);
    free(x.t);
    return rc;
}

void prog_source_free(prog_source *s)
{
    free(s->text);
    s->text = NULL;
}
