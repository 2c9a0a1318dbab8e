/* curand_kernel.h of a student's program on the simulator: cuRAND's device
 * API, the generators a kernel keeps in its own state. Each generator gives
 * the sequence the CUDA toolkit's cuRAND defines for it, number for number
 * (tests/programs/p140, p141 and p147 against an H200):
 *
 *   curandState (XORWOW)    xor-shift with a Weyl sequence; subsequences 2^67
 *                           numbers apart, jumped by powers of the step's
 *                           matrix over GF(2), computed here on first use
 *   curandStatePhilox4_32_10  the counter-based Philox: ten rounds of
 *                           multiplications on a 128-bit counter
 *   curandStateMRG32k3a     L'Ecuyer's combined multiple recursive generator;
 *                           jumps by powers of its 3 x 3 matrices modulo m1
 *                           and m2 (subsequences 2^76 numbers apart)
 *   curandStateSobol32/64 and the scrambled forms: Sobol's quasi-random
 *                           sequence in Gray-code order, from the direction
 *                           vectors the host API hands out
 *
 * The distributions turn 32-bit numbers into floats as cuRAND does: uniform
 * in (0, 1], normal by Box-Muller (pseudo-random) or by the inverse normal
 * CDF (quasi-random), log-normal from the normal. The GPU computes
 * x * 2^-32 + 2^-33 with one fused multiply-add, so these do too.
 * Box-Muller's sine and cosine are CUDA's __sincosf there, an approximation
 * (2^-21.4 absolute error); the simulator's are exact, so curand_normal's
 * floats can differ from an H200's in the last digits (uniform numbers and
 * the integers never do). MTGP32 (its parameter tables) and the Poisson and
 * discrete distributions (the GPU's approximate exp and log in them) are not
 * simulated: gpulab names them when a program is opened. */
#ifndef GPULAB_CURAND_KERNEL_H
#define GPULAB_CURAND_KERNEL_H

#include "kernels/program/progrt.h"
#include <curand.h>
#include <cmath>

namespace gpulab_sim {

/* ------------------------------------------------ jumps over GF(2) */

/* XORWOW's five words v[0..4] move by a linear map over GF(2): a 160 x 160
 * bit matrix, kept as its 160 columns (each five words). Jumping n steps
 * multiplies v by M^n; the powers M^(2^i) (offsets) and M^(2^(67+i))
 * (subsequences) are made once by squaring. Not instrumented: the tables
 * are the generator's, not the program's memory. */
struct sim_xorwow_jumps {
    unsigned int off[64][160][5];
    unsigned int seq[64][160][5];
};

__attribute__((no_sanitize("thread"))) static inline void sim_xorwow_step(unsigned int v[5])
{
    unsigned int t = v[0] ^ (v[0] >> 2);
    v[0] = v[1];
    v[1] = v[2];
    v[2] = v[3];
    v[3] = v[4];
    v[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1));
}

/* r = m * v */
__attribute__((no_sanitize("thread"))) static inline void sim_gf2_apply(const unsigned int m[160][5],
                                                                        const unsigned int v[5],
                                                                        unsigned int r[5])
{
    unsigned int acc[5] = {0, 0, 0, 0, 0};
    for (int j = 0; j < 160; j++)
        if (v[j / 32] >> (j % 32) & 1u)
            for (int w = 0; w < 5; w++) acc[w] ^= m[j][w];
    for (int w = 0; w < 5; w++) r[w] = acc[w];
}

/* out = m * m */
__attribute__((no_sanitize("thread"))) static inline void sim_gf2_square(const unsigned int m[160][5],
                                                                         unsigned int out[160][5])
{
    for (int j = 0; j < 160; j++) sim_gf2_apply(m, m[j], out[j]);
}

__attribute__((no_sanitize("thread"))) static inline const sim_xorwow_jumps &sim_xorwow_tables()
{
    static const sim_xorwow_jumps *tables = [] {
        sim_xorwow_jumps *t = new sim_xorwow_jumps;
        for (int j = 0; j < 160; j++) {
            unsigned int e[5] = {0, 0, 0, 0, 0};
            e[j / 32] = 1u << (j % 32);
            sim_xorwow_step(e);
            for (int w = 0; w < 5; w++) t->off[0][j][w] = e[w];
        }
        for (int i = 1; i < 64; i++) sim_gf2_square(t->off[i - 1], t->off[i]);
        /* M^(2^67): four more squarings of M^(2^63) */
        static unsigned int a[160][5], b[160][5];
        sim_gf2_square(t->off[63], a);
        sim_gf2_square(a, b);
        sim_gf2_square(b, a);
        sim_gf2_square(a, t->seq[0]);
        for (int i = 1; i < 64; i++) sim_gf2_square(t->seq[i - 1], t->seq[i]);
        return t;
    }();
    return *tables;
}

