/* test_translate.c - the source pass (kernels/program/translate.c): what it
 * makes of each form of shared declaration and launch, that it keeps every
 * line where it was, and what it refuses, with the line. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kernels/program/program.h"
#include "kernels/program/program_build.h"

static prog_source S;

static const char *sim(const char *src)
{
    prog_source_free(&S);
    assert_int_equal(prog_translate(src, strlen(src), "/x/t.cu", "t.cu", PROG_SIM, &S), 0);
    return S.text;
}

static int lines(const char *s)
{
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

/* the text of line n (1-based) of the translated file, after its #line */
static const char *line_of(const char *s, int n, char *buf, size_t len)
{
    const char *p = strchr(s, '\n') + 1;
    for (int i = 1; i < n && p; i++) p = strchr(p, '\n'), p = p ? p + 1 : NULL;
    assert_non_null(p);
    size_t l = strcspn(p, "\n");
    snprintf(buf, len, "%.*s", (int)(l < len ? l : len - 1), p);
    return buf;
}

/* refusal i of the last pass is at line and says text */
static void expect_issue(int i, int line, const char *text)
{
    assert_true(i < S.nissues);
    assert_int_equal(S.issues[i].line, line);
    assert_non_null(strstr(S.issues[i].msg, text));
}

static void test_line_directive_and_lines_kept(void **state)
{
    (void)state;
    const char *src = "__global__ void k(float *p)\n{\n    __shared__ float a[4],\n        b[8];\n"
                      "    p[0] = a[0] + b[0];\n}\nint main() { k<<<1,\n 4>>>(0); }\n";
    const char *t = sim(src);
    assert_true(strncmp(t, "#line 1 \"/x/t.cu\"\n", 18) == 0);
    /* the file's lines, then what the pass adds after the last one */
    const char *reg = strstr(t, "\nSIM_KREG(k, \"k\");");
    assert_non_null(reg);
    char b[512];
    assert_string_equal(line_of(t, 5, b, sizeof b), "    p[0] = a[0] + b[0];");
    assert_string_equal(line_of(t, 6, b, sizeof b), "}");
    assert_int_equal(lines(t) - lines(reg), lines(src) + 1);
    assert_int_equal(S.nkernels, 1);
    assert_string_equal(S.kernels[0].name, "k");
    assert_int_equal(S.kernels[0].line, 1);
}

static void test_shared_forms(void **state)
{
    (void)state;
    const char *t = sim("__global__ void k() {\n"
                        "  __shared__ float a[N], b[2][M];\n"
                        "  static volatile __shared__ int c;\n"
                        "  extern __shared__ __align__(16) unsigned char d[];\n"
                        "  __shared__ T e[2][3][4];\n}\n");
    assert_non_null(strstr(t, "SIM_SHARED(sim_T_a, a, N)"));
    assert_non_null(strstr(t, "SIM_SHARED2(sim_T_b, b, 2, M)"));
    assert_non_null(strstr(t, "using sim_T_c = int; SIM_SHARED_SCALAR(sim_T_c, c)"));
    assert_non_null(strstr(t, "using sim_T_d = unsigned char; SIM_DYNAMIC_SHARED(sim_T_d, d)"));
    assert_non_null(strstr(t, "SIM_SHARED_ND(sim_T_e, e,"));
    assert_null(strstr(t, "__shared__"));
    assert_int_equal(S.nissues, 0);
}

static void test_device_variables(void **state)
{
    (void)state;
    const char *t = sim("__device__ int a, b[3] = {1, 2}, c = f(1, 2);\n"
                        "__device__ unsigned int done;\n"
                        "__device__ int twice(int x) { return 2 * x; }\n"
                        "__device__ float3 operator+(float3 p, float3 q);\n"
                        "extern __device__ int e;\n"
                        "__device__ const int k = 3;\n"
                        "__global__ void g() { done = twice(a); }\n"
                        "__constant__ float taps[5];\n"
                        "__constant__ __device__ int both[2];\n");
    /* each variable registers its address, size, name and line */
    assert_non_null(strstr(t, "::sim_devvar_register(__builtin_addressof(a), sizeof(a), \"a\", 1);"));
    assert_non_null(strstr(t, "::sim_devvar_register(__builtin_addressof(b), sizeof(b), \"b\", 1);"));
    assert_non_null(strstr(t, "::sim_devvar_register(__builtin_addressof(c), sizeof(c), \"c\", 1);"));
    assert_non_null(strstr(t, "::sim_devvar_register(__builtin_addressof(done), sizeof(done), \"done\", 2);"));
    /* not functions, declarations of another file's, constants */
    assert_null(strstr(t, "\"twice\""));
    assert_null(strstr(t, "\"f\""));
    assert_null(strstr(t, "\"p\""));
    assert_null(strstr(t, "\"e\""));
    assert_null(strstr(t, "\"k\""));
    /* __constant__ arrays are watched too, once; arrays have red zones on
     * both sides in the same section */
    assert_non_null(strstr(t, "::sim_devvar_register(__builtin_addressof(taps), sizeof(taps), \"taps\", 8);"));
    assert_non_null(strstr(t, "static char sim_devrz_1_b_0[64] __attribute__((section(\"gpulab_devvars\"), used)); "
                              "__device__ __attribute__((section(\"gpulab_devvars\"))) int a, b[3]"));
    assert_non_null(strstr(t, "static char sim_devrz_1_b_1[64]"));
    assert_null(strstr(t, "sim_devrz_1_a_"));
    const char *both = strstr(t, "__constant__ __attribute__((section(\"gpulab_devvars\"))) __device__ int both[2];");
    assert_non_null(both);
    assert_null(strstr(both + 1, "section(\"gpulab_devvars\"))) int both"));
    /* the lines stay where they were */
    char buf[512];
    assert_non_null(strstr(line_of(t, 3, buf, sizeof buf), "__device__ int twice(int x)"));
    assert_int_equal(S.nissues, 0);
}

static void test_file_scope_shared(void **state)
{
    (void)state;
    const char *t = sim("__shared__ int g[32];\n__global__ void k() { g[threadIdx.x] = 1; }\n");
    assert_non_null(strstr(t, "SIM_SHARED_GLOBAL(sim_T_g, g, 32)"));
    assert_non_null(strstr(t, "sim_get_g()[threadIdx.x] = 1"));
    /* extern __shared__ at file scope: the block's dynamic shared memory */
    t = sim("extern __shared__ unsigned char blk[];\n__global__ void k() { blk[threadIdx.x] = 1; }\n");
    assert_int_equal(S.nissues, 0);
    assert_non_null(strstr(t, "SIM_SHARED_GLOBAL_DYNAMIC(sim_T_blk, blk)"));
    assert_non_null(strstr(t, "sim_get_blk()[threadIdx.x] = 1"));
    sim("extern __shared__ int rows[][4];\n");
    assert_int_equal(S.nissues, 1);
    assert_non_null(strstr(S.issues[0].msg, "at file scope"));
}

