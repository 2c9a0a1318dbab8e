/* shim_wmma.h - nvcuda::wmma (<mma.h>) on the simulator: the warp's
 * matrix fragments, load_matrix_sync, store_matrix_sync, fill_fragment and
 * mma_sync for the shapes of half (16x16x16, 32x8x16, 8x32x16, float or
 * half accumulators), __nv_bfloat16 and 8-bit integers (the same shapes,
 * float or int accumulators), tf32 (16x16x8) and double (8x8x4).
 *
 * A fragment holds num_elements values in every lane, as many as the CUDA
 * headers give it; which elements of the matrix a lane holds is the
 * simulator's choice (CUDA leaves it unspecified): lane L holds elements
 * L * num_elements to L * num_elements + num_elements - 1 of the matrix in
 * row-major order (the half matrices' 16 per lane hold every element twice).
 * Loads and stores are the kernel's own accesses (the memory checks see
 * them at their line); mma_sync gathers the warp's fragments (wmma.cpp).
 *
 * The arithmetic: each element of D is C plus the dot product of a row of A
 * and a column of B. The products of halves, bfloat16s, tf32s and 8-bit
 * integers are exact, and the sum is made exactly (in double, which holds
 * every sum of these products but those spanning more than 53 bits) and
 * rounded once, to nearest even, to the accumulator's type; integers are
 * exact. A GPU gives the same bits whenever that sum is exact in the
 * accumulator's type; otherwise the tensor cores' own order and rounding
 * (not documented) may change the last bit. tf32 inputs are floats whose
 * low 13 fraction bits the tensor core does not read: they are dropped
 * (__float_to_tf32 rounds to nearest, ties away from zero, as cvt.rna does).
 * Doubles (8x8x4) are fused multiply-adds in k order. */
#ifndef GPULAB_SIM_SHIM_WMMA_H
#define GPULAB_SIM_SHIM_WMMA_H

#include <stdint.h>
#include <string.h>

#include <type_traits>

namespace gpulab_sim {

/* the element types of fragments, as wmma.cpp reads and writes them */
enum sim_wmma_type { SIM_WT_HALF, SIM_WT_BF16, SIM_WT_S8, SIM_WT_U8, SIM_WT_TF32, SIM_WT_F32, SIM_WT_F64, SIM_WT_I32 };
/* wmma.cpp: one lane's part of mma_sync: a, b, c: this lane's fragment
 * elements (na, nb, nd of them) of types ta (a and b), tc; d: its result,
 * of type td (c and d may be the same fragment) */
void sim_wmma_mma(unsigned m, unsigned n, unsigned k, int ta, const void *a, unsigned na, const void *b, unsigned nb,
                  int tc, const void *c, int td, void *d, unsigned nd, bool satf, int line, const char *file);
/* a load or store whose pointer or leading dimension breaks the rule */
[[noreturn]] void sim_wmma_misaligned(const char *what, const void *p, unsigned ldm, unsigned elem, int line,
                                      const char *file);

} /* namespace gpulab_sim */

namespace nvcuda {
namespace wmma {

struct row_major {};
struct col_major {};
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
enum layout_t { mem_row_major, mem_col_major };
namespace precision {
struct tf32 {};
} /* namespace precision */

/* tf32: a float rounded to 10 fraction bits (to nearest, ties away from 0) */
static inline float __float_to_tf32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7f800000u) != 0x7f800000u) {
        u += 0x1000u;
        u &= ~0x1fffu;
    }
    memcpy(&f, &u, 4);
    return f;
}

template <class T> struct sim_storage { typedef T type; };
template <> struct sim_storage<precision::tf32> { typedef float type; };

template <class T> struct sim_is_half : std::false_type {};
template <> struct sim_is_half<::gpulab_sim::__half> : std::true_type {};

/* the rows and columns of each matrix of a shape */
template <class Use, int M, int N, int K> struct sim_dims;
template <int M, int N, int K> struct sim_dims<matrix_a, M, N, K> { enum { rows = M, cols = K }; };
template <int M, int N, int K> struct sim_dims<matrix_b, M, N, K> { enum { rows = K, cols = N }; };
template <int M, int N, int K> struct sim_dims<accumulator, M, N, K> { enum { rows = M, cols = N }; };

template <int M, int N, int K, class T> struct sim_shape_ok {
    static constexpr bool value =
        ((M == 16 && N == 16 && K == 16) || (M == 32 && N == 8 && K == 16) || (M == 8 && N == 32 && K == 16))
            ? (std::is_same<T, ::gpulab_sim::__half>::value || std::is_same<T, ::gpulab_sim::__nv_bfloat16>::value ||
               std::is_same<T, signed char>::value || std::is_same<T, unsigned char>::value ||
               std::is_same<T, float>::value || std::is_same<T, int>::value)
        : (M == 16 && N == 16 && K == 8) ? (std::is_same<T, precision::tf32>::value || std::is_same<T, float>::value)
        : (M == 8 && N == 8 && K == 4)   ? std::is_same<T, double>::value
                                         : false;
};