__attribute__((no_sanitize("thread"))) static inline void sim_xorwow_jump(unsigned int v[5], unsigned long long n,
                                                                          bool subsequences)
{
    const sim_xorwow_jumps &t = sim_xorwow_tables();
    for (int i = 0; i < 64 && n; i++, n >>= 1)
        if (n & 1) sim_gf2_apply(subsequences ? t.seq[i] : t.off[i], v, v);
}

} /* namespace gpulab_sim */

/* ------------------------------------------------------------ states */

#define EXTRA_FLAG_NORMAL 0x00000001
#define EXTRA_FLAG_LOG_NORMAL 0x00000002

struct curandStateXORWOW {
    unsigned int d, v[5];
    int boxmuller_flag;
    int boxmuller_flag_double;
    float boxmuller_extra;
    double boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

struct curandStatePhilox4_32_10 {
    uint4 ctr;
    uint4 output;
    uint2 key;
    unsigned int STATE;
    int boxmuller_flag;
    int boxmuller_flag_double;
    float boxmuller_extra;
    double boxmuller_extra_double;
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

struct curandStateSobol32 {
    unsigned int i, x, c;
    unsigned int direction_vectors[32];
};
typedef struct curandStateSobol32 curandStateSobol32_t;
struct curandStateScrambledSobol32 {
    unsigned int i, x, c;
    unsigned int direction_vectors[32];
};
typedef struct curandStateScrambledSobol32 curandStateScrambledSobol32_t;
struct curandStateSobol64 {
    unsigned long long i, x, c;
    unsigned long long direction_vectors[64];
};
typedef struct curandStateSobol64 curandStateSobol64_t;
struct curandStateScrambledSobol64 {
    unsigned long long i, x, c;
    unsigned long long direction_vectors[64];
};
typedef struct curandStateScrambledSobol64 curandStateScrambledSobol64_t;

/* ------------------------------------------------------------ XORWOW */

namespace gpulab_sim {
/* the state's five words through a copy (the step and the jumps are not
 * instrumented; the state's own loads and stores are, for memcheck):
 * n steps, n jumps of a subsequence, or one step (n 0) */
static inline void sim_xorwow_move(curandStateXORWOW_t *state, unsigned long long n, bool subsequences)
{
    unsigned int v[5] = {state->v[0], state->v[1], state->v[2], state->v[3], state->v[4]};
    if (n) sim_xorwow_jump(v, n, subsequences);
    else sim_xorwow_step(v);
    for (int w = 0; w < 5; w++) state->v[w] = v[w];
}
} /* namespace gpulab_sim */

static inline unsigned int curand(curandStateXORWOW_t *state)
{
    ::gpulab_sim::sim_xorwow_move(state, 0, false);
    state->d += 362437u;
    return state->v[4] + state->d;
}

/* n numbers ahead: the Weyl sequence d moves by n steps of 362437 */
static inline void skipahead(unsigned long long n, curandStateXORWOW_t *state)
{
    if (!n) return;
    ::gpulab_sim::sim_xorwow_move(state, n, false);
    state->d += 362437u * (unsigned int)n;
}

/* n subsequences ahead (n * 2^67 numbers: d comes back to itself) */
static inline void skipahead_sequence(unsigned long long n, curandStateXORWOW_t *state)
{
    if (n) ::gpulab_sim::sim_xorwow_move(state, n, true);
}

static inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                               curandStateXORWOW_t *state)
{
    /* the seed's two halves, salted and mixed by odd multipliers */
    unsigned int s0 = (unsigned int)seed ^ 0xaad26b49u;
    unsigned int s1 = (unsigned int)(seed >> 32) ^ 0xf7dcefddu;
    unsigned int t0 = 1099087573u * s0;
    unsigned int t1 = 2591861531u * s1;
    state->d = 6615241u + t1 + t0;
    state->v[0] = 123456789u + t0;
    state->v[1] = 362436069u ^ t0;
    state->v[2] = 521288629u + t1;
    state->v[3] = 88675123u ^ t1;
    state->v[4] = 5783321u + t0;
    skipahead_sequence(subsequence, state);
    skipahead(offset, state);
    state->boxmuller_flag = 0;
    state->boxmuller_flag_double = 0;
    state->boxmuller_extra = 0.f;
    state->boxmuller_extra_double = 0.;
}

/* ----------------------------------------------------------- Philox */

namespace gpulab_sim {

static inline uint4 sim_philox_round(uint4 c, uint2 k)
{
    unsigned long long p0 = 0xD2511F53ull * c.x, p1 = 0xCD9E8D57ull * c.z;
    uint4 r;
    r.x = (unsigned int)(p1 >> 32) ^ c.y ^ k.x;
    r.y = (unsigned int)p1;
    r.z = (unsigned int)(p0 >> 32) ^ c.w ^ k.y;
    r.w = (unsigned int)p0;
    return r;
}

/* ten rounds, the key bumped by the Weyl constants between them */
static inline uint4 sim_philox10(uint4 c, uint2 k)
{
    for (int round = 0; round < 9; round++) {
        c = sim_philox_round(c, k);
        k.x += 0x9E3779B9u;
        k.y += 0xBB67AE85u;
    }
    return sim_philox_round(c, k);
}

/* the 128-bit counter plus n (low half) or plus n * 2^64 (high half) */
static inline void sim_philox_add(curandStatePhilox4_32_10_t *s, unsigned long long n, bool high)
{
    unsigned int lo = (unsigned int)n, hi = (unsigned int)(n >> 32);
    unsigned int &a = high ? s->ctr.z : s->ctr.x, &b = high ? s->ctr.w : s->ctr.y;
    a += lo;
    if (a < lo) hi++;
    b += hi;
    if (high || hi <= b) return;
    if (++s->ctr.z) return;
    ++s->ctr.w;
}

static inline void sim_philox_next(curandStatePhilox4_32_10_t *s)
{
    if (++s->ctr.x == 0 && ++s->ctr.y == 0 && ++s->ctr.z == 0) ++s->ctr.w;
    s->output = sim_philox10(s->ctr, s->key);
}

} /* namespace gpulab_sim */

/* output[STATE] is the next number to hand out */
static inline unsigned int curand(curandStatePhilox4_32_10_t *state)
{
    unsigned int k = state->STATE++;
    unsigned int r = k == 1 ? state->output.y : k == 2 ? state->output.z : k == 3 ? state->output.w : state->output.x;
    if (state->STATE == 4) {
        ::gpulab_sim::sim_philox_next(state);
        state->STATE = 0;
    }
    return r;
}

/* four numbers at once, from where the state stands */
static inline uint4 curand4(curandStatePhilox4_32_10_t *state)
{
    uint4 was = state->output;
    ::gpulab_sim::sim_philox_next(state);
    unsigned int all[8] = {was.x, was.y, was.z, was.w, state->output.x, state->output.y, state->output.z,
                           state->output.w};
    unsigned int k = state->STATE & 3;
    uint4 r;
    r.x = all[k];
    r.y = all[k + 1];
    r.z = all[k + 2];
    r.w = all[k + 3];
    return r;
}

static inline void skipahead(unsigned long long n, curandStatePhilox4_32_10_t *state)
{
    state->STATE += (unsigned int)(n & 3);
    n /= 4;
    if (state->STATE > 3) {
        n += 1;
        state->STATE -= 4;
    }
    ::gpulab_sim::sim_philox_add(state, n, false);
    state->output = ::gpulab_sim::sim_philox10(state->ctr, state->key);
}

/* n subsequences of 2^66 numbers: the counter's high half */
static inline void skipahead_sequence(unsigned long long n, curandStatePhilox4_32_10_t *state)
{
    ::gpulab_sim::sim_philox_add(state, n, true);
    state->output = ::gpulab_sim::sim_philox10(state->ctr, state->key);
}

static inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                               curandStatePhilox4_32_10_t *state)
{
    state->ctr = make_uint4(0, 0, 0, 0);
    state->key.x = (unsigned int)seed;
    state->key.y = (unsigned int)(seed >> 32);
    state->STATE = 0;
    state->boxmuller_flag = 0;
    state->boxmuller_flag_double = 0;
    state->boxmuller_extra = 0.f;
    state->boxmuller_extra_double = 0.;
    skipahead_sequence(subsequence, state);
    skipahead(offset, state);
}