static void test_launch_forms(void **state)
{
    (void)state;
    const char *t = sim("template <int B> __global__ void r(int *p);\n"
                        "void f(int *p, cudaStream_t s) {\n"
                        "  r<256><<<dim3(4, 2), 256, 1024, s>>>(p);\n"
                        "  ns::g<<<1, 1>>>();\n}\n");
    assert_non_null(strstr(t, "sim_launch_prog(::gpulab_sim::sim_kaddr(r<256>), \"r<256>\", __FILE__, __LINE__, "
                              "::gpulab_sim::sim_cfg(dim3(4, 2), 256, 1024, s), [=](auto ...sim_a_) "
                              "{ r<256>(sim_a_...); }, p);"));
    /* not a kernel of this file: the runtime looks its name up */
    assert_non_null(strstr(t, "\"?ns::g\""));
    assert_non_null(strstr(t, "{ ns::g(sim_a_...); });"));
}

static void test_templates_closing_like_launches(void **state)
{
    (void)state;
    const char *t = sim("std::vector<std::vector<std::vector<int>>> v;\nint x = a >> 3;\n");
    assert_non_null(strstr(t, "std::vector<std::vector<std::vector<int>>> v;"));
    assert_int_equal(S.nissues, 0);
}

/* sizeof of a __shared__ array is the array's bytes (the array is a proxy
 * on the simulator); sizeof of an element stays as written */
static void test_sizeof_shared_array(void **state)
{
    (void)state;
    const char *t = sim("__global__ void k(float *o) {\n  __shared__ float b[8][4];\n  o[0] = sizeof(b);\n"
                        "  o[1] = sizeof b[0];\n}\nint main() { float b[3]; return sizeof(b); }\n");
    assert_int_equal(S.nissues, 0);
    assert_non_null(strstr(t, "static constexpr size_t sim_sizeof_b = sizeof(sim_T_b) * (size_t)(8) * (size_t)(4);"));
    assert_non_null(strstr(t, "o[0] = sim_sizeof_b;"));
    assert_non_null(strstr(t, "o[1] = sizeof b[0];"));
    assert_non_null(strstr(t, "return sizeof(b);"));
}

static void test_refusals_name_lines(void **state)
{
    (void)state;
    sim("#include <cub/cub.cuh>\n__global__ void k(int *p) {\n  asm(\"trap;\");\n"
        "  cudaDeviceSynchronize();\n  texture<int, 1> t; int v = tex1Dfetch<int>(o, 0);\n}\n__shared__ int bad[4] = {1};\n");
    assert_int_equal(S.nissues, 5);
    expect_issue(0, 1, "CUB");
    expect_issue(1, 3, "PTX");
    expect_issue(2, 4, "CUDA 12 removed it");
    expect_issue(3, 5, "texture object");
    expect_issue(4, 7, "initializer");
    /* a launch from device code (dynamic parallelism) is a launch like any other */
    sim("__global__ void k(int *p) {\n  k<<<1, 1>>>(p);\n}\n");
    assert_int_equal(S.nissues, 0);
    assert_int_equal(S.device_launches, 1);
}

static void test_comments_and_strings_are_left_alone(void **state)
{
    (void)state;
    const char *t = sim("// __shared__ int a[4]; k<<<1,1>>>();\n"
                        "const char *s = \"__shared__ k<<<1,1>>>()\";\n/* asm */\n");
    assert_non_null(strstr(t, "// __shared__ int a[4]; k<<<1,1>>>();"));
    assert_non_null(strstr(t, "\"__shared__ k<<<1,1>>>()\""));
    assert_int_equal(S.nissues, 0);
}

static void test_headers(void **state)
{
    (void)state;
    const char *t = sim("#include <cuda_runtime.h>\n#include \"util.cuh\"\n#include <cstdio>\n");
    /* the CUDA headers are the runtime's own, found by the compiler */
    assert_non_null(strstr(t, "\n#include <cuda_runtime.h>"));
    assert_non_null(strstr(t, "\n#include <cstdio>"));
    assert_int_equal(S.nincludes, 1);
    assert_string_equal(S.includes[0], "util.cuh");
}

/* a program's own header: the directive names its translated copy */
static int fake_resolve(void *ctx, const char *name, int angle, char *buf, size_t len)
{
    (void)ctx;
    if (strcmp(name, "mine.h") != 0) return -1;
    snprintf(buf, len, "u1-mine.h%s", angle ? "-angle" : "");
    return 0;
}

static void test_headers_resolved(void **state)
{
    (void)state;
    const char *src = "#include <mine.h>\n#include \"mine.h\"\n#include <vector>\n";
    prog_tx_opts o = {0};
    o.resolve = fake_resolve;
    prog_source_free(&S);
    assert_int_equal(prog_translate_opts(src, strlen(src), "/x/t.cu", "t.cu", PROG_SIM, &o, &S), 0);
    char b[512];
    assert_string_equal(line_of(S.text, 1, b, sizeof b), "#include \"u1-mine.h-angle\"");
    assert_string_equal(line_of(S.text, 2, b, sizeof b), "#include \"u1-mine.h\"");
    assert_string_equal(line_of(S.text, 3, b, sizeof b), "#include <vector>");
}

/* __CUDA_ARCH__: the model's value in device code, undefined elsewhere
 * (a __host__ __device__ function is compiled for the host too) */
static void test_cuda_arch(void **state)
{
    (void)state;
    const char *t = sim("__global__ void k(int *p) {\n#if __CUDA_ARCH__ >= 700 && defined(__CUDA_ARCH__)\n"
                        "  p[0] = __CUDA_ARCH__;\n#endif\n#ifdef __CUDA_ARCH__\n#endif\n}\n"
                        "#if __CUDA_ARCH__ < 600\n#endif\n"
                        "__host__ __device__ int h() {\n#ifdef __CUDA_ARCH__\n#endif\n return 0; }\n");
    char b[512];
    assert_string_equal(line_of(t, 2, b, sizeof b), "#if GPULAB_CUDA_ARCH >= 700 && 1");
    assert_string_equal(line_of(t, 3, b, sizeof b), "  p[0] = GPULAB_CUDA_ARCH;");
    assert_non_null(strstr(line_of(t, 5, b, sizeof b), "#if 1"));
    assert_string_equal(line_of(t, 8, b, sizeof b), "#if __CUDA_ARCH__ < 600");
    assert_string_equal(line_of(t, 11, b, sizeof b), "#ifdef __CUDA_ARCH__");
    /* a file-scope conditional around device helpers is the device pass's */
    t = sim("#if __CUDA_ARCH__ >= 700\n__device__ int f() { return 1; }\n#elif defined(__CUDA_ARCH__)\n#endif\n"
            "#ifndef __CUDA_ARCH__\nint host_only;\n#endif\n");
    assert_string_equal(line_of(t, 1, b, sizeof b), "#if GPULAB_CUDA_ARCH >= 700");
    assert_string_equal(line_of(t, 3, b, sizeof b), "#elif 1");
    assert_string_equal(line_of(t, 5, b, sizeof b), "#ifndef __CUDA_ARCH__");
}