template <class Use, int m, int n, int k, class T, class Layout = void> class fragment {
    static_assert(sim_shape_ok<m, n, k, T>::value,
                  "wmma::fragment: not a shape and type of the CUDA headers (half, __nv_bfloat16, signed or "
                  "unsigned char: 16x16x16, 32x8x16, 8x32x16; precision::tf32: 16x16x8; double: 8x8x4; "
                  "accumulators float, half or int)");
    static_assert(!std::is_same<Use, accumulator>::value || std::is_same<Layout, void>::value,
                  "wmma::fragment: an accumulator has no layout (the load and the store name it)");
    static_assert(std::is_same<Use, accumulator>::value == std::is_same<Layout, void>::value,
                  "wmma::fragment: matrix_a and matrix_b need a layout, row_major or col_major");

public:
    typedef typename sim_storage<T>::type element_type;
    typedef T storage_element_type_of;
    enum { sim_rows = sim_dims<Use, m, n, k>::rows, sim_cols = sim_dims<Use, m, n, k>::cols };
    enum { sim_total = sim_rows * sim_cols };
    enum { num_elements = (!std::is_same<Use, accumulator>::value && sim_is_half<T>::value) ? 16 : sim_total / 32 };
    element_type x[num_elements];
    /* the matrix element that x[i] holds */
    static __attribute__((always_inline)) unsigned sim_at(unsigned i)
    {
        return (::gpulab_sim::sim_cur->lane * num_elements + i) % sim_total;
    }
};

template <class P> static __attribute__((always_inline)) inline P *sim_wmma_ptr(P *p) { return p; }
template <class P> static __attribute__((always_inline)) inline P *sim_wmma_ptr(const ::gpulab_sim::sim_shared_array<P> &a)
{
    return a.base;
}
template <class P> static __attribute__((always_inline)) inline P *sim_wmma_ptr(const ::gpulab_sim::sim_shared_row<P> &a)
{
    return a.base;
}
template <class P>
static __attribute__((always_inline)) inline P *sim_wmma_ptr(const ::gpulab_sim::sim_shared_array2<P> &a)
{
    return a.base;
}
template <class P> static __attribute__((always_inline)) inline P *sim_wmma_ptr(const ::gpulab_sim::sim_vptr<P> &a)
{
    return a.p;
}

/* the pointer: a multiple of 16 bytes; ldm: a multiple of 16 bytes (8 halves,
 * 4 floats). The CUDA Programming Guide asks for a 256-bit aligned pointer;
 * the H200 loads and stores fragments at any 16-byte boundary (NVIDIA's own
 * immaTensorCoreGemm sample relies on it), so the simulator does too. */
static __attribute__((always_inline)) inline void sim_wmma_check(const char *what, const void *p, unsigned ldm,
                                                                 unsigned elem, int line, const char *file)
{
    unsigned per16 = elem >= 16 ? 1 : 16 / elem;
    if (((uintptr_t)p & 15) || ldm % per16) ::gpulab_sim::sim_wmma_misaligned(what, p, ldm, elem, line, file);
}

/* load_matrix_sync(a or b, pointer, ldm): the layout is the fragment's */
template <class Use, int m, int n, int k, class T, class Layout, class P>
static __attribute__((always_inline)) inline void load_matrix_sync(fragment<Use, m, n, k, T, Layout> &a, const P &ptr,
                                                                   unsigned ldm, int line = __builtin_LINE(),
                                                                   const char *file = __builtin_FILE())
{
    typedef fragment<Use, m, n, k, T, Layout> F;
    const auto *p = sim_wmma_ptr(ptr);
    sim_wmma_check("load_matrix_sync", p, ldm, sizeof(*p), line, file);
    for (unsigned i = 0; i < F::num_elements; i++) {
        unsigned e = F::sim_at(i), r = e / F::sim_cols, c = e % F::sim_cols;
        a.x[i] = std::is_same<Layout, row_major>::value ? p[r * ldm + c] : p[c * ldm + r];
    }
}

/* load_matrix_sync(accumulator, pointer, ldm, layout) */
template <int m, int n, int k, class T, class P>
static __attribute__((always_inline)) inline void load_matrix_sync(fragment<accumulator, m, n, k, T> &a, const P &ptr,
                                                                   unsigned ldm, layout_t layout,
                                                                   int line = __builtin_LINE(),
                                                                   const char *file = __builtin_FILE())
{
    typedef fragment<accumulator, m, n, k, T> F;
    const auto *p = sim_wmma_ptr(ptr);
    sim_wmma_check("load_matrix_sync", p, ldm, sizeof(*p), line, file);
    for (unsigned i = 0; i < F::num_elements; i++) {
        unsigned e = F::sim_at(i), r = e / F::sim_cols, c = e % F::sim_cols;
        a.x[i] = layout == mem_row_major ? p[r * ldm + c] : p[c * ldm + r];
    }
}