/* ------------------------------------------------------------ Sobol */

/* the i-th point in Gray-code order: x is c xor the direction vectors of
 * the set bits of i ^ (i >> 1) */
template <class S, class U> static inline void gpulab_sobol_jump(S *state, U n)
{
    state->x = state->c;
    state->i += n;
    U gray = state->i ^ (state->i >> 1);
    for (unsigned k = 0; k < sizeof(U) * 8; k++)
        if (gray >> k & 1) state->x ^= state->direction_vectors[k];
}

/* to the next point, one vector: the one of i's lowest zero bit */
template <class S, class U> static inline U gpulab_sobol_next(S *state)
{
    U r = state->x;
    U i = state->i;
    unsigned k = 0;
    while ((i & 1) && k < sizeof(U) * 8 - 1) {
        i >>= 1;
        k++;
    }
    state->x ^= state->direction_vectors[k];
    state->i++;
    return r;
}

static inline void skipahead(unsigned int n, curandStateSobol32_t *state) { gpulab_sobol_jump(state, n); }
static inline void skipahead(unsigned int n, curandStateScrambledSobol32_t *state) { gpulab_sobol_jump(state, n); }
static inline void skipahead(unsigned long long n, curandStateSobol64_t *state) { gpulab_sobol_jump(state, n); }
static inline void skipahead(unsigned long long n, curandStateScrambledSobol64_t *state)
{
    gpulab_sobol_jump(state, n);
}