/* a __host__ __device__ function whose body tests __CUDA_ARCH__: the
 * host's copy as written, sending kernel code to a device twin written
 * after it under #line (the file's lines still where they were), declared
 * before it on its first line; forms a twin cannot copy are refused */
static void test_host_device_twin(void **state)
{
    (void)state;
    const char *src = "__host__ __device__ int h(int a, int b = 2) {\n#ifdef __CUDA_ARCH__\n return a;\n#else\n"
                      " return b;\n#endif\n}\nint after;\n";
    const char *t = sim(src);
    char b[1024];
    assert_int_equal(S.nissues, 0);
    line_of(t, 1, b, sizeof b);
    assert_non_null(strstr(b, "__host__ __device__ int sim_hd_h(int a, int b  ); __host__ __device__ int h(int a, "
                              "int b = 2) { if (!__builtin_is_constant_evaluated() && "
                              "::gpulab_sim::sim_device_code()) return sim_hd_h(static_cast<decltype(a) &&>(a), "
                              "static_cast<decltype(b) &&>(b));"));
    assert_string_equal(line_of(t, 2, b, sizeof b), "#ifdef __CUDA_ARCH__");
    assert_string_equal(line_of(t, 7, b, sizeof b), "}");
    const char *w = strstr(t, "}\n#line 1 \"/x/t.cu\"\n__host__ __device__ int sim_hd_h(int a, int b  ) {\n"
                              "#if 1 /* ifdef __CUDA_ARCH__: device code */\n return a;\n#else\n");
    assert_non_null(w);
    assert_non_null(strstr(w, " return b;\n#endif\n}\n#line 7 \"/x/t.cu\"\n\nint after;\n"));
    /* in a class: no declaration; a template's arguments and a pack passed on */
    t = sim("struct G {\n  template <typename T, int N, typename... R> __host__ __device__ T get(T v, R... r) "
            "const {\n#if __CUDA_ARCH__ >= 700\n    return v + N;\n#endif\n    return v;\n  }\n};\n");
    assert_int_equal(S.nissues, 0);
    line_of(t, 2, b, sizeof b);
    assert_null(strstr(b, "sim_hd_get(T v, R... r) const;"));
    assert_non_null(strstr(b, "return sim_hd_get<T, N, R...>(static_cast<decltype(v) &&>(v), "
                              "static_cast<decltype(r) &&>(r)...);"));
    assert_non_null(strstr(t, "\n#line 2 \"/x/t.cu\"\ntemplate <typename T, int N, typename... R> __host__ "
                              "__device__ T sim_hd_get(T v, R... r) const {\n#if GPULAB_CUDA_ARCH >= 700\n"));
    /* a decltype return type is a type, not a deduced one */
    t = sim("template <typename A> __host__ __device__ decltype(A() + 1) g(A a) {\n#ifdef __CUDA_ARCH__\n#endif\n"
            " return a + 1; }\n");
    assert_int_equal(S.nissues, 0);
    assert_non_null(strstr(t, "decltype(A() + 1) sim_hd_g(A a); template"));
    /* a body without __CUDA_ARCH__ stays one copy */
    t = sim("__host__ __device__ int one(int a) {\n#ifdef DEBUG\n#endif\n return a; }\n");
    assert_null(strstr(t, "sim_hd_"));
    /* a constructor's twin runs its body; a member defined outside its
     * class gets its twin declared beside its declaration there */
    t = sim("struct S {\n  int v;\n  __host__ __device__ S(int a) : v(a) {\n#ifdef __CUDA_ARCH__\n    v = 1;\n"
            "#endif\n  }\n  __host__ __device__ int get(int a = 0);\n};\n__host__ __device__ int S::get(int a) {\n"
            "#ifdef __CUDA_ARCH__\n  return 1;\n#endif\n  return a;\n}\n");
    assert_int_equal(S.nissues, 0);
    line_of(t, 3, b, sizeof b);
    assert_non_null(strstr(b, "__host__ __device__ S(int a) : v(a) { if (!__builtin_is_constant_evaluated() && "
                              "::gpulab_sim::sim_device_code()) { sim_hd_init_0(static_cast<decltype(a) &&>(a)); "
                              "return; }"));
    assert_non_null(strstr(t, "\n#line 3 \"/x/t.cu\"\n__host__ __device__ void sim_hd_init_0(int a) {\n#if 1"));
    assert_non_null(strstr(t, "\n#line 7 \"/x/t.cu\"\n\n  __host__ __device__ int get(int a = 0); __host__ "
                              "__device__ int sim_hd_get(int a = 0);\n};\n"));
    assert_non_null(strstr(t, "\n__host__ __device__ int S::sim_hd_get(int a) {\n#if 1"));
    /* a destructor, a class template's member, a class from elsewhere: refused, with the line */
    sim("struct D {\n  __host__ __device__ ~D() {\n#ifdef __CUDA_ARCH__\n#endif\n  }\n};\n"
        "template <typename T> __host__ __device__ int C<T>::f() {\n#ifdef __CUDA_ARCH__\n#endif\n return 0; }\n"
        "__host__ __device__ int E::g() {\n#ifdef __CUDA_ARCH__\n#endif\n return 0; }\n");
    assert_int_equal(S.nissues, 3);
    expect_issue(0, 2, "D tests __CUDA_ARCH__ in a destructor");
    expect_issue(1, 7, "f tests __CUDA_ARCH__ in a member of a nested class or a class template");
    expect_issue(2, 11, "g tests __CUDA_ARCH__ in a member whose class this file does not declare");
}

/* the compiler's messages about a twin repeat those about its function:
 * said once, under the student's name; different functions' all kept */