template <int m, int n, int k, class T, class P>
static __attribute__((always_inline)) inline void store_matrix_sync(const P &ptr, const fragment<accumulator, m, n, k, T> &a,
                                                                    unsigned ldm, layout_t layout,
                                                                    int line = __builtin_LINE(),
                                                                    const char *file = __builtin_FILE())
{
    typedef fragment<accumulator, m, n, k, T> F;
    auto *p = sim_wmma_ptr(ptr);
    sim_wmma_check("store_matrix_sync", p, ldm, sizeof(*p), line, file);
    for (unsigned i = 0; i < F::num_elements; i++) {
        unsigned e = F::sim_at(i), r = e / F::sim_cols, c = e % F::sim_cols;
        if (layout == mem_row_major) p[r * ldm + c] = a.x[i];
        else p[c * ldm + r] = a.x[i];
    }
}

template <class Use, int m, int n, int k, class T, class Layout, class V>
static inline void fill_fragment(fragment<Use, m, n, k, T, Layout> &a, const V &v)
{
    typedef typename fragment<Use, m, n, k, T, Layout>::element_type E;
    E e = E(v);
    for (unsigned i = 0; i < fragment<Use, m, n, k, T, Layout>::num_elements; i++) a.x[i] = e;
}

template <class T> struct sim_wmma_code;
template <> struct sim_wmma_code<::gpulab_sim::__half> { enum { value = ::gpulab_sim::SIM_WT_HALF }; };
template <> struct sim_wmma_code<::gpulab_sim::__nv_bfloat16> { enum { value = ::gpulab_sim::SIM_WT_BF16 }; };
template <> struct sim_wmma_code<signed char> { enum { value = ::gpulab_sim::SIM_WT_S8 }; };
template <> struct sim_wmma_code<unsigned char> { enum { value = ::gpulab_sim::SIM_WT_U8 }; };
template <> struct sim_wmma_code<precision::tf32> { enum { value = ::gpulab_sim::SIM_WT_TF32 }; };
template <> struct sim_wmma_code<float> { enum { value = ::gpulab_sim::SIM_WT_F32 }; };
template <> struct sim_wmma_code<double> { enum { value = ::gpulab_sim::SIM_WT_F64 }; };
template <> struct sim_wmma_code<int> { enum { value = ::gpulab_sim::SIM_WT_I32 }; };

/* d = a * b + c, the whole warp at once (wmma.cpp) */
template <int m, int n, int k, class Td, class Ta, class La, class Tb, class Lb, class Tc>
static inline void sim_mma(fragment<accumulator, m, n, k, Td> &d, const fragment<matrix_a, m, n, k, Ta, La> &a,
                           const fragment<matrix_b, m, n, k, Tb, Lb> &b, const fragment<accumulator, m, n, k, Tc> &c,
                           bool satf, int line, const char *file)
{
    static_assert(std::is_same<Ta, Tb>::value, "wmma::mma_sync: matrix_a and matrix_b hold the same type");
    ::gpulab_sim::sim_wmma_mma(m, n, k, sim_wmma_code<Ta>::value, a.x, fragment<matrix_a, m, n, k, Ta, La>::num_elements,
                               b.x, fragment<matrix_b, m, n, k, Tb, Lb>::num_elements, sim_wmma_code<Tc>::value, c.x,
                               sim_wmma_code<Td>::value, d.x, fragment<accumulator, m, n, k, Td>::num_elements, satf,
                               line, file);
}

/* the call's line: not a bool, so that mma_sync(d, a, b, c, true) cannot
 * take its satf for the line, and picks the overload that checks it */
enum class sim_wmma_line : int {};

template <int m, int n, int k, class Td, class Ta, class La, class Tb, class Lb, class Tc>
static inline void mma_sync(fragment<accumulator, m, n, k, Td> &d, const fragment<matrix_a, m, n, k, Ta, La> &a,
                            const fragment<matrix_b, m, n, k, Tb, Lb> &b, const fragment<accumulator, m, n, k, Tc> &c,
                            sim_wmma_line line = sim_wmma_line(__builtin_LINE()), const char *file = __builtin_FILE())
{
    sim_mma(d, a, b, c, false, (int)line, file);
}

/* satf: an int accumulator clamps to [INT_MIN, INT_MAX] instead of
 * wrapping; the CUDA headers declare the argument for 8-bit integer inputs
 * only */
template <int m, int n, int k, class Td, class Ta, class La, class Tb, class Lb, class Tc>
static inline void mma_sync(fragment<accumulator, m, n, k, Td> &d, const fragment<matrix_a, m, n, k, Ta, La> &a,
                            const fragment<matrix_b, m, n, k, Tb, Lb> &b, const fragment<accumulator, m, n, k, Tc> &c,
                            bool satf, int line = __builtin_LINE(), const char *file = __builtin_FILE())
{
    static_assert(std::is_same<Ta, signed char>::value || std::is_same<Ta, unsigned char>::value,
                  "wmma::mma_sync takes a satf argument only for signed char and unsigned char inputs (as the "
                  "CUDA headers declare it); drop the argument for half, __nv_bfloat16, tf32 and double");
    sim_mma(d, a, b, c, satf, line, file);
}

} /* namespace wmma */
} /* namespace nvcuda */

#endif