template <class S, class V, class U> static inline void gpulab_sobol_init(S *state, const V *dv, U c, U offset)
{
    state->i = 0;
    state->c = c;
    for (unsigned k = 0; k < sizeof(U) * 8; k++) state->direction_vectors[k] = dv[k];
    state->x = c;
    gpulab_sobol_jump(state, offset);
}

static inline void curand_init(curandDirectionVectors32_t direction_vectors, unsigned int offset,
                               curandStateSobol32_t *state)
{
    gpulab_sobol_init(state, direction_vectors, 0u, offset);
}
static inline void curand_init(curandDirectionVectors32_t direction_vectors, unsigned int scramble_c,
                               unsigned int offset, curandStateScrambledSobol32_t *state)
{
    gpulab_sobol_init(state, direction_vectors, scramble_c, offset);
}
static inline void curand_init(curandDirectionVectors64_t direction_vectors, unsigned long long offset,
                               curandStateSobol64_t *state)
{
    gpulab_sobol_init(state, direction_vectors, 0ull, offset);
}
static inline void curand_init(curandDirectionVectors64_t direction_vectors, unsigned long long scramble_c,
                               unsigned long long offset, curandStateScrambledSobol64_t *state)
{
    gpulab_sobol_init(state, direction_vectors, scramble_c, offset);
}

static inline unsigned int curand(curandStateSobol32_t *state)
{
    return gpulab_sobol_next<curandStateSobol32_t, unsigned int>(state);
}
static inline unsigned int curand(curandStateScrambledSobol32_t *state)
{
    return gpulab_sobol_next<curandStateScrambledSobol32_t, unsigned int>(state);
}
static inline unsigned long long curand(curandStateSobol64_t *state)
{
    return gpulab_sobol_next<curandStateSobol64_t, unsigned long long>(state);
}
static inline unsigned long long curand(curandStateScrambledSobol64_t *state)
{
    return gpulab_sobol_next<curandStateScrambledSobol64_t, unsigned long long>(state);
}

/* ---------------------------------------------------------- MRG32k3a */

struct curandStateMRG32k3a {
    unsigned int s1[3];
    unsigned int s2[3];
    int boxmuller_flag;
    int boxmuller_flag_double;
    float boxmuller_extra;
    double boxmuller_extra_double;
};
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;

namespace gpulab_sim {

/* L'Ecuyer's combined generator: two order-3 recurrences, modulo m1 and m2 */
static const unsigned long long sim_mrg_m1 = 4294967087ull, sim_mrg_m2 = 4294944443ull;

/* one step: x1 = (1403580 s1[1] - 810728 s1[0]) mod m1, x2 = (527612 s2[2]
 * - 1370589 s2[0]) mod m2; the number is x1 - x2 mod m1, in (0, m1] */
static inline double sim_mrg_next(curandStateMRG32k3a_t *s)
{
    unsigned long long p1 = (1403580ull * s->s1[1] + 810728ull * (sim_mrg_m1 - s->s1[0])) % sim_mrg_m1;
    unsigned long long p2 = (527612ull * s->s2[2] + 1370589ull * (sim_mrg_m2 - s->s2[0])) % sim_mrg_m2;
    s->s1[0] = s->s1[1];
    s->s1[1] = s->s1[2];
    s->s1[2] = (unsigned int)p1;
    s->s2[0] = s->s2[1];
    s->s2[1] = s->s2[2];
    s->s2[2] = (unsigned int)p2;
    return p1 <= p2 ? (double)(p1 + sim_mrg_m1 - p2) : (double)(p1 - p2);
}

/* the steps as 3 x 3 matrices modulo m, and their powers M^(2^i) made by
 * squaring on first use (not instrumented: the generator's tables) */
typedef unsigned long long sim_mat3[3][3];

__attribute__((no_sanitize("thread"))) static inline void sim_mat3_mul(const sim_mat3 a, const sim_mat3 b, sim_mat3 o,
                                                                       unsigned long long m)
{
    sim_mat3 t;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            unsigned __int128 acc = 0;
            for (int k = 0; k < 3; k++) acc += (unsigned __int128)a[i][k] * b[k][j];
            t[i][j] = (unsigned long long)(acc % m);
        }
    memcpy(o, t, sizeof t);
}