static void test_tidy_log_twin(void **state)
{
    (void)state;
    static const char *const runtime[] = {"progrt.h", NULL};
    char out[2048];
    prog_tidy_log("t.cu: In function 'int where(int)':\n"
                  "t.cu:4:17: error: 'x' was not declared in this scope\n"
                  "t.cu: In function 'int sim_hd_where(int)':\n"
                  "t.cu:4:17: error: 'x' was not declared in this scope\n"
                  "t.cu:6:9: error: 'y' was not declared in this scope\n",
                  out, sizeof out, NULL, 0, runtime);
    assert_string_equal(out, "t.cu: In function 'int where(int)':\n"
                             "t.cu:4:17: error: 'x' was not declared in this scope\n"
                             "t.cu: In function 'int where(int)':\n"
                             "t.cu:6:9: error: 'y' was not declared in this scope\n");
    prog_tidy_log("t.cu: In function 'int f()':\nt.cu:2:1: error: a\n"
                  "t.cu: In function 'int g()':\nt.cu:5:1: error: b\n"
                  "t.cu: In function 'int sim_hd_g()':\nt.cu:5:1: error: b\n"
                  "t.cu: In function 'int f()':\nt.cu:3:1: error: c\n",
                  out, sizeof out, NULL, 0, runtime);
    assert_string_equal(out, "t.cu: In function 'int f()':\nt.cu:2:1: error: a\n"
                             "t.cu: In function 'int g()':\nt.cu:5:1: error: b\n"
                             "t.cu: In function 'int f()':\nt.cu:3:1: error: c\n");
}

/* fused multiply-adds: a __global__ or __device__ function's definition is
 * compiled for the fma instruction (the compiler then contracts a*b + c as
 * nvcc does); not a __host__ __device__ one, a declaration, a variable, its
 * braces or a lambda's body; and nothing without the option */
static void test_fmad_functions(void **state)
{
    (void)state;
    const char *src = "__global__ void k(float *p) { p[0] = p[1] * p[2] + p[3]; }\n"
                      "static __device__ __forceinline__ float f(float a) { return a * a + 1.0f; }\n"
                      "template <class T> __device__ T g(T a) { return a; }\n"
                      "__host__ __device__ float hd(float a) { return a * a + 1.0f; }\n"
                      "__device__ __host__ float dh(float a) { return a; }\n"
                      "__device__ float proto(float a);\n"
                      "__device__ int table[2] = {1, 2};\n"
                      "__device__ int counter;\n"
                      "auto l = [] __device__ (float a) { return a * a + 1.0f; };\n"
                      "struct S { __device__ float m(float a) const { return a; } };\n";
    prog_tx_opts o = {0};
    o.fmad = 1;
    prog_source_free(&S);
    assert_int_equal(prog_translate_opts(src, strlen(src), "/x/t.cu", "t.cu", PROG_SIM, &o, &S), 0);
    char b[512];
    const char *fma = " " PROG_SIM_FMAD_ATTR " ";
    for (int n = 1; n <= 10; n++) {
        const char *l = line_of(S.text, n, b, sizeof b), *at = strstr(l, fma);
        if (n <= 3 || n == 10) {
            assert_non_null(at);
            assert_null(strstr(at + 1, fma)); /* once a function */
        } else {
            assert_null(strstr(l, "target"));
        }
    }
    /* without the option (-fmad=false, a CPU without the instruction) */
    assert_null(strstr(sim(src), "target"));
}

/* a template kernel launched without its arguments: no address to take */
static void test_deduced_template_launch(void **state)
{
    (void)state;
    const char *t = sim("template <class T> __global__ void k(T *p) {}\nint main() { k<<<1, 1>>>((float *)0); "
                        "k<float><<<1, 1>>>((float *)0); }\n");
    assert_non_null(strstr(t, "sim_launch_prog(nullptr, \"k\""));
    assert_non_null(strstr(t, "sim_kaddr(k<float>)"));
}

/* a template kernel given fewer template arguments than it has parameters
 * without a default: the call deduces the rest, no address is taken */
static void test_partly_deduced_template_launch(void **state)
{
    (void)state;
    const char *t = sim("template <class R, class W> __global__ void k(R *p, W *w) {}\n"
                        "template <class T, int S = 7> __global__ void d(T *p) {}\n"
                        "int main() { k<float><<<1, 1>>>((float *)0, (int *)0); "
                        "k<float, int><<<1, 1>>>((float *)0, (int *)0); d<int><<<1, 1>>>((int *)0); }\n");
    assert_non_null(strstr(t, "sim_launch_prog(nullptr, \"?k<float>\""));
    assert_non_null(strstr(t, "sim_kaddr(k<float, int>)"));
    assert_non_null(strstr(t, "sim_kaddr(d<int>)"));
}

/* extern __shared__ in a macro's body: the dynamic shared array, on its line */
static void test_shared_in_define(void **state)
{
    (void)state;
    const char *t = sim("#define SM(T, N) struct S_##N { __device__ T *get() { \\\n"
                        "    extern __shared__ T N[]; return N; } }\nSM(int, s_int);\n");
    assert_non_null(strstr(t, "using sim_T_N = T; SIM_DYNAMIC_SHARED(sim_T_N, N); return N;"));
    assert_null(strstr(t, "extern __shared__"));
    assert_int_equal(lines(t), 4);
}

/* cuRAND and cuBLAS: what the simulator has passes, the rest is named */
static void test_libraries(void **state)
{
    (void)state;
    sim("#include <curand_kernel.h>\n#include <cublas_v2.h>\n__global__ void k() { curandState s; "
        "curandStateMtgp32 m; }\nint main() { cublasHandle_t h; cublasCreate(&h);\n float *a = 0; "
        "cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, a, a, 1, a, 1, a, a, 1);\n cublasStrsm(h);\n "
        "cublasIcamax(h); cublasGemmEx(h); }\n");
    assert_int_equal(S.libs, PROG_LIB_CURAND | PROG_LIB_CUBLAS);
    assert_int_equal(S.nissues, 3);
    expect_issue(0, 3, "curandStateMtgp32: cuRAND's MTGP32");
    expect_issue(1, 6, "cublasStrsm: this cuBLAS routine is not simulated");
    assert_int_equal(S.issues[2].line, 7); /* one message per line: cublasIcamax's */
    assert_non_null(strstr(S.issues[2].msg, "cublasIcamax"));
    /* the legacy API: its own helpers pass, what it lacks is named */
    sim("#include <cublas.h>\nint main() { cublasInit(); float *d; cublasAlloc(4, 4, (void **)&d);\n"
        "cublasSaxpy(4, 2.0f, d, 1, d, 1); cublasGetError(); cublasFree(d);\n cublasStrsm('L'); cublasShutdown(); }\n");
    assert_int_equal(S.libs, PROG_LIB_CUBLAS);
    assert_int_equal(S.nissues, 1);
    expect_issue(0, 4, "cublasStrsm: this cuBLAS routine is not simulated");
    sim("#include <cublasLt.h>\n");
    assert_int_equal(S.nissues, 1);
    assert_non_null(strstr(S.issues[0].msg, "cublasLt and cublasXt run on the GPU"));
}

/* host code's allocations go to the runtime with their file and line
 * (progrt_host.cpp), so that a kernel given them fails as on a GPU; device
 * code's malloc and new, declarations, members, placement new and other
 * namespaces' names stay */
