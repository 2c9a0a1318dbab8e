/* shim_fp.h - within kernels/sim/shim.h: the CUDA number types and
 * intrinsics of cuda_fp16.h (and math_constants.h) on the simulator, for
 * built-in kernels and students' programs alike. */
#ifndef GPULAB_SIM_SHIM_FP_H
#define GPULAB_SIM_SHIM_FP_H

#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

namespace gpulab_sim {

/* a binary16's exact value as a float, from its bits: without F16C the
 * compiler's own conversion is a library call, ten times slower. Exponent
 * and fraction moved to a float's places and multiplied by 2^(127-15) are
 * the value, subnormals and zero included; infinities and NaNs (quieted)
 * are set apart */
static inline float sim_half_to_float(_Float16 h)
{
    uint16_t u;
    memcpy(&u, &h, 2);
    uint32_t em = u & 0x7fffu, bits = em << 13;
    float f;
    memcpy(&f, &bits, 4);
    f *= 0x1p112f;
    memcpy(&bits, &f, 4);
    if (em >= 0x7c00u) bits = 0x7f800000u | (em << 13) | (em > 0x7c00u ? 0x400000u : 0u);
    bits |= (uint32_t)(u & 0x8000u) << 16;
    memcpy(&f, &bits, 4);
    return f;
}

/* __half: IEEE binary16, with float arithmetic rounded back to half */
struct __half {
    _Float16 h;
    __half() = default;
    __half(float f) : h((_Float16)f) {}
    __half(double f) : h((_Float16)f) {}
    __half(int i) : h((_Float16)i) {}
    operator float() const { return sim_half_to_float(h); }
    __half &operator+=(const __half &o) { h = (_Float16)((float)h + (float)o.h); return *this; }
    __half &operator-=(const __half &o) { h = (_Float16)((float)h - (float)o.h); return *this; }
    __half &operator*=(const __half &o) { h = (_Float16)((float)h * (float)o.h); return *this; }
    __half &operator/=(const __half &o) { h = (_Float16)((float)h / (float)o.h); return *this; }
};
struct __half2 {
    __half x, y;
    __half2() = default;
    __half2(const __half &a, const __half &b) : x(a), y(b) {}
};
/* half and half2 are cuda_fp16.h's names: the translation declares them
 * where the program includes it (a kernel called half compiles without) */
static inline __half __float2half(float f) { return __half(f); }
static inline __half __float2half_rn(float f) { return __half(f); }
static inline float __half2float(__half h) { return (float)h.h; }
static inline __half __int2half_rn(int i) { return __half((float)i); }
static inline int __half2int_rz(__half h) { return (int)(float)h.h; }
static inline __half __hadd(__half a, __half b) { return __half((float)a.h + (float)b.h); }
static inline __half __hsub(__half a, __half b) { return __half((float)a.h - (float)b.h); }
static inline __half __hmul(__half a, __half b) { return __half((float)a.h * (float)b.h); }
static inline __half __hdiv(__half a, __half b) { return __half((float)a.h / (float)b.h); }
static inline __half __hneg(__half a) { return __half(-(float)a.h); }
static inline __half __hfma(__half a, __half b, __half c) { return __half(fmaf((float)a.h, (float)b.h, (float)c.h)); }
static inline bool __heq(__half a, __half b) { return (float)a.h == (float)b.h; }
static inline bool __hlt(__half a, __half b) { return (float)a.h < (float)b.h; }
static inline bool __hgt(__half a, __half b) { return (float)a.h > (float)b.h; }
static inline __half __hmax(__half a, __half b) { return (float)a.h < (float)b.h ? b : a; }
static inline __half __hmin(__half a, __half b) { return (float)b.h < (float)a.h ? b : a; }
static inline __half hsqrt(__half a) { return __half(sqrtf((float)a.h)); }
static inline __half2 __floats2half2_rn(float a, float b) { return __half2{__half(a), __half(b)}; }
static inline __half2 __float2half2_rn(float a) { return __half2{__half(a), __half(a)}; }
static inline float __low2float(__half2 v) { return (float)v.x.h; }
static inline float __high2float(__half2 v) { return (float)v.y.h; }
static inline __half2 __hadd2(__half2 a, __half2 b) { return __half2{__hadd(a.x, b.x), __hadd(a.y, b.y)}; }
static inline __half2 __hmul2(__half2 a, __half2 b) { return __half2{__hmul(a.x, b.x), __hmul(a.y, b.y)}; }
static inline __half operator+(__half a, __half b) { return __hadd(a, b); }
static inline __half operator-(__half a, __half b) { return __hsub(a, b); }
static inline __half operator*(__half a, __half b) { return __hmul(a, b); }
static inline __half operator/(__half a, __half b) { return __hdiv(a, b); }
static inline __half operator-(__half a) { return __hneg(a); }
static inline bool operator==(__half a, __half b) { return __heq(a, b); }
static inline bool operator<(__half a, __half b) { return __hlt(a, b); }
static inline bool operator>(__half a, __half b) { return __hgt(a, b); }
static inline __half atomicAdd(__half *p, __half v) { return sim_rmw(p, [v](__half o) { return __hadd(o, v); }); }

/* math constants of math_constants.h */
#define CUDART_PI_F 3.141592654f
#define CUDART_PI 3.1415926535897931e+0
#define CUDART_INF_F __builtin_inff()
#define CUDART_NAN_F __builtin_nanf("")

/* ------------------------------------------------ rounding modes */

/* __fadd_rz and friends: the operation done in the rounding mode its
 * suffix names (rn nearest even, rz towards zero, ru up, rd down). The
 * operands and the result pass through sim_fp_pin, an empty asm the
 * compiler cannot see through or move across the mode changes, so the
 * operation happens between them, in registers (a volatile local would do
 * it through the stack, and a conversion's result moved past the restore:
 * __float2half_ru of a float subnormal gave 0). */
#if defined(__x86_64__)
#  define SIM_FP_PIN_FLOAT "+x"
#elif defined(__aarch64__)
#  define SIM_FP_PIN_FLOAT "+w"
#else
#  define SIM_FP_PIN_FLOAT "+m"
#endif
static inline void sim_fp_pin(float &x) { __asm__ volatile("" : SIM_FP_PIN_FLOAT(x)); }
static inline void sim_fp_pin(double &x) { __asm__ volatile("" : SIM_FP_PIN_FLOAT(x)); }
static inline void sim_fp_pin(_Float16 &x) { __asm__ volatile("" : "+m"(x)); }
static inline void sim_fp_pin(int &x) { __asm__ volatile("" : "+r"(x)); }
static inline void sim_fp_pin(unsigned &x) { __asm__ volatile("" : "+r"(x)); }
static inline void sim_fp_pin(long long &x) { __asm__ volatile("" : "+r"(x)); }
#undef SIM_FP_PIN_FLOAT
template <class F> static inline auto sim_rounded_fenv(int mode, F f) -> decltype(f())
{
    int old = fegetround();
    fesetround(mode);
    auto r = f();
    fesetround(old);
    return r;
}
#if defined(__x86_64__) && defined(__SSE2_MATH__)
/* float and double arithmetic, square roots and conversions are SSE
 * instructions here, which round as the MXCSR register says: only its
 * rounding field changes (bits 13-14, the x87 control word's bits 10-11
 * shifted by 3, so FE_UPWARD << 3 is MXCSR's round-up). fesetround also
 * rewrites the x87 control word: 29 ns an operation against 11 (one core of
 * the 2-core machine); the interval sample spent 84% of its time there. */
template <class F> static inline auto sim_rounded(int mode, F f) -> decltype(f())
{
    unsigned old = __builtin_ia32_stmxcsr();
    __builtin_ia32_ldmxcsr((old & ~0x6000u) | ((unsigned)mode << 3));
    auto r = f();
    __builtin_ia32_ldmxcsr(old);
    return r;
}
#else
template <class F> static inline auto sim_rounded(int mode, F f) -> decltype(f()) { return sim_rounded_fenv(mode, f); }
#endif

/* ------------------------------------------------ half and half2, more */

#define SIM_HALF_ROUNDED(name, mode)                                              \
    static inline __half name(float f_)                                           \
    {                                                                             \
        return sim_rounded(mode, [&] {                                            \
            float f = f_;                                                         \
            sim_fp_pin(f);                                                        \
            _Float16 r = (_Float16)f;                                             \
            sim_fp_pin(r);                                                        \
            __half h;                                                             \
            h.h = r;                                                              \
            return h;                                                             \
        });                                                                       \
    }
SIM_HALF_ROUNDED(__float2half_rz, FE_TOWARDZERO)
SIM_HALF_ROUNDED(__float2half_ru, FE_UPWARD)
SIM_HALF_ROUNDED(__float2half_rd, FE_DOWNWARD)
#undef SIM_HALF_ROUNDED
static inline unsigned short __half_as_ushort(__half h) { unsigned short u; memcpy(&u, &h, 2); return u; }
static inline __half __ushort_as_half(unsigned short u) { __half h; memcpy(&h, &u, 2); return h; }
static inline short __half_as_short(__half h) { short u; memcpy(&u, &h, 2); return u; }
static inline __half __short_as_half(short u) { __half h; memcpy(&h, &u, 2); return h; }
static inline __half __short2half_rn(short i) { return __half((float)i); }
static inline __half __uint2half_rn(unsigned i) { return __half((float)i); }
static inline int __half2int_rn(__half h) { return (int)nearbyintf((float)h.h); }
static inline short __half2short_rz(__half h) { return (short)(float)h.h; }
static inline __half __habs(__half a) { return __half(fabsf((float)a.h)); }
static inline bool __hne(__half a, __half b) { return (float)a.h != (float)b.h; }
static inline bool __hle(__half a, __half b) { return (float)a.h <= (float)b.h; }
static inline bool __hge(__half a, __half b) { return (float)a.h >= (float)b.h; }
static inline bool __hisnan(__half a) { return a.h != a.h; }
static inline int __hisinf(__half a) { float f = (float)a.h; return isinf(f) ? (f < 0 ? -1 : 1) : 0; }
static inline __half hrcp(__half a) { return __half(1.0f / (float)a.h); }
static inline __half hrsqrt(__half a) { return __half(1.0f / sqrtf((float)a.h)); }
static inline __half hexp(__half a) { return __half(expf((float)a.h)); }
static inline __half hlog(__half a) { return __half(logf((float)a.h)); }
static inline __half hsin(__half a) { return __half(sinf((float)a.h)); }
static inline __half hcos(__half a) { return __half(cosf((float)a.h)); }
static inline __half hfloor(__half a) { return __half(floorf((float)a.h)); }
static inline __half hceil(__half a) { return __half(ceilf((float)a.h)); }
static inline bool operator!=(__half a, __half b) { return __hne(a, b); }
static inline bool operator<=(__half a, __half b) { return __hle(a, b); }
static inline bool operator>=(__half a, __half b) { return __hge(a, b); }
static inline __half operator+(__half a) { return a; }

/* half2: both halves at once, each rounded as a half */
static inline __half2 __half2half2(__half a) { return __half2(a, a); }
static inline __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
static inline __half __low2half(__half2 v) { return v.x; }
static inline __half __high2half(__half2 v) { return v.y; }
static inline __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
static inline __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
static inline __half2 __low2half2(__half2 a) { return __half2(a.x, a.x); }
static inline __half2 __high2half2(__half2 a) { return __half2(a.y, a.y); }
static inline __half2 __lowhigh2highlow(__half2 a) { return __half2(a.y, a.x); }
static inline __half2 __float22half2_rn(float2 f) { return __half2(__half(f.x), __half(f.y)); }
static inline float2 __half22float2(__half2 h) { return float2{(float)h.x.h, (float)h.y.h}; }
static inline __half2 __hsub2(__half2 a, __half2 b) { return __half2(__hsub(a.x, b.x), __hsub(a.y, b.y)); }
static inline __half2 __h2div(__half2 a, __half2 b) { return __half2(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); }
static inline __half2 __hfma2(__half2 a, __half2 b, __half2 c)
{
    return __half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
static inline __half2 __hneg2(__half2 a) { return __half2(__hneg(a.x), __hneg(a.y)); }
static inline __half2 __habs2(__half2 a) { return __half2(__habs(a.x), __habs(a.y)); }
static inline __half2 __hmax2(__half2 a, __half2 b) { return __half2(__hmax(a.x, b.x), __hmax(a.y, b.y)); }
static inline __half2 __hmin2(__half2 a, __half2 b) { return __half2(__hmin(a.x, b.x), __hmin(a.y, b.y)); }
static inline __half2 h2sqrt(__half2 a) { return __half2(hsqrt(a.x), hsqrt(a.y)); }
static inline bool __hbeq2(__half2 a, __half2 b) { return __heq(a.x, b.x) && __heq(a.y, b.y); }
static inline __half2 operator+(__half2 a, __half2 b) { return __hadd2(a, b); }
static inline __half2 operator-(__half2 a, __half2 b) { return __hsub2(a, b); }
static inline __half2 operator*(__half2 a, __half2 b) { return __hmul2(a, b); }
static inline __half2 operator/(__half2 a, __half2 b) { return __h2div(a, b); }
static inline __half2 operator-(__half2 a) { return __hneg2(a); }
static inline __half2 &operator+=(__half2 &a, __half2 b) { return a = __hadd2(a, b); }
static inline __half2 &operator-=(__half2 &a, __half2 b) { return a = __hsub2(a, b); }
static inline __half2 &operator*=(__half2 &a, __half2 b) { return a = __hmul2(a, b); }
static inline __half2 &operator/=(__half2 &a, __half2 b) { return a = __h2div(a, b); }
static inline bool operator==(__half2 a, __half2 b) { return __hbeq2(a, b); }
static inline bool operator!=(__half2 a, __half2 b) { return !__hbeq2(a, b); }
static inline __half2 atomicAdd(__half2 *p, __half2 v) { return sim_rmw(p, [v](__half2 o) { return __hadd2(o, v); }); }

/* ------------------------------------------------------- __nv_bfloat16 */

/* bfloat16: float's sign and exponent, 7 bits of fraction; conversions
 * round to nearest even as cuda_bf16.h's do, arithmetic in float rounded
 * back */
struct __nv_bfloat16 {
    unsigned short b;
    static unsigned short from_float(float f)
    {
        unsigned u;
        memcpy(&u, &f, 4);
        if ((u & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((u >> 16) | 0x40); /* a quiet NaN */
        u += 0x7fffu + ((u >> 16) & 1u);
        return (unsigned short)(u >> 16);
    }
    __nv_bfloat16() = default;
    __nv_bfloat16(float f) : b(from_float(f)) {}
    __nv_bfloat16(double f) : b(from_float((float)f)) {}
    __nv_bfloat16(int i) : b(from_float((float)i)) {}
    operator float() const
    {
        unsigned u = (unsigned)b << 16;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    __nv_bfloat16 &operator+=(const __nv_bfloat16 &o) { return *this = __nv_bfloat16((float)*this + (float)o); }
    __nv_bfloat16 &operator-=(const __nv_bfloat16 &o) { return *this = __nv_bfloat16((float)*this - (float)o); }
    __nv_bfloat16 &operator*=(const __nv_bfloat16 &o) { return *this = __nv_bfloat16((float)*this * (float)o); }
    __nv_bfloat16 &operator/=(const __nv_bfloat16 &o) { return *this = __nv_bfloat16((float)*this / (float)o); }
};
struct __nv_bfloat162 {
    __nv_bfloat16 x, y;
    __nv_bfloat162() = default;
    __nv_bfloat162(const __nv_bfloat16 &a, const __nv_bfloat16 &b) : x(a), y(b) {}
};
static inline __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
static inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
static inline float __bfloat162float(__nv_bfloat16 h) { return (float)h; }
static inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b) { return __nv_bfloat162(a, b); }
static inline __nv_bfloat162 __float2bfloat162_rn(float a) { return __nv_bfloat162(a, a); }
static inline float __low2float(__nv_bfloat162 v) { return (float)v.x; }
static inline float __high2float(__nv_bfloat162 v) { return (float)v.y; }
static inline __nv_bfloat16 __hadd(__nv_bfloat16 a, __nv_bfloat16 b) { return (float)a + (float)b; }
static inline __nv_bfloat16 __hsub(__nv_bfloat16 a, __nv_bfloat16 b) { return (float)a - (float)b; }
static inline __nv_bfloat16 __hmul(__nv_bfloat16 a, __nv_bfloat16 b) { return (float)a * (float)b; }
static inline __nv_bfloat16 __hdiv(__nv_bfloat16 a, __nv_bfloat16 b) { return (float)a / (float)b; }
static inline __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c)
{
    return fmaf((float)a, (float)b, (float)c);
}
static inline __nv_bfloat16 operator+(__nv_bfloat16 a, __nv_bfloat16 b) { return __hadd(a, b); }
static inline __nv_bfloat16 operator-(__nv_bfloat16 a, __nv_bfloat16 b) { return __hsub(a, b); }
static inline __nv_bfloat16 operator*(__nv_bfloat16 a, __nv_bfloat16 b) { return __hmul(a, b); }
static inline __nv_bfloat16 operator/(__nv_bfloat16 a, __nv_bfloat16 b) { return __hdiv(a, b); }
static inline __nv_bfloat16 operator-(__nv_bfloat16 a) { return -(float)a; }
static inline bool operator==(__nv_bfloat16 a, __nv_bfloat16 b) { return (float)a == (float)b; }
static inline bool operator!=(__nv_bfloat16 a, __nv_bfloat16 b) { return (float)a != (float)b; }
static inline bool operator<(__nv_bfloat16 a, __nv_bfloat16 b) { return (float)a < (float)b; }
static inline bool operator>(__nv_bfloat16 a, __nv_bfloat16 b) { return (float)a > (float)b; }
static inline bool operator<=(__nv_bfloat16 a, __nv_bfloat16 b) { return (float)a <= (float)b; }
static inline bool operator>=(__nv_bfloat16 a, __nv_bfloat16 b) { return (float)a >= (float)b; }
static inline __nv_bfloat16 atomicAdd(__nv_bfloat16 *p, __nv_bfloat16 v)
{
    return sim_rmw(p, [v](__nv_bfloat16 o) { return __hadd(o, v); });
}

/* ------------------------------------------------ rounding intrinsics */

/* Directed rounding without changing the mode, the common case: the
 * operation rounded to nearest, then the sign of its exact error says
 * whether the mode's result is one step further up or down. The error is
 * exact by an error-free transformation: TwoSum for a sum, an fma for a
 * double product, quotient or root, the product in double for a float
 * product. Where it might not be (results near the underflow threshold,
 * infinities, NaN, zeros whose sign the mode decides, code built with
 * -ffast-math) the operation runs in the mode itself (sim_rounded): about
 * 4.8 ns an operation against 10.4 that way and 0.45 rounded to nearest in
 * a kernel's loop (one core of the 2-core machine). */
enum { SIM_OP_ADD, SIM_OP_SUB, SIM_OP_MUL, SIM_OP_DIV, SIM_OP_SQRT };
template <class T, class U> static inline T sim_fp_step(T r, int up)
{
    U u;
    memcpy(&u, &r, sizeof u);
    const U sign = (U)1 << (sizeof(U) * 8 - 1);
    if ((u & ~sign) == 0) u = (up ? 0 : sign) | 1; /* +-0: the smallest subnormal */
    else if (!(u & sign) == !!up) u++;             /* away from zero */
    else u--;                                      /* towards zero */
    memcpy(&r, &u, sizeof r);
    return r;
}
static inline float sim_fp_step(float r, int up) { return sim_fp_step<float, uint32_t>(r, up); }
static inline double sim_fp_step(double r, int up) { return sim_fp_step<double, uint64_t>(r, up); }
static inline float sim_fp_fma(float a, float b, float c) { return fmaf(a, b, c); }
static inline double sim_fp_fma(double a, double b, double c) { return fma(a, b, c); }
/* r rounded to nearest; dir the sign of (exact result - r) */
template <class T> static inline T sim_fp_direct(int mode, T r, int dir)
{
    if (dir == 0) return r;
    if (mode == FE_UPWARD) return dir > 0 ? sim_fp_step(r, 1) : r;
    if (mode == FE_DOWNWARD) return dir < 0 ? sim_fp_step(r, 0) : r;
    if (mode == FE_TOWARDZERO) return (r > 0 && dir < 0) || (r < 0 && dir > 0) ? sim_fp_step(r, dir > 0) : r;
    return r;
}
/* 1 with *out set where the fast path is exact, 0 to run in the mode */
template <class T> static inline int sim_fp_try(int mode, int op, T a, T b, T *out)
{
#if defined(__FAST_MATH__)
    (void)mode, (void)op, (void)a, (void)b, (void)out;
    return 0;
#else
    const T tiny = sizeof(T) == 8 ? (T)0x1p-900 : (T)0x1p-100f; /* far from underflow */
    T r, e;
    int dir;
    /* never merged with the caller's products or sums into an fma */
    sim_fp_pin(a);
    sim_fp_pin(b);
    switch (op) {
    case SIM_OP_ADD:
    case SIM_OP_SUB: {
        T c = op == SIM_OP_SUB ? -b : b;
        r = a + c;
        if (!__builtin_isfinite(r) || r == 0) return 0;
        T cc = r - a; /* TwoSum: a + c == r + e exactly */
        e = (a - (r - cc)) + (c - cc);
        dir = (e > 0) - (e < 0);
        break;
    }
    case SIM_OP_MUL:
        if (sizeof(T) == 4) { /* exact in double: 48 bits */
            double p = (double)a * (double)b;
            r = (T)p;
            if (!__builtin_isfinite(r)) return 0;
            dir = (p > (double)r) - (p < (double)r);
            break;
        }
        r = a * b;
        if (!__builtin_isfinite(r) || __builtin_fabs(r) < tiny) return 0;
        e = sim_fp_fma(a, b, -r);
        dir = (e > 0) - (e < 0);
        break;
    case SIM_OP_DIV:
        r = a / b;
        if (!__builtin_isfinite(r) || __builtin_fabs(r) < tiny || __builtin_fabs(a) < tiny ||
            !__builtin_isfinite(b) || __builtin_fabs(b) < tiny)
            return 0;
        e = sim_fp_fma(-r, b, a); /* a - r*b exactly: its sign and b's give the error's */
        dir = ((e > 0) - (e < 0)) * (b > 0 ? 1 : -1);
        break;
    default: /* SIM_OP_SQRT */
        if (!(a >= tiny) || !__builtin_isfinite(a)) return 0;
        r = sizeof(T) == 8 ? (T)sqrt((double)a) : (T)sqrtf((float)a);
        e = sim_fp_fma(-r, r, a);
        dir = (e > 0) - (e < 0);
        break;
    }
    *out = sim_fp_direct(mode, r, dir);
    sim_fp_pin(*out);
    return 1;
#endif
}
#define SIM_ROUNDED2(name, T, mode, op, expr)                                \
    static inline T name(T a_, T b_)                                         \
    {                                                                        \
        T fast = 0;                                                          \
        if (sim_fp_try<T>(mode, op, a_, b_, &fast)) return fast;             \
        return sim_rounded(mode, [&] {                                       \
            T a = a_, b = b_;                                                \
            sim_fp_pin(a);                                                   \
            sim_fp_pin(b);                                                   \
            T r = (expr);                                                    \
            sim_fp_pin(r);                                                   \
            return r;                                                        \
        });                                                                  \
    }
#define SIM_ROUNDED_ALL(op, OP, sym)                                                      \
    SIM_ROUNDED2(__f##op##_rz, float, FE_TOWARDZERO, OP, a sym b)                        \
    SIM_ROUNDED2(__f##op##_ru, float, FE_UPWARD, OP, a sym b)                            \
    SIM_ROUNDED2(__f##op##_rd, float, FE_DOWNWARD, OP, a sym b)                          \
    SIM_ROUNDED2(__d##op##_rz, double, FE_TOWARDZERO, OP, a sym b)                       \
    SIM_ROUNDED2(__d##op##_ru, double, FE_UPWARD, OP, a sym b)                           \
    SIM_ROUNDED2(__d##op##_rd, double, FE_DOWNWARD, OP, a sym b)
SIM_ROUNDED_ALL(add, SIM_OP_ADD, +)
SIM_ROUNDED_ALL(sub, SIM_OP_SUB, -)
SIM_ROUNDED_ALL(mul, SIM_OP_MUL, *)
SIM_ROUNDED_ALL(div, SIM_OP_DIV, /)
/* 1/a is the quotient's case; a square root its own */
#define SIM_ROUNDED1(name, T, mode, op, expr)                                    \
    static inline T name(T a_)                                                   \
    {                                                                            \
        T fast = 0;                                                              \
        if (sim_fp_try<T>(mode, op, op == SIM_OP_DIV ? (T)1 : a_, a_, &fast))    \
            return fast;                                                         \
        return sim_rounded(mode, [&] {                                           \
            T a = a_;                                                            \
            sim_fp_pin(a);                                                       \
            T r = (expr);                                                        \
            sim_fp_pin(r);                                                       \
            return r;                                                            \
        });                                                                      \
    }
#define SIM_ROUNDED1_MODES(name, T, op, expr)                                    \
    SIM_ROUNDED1(name##_rz, T, FE_TOWARDZERO, op, expr)                          \
    SIM_ROUNDED1(name##_ru, T, FE_UPWARD, op, expr)                              \
    SIM_ROUNDED1(name##_rd, T, FE_DOWNWARD, op, expr)
SIM_ROUNDED1_MODES(__frcp, float, SIM_OP_DIV, 1.0f / a)
SIM_ROUNDED1_MODES(__fsqrt, float, SIM_OP_SQRT, sqrtf(a))
SIM_ROUNDED1_MODES(__drcp, double, SIM_OP_DIV, 1.0 / a)
SIM_ROUNDED1_MODES(__dsqrt, double, SIM_OP_SQRT, sqrt(a))
#undef SIM_ROUNDED1_MODES
#undef SIM_ROUNDED1
#undef SIM_ROUNDED_ALL
#undef SIM_ROUNDED2
/* Rounded to nearest and never merged into a fused multiply-add, as the CUDA
 * Math API promises for these (plain a*b + c in device code is merged, as
 * nvcc merges it: translate.c): a sum's operands and a product pass through
 * sim_fp_pin, which the compiler cannot see through. */
template <class T> static inline T sim_fp_sum_rn(T a, T b)
{
    sim_fp_pin(a);
    sim_fp_pin(b);
    return a + b;
}
template <class T> static inline T sim_fp_product_rn(T a, T b)
{
    T r = a * b;
    sim_fp_pin(r);
    return r;
}
static inline float __fadd_rn(float a, float b) { return sim_fp_sum_rn(a, b); }
static inline float __fsub_rn(float a, float b) { return sim_fp_sum_rn(a, -b); }
static inline float __fmul_rn(float a, float b) { return sim_fp_product_rn(a, b); }
static inline double __dadd_rn(double a, double b) { return sim_fp_sum_rn(a, b); }
static inline double __dsub_rn(double a, double b) { return sim_fp_sum_rn(a, -b); }
static inline double __dmul_rn(double a, double b) { return sim_fp_product_rn(a, b); }
static inline double __ddiv_rn(double a, double b) { return a / b; }
static inline double __drcp_rn(double a) { return 1.0 / a; }
static inline double __dsqrt_rn(double a) { return sqrt(a); }
/* fma through fenv, both of the CPU's modes set: where the CPU has no FMA
 * instruction the C library's fma rounds in software */
#define SIM_FMA_ROUNDED(name, T, fn, mode)                                                      \
    static inline T name(T a_, T b_, T c_)                                                      \
    {                                                                                           \
        return sim_rounded_fenv(mode, [&] {                                                          \
            T a = a_, b = b_, c = c_;                                                           \
            sim_fp_pin(a);                                                                      \
            sim_fp_pin(b);                                                                      \
            sim_fp_pin(c);                                                                      \
            T r = fn(a, b, c);                                                                  \
            sim_fp_pin(r);                                                                      \
            return (T)r;                                                                        \
        });                                                                                     \
    }
SIM_FMA_ROUNDED(__fmaf_rz, float, fmaf, FE_TOWARDZERO)
SIM_FMA_ROUNDED(__fmaf_ru, float, fmaf, FE_UPWARD)
SIM_FMA_ROUNDED(__fmaf_rd, float, fmaf, FE_DOWNWARD)
SIM_FMA_ROUNDED(__fma_rz, double, fma, FE_TOWARDZERO)
SIM_FMA_ROUNDED(__fma_ru, double, fma, FE_UPWARD)
SIM_FMA_ROUNDED(__fma_rd, double, fma, FE_DOWNWARD)
#undef SIM_FMA_ROUNDED
#define SIM_CVT_ROUNDED(name, From, To, mode)                                    \
    static inline To name(From a_)                                               \
    {                                                                            \
        return sim_rounded(mode, [&] {                                           \
            From a = a_;                                                         \
            sim_fp_pin(a);                                                       \
            To r = (To)a;                                                        \
            sim_fp_pin(r);                                                       \
            return (To)r;                                                        \
        });                                                                      \
    }
SIM_CVT_ROUNDED(__double2float_rz, double, float, FE_TOWARDZERO)
SIM_CVT_ROUNDED(__double2float_ru, double, float, FE_UPWARD)
SIM_CVT_ROUNDED(__double2float_rd, double, float, FE_DOWNWARD)
SIM_CVT_ROUNDED(__int2float_rz, int, float, FE_TOWARDZERO)
SIM_CVT_ROUNDED(__int2float_ru, int, float, FE_UPWARD)
SIM_CVT_ROUNDED(__int2float_rd, int, float, FE_DOWNWARD)
SIM_CVT_ROUNDED(__uint2float_rz, unsigned, float, FE_TOWARDZERO)
SIM_CVT_ROUNDED(__uint2float_ru, unsigned, float, FE_UPWARD)
SIM_CVT_ROUNDED(__uint2float_rd, unsigned, float, FE_DOWNWARD)
SIM_CVT_ROUNDED(__ll2float_rz, long long, float, FE_TOWARDZERO)
SIM_CVT_ROUNDED(__ll2double_rn, long long, double, FE_TONEAREST)
#undef SIM_CVT_ROUNDED

} /* namespace gpulab_sim */

#endif