struct sim_mrg_powers {
    sim_mat3 p1[192], p2[192]; /* M1^(2^i), M2^(2^i) */
};

__attribute__((no_sanitize("thread"))) static inline const sim_mrg_powers &sim_mrg_tables()
{
    static const sim_mrg_powers *t = [] {
        sim_mrg_powers *p = new sim_mrg_powers;
        const sim_mat3 a = {{0, 1, 0}, {0, 0, 1}, {sim_mrg_m1 - 810728ull, 1403580ull, 0}};
        const sim_mat3 b = {{0, 1, 0}, {0, 0, 1}, {sim_mrg_m2 - 1370589ull, 0, 527612ull}};
        memcpy(p->p1[0], a, sizeof a);
        memcpy(p->p2[0], b, sizeof b);
        for (int i = 1; i < 192; i++) {
            sim_mat3_mul(p->p1[i - 1], p->p1[i - 1], p->p1[i], sim_mrg_m1);
            sim_mat3_mul(p->p2[i - 1], p->p2[i - 1], p->p2[i], sim_mrg_m2);
        }
        return p;
    }();
    return *t;
}

/* n * 2^shift steps ahead */
__attribute__((no_sanitize("thread"))) static inline void sim_mrg_jump(unsigned int s1[3], unsigned int s2[3],
                                                                       unsigned long long n, int shift)
{
    const sim_mrg_powers &t = sim_mrg_tables();
    for (int i = 0; n && i + shift < 192; i++, n >>= 1) {
        if (!(n & 1)) continue;
        unsigned long long v1[3], v2[3];
        for (int r = 0; r < 3; r++) {
            unsigned __int128 a1 = 0, a2 = 0;
            for (int k = 0; k < 3; k++) {
                a1 += (unsigned __int128)t.p1[i + shift][r][k] * s1[k];
                a2 += (unsigned __int128)t.p2[i + shift][r][k] * s2[k];
            }
            v1[r] = (unsigned long long)(a1 % sim_mrg_m1);
            v2[r] = (unsigned long long)(a2 % sim_mrg_m2);
        }
        for (int r = 0; r < 3; r++) {
            s1[r] = (unsigned int)v1[r];
            s2[r] = (unsigned int)v2[r];
        }
    }
}

} /* namespace gpulab_sim */

static inline unsigned int curand(curandStateMRG32k3a_t *state)
{
    return (unsigned int)(::gpulab_sim::sim_mrg_next(state) * 1.000000048662);
}

namespace gpulab_sim {
/* n * 2^shift numbers ahead, through a copy of the state's words */
static inline void sim_mrg_skip(curandStateMRG32k3a_t *state, unsigned long long n, int shift)
{
    unsigned int s1[3] = {state->s1[0], state->s1[1], state->s1[2]}, s2[3] = {state->s2[0], state->s2[1], state->s2[2]};
    sim_mrg_jump(s1, s2, n, shift);
    memcpy(state->s1, s1, sizeof s1);
    memcpy(state->s2, s2, sizeof s2);
}
} /* namespace gpulab_sim */

/* n numbers, n subsequences (2^76 numbers each), n sequences (2^127) ahead */
static inline void skipahead(unsigned long long n, curandStateMRG32k3a_t *state)
{
    ::gpulab_sim::sim_mrg_skip(state, n, 0);
}
static inline void skipahead_subsequence(unsigned long long n, curandStateMRG32k3a_t *state)
{
    ::gpulab_sim::sim_mrg_skip(state, n, 76);
}
static inline void skipahead_sequence(unsigned long long n, curandStateMRG32k3a_t *state)
{
    ::gpulab_sim::sim_mrg_skip(state, n, 127);
}

static inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                               curandStateMRG32k3a_t *state)
{
    /* seed 0: the published generator's start; else its halves, salted,
     * times that start */
    unsigned long long a = 12345;
    for (int i = 0; i < 3; i++) state->s1[i] = state->s2[i] = (unsigned int)a;
    if (seed != 0) {
        unsigned long long x1 = (unsigned int)seed ^ 0x55555555u, x2 = (unsigned int)(seed >> 32) ^ 0xAAAAAAAAu;
        state->s1[0] = (unsigned int)(x1 * a % ::gpulab_sim::sim_mrg_m1);
        state->s1[1] = (unsigned int)(x2 * a % ::gpulab_sim::sim_mrg_m1);
        state->s1[2] = (unsigned int)(x1 * a % ::gpulab_sim::sim_mrg_m1);
        state->s2[0] = (unsigned int)(x2 * a % ::gpulab_sim::sim_mrg_m2);
        state->s2[1] = (unsigned int)(x1 * a % ::gpulab_sim::sim_mrg_m2);
        state->s2[2] = (unsigned int)(x2 * a % ::gpulab_sim::sim_mrg_m2);
    }
    skipahead_subsequence(subsequence, state);
    skipahead(offset, state);
    state->boxmuller_flag = 0;
    state->boxmuller_flag_double = 0;
    state->boxmuller_extra = 0.f;
    state->boxmuller_extra_double = 0.;
}