static void test_host_allocations(void **state)
{
    (void)state;
    const char *t = sim("struct pool { void *malloc(int); };\n"
                        "void *malloc(unsigned long);\n"
                        "__global__ void k(int *p) { int *q = (int *)malloc(4); free(q); int *r = new int[2]; delete[] r; }\n"
                        "int main() { int *a = (int *)malloc(64), *b = (int *)std::calloc(4, 4);\n"
                        "  a = (int *)::realloc(a, 128); pool P; P.malloc(3); mine::malloc(2);\n"
                        "  float *f = new float[8]; int *g = ::new int(3); char buf[8]; new (buf) int(1);\n"
                        "  if (a) free(a); else std::free(b); delete[] f; return 0; }\n");
    char buf[400];
    assert_string_equal(line_of(t, 1, buf, sizeof buf), "struct pool { void *malloc(int); };");
    assert_string_equal(line_of(t, 2, buf, sizeof buf), "void *malloc(unsigned long);");
    /* device code: the device heap's, unchanged */
    assert_non_null(strstr(line_of(t, 3, buf, sizeof buf), "(int *)malloc(4); free(q); int *r = new int[2];"));
    line_of(t, 4, buf, sizeof buf);
    assert_non_null(strstr(buf, "(int *)gpulab_host_malloc(__FILE__, __LINE__, 64)"));
    assert_non_null(strstr(buf, "(int *)gpulab_host_calloc(__FILE__, __LINE__, 4, 4)"));
    line_of(t, 5, buf, sizeof buf);
    assert_non_null(strstr(buf, "a = (int *)gpulab_host_realloc(__FILE__, __LINE__, a, 128);"));
    assert_non_null(strstr(buf, "P.malloc(3); mine::malloc(2);"));
    line_of(t, 6, buf, sizeof buf);
    assert_non_null(strstr(buf, "float *f = ::new (gpulab_host_at{__FILE__, __LINE__}) float[8];"));
    assert_non_null(strstr(buf, "int *g = ::new (gpulab_host_at{__FILE__, __LINE__}) int(3);"));
    assert_non_null(strstr(buf, "new (buf) int(1);"));
    line_of(t, 7, buf, sizeof buf);
    assert_non_null(strstr(buf, "if (a) gpulab_host_free(a); else gpulab_host_free(b); delete[] f;"));
    assert_int_equal(S.nissues, 0);
    /* host code's arrays at file scope are named at the end of the file;
     * functions, types, constants, externs and device arrays are not */
    t = sim("float w[16], s, v[2][3] = {{1}};\nstatic int tab[4];\nextern int e[];\nconst int c[2] = {1, 2};\n"
            "__device__ float d[8];\nvoid f(int a[4]);\nstruct P { int q[3]; } pts[5];\n"
            "namespace N { int in_ns[2]; }\ntypedef int row[4];\nauto l = [](int *p) { return p[0]; };\n"
            "int main() { int local[3]; return 0; }\n");
    const char *end = strstr(t, "gpulab_host_var_0");
    assert_non_null(end);
    assert_non_null(strstr(end, "gpulab_host_global((const void *)&w, sizeof w, \"w\", __FILE__, 1);"));
    assert_non_null(strstr(end, "gpulab_host_global((const void *)&v, sizeof v, \"v\", __FILE__, 1);"));
    assert_non_null(strstr(end, "gpulab_host_global((const void *)&tab, sizeof tab, \"tab\", __FILE__, 2);"));
    assert_non_null(strstr(end, "gpulab_host_global((const void *)&pts, sizeof pts, \"pts\", __FILE__, 7);"));
    assert_non_null(strstr(end, "gpulab_host_var_3 ="));
    assert_null(strstr(end, "gpulab_host_var_4"));
}

static void test_device_pointers(void **state)
{
    (void)state;
    const char *t = sim("__device__ void w(volatile int *s, int t) { s[t] += s[t + 32]; }\n"
                        "__global__ void k(float *g) {\n  __shared__ float tile[64];\n"
                        "  float *row = &tile[8];\n  float *out = g;\n}\n");
    assert_non_null(strstr(t, "w(::gpulab_sim::sim_vptr<volatile int> s, int t)"));
    assert_non_null(strstr(t, "::gpulab_sim::sim_vptr<float> row = &tile[8];"));
    assert_non_null(strstr(t, "float *out = g;"));
}

static void test_casts_rows_copies(void **state)
{
    (void)state;
    const char *t = sim("struct R { int v[4]; };\n"
                        "template <class T> __global__ void k(R *r) {\n"
                        "  extern __shared__ float rows[][33];\n"
                        "  extern __shared__ char raw[];\n"
                        "  float4 *v = reinterpret_cast<float4 *>(raw);\n"
                        "  memcpy(&r[1], &r[0], sizeof(R)); std::memset(r, 0, 4);\n}\n"
                        "int main() { void *f = (void *)k<int>; k<int><<<1, 1>>>(0); }\n");
    assert_non_null(strstr(t, "using sim_T_rows = float[33]; SIM_DYNAMIC_SHARED(sim_T_rows, rows)"));
    assert_non_null(strstr(t, "reinterpret_cast<float4 *>(::gpulab_sim::sim_addr(raw))"));
    assert_non_null(strstr(t, "::gpulab_sim::sim_dev_memcpy(&r[1]"));
    assert_non_null(strstr(t, "::gpulab_sim::sim_dev_memset(r, 0, 4)"));
    assert_non_null(strstr(t, "(void *)::gpulab_sim::sim_kreg_tmpl(k<int>, \"k<int>\")"));
    assert_non_null(strstr(t, "sim_kaddr(k<int>)"));
    assert_int_equal(S.nissues, 0);
    /* a shared array given to a template device function: its address */
    t = sim("template <class T> __device__ void red(volatile T *s, int t) { s[t] += s[t + 1]; }\n"
            "__global__ void k(int t) {\n  __shared__ float buf[64];\n  red(buf, 0); red<float>(buf, t);\n}\n");
    assert_non_null(strstr(t, "red(::gpulab_sim::sim_addr(buf), 0); red<float>(::gpulab_sim::sim_addr(buf), "
                              "::gpulab_sim::sim_addr(t));"));
    /* a size in the first dimension of a dynamic array: named at open;
     * graph memory and conditional nodes are simulated (p149, p151) */
    sim("__global__ void k() { extern __shared__ float a[4][4]; }\n"
        "int main() { cudaGraphAddMemAllocNode(0, 0, 0, 0, 0);\n cudaGraphConditionalHandle h; }\n");
    assert_int_equal(S.nissues, 1);
    assert_non_null(strstr(S.issues[0].msg, "no size in its first dimension"));
}

/* local arrays of device code that go to a pointer: between red zones,
 * registered with their thread; the others, and host code's, as written */