/* ----------------------------------------------------- distributions */

namespace gpulab_sim {

/* (0, 1]: x * 2^-32 + 2^-33, one fused multiply-add as on the GPU */
static inline float sim_rand_uniform(unsigned int x) { return fmaf((float)x, 2.3283064e-10f, 2.3283064e-10f / 2.0f); }
static inline float sim_rand_uniform(unsigned long long x) { return sim_rand_uniform((unsigned int)(x >> 32)); }
/* 53 bits of two numbers */
static inline double sim_rand_uniform_hq(unsigned int x, unsigned int y)
{
    unsigned long long z = (unsigned long long)x ^ ((unsigned long long)y << (53 - 32));
    return fma((double)z, 1.1102230246251565e-16, 1.1102230246251565e-16 / 2.0);
}
static inline double sim_rand_uniform_double(unsigned int x)
{
    return fma((double)x, 2.3283064365386963e-10, 2.3283064365386963e-10);
}
static inline double sim_rand_uniform_double(unsigned long long x)
{
    return fma((double)(x >> 11), 1.1102230246251565e-16, 1.1102230246251565e-16 / 2.0);
}

/* Box-Muller: a radius from one uniform, an angle from the other */
static inline float2 sim_box_muller(unsigned int x, unsigned int y)
{
    float u = sim_rand_uniform(x);
    float v = fmaf((float)y, 2.3283064e-10f * 6.2831855f, 2.3283064e-10f * 6.2831855f / 2);
    float s = sqrtf(-2.0f * logf(u));
    float2 r;
    __sincosf(v, &r.x, &r.y);
    r.x *= s;
    r.y *= s;
    return r;
}
static inline double2 sim_box_muller_double(unsigned int x0, unsigned int x1, unsigned int y0, unsigned int y1)
{
    unsigned long long zy = (unsigned long long)y0 ^ ((unsigned long long)y1 << (53 - 32));
    double u = sim_rand_uniform_hq(x0, x1);
    double v = fma((double)zy, 1.1102230246251565e-16 * 2.0, 1.1102230246251565e-16);
    double s = sqrt(-2.0 * log(u));
    double2 r;
    sincospi(v, &r.x, &r.y);
    r.x *= s;
    r.y *= s;
    return r;
}

/* the inverse normal CDF of a quasi-random point, mirrored about 1/2 */
static inline float sim_normal_icdf(unsigned int x)
{
    float s = -1.4142135f;
    if (x > 0x80000000u) {
        x = 0xffffffffu - x;
        s = -s;
    }
    return s * erfcinvf(2.0f * sim_rand_uniform(x));
}
static inline float sim_normal_icdf(unsigned long long x) { return sim_normal_icdf((unsigned int)(x >> 32)); }
static inline double sim_normal_icdf_double(unsigned int x)
{
    double s = -1.4142135623730951;
    if (x > 0x80000000u) {
        x = 0xffffffffu - x;
        s = -s;
    }
    double p = fma((double)x, 2.3283064365386963e-10, 2.3283064365386963e-10 / 2.0);
    return s * erfcinv(2.0 * p);
}
static inline double sim_normal_icdf_double(unsigned long long x)
{
    double s = -1.4142135623730951;
    x >>= 11;
    if (x > 0x10000000000000ull) {
        x = 0x1fffffffffffffull - x;
        s = -s;
    }
    double p = fma((double)x, 1.1102230246251565e-16, 1.1102230246251565e-16 / 2.0);
    return s * erfcinv(2.0 * p);
}

/* one of a pair of normal numbers (make(state) makes the pair), the other
 * kept in the state's flag and extra fields for the next call; kind tells
 * a normal pair from a log-normal one, exp(mean + stddev x) with one fused
 * multiply-add, as nvcc makes it */
template <class V, class S, class Make>
static inline V sim_pair_kept(S *state, int S::*flag, V S::*extra, int kind, V mean, V stddev, Make make)
{
    if (state->*flag != kind) {
        auto v = make(state);
        if (kind == EXTRA_FLAG_LOG_NORMAL) {
            v.x = std::exp(std::fma(stddev, v.x, mean));
            v.y = std::exp(std::fma(stddev, v.y, mean));
        }
        state->*extra = v.y;
        state->*flag = kind;
        return v.x;
    }
    state->*flag = 0;
    return state->*extra;
}
template <class S, class Make>
static inline float sim_pair_cached(S *state, int kind, float mean, float stddev, Make make)
{
    return sim_pair_kept(state, &S::boxmuller_flag, &S::boxmuller_extra, kind, mean, stddev, make);
}
template <class S, class Make>
static inline double sim_pair_cached_double(S *state, int kind, double mean, double stddev, Make make)
{
    return sim_pair_kept(state, &S::boxmuller_flag_double, &S::boxmuller_extra_double, kind, mean, stddev, make);
}
/* Box-Muller on two 32-bit numbers (float), on four (double) */
template <class S> static inline float2 sim_bm_next(S *state)
{
    unsigned int x = curand(state);
    unsigned int y = curand(state);
    return sim_box_muller(x, y);
}
template <class S> static inline double2 sim_bm_next_double(S *state)
{
    unsigned int x0 = curand(state), x1 = curand(state), y0 = curand(state), y1 = curand(state);
    return sim_box_muller_double(x0, x1, y0, y1);
}
template <class S> static inline float sim_pair_next(S *state, int kind, float mean, float stddev)
{
    return sim_pair_cached(state, kind, mean, stddev, sim_bm_next<S>);
}
template <class S> static inline double sim_pair_next_double(S *state, int kind, double mean, double stddev)
{
    return sim_pair_cached_double(state, kind, mean, stddev, sim_bm_next_double<S>);
}

} /* namespace gpulab_sim */