static void test_local_arrays(void **state)
{
    (void)state;
    const char *src = "__device__ void f(int *p);\n"
                      "__global__ void k(float *g) {\n"
                      "  int a[8], n = 2, b[4] = {1, 2,\n 3};\n"
                      "  float w[3]{1.0f};\n"
                      "  double d[2][2];\n"
                      "  int keep[4];\n"
                      "  f(a); f(b + n); f(&keep[1] - 1); g[0] = w[keep[0]] + d[0][1];\n"
                      "  float *q = w; struct S { int v[4]; } s; f(s.v);\n"
                      "  switch (n) { case 0: int z[2]; f(z); }\n"
                      "}\n"
                      "int main() { int h[4]; f(h); }\n";
    const char *t = sim(src);
    char b[1024];
    assert_int_equal(lines(t) - lines(strstr(t, "\nSIM_KREG(k")), lines(src) + 1);
    line_of(t, 3, b, sizeof b);
    assert_non_null(strstr(b, "::gpulab_sim::sim_local_array<int [ 8 ]> sim_la_a; auto &a = sim_la_a.v; "
                              "::gpulab_sim::sim_local_guard sim_lg_a(sim_la_a, \"int a[8]\", __FILE__, 3); int n = 2; "
                              "::gpulab_sim::sim_local_array<int [ 4 ]> sim_la_b = {{}, {1, 2,"));
    line_of(t, 4, b, sizeof b);
    assert_string_equal(b, " 3}}; auto &b = sim_la_b.v; ::gpulab_sim::sim_local_guard sim_lg_b(sim_la_b, \"int b[4]\", "
                           "__FILE__, 3);");
    line_of(t, 5, b, sizeof b);
    assert_non_null(strstr(b, "sim_local_array<float [ 3 ]> sim_la_w{{}, {1.0f}}; auto &w = sim_la_w.v;"));
    /* never to a pointer: -fsanitize=bounds sees every index */
    assert_string_equal(line_of(t, 6, b, sizeof b), "  double d[2][2];");
    /* &keep[1] is a pointer into it */
    assert_non_null(strstr(line_of(t, 7, b, sizeof b), "sim_local_array<int [ 4 ]> sim_la_keep;"));
    /* a struct's member, a switch's case, host code: as written */
    assert_non_null(strstr(t, "struct S { int v[4]; } s;"));
    assert_non_null(strstr(t, "case 0: int z[2]; f(z);"));
    assert_non_null(strstr(t, "int main() { int h[4]; f(h); }"));
    assert_int_equal(S.nissues, 0);
}

/* ------------------------------------------------------------ lane loops */

/* the kernel `k` of src (launched after it) after the lanes pass: 1 if it
 * got its lane form (and its launch both forms), 0 if it keeps the fibers */
static int lanes_of(const char *src)
{
    sim(src);
    assert_int_equal(prog_lanes(&S), 0);
    int has = strstr(S.text, "k__sim_lanes") != NULL;
    assert_int_equal(has, S.lanes > 0);
    if (has) assert_non_null(strstr(S.text, "::gpulab_sim::sim_with_lanes("));
    return has;
}

#define LAUNCH_K "\nint main() { k<<<1, 64>>>(0, 4); }\n"

static void test_lanes_taken(void **state)
{
    (void)state;
    /* the lecture's reduction: a barrier, then a loop of barriers with bounds
     * from blockDim; tid and the partial sum live across them */
    assert_int_equal(lanes_of("__global__ void k(int *p, int n)\n{\n    __shared__ int s[64];\n"
                              "    int tid = threadIdx.x;\n    s[tid] = p[tid];\n    __syncthreads();\n"
                              "    for (int d = blockDim.x / 2; d > 0; d >>= 1) {\n"
                              "        if (tid < d) s[tid] += s[tid + d];\n        __syncthreads();\n    }\n"
                              "    if (tid != 0) return;\n    p[0] = s[0];\n}" LAUNCH_K),
                     1);
    /* the lines of the kernel's own statements keep their numbers */
    assert_non_null(strstr(S.text, "\n#line 8 \"/x/t.cu\"\n        if (tid < d) s[tid] += s[tid + d];"));
    assert_non_null(strstr(S.text, "goto sim_lane_next_"));
    /* every line of the file where it was: the form follows the kernel, and
     * a #line puts the rest back */
    const char *back = strstr(S.text, "\n#line 13 \"/x/t.cu\"\n");
    assert_non_null(back);
    back = strchr(back + 1, '\n') + 1;                 /* the rest of line 13, the kernel's `}` */
    assert_true(strncmp(strchr(back, '\n'), "\nint main() { ::gpulab_sim::sim_launch_prog(", 44) == 0);
    assert_non_null(strstr(back, "::gpulab_sim::sim_with_lanes([=](auto ...sim_a_) { k(sim_a_...); }, "
                                 "[=](auto ...sim_a_) { k__sim_lanes(sim_a_...); }), 0, 4); }"));
    /* a tiled product: bounds from values every thread computes alike */
    assert_int_equal(lanes_of("__global__ void k(float *c, int w)\n{\n    __shared__ float t[16][16];\n"
                              "    int first = w * 16 * blockIdx.y, last = first + w - 1;\n    float acc = 0;\n"
                              "    for (int a = first; a <= last; a += 16) {\n        t[threadIdx.y][threadIdx.x] = c[a];\n"
                              "        __syncthreads();\n        acc += t[0][threadIdx.x];\n        __syncthreads();\n    }\n"
                              "    c[threadIdx.x] = acc;\n}" LAUNCH_K),
                     1);
    assert_non_null(strstr(S.text, "sim_lane_keep(&sim_LV_acc[sim_li_], acc)"));
    /* a launch through a variable finds the form by the kernel's address */
    sim("__global__ void k(int *p, int n)\n{\n    p[threadIdx.x] = n;\n    __syncthreads();\n    p[0] = n;\n}\n"
        "int main() { void (*f)(int *, int) = k; f<<<1, 64>>>(0, 4); }\n");
    assert_int_equal(prog_lanes(&S), 0);
    assert_non_null(strstr(S.text, "::gpulab_sim::sim_lanes_reg((const void *)k, (const void *)k__sim_lanes);"));
    assert_non_null(strstr(S.text, "::gpulab_sim::sim_with_lanes_of(f, [=](auto ...sim_a_) { f(sim_a_...); })"));
    /* a struct changed through a member is kept, as a scalar changed is */
    assert_int_equal(lanes_of("struct two { int a, b; };\n__global__ void k(int *p, int n)\n{\n"
                              "    two q = {0, 0};\n    __syncthreads();\n    q.b += 1;\n    __syncthreads();\n"
                              "    p[threadIdx.x] = q.b;\n}" LAUNCH_K),
                     1);
    assert_non_null(strstr(S.text, "sim_lane_keep(&sim_LV_q[sim_li_], q)"));
    /* a thread's array across barriers: each later region works on a copy
     * of its own (no shared pointer of the block may alias it), and the
     * copy goes back where the region used it */
    assert_int_equal(lanes_of("__global__ void k(float *p, int n)\n{\n    float r[4] = {0};\n    __syncthreads();\n"
                              "    for (int i = 0; i < 4; i++) r[i] += p[i];\n    __syncthreads();\n"
                              "    p[threadIdx.x] = r[3];\n}" LAUNCH_K),
                     1);
    assert_non_null(strstr(S.text, "sim_lane_keep_array(&sim_LV_r[sim_li_], r)"));
    assert_non_null(strstr(S.text, "auto sim_LB_r = ::gpulab_sim::sim_lane_get_array<sim_LT_r>(&sim_LV_r[sim_li_]);"
                                   " sim_LT_r &r = sim_LB_r.v();"));
    assert_non_null(strstr(S.text, "sim_lane_keep(&sim_LV_r[sim_li_], sim_LB_r)"));
    /* a shared tile declared inside the loop of barriers (the CUDA samples'
     * matrixMul): the block's one array, made first with the others... */
    assert_int_equal(lanes_of("__global__ void k(float *c, int w)\n{\n    float acc = 0;\n"
                              "    for (int a = 0; a < w; a += 16) {\n        __shared__ float t[16];\n"
                              "        t[threadIdx.x] = c[a];\n        __syncthreads();\n        acc += t[0];\n"
                              "        __syncthreads();\n    }\n    c[threadIdx.x] = acc;\n}" LAUNCH_K),
                     1);
    const char *sf = strstr(S.text, "k__sim_lanes");
    assert_non_null(sf);
    const char *tile = strstr(sf, "SIM_SHARED(sim_T_t, t, 16)"), *loop = strstr(sf, "for (int a = 0;");
    assert_non_null(tile);
    assert_non_null(loop);
    assert_true(tile < loop);
    /* ...but not where its name means something else outside the loop */
    assert_int_equal(lanes_of("__device__ float t;\n__global__ void k(float *c, int w)\n{\n    float acc = t;\n"
                              "    for (int a = 0; a < w; a += 16) {\n        __shared__ float t[16];\n"
                              "        t[threadIdx.x] = c[a];\n        __syncthreads();\n        acc += t[0];\n"
                              "        __syncthreads();\n    }\n    c[threadIdx.x] = acc;\n}" LAUNCH_K),
                     0);
    /* a typedef and a constant of the body are made first, before the
     * shared memory whose size names them */
    assert_int_equal(lanes_of("__global__ void k(int *p, int n)\n{\n    typedef long long A;\n"
                              "    constexpr int W = 64;\n    __shared__ A s[W];\n    A x = p[threadIdx.x];\n"
                              "    s[threadIdx.x] = x;\n    __syncthreads();\n    p[threadIdx.x] = (int)(s[W - 1 - threadIdx.x] + x);\n}"
                              LAUNCH_K),
                     1);
    const char *form = strstr(S.text, "k__sim_lanes");
    assert_non_null(form);
    const char *td = strstr(form, "typedef long long A;"), *w = strstr(form, "constexpr int W = 64;"),
               *l = strstr(form, "::gpulab_sim::sim_lanes sim_L_;");
    assert_true(td && w && l && td < w && w < l);
}