/* MRG32k3a's floats scale its number by 1/(m1 + 1); normal pairs come from
 * two uniform floats, the angle 2 pi times the second */
static inline float curand_uniform(curandStateMRG32k3a_t *s)
{
    return (float)(::gpulab_sim::sim_mrg_next(s) * 2.3283065498378288e-10);
}
static inline double curand_uniform_double(curandStateMRG32k3a_t *s)
{
    return ::gpulab_sim::sim_mrg_next(s) * 2.3283065498378288e-10;
}
static inline float2 curand_normal2(curandStateMRG32k3a_t *s)
{
    float x = curand_uniform(s);
    float y = curand_uniform(s) * 6.2831855f;
    float r = sqrtf(-2.0f * logf(x));
    float2 v;
    __sincosf(y, &v.x, &v.y);
    v.x *= r;
    v.y *= r;
    return v;
}
static inline double2 curand_normal2_double(curandStateMRG32k3a_t *s)
{
    double x = curand_uniform_double(s);
    double y = curand_uniform_double(s) * 2.0;
    double r = sqrt(-2.0 * log(x));
    double2 v;
    sincospi(y, &v.x, &v.y);
    v.x *= r;
    v.y *= r;
    return v;
}
static inline float curand_normal(curandStateMRG32k3a_t *s)
{
    return ::gpulab_sim::sim_pair_cached(s, EXTRA_FLAG_NORMAL, 0.0f, 1.0f,
                                         [](curandStateMRG32k3a_t *t) { return curand_normal2(t); });
}
static inline double curand_normal_double(curandStateMRG32k3a_t *s)
{
    return ::gpulab_sim::sim_pair_cached_double(s, EXTRA_FLAG_NORMAL, 0.0, 1.0,
                                                [](curandStateMRG32k3a_t *t) { return curand_normal2_double(t); });
}
static inline float curand_log_normal(curandStateMRG32k3a_t *s, float mean, float stddev)
{
    return ::gpulab_sim::sim_pair_cached(s, EXTRA_FLAG_LOG_NORMAL, mean, stddev,
                                         [](curandStateMRG32k3a_t *t) { return curand_normal2(t); });
}

/* a distribution of one number, F(curand(s)) */
#define GPULAB_RAND_ONE(R, NAME, S, F)                                                                             \
    static inline R NAME(S *s) { return ::gpulab_sim::F(curand(s)); }
/* Sobol's points: uniform as they are, normal through the inverse CDF */
#define GPULAB_RAND_SOBOL(S)                                                                                       \
    GPULAB_RAND_ONE(float, curand_uniform, S, sim_rand_uniform)                                                    \
    GPULAB_RAND_ONE(double, curand_uniform_double, S, sim_rand_uniform_double)                                     \
    GPULAB_RAND_ONE(float, curand_normal, S, sim_normal_icdf)                                                      \
    GPULAB_RAND_ONE(double, curand_normal_double, S, sim_normal_icdf_double)