/* gpulab's own kernel files (lanes_gen.c): kern.h's SHARED and TRACE_
 * macros, and LAUNCH lines that get both forms */
static void test_lanes_builtin(void **state)
{
    (void)state;
    const char *src = "template <class T, int B>\nstatic __global__ void k(const T *in, T *out)\n{\n"
                      "    SHARED(T, s, B);\n    int tid = threadIdx.x;\n    s[tid] = in[tid];\n"
                      "    TRACE_WRITE(LAB_SP_SHARED, tid, s[tid]);\n    __syncthreads();\n"
                      "    for (int d = B / 2; d > 0; d /= 2) {\n        if (tid < d && LOADS == 2 && tid < B) s[tid] += s[tid + d];\n"
                      "        __syncthreads();\n    }\n    if (tid == 0) out[0] = s[0];\n}\n"
                      "static int run(lab_job *job, const int *in, int *out)\n{\n"
                      "    LAUNCH((k<int, 64>), 1, 64, 0, in, out);\n    return 0;\n}\n";
    sim(src);
    assert_int_equal(prog_lanes(&S), 0); /* a student's SHARED is not kern.h's */
    assert_null(strstr(S.text, "k__sim_lanes"));
    prog_source_free(&S);
    memset(&S, 0, sizeof S);
    assert_int_equal(asprintf(&S.text, "#line 1 \"/x/k.cu\"\n%s", src) > 0, 1);
    S.len = strlen(S.text);
    assert_int_equal(prog_lanes_builtin(&S), 0);
    assert_int_equal(S.lanes, 1);
    assert_non_null(strstr(S.text, "template < class T , int B > static __global__ void k__sim_lanes ("));
    assert_non_null(strstr(S.text, "LAUNCH_LANES((k<int, 64>), (k__sim_lanes<int, 64>), 1, 64, 0, in, out);"));
    /* the shared array is the block's, declared once before the loops */
    const char *form = strstr(S.text, "k__sim_lanes (");
    assert_true(strstr(form, "SHARED(T, s, B);") < strstr(form, "for (unsigned sim_li_"));
}

static void test_lanes_refused(void **state)
{
    (void)state;
    /* a barrier inside an if */
    assert_int_equal(lanes_of("__global__ void k(int *p, int n)\n{\n    if (n > 0) __syncthreads();\n}" LAUNCH_K), 0);
    /* a warp collective */
    assert_int_equal(lanes_of("__global__ void k(int *p, int n)\n{\n    int v = __shfl_down_sync(~0u, p[0], 1);\n"
                              "    __syncthreads();\n    p[threadIdx.x] = v;\n}" LAUNCH_K),
                     0);
    /* a thread that returns before the barrier */
    assert_int_equal(lanes_of("__global__ void k(int *p, int n)\n{\n    if (threadIdx.x >= n) return;\n"
                              "    __syncthreads();\n    p[threadIdx.x] = 1;\n}" LAUNCH_K),
                     0);
    /* loop bounds that differ between threads */
    assert_int_equal(lanes_of("__global__ void k(int *p, int n)\n{\n    int m = threadIdx.x;\n"
                              "    for (int i = 0; i < m; i++) {\n        __syncthreads();\n    }\n}" LAUNCH_K),
                     0);
    /* a parameter the kernel changes: each thread's own copy */
    assert_int_equal(lanes_of("__global__ void k(int *p, int n)\n{\n    n += threadIdx.x;\n    __syncthreads();\n"
                              "    p[0] = n;\n}" LAUNCH_K),
                     0);
    /* a break that would leave the loop over the threads */
    assert_int_equal(lanes_of("__global__ void k(int *p, int n)\n{\n    for (int i = 0; i < n; i++) {\n"
                              "        if (p[threadIdx.x]) break;\n        __syncthreads();\n    }\n}" LAUNCH_K),
                     0);
    /* a device function that reads threadIdx, and one this file does not show */
    assert_int_equal(lanes_of("__device__ int me() { return threadIdx.x; }\n__global__ void k(int *p, int n)\n{\n"
                              "    p[me()] = 1;\n    __syncthreads();\n}" LAUNCH_K),
                     0);
    assert_int_equal(lanes_of("__device__ int other(int);\n__global__ void k(int *p, int n)\n{\n"
                              "    p[0] = other(n);\n    __syncthreads();\n}" LAUNCH_K),
                     0);
    /* an atomicCAS (a lock's), volatile */
    assert_int_equal(lanes_of("__global__ void k(int *p, int n)\n{\n    atomicCAS(p, 0, 1);\n    __syncthreads();\n}" LAUNCH_K),
                     0);
    assert_int_equal(lanes_of("__global__ void k(int *p, int n)\n{\n    volatile int *q = p;\n    __syncthreads();\n"
                              "    q[0] = 1;\n}" LAUNCH_K),
                     0);
    /* a device function that may change the caller's variable */
    assert_int_equal(lanes_of("__device__ void bump(int &v) { v++; }\n__global__ void k(int *p, int n)\n{\n"
                              "    int c = 0;\n    __syncthreads();\n    bump(c);\n    __syncthreads();\n    p[0] = c;\n}" LAUNCH_K),
                     0);
    /* a barrier or a collective behind a macro */
    assert_int_equal(lanes_of("#define SYNC __syncthreads()\n__global__ void k(int *p, int n)\n{\n    p[0] = 1;\n"
                              "    SYNC;\n    __syncthreads();\n}" LAUNCH_K),
                     0);
    /* a managed variable (the kernel may change it) in a loop's bounds */
    assert_int_equal(lanes_of("__managed__ int rounds;\n__global__ void k(int *p, int n)\n{\n"
                              "    for (int r = 0; r < rounds; r++) {\n        __syncthreads();\n    }\n}" LAUNCH_K),
                     0);
    /* a pointer to a thread's variable, kept across a barrier */
    assert_int_equal(lanes_of("__global__ void k(int *p, int n)\n{\n    int v = 0;\n    int *pv = &v;\n"
                              "    __syncthreads();\n    *pv = n;\n    p[threadIdx.x] = v;\n}" LAUNCH_K),
                     0);
    assert_int_equal(lanes_of("__global__ void k(int *p, int n)\n{\n    int h[2] = {0, 0};\n    int *q = h;\n"
                              "    __syncthreads();\n    q[1] = n;\n    p[threadIdx.x] = h[1];\n}" LAUNCH_K),
                     0);
    /* a typedef inside a loop of barriers, and one that names a variable */
    assert_int_equal(lanes_of("__global__ void k(int *p, int n)\n{\n    for (int i = 0; i < n; i++) {\n"
                              "        typedef int A;\n        A v = p[i];\n        __syncthreads();\n    }\n}" LAUNCH_K),
                     0);
    assert_int_equal(lanes_of("__global__ void k(int *p, int n)\n{\n    int v = p[0];\n    typedef decltype(v) A;\n"
                              "    __syncthreads();\n    p[threadIdx.x] = (A)v;\n}" LAUNCH_K),
                     0);
    /* no barrier: nothing to gain */
    assert_int_equal(lanes_of("__global__ void k(int *p, int n)\n{\n    p[threadIdx.x] = n;\n}" LAUNCH_K), 0);
}

static void test_gpu_mode_wraps_launches_only(void **state)
{
    (void)state;
    prog_source_free(&S);
    const char *src = "__global__ void k() { __shared__ int a[2]; }\nint main() { k<<<2, 3>>>(); }\n";
    assert_int_equal(prog_translate(src, strlen(src), "/x/t.cu", "t.cu", PROG_GPU, &S), 0);
    assert_non_null(strstr(S.text, "__shared__ int a[2];"));
    assert_non_null(strstr(S.text, "(::gpulab_gpu_pre(\"k\", __FILE__, __LINE__, 2, 3), k<<<2, 3>>>(), "
                                   "::gpulab_gpu_post())"));
}

/* A child launch in device code is the device runtime's: no host record */
static void test_gpu_mode_child_launch_as_written(void **state)
{
    (void)state;
    prog_source_free(&S);
    const char *src = "__global__ void c(int v) {}\n__global__ void p() { if (threadIdx.x == 0) c<<<1, 1>>>(5); }\n"
                      "int main() { p<<<2, 32>>>(); }\n";
    assert_int_equal(prog_translate(src, strlen(src), "/x/t.cu", "t.cu", PROG_GPU, &S), 0);
    assert_int_equal(S.device_launches, 1);
    assert_non_null(strstr(S.text, "if (threadIdx.x == 0) c<<<1, 1>>>(5); }"));
    assert_non_null(strstr(S.text, "(::gpulab_gpu_pre(\"p\", __FILE__, __LINE__, 2, 32), p<<<2, 32>>>(), "));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_line_directive_and_lines_kept),
        cmocka_unit_test(test_gpu_mode_child_launch_as_written),
        cmocka_unit_test(test_shared_forms),
        cmocka_unit_test(test_local_arrays),
        cmocka_unit_test(test_file_scope_shared),
        cmocka_unit_test(test_device_variables),
        cmocka_unit_test(test_launch_forms),
        cmocka_unit_test(test_templates_closing_like_launches),
        cmocka_unit_test(test_refusals_name_lines),
        cmocka_unit_test(test_sizeof_shared_array),
        cmocka_unit_test(test_comments_and_strings_are_left_alone),
        cmocka_unit_test(test_headers),
        cmocka_unit_test(test_headers_resolved),
        cmocka_unit_test(test_cuda_arch),
        cmocka_unit_test(test_fmad_functions),
        cmocka_unit_test(test_deduced_template_launch),
        cmocka_unit_test(test_partly_deduced_template_launch),
        cmocka_unit_test(test_shared_in_define),
        cmocka_unit_test(test_libraries),
        cmocka_unit_test(test_device_pointers),
        cmocka_unit_test(test_host_allocations),
        cmocka_unit_test(test_casts_rows_copies),
        cmocka_unit_test(test_gpu_mode_wraps_launches_only),
        cmocka_unit_test(test_host_device_twin),
        cmocka_unit_test(test_tidy_log_twin),
        cmocka_unit_test(test_lanes_taken),
        cmocka_unit_test(test_lanes_refused),
        cmocka_unit_test(test_lanes_builtin),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    prog_source_free(&S);
    return rc;
}