GPULAB_RAND_SOBOL(curandStateSobol32_t)
GPULAB_RAND_SOBOL(curandStateScrambledSobol32_t)
GPULAB_RAND_SOBOL(curandStateSobol64_t)
GPULAB_RAND_SOBOL(curandStateScrambledSobol64_t)
#undef GPULAB_RAND_SOBOL

/* uniform in (0, 1] */
GPULAB_RAND_ONE(float, curand_uniform, curandStateXORWOW_t, sim_rand_uniform)
GPULAB_RAND_ONE(float, curand_uniform, curandStatePhilox4_32_10_t, sim_rand_uniform)
/* XORWOW's doubles take two numbers (53 bits); Philox's one */
GPULAB_RAND_ONE(double, curand_uniform_double, curandStatePhilox4_32_10_t, sim_rand_uniform_double)
#undef GPULAB_RAND_ONE
static inline float4 curand_uniform4(curandStatePhilox4_32_10_t *s)
{
    uint4 x = curand4(s);
    return make_float4(::gpulab_sim::sim_rand_uniform(x.x), ::gpulab_sim::sim_rand_uniform(x.y),
                       ::gpulab_sim::sim_rand_uniform(x.z), ::gpulab_sim::sim_rand_uniform(x.w));
}

static inline double curand_uniform_double(curandStateXORWOW_t *s)
{
    unsigned int x = curand(s);
    unsigned int y = curand(s);
    return ::gpulab_sim::sim_rand_uniform_hq(x, y);
}
static inline double2 curand_uniform2_double(curandStatePhilox4_32_10_t *s)
{
    uint4 x = curand4(s);
    return make_double2(::gpulab_sim::sim_rand_uniform_hq(x.x, x.y), ::gpulab_sim::sim_rand_uniform_hq(x.z, x.w));
}

/* normal, mean 0 and standard deviation 1 */
static inline float curand_normal(curandStateXORWOW_t *s)
{
    return ::gpulab_sim::sim_pair_next(s, EXTRA_FLAG_NORMAL, 0.0f, 1.0f);
}
static inline float curand_normal(curandStatePhilox4_32_10_t *s)
{
    return ::gpulab_sim::sim_pair_next(s, EXTRA_FLAG_NORMAL, 0.0f, 1.0f);
}
static inline double curand_normal_double(curandStateXORWOW_t *s)
{
    return ::gpulab_sim::sim_pair_next_double(s, EXTRA_FLAG_NORMAL, 0.0, 1.0);
}
template <class S> static inline float2 curand_normal2(S *s)
{
    unsigned int x = curand(s);
    unsigned int y = curand(s);
    return ::gpulab_sim::sim_box_muller(x, y);
}
static inline float4 curand_normal4(curandStatePhilox4_32_10_t *s)
{
    uint4 x = curand4(s);
    float2 a = ::gpulab_sim::sim_box_muller(x.x, x.y), b = ::gpulab_sim::sim_box_muller(x.z, x.w);
    return make_float4(a.x, a.y, b.x, b.y);
}
static inline double2 curand_normal2_double(curandStateXORWOW_t *s)
{
    unsigned int x0 = curand(s), x1 = curand(s), y0 = curand(s), y1 = curand(s);
    return ::gpulab_sim::sim_box_muller_double(x0, x1, y0, y1);
}
static inline double2 curand_normal2_double(curandStatePhilox4_32_10_t *s)
{
    uint4 x = curand4(s);
    return ::gpulab_sim::sim_box_muller_double(x.x, x.y, x.z, x.w);
}
static inline double curand_normal_double(curandStatePhilox4_32_10_t *s)
{
    return ::gpulab_sim::sim_pair_cached_double(s, EXTRA_FLAG_NORMAL, 0.0, 1.0, [](curandStatePhilox4_32_10_t *t) {
        return curand_normal2_double(t);
    });
}

/* log-normal: exp(mean + stddev * a normal number) */
static inline float curand_log_normal(curandStateXORWOW_t *s, float mean, float stddev)
{
    return ::gpulab_sim::sim_pair_next(s, EXTRA_FLAG_LOG_NORMAL, mean, stddev);
}
static inline float curand_log_normal(curandStatePhilox4_32_10_t *s, float mean, float stddev)
{
    return ::gpulab_sim::sim_pair_next(s, EXTRA_FLAG_LOG_NORMAL, mean, stddev);
}
static inline double curand_log_normal_double(curandStateXORWOW_t *s, double mean, double stddev)
{
    return ::gpulab_sim::sim_pair_next_double(s, EXTRA_FLAG_LOG_NORMAL, mean, stddev);
}

#endif
