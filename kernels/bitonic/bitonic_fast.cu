/* bitonic_fast.cu - bitonic sort's fused network: the lecture's network
 * (bitonic.cu) with as few trips to memory as we could make. The kernel and
 * its helpers first, then the host's plan of the passes and the launcher.
 * The same source runs on the GPU and on gpulab's simulator; TRACE_* lines
 * record what the butterfly animation shows (bitonic.h lists the events). */
#include "kernels/kern.h"
#include "kernels/bitonic/bitonic.h"
#include "kernels/bitonic/bitonic_host.cuh"

#include <vector>

/* fast: the lecture's network with as few trips to memory as we could make.
 * (What each point bought on the H200, measured one at a time: the bitonic
 * sort section of docs/performance.md.)
 *
 * 1. Several steps per trip, in registers. Take the 2^C keys whose indices
 *    differ only in C neighbouring bits (a "group"). The C steps whose j are
 *    those bits compare keys of the same group only, so a thread that holds
 *    the group in registers does all C steps without a barrier. All keys of a
 *    group go the same direction: the steps belong to one k, and k's bit lies
 *    above every bit they vary.
 * 2. A block works on a set of 2^L keys in shared memory (32 keys per
 *    thread: 2^15 with 1024 threads), loaded once and stored once, with
 *    rounds of up to 5 steps in registers between barriers. Which keys: any
 *    L bits of the index may be the block's own ("local"), the others pick
 *    the block. A step whose j is a local bit pairs keys of the same set, so
 *    one pass does every step of a run whose bits fit in L (with the lowest
 *    6 bits always local, so each block reads rows of 64 consecutive keys).
 *    - The start pass: the tiles of 2^L consecutive keys, sorted whole
 *      (k = 2 .. 2^L).
 *    - Every later pass takes the next steps of the network, in order, as
 *      many as fit: the last steps of one k (j small) and the first of the
 *      next (j large) usually share a pass.
 * 3. Global memory straight into registers. A pass's first round takes its
 *    groups from global memory, not from a copy of the set in shared
 *    memory, and its last round writes them back there: a pass of R rounds
 *    goes through shared memory R - 1 times instead of R + 1, with two
 *    barriers fewer, and a pass of one round not at all. The loads stay
 *    coalesced: neighbouring threads take neighbouring groups, whose keys
 *    are neighbours in the array (the lowest local bits are the array's
 *    lowest), and groups of 32 consecutive keys move in 16-byte vectors.
 * 4. Warp-sized rounds wait for the warp only. The 32 threads of a warp hold
 *    1024 consecutive local keys (32 each), so a round whose bits are all
 *    among the lowest 10 local ones pairs keys inside one warp's share: the
 *    threads take the groups of their own warp's share, and between two
 *    such rounds a __syncwarp() orders their shared memory; a block barrier
 *    only where a round crosses warps. Of the 22 rounds that follow the
 *    start pass's first (2^14 keys), 8 wait for the block, 14 for the warp
 *    (k = 64 .. 1024 never wait for the block).
 *    3 and 4 together bought little: the time is in the rounds themselves
 *    (a shared-memory load, a store and the min/max work per key per
 *    round), not in the copies or the waiting they removed.
 * 5. Rounds as even as they can be. A run of steps goes in rounds of up to 5
 *    steps; a round of 1 step costs a thread nearly what a round of 5 does
 *    (16 groups of 2 keys, each with its addresses, loads and stores,
 *    against one group of 32), so 6 steps above a run's lowest round go as
 *    3 + 3, not 5 + 1 (fast_steps); and a group's array address is computed
 *    only in the rounds that touch the array. (Giving every round all 32 of
 *    a thread's keys instead, one group with steps on some of its bits, is
 *    slower: a round then does the work of 32 keys where it needs 2 to 16.)
 * 6. Keys as integers. A float compare-exchange is three instructions (a
 *    compare and two selects: `a < b ? a : b` is not fminf when a key is
 *    NaN), an integer one two (a min and a max). So float keys travel in
 *    registers and shared memory as unsigned integers in the floats' order:
 *    a positive float with its sign bit set, a negative one with every bit
 *    flipped (-0 then sorts just before +0, which compare equal, and a NaN
 *    beyond the infinity of its sign). They are floats again in the array.
 * 7. The last round out in rows. A round of bits 0 .. 4 leaves each thread
 *    with 32 neighbouring keys: stored from registers, each 16-byte store of
 *    the warp touches 32 lines, half a sector each (ncu: the last pass wrote
 *    1.7 times the L2 sectors of the others, its warps waiting for room in
 *    the queue of global memory instructions, "lg throttle"). So that
 *    round goes through shared memory like any other, and the warp writes
 *    its 1024 keys back a row of 32 at a time, one line per store.
 * At 2^24 keys that is 18 passes over the array with the default sets of
 * 2^14 keys (15 with 2^15), against the lecture's 300 launches. */
#define FAST_WARP_BITS 10       /* local bits of one warp's share: 32 x 32 keys */
#define FAST_PER 32             /* keys per thread: rounds of up to 5 steps */
#define FAST_C 5
#define FAST_MAX_BLOCK 1024
#define FAST_LOW_BITS 6         /* local in every pass: rows of 64 keys */
#define FAST_MAX_RUNS 4

/* log2 of x > 0: one count of leading zeros, not a loop (the start pass
 * takes it for every group) */
static __device__ __forceinline__ int log2i(int x) { return 31 - __clz(x); }

/* The 16-byte vector of four keys. */
template <class T> struct vec4_of;
template <> struct vec4_of<int> { typedef int4 type; };
template <> struct vec4_of<float> { typedef float4 type; };

/* Keys as integers (point 6 above). */
template <class T> struct fast_key;
template <> struct fast_key<int> {
    typedef int K;
    static __device__ __forceinline__ int in(int x) { return x; }
    static __device__ __forceinline__ int out(int k) { return k; }
};
template <> struct fast_key<float> {
    typedef unsigned K;
    /* the sign bit set on a positive float, every bit flipped on a negative */
    static __device__ __forceinline__ unsigned in(float x)
    {
        const unsigned u = __float_as_uint(x);
        return u ^ ((unsigned)((int)u >> 31) | 0x80000000u);
    }
    static __device__ __forceinline__ float out(unsigned k)
    {
        return __uint_as_float(k ^ ((unsigned)((int)~k >> 31) | 0x80000000u));
    }
};

static int fast_smem_bytes(int tile) { return (int)sizeof(int) * (tile + tile / 32); }

/* Bits of x spread over an index in runs: len bits from bit lpos of x go to
 * bit apos of the index. */
struct fast_map {
    int nruns;
    int lpos[FAST_MAX_RUNS], apos[FAST_MAX_RUNS], len[FAST_MAX_RUNS];
};

static __device__ __forceinline__ int fast_spread(const fast_map &m, int x)
{
    int a = 0;
#pragma unroll
    for (int r = 0; r < FAST_MAX_RUNS; r++)
        if (r < m.nruns) a |= ((x >> m.lpos[r]) & ((1 << m.len[r]) - 1)) << m.apos[r];
    return a;
}

/* One pass of fast, as the host planned it: the local bits (in) and the
 * block bits (out) of the index, and the steps, top down, as up to two runs
 * of local bits, each of one k. start: first sort the tiles (k = 2 .. 2^L). */
struct fast_pass {
    fast_map in, out;
    int L, start;
    int nseg;
    int k[2], top[2], bottom[2];
};

/* The keys a block works on: local index l (0 .. 2^L) lives at at(l). */
struct fast_set {
    int base, padshift;
    fast_map in;
    __device__ int at(int l) const { return base | fast_spread(in, l); }
    /* the array distance of local distance 2^lo */
    __device__ int dist(int lo) const { return at(1 << lo) - base; }
    /* The local bit that is array bit abit, or -1 when it is a block bit. */
    __device__ int local_bit(int abit) const
    {
        int l = -1;
#pragma unroll
        for (int r = 0; r < FAST_MAX_RUNS; r++)
            if (r < in.nruns && abit >= in.apos[r] && abit < in.apos[r] + in.len[r])
                l = in.lpos[r] + abit - in.apos[r];
        return l;
    }
    /* Where key l lives in shared memory: one padding word after every 32
     * keys (padshift 5), so the strided reads of a round and the four-key
     * stores of the load fall into different banks. Then key l + m * 2^lo
     * lies at pad(l) + m * pad_stride(lo) when lo is 0 or at least 5, which
     * holds for every round of a set of 1024 keys or more: its rounds start
     * at multiples of 5 above the lowest step, and a run of steps that does
     * not end at bit 0 ends above the FAST_LOW_BITS (5 or more) local ones.
     * Smaller sets are not padded (padshift 30): their rounds may start
     * anywhere. */
    __device__ int pad(int l) const { return l + (l >> padshift); }
    __device__ int pad_stride(int lo) const
    {
        return padshift == 5 && lo >= 5 ? (1 << lo) + (1 << (lo - 5)) : 1 << lo;
    }
};

static __device__ __forceinline__ fast_set fast_set_of(const fast_pass &p, int q)
{
    fast_set f;
    f.base = fast_spread(p.out, q);
    f.in = p.in;
    f.padshift = p.L >= 10 ? 5 : 30;
    return f;
}

/* The first local index of group g when the round's lowest bit is lo. */
static __device__ __forceinline__ int group_base(int g, int lo, int c)
{
    return ((g >> lo) << (lo + c)) | (g & ((1 << lo) - 1));
}

/* The compare-exchange of two keys in registers: a min and a max, the
 * smaller first when asc. True when they swapped. */
template <class T>
static __device__ __forceinline__ bool order(T &a, T &b, bool asc)
{
    const T lo = a < b ? a : b, hi = a < b ? b : a;
    const bool swapped = asc ? a > b : a < b;
    a = asc ? lo : hi;
    b = asc ? hi : lo;
    return swapped;
}

/* C steps of k on the group x[0 .. 2^C) in registers, all one way (ASC):
 * each compare-exchange is a min and a max, nothing else. x[m] is the key at
 * array position at + m * d (the traces name the keys by these positions). */
template <class T, int C, bool ASC>
static __device__ __forceinline__ void group_steps(T (&x)[1 << C], int at, int d)
{
    (void)at; (void)d; /* only the traces use them */
#pragma unroll
    for (int s = C - 1; s >= 0; s--) {
#pragma unroll
        for (int m = 0; m < (1 << C); m++) {
            if (m & (1 << s)) continue;
            const int m2 = m | (1 << s);
            const bool swapped = order(x[m], x[m2], ASC);
            TRACE_CSWAP(LAB_SP_REG, at + m * d, at + m2 * d, swapped, ASC);
            (void)swapped;
        }
    }
}

/* Where a round finds its keys and where it leaves them: the set in shared
 * memory, or the array in global memory (the first and the last round of a
 * pass, point 3 above). */
template <class T>
struct fast_io {
    const T *src; /* the array the pass reads */
    T *dst;       /* the array it writes (src itself after the start pass) */
    int round;    /* rounds done so far in this pass */
    int last;     /* the pass's last round */
    bool warp;    /* the last round stayed inside each warp's share */
    __device__ bool from_global() const { return round == 0; }
    __device__ bool to_global() const { return round == last; }
};

/* M keys of the array, at + m * d, into registers as integers (16-byte
 * vectors when they are 32 consecutive 4-byte keys, which start on a
 * 128-byte boundary). */
template <class T, int M>
static __device__ __forceinline__ void fast_load(typename fast_key<T>::K (&x)[M], const T *src, int at, int d)
{
    typedef typename vec4_of<T>::type V;
    T y[M];
    if (M == 32 && d == 1) {
#pragma unroll
        for (int m = 0; m < M; m += 4) {
            const V v = *reinterpret_cast<const V *>(src + at + m);
            y[m] = v.x; y[m + 1] = v.y; y[m + 2] = v.z; y[m + 3] = v.w;
        }
    } else {
#pragma unroll
        for (int m = 0; m < M; m++) y[m] = src[at + m * d];
    }
#pragma unroll
    for (int m = 0; m < M; m++) {
        TRACE_READ(LAB_SP_GLOBAL, at + m * d, y[m]);
        x[m] = fast_key<T>::in(y[m]);
    }
}

template <class T, int M>
static __device__ __forceinline__ void fast_store(const typename fast_key<T>::K (&x)[M], T *dst, int at, int d)
{
    typedef typename vec4_of<T>::type V;
    T y[M];
#pragma unroll
    for (int m = 0; m < M; m++) {
        y[m] = fast_key<T>::out(x[m]);
        TRACE_WRITE(LAB_SP_GLOBAL, at + m * d, y[m]);
    }
    if (M == 32 && d == 1) {
#pragma unroll
        for (int m = 0; m < M; m += 4) {
            V v;
            v.x = y[m]; v.y = y[m + 1]; v.z = y[m + 2]; v.w = y[m + 3];
            *reinterpret_cast<V *>(dst + at + m) = v;
        }
    } else {
#pragma unroll
        for (int m = 0; m < M; m++) dst[at + m * d] = y[m];
    }
}

/* One group's C steps in registers, the direction the group's (decided
 * once: the steps themselves are compiled both ways), and the group back to
 * shared memory, or to the array in the pass's last round. Rounds at lo = 0
 * (groups of consecutive keys) address shared memory with constant offsets. */
template <class T, int C, class S>
static __device__ __forceinline__ void fast_group(S &s, fast_io<T> &io, const fast_set &f,
                                                  typename fast_key<T>::K (&x)[1 << C], int lb,
                                                  int k, int kl, int lo, bool rows)
{
    constexpr int M = 1 << C;
    const int d = f.dist(lo);
    /* the direction: bit k of the keys' index, local bit kl of lb or a bit
     * of the block's (at & k, cheaper than at) */
    if (kl >= 0 ? ((lb >> kl) & 1) == 0 : (f.base & k) == 0)
        group_steps<typename fast_key<T>::K, C, true>(x, f.at(lb), d); /* at: for the traces only */
    else
        group_steps<typename fast_key<T>::K, C, false>(x, f.at(lb), d); /* at: for the traces only */
    /* computed again for the stores: kept from the loads, 32 addresses and
     * 32 keys would not fit the 64 registers of a 1024-thread block */
    const int q0 = lab_opaque(f.pad(lb)), ps = f.pad_stride(lo);
    if (io.to_global() && !rows) {
        fast_store<T, M>(x, io.dst, f.at(lab_opaque(lb)), d);
    } else if (lo == 0) {
#pragma unroll
        for (int m = 0; m < M; m++) s[q0 + m] = x[m];
    } else {
#pragma unroll
        for (int m = 0; m < M; m++) s[q0 + m * ps] = x[m];
    }
}

/* The last round's keys from shared memory into the array in rows (point 7
 * above): the warp's 1024 keys, lane l taking key l of each row of 32, so
 * that each store of the warp fills one 128-byte line. Key share + 32 r + l
 * lies at pad(share) + 33 r + l, and at at(share + l) plus the array
 * distance of r's bits (5 .. 9 of the set's local bits). */
template <class T, class S>
static __device__ void fast_rows_out(S &s, const fast_io<T> &io, const fast_set &f, int share)
{
    const int lane = (int)threadIdx.x % 32;
    __syncwarp();
    const int at0 = f.at(share | lane), p0 = f.pad(share) + lane;
    int dr[5];
#pragma unroll
    for (int b = 0; b < 5; b++) dr[b] = f.dist(5 + b);
#pragma unroll
    for (int r = 0; r < 32; r++) {
        int at = at0;
#pragma unroll
        for (int b = 0; b < 5; b++)
            if ((r >> b) & 1) at += dr[b];
        const T y = fast_key<T>::out(s[p0 + 33 * r]);
        io.dst[at] = y;
        TRACE_WRITE(LAB_SP_GLOBAL, at, y);
    }
}

/* One round: every thread takes groups of 2^C keys whose local indices
 * differ in bits lo .. lo+C-1, from shared memory (or from the array, in
 * the pass's first round), does their C steps in registers and puts them
 * back (into the array, in the last round). Before it reads shared memory
 * it waits for the round before: for its warp when both rounds stay inside
 * each warp's share (point 4 above), for the block otherwise. */
template <class T, int C, class S>
static __device__ void fast_round(S &s, fast_io<T> &io, const fast_set &f, int L, int k, int kl, int lo)
{
    constexpr int M = 1 << C;
    const bool warp = L >= FAST_WARP_BITS && lo + C <= FAST_WARP_BITS;
    if (!io.from_global()) {
        if (warp && io.warp) __syncwarp();
        else __syncthreads();
    }
    TRACE_MARK(BITONIC_MK_ROUND, io.from_global() ? LAB_SP_GLOBAL : LAB_SP_SHARED, f.dist(lo), C);
    const int ps = f.pad_stride(lo), d = f.dist(lo);
    /* a warp's own share: its groups, numbered from its lane; else all of
     * the set's, numbered from the thread */
    const int first = warp ? (int)threadIdx.x % 32 : (int)threadIdx.x;
    const int stride = warp ? 32 : (int)blockDim.x;
    const int end = warp ? (1 << FAST_WARP_BITS) >> C : (1 << L) >> C;
    const int share = warp ? (int)threadIdx.x / 32 << FAST_WARP_BITS : 0;
    /* the last round of a run that ends at bit 0: out in rows (point 7) */
    const bool rows = C == FAST_C && lo == 0 && warp && io.to_global();
    for (int g = first; g < end; g += stride) {
        const int lb = share | group_base(g, lo, C);
        const int p0 = f.pad(lb);
        typename fast_key<T>::K x[M];
        if (io.from_global()) {
            fast_load<T, M>(x, io.src, f.at(lb), d);
        } else if (lo == 0) {
#pragma unroll
            for (int m = 0; m < M; m++) x[m] = s[p0 + m];
        } else {
#pragma unroll
            for (int m = 0; m < M; m++) x[m] = s[p0 + m * ps];
        }
        fast_group<T, C>(s, io, f, x, lb, k, kl, lo, rows);
    }
    if (rows) fast_rows_out<T>(s, io, f, share);
    io.warp = warp;
    io.round++;
}

template <class T, class S>
static __device__ void fast_round_c(S &s, fast_io<T> &io, const fast_set &f, int L, int k, int kl, int lo,
                                    int c)
{
    switch (c) {
    case 1: fast_round<T, 1>(s, io, f, L, k, kl, lo); break;
    case 2: fast_round<T, 2>(s, io, f, L, k, kl, lo); break;
    case 3: fast_round<T, 3>(s, io, f, L, k, kl, lo); break;
    case 4: fast_round<T, 4>(s, io, f, L, k, kl, lo); break;
    default: fast_round<T, 5>(s, io, f, L, k, kl, lo); break;
    }
}

/* The rounds of a run of `steps` steps. */
static __device__ __forceinline__ int fast_rounds(int steps) { return (steps + FAST_C - 1) / FAST_C; }

/* The steps of k on local bits top .. bottom, in rounds of up to FAST_C
 * steps, as even as they can be: a round of one step costs a thread almost
 * what a round of five does (the loads, the stores and the addresses of 16
 * groups of 2 keys against one group of 32), so 6 steps above the lowest
 * round go as 3 + 3, not 5 + 1. A run that ends at bit 0 keeps its lowest
 * round at bits 0 .. 4: the padding needs every round to start at bit 0 or
 * at bit 5 and above (fast_set::pad). */
template <class T, class S>
static __device__ void fast_steps(S &s, fast_io<T> &io, const fast_set &f, int L, int k, int top, int bottom,
                                  int role)
{
    (void)role; /* only the traces use it */
    TRACE_MARK(BITONIC_MK_STEP, role, k, f.dist(top));
    const int kl = f.local_bit(log2i(k));
    const int steps = top - bottom + 1;
    const int lowest = bottom == 0 && steps > FAST_C ? FAST_C : 0;
    const int rest = steps - lowest, r = fast_rounds(rest);
    for (int i = 0; i < r; i++) {
        const int c = rest / r + (i < rest % r);
        fast_round_c<T>(s, io, f, L, k, kl, top - c + 1, c);
        top -= c;
    }
    if (lowest) fast_round_c<T>(s, io, f, L, k, kl, 0, FAST_C);
}

/* k = 2 .. per: each thread sorts its own per consecutive keys of the tile,
 * up or down by their place, in registers and without a barrier. It is the
 * start pass's first round: the keys come from the array. */
template <class T, int P, class S>
static __device__ void fast_thread_sort(S &s, fast_io<T> &io, const fast_set &f, int per)
{
    if (P) per = P; /* P: per known when compiling (FAST_PER), else 0 */
    const int lb = threadIdx.x * per;
    const int at = f.at(lb); /* the start pass's sets are tiles: at(lb + m) = at + m */
    typename fast_key<T>::K x[FAST_PER];
    TRACE_MARK(BITONIC_MK_ROUND, LAB_SP_GLOBAL, 1, log2i(per) * (log2i(per) + 1) / 2);
    if (per == FAST_PER) {
        fast_load<T, FAST_PER>(x, io.src, at, 1);
    } else {
#pragma unroll
        for (int m = 0; m < FAST_PER; m++)
            if (m < per) {
                TRACE_READ(LAB_SP_GLOBAL, at + m, io.src[at + m]);
                x[m] = fast_key<T>::in(io.src[at + m]);
            }
    }
    /* fully unrolled, so x stays in registers */
#pragma unroll
    for (int kk = 2; kk <= FAST_PER; kk <<= 1) {
        if (kk > per) break;
        TRACE_MARK(BITONIC_MK_STEP, BITONIC_ROLE_START, kk, kk >> 1);
#pragma unroll
        for (int j = kk >> 1; j > 0; j >>= 1) {
#pragma unroll
            for (int m = 0; m < FAST_PER; m++) {
                if (m >= per || (m & j)) continue;
                /* up when bit kk of the key's index is 0. With per known
                 * when compiling, at is a multiple of it: for kk < per the
                 * bit is m's and the direction is a constant (no select
                 * per pair) */
                const bool asc = P ? ((m & kk) | (kk == P ? at & kk : 0)) == 0 : ((at + m) & kk) == 0;
                const bool swapped = order(x[m], x[m | j], asc);
                TRACE_CSWAP(LAB_SP_REG, at + m, at + (m | j), swapped, asc);
                (void)swapped;
            }
        }
    }
    if (io.to_global()) {
        if (per == FAST_PER) {
            fast_store<T, FAST_PER>(x, io.dst, lab_opaque(at), 1);
        } else {
#pragma unroll
            for (int m = 0; m < FAST_PER; m++)
                if (m < per) {
                    io.dst[at + m] = fast_key<T>::out(x[m]);
                    TRACE_WRITE(LAB_SP_GLOBAL, at + m, io.dst[at + m]);
                }
        }
    } else {
#pragma unroll
        for (int m = 0; m < FAST_PER; m++)
            if (m < per) s[f.pad(lb + m)] = x[m];
    }
    io.warp = true; /* each thread's own keys: inside its warp's share */
    io.round++;
}

/* The one kernel of fast: the pass's steps, from the array back into the
 * array, through the set in shared memory between rounds. The start pass
 * sorts each tile, first within each thread's keys, then in rounds. A run of
 * steps that ends at bit 0 finishes its k (role finish); the others cross
 * tiles (role middle). */
template <class T>
static __global__ void __launch_bounds__(FAST_MAX_BLOCK)
bitonic_fast_pass(const T *src, T *dst, fast_pass p, int per)
{
    typedef typename fast_key<T>::K K; /* the keys as integers (point 6) */
    DYNAMIC_SHARED(K, s);
    const fast_set f = fast_set_of(p, blockIdx.x);
    const int L = p.L;
    fast_io<T> io;
    io.src = src;
    io.dst = dst;
    io.round = 0;
    io.warp = false;
    /* the rounds of the pass, to know its last */
    int rounds = 0;
    if (p.start) {
        rounds = 1;
        for (int k = 2 * per; k <= (1 << L); k <<= 1) rounds += fast_rounds(log2i(k));
    }
    for (int g = 0; g < p.nseg; g++) rounds += fast_rounds(p.top[g] - p.bottom[g] + 1);
    io.last = rounds - 1;
    if (p.start) {
        if (per == FAST_PER) fast_thread_sort<T, FAST_PER>(s, io, f, per);
        else fast_thread_sort<T, 0>(s, io, f, per);
        for (int k = 2 * per; k <= (1 << L); k <<= 1)
            fast_steps<T>(s, io, f, L, k, log2i(k) - 1, 0, BITONIC_ROLE_START);
    }
    for (int g = 0; g < p.nseg; g++)
        fast_steps<T>(s, io, f, L, p.k[g], p.top[g], p.bottom[g],
                      p.bottom[g] == 0 ? BITONIC_ROLE_FINISH : BITONIC_ROLE_MIDDLE);
}

/* ------------------------------------------------------- fast's plan */

static int ilog2(long long x)
{
    int l = 0;
    while ((1LL << (l + 1)) <= x) l++;
    return l;
}

/* The runs of the set bits of mask below bit nbits, numbered in order. */
static int fast_map_of(fast_map *m, unsigned mask, int nbits)
{
    m->nruns = 0;
    int l = 0;
    for (int b = 0; b < nbits;) {
        if (!((mask >> b) & 1)) {
            b++;
            continue;
        }
        int e = b;
        while (e < nbits && ((mask >> e) & 1)) e++;
        if (m->nruns == FAST_MAX_RUNS) return -1;
        m->lpos[m->nruns] = l;
        m->apos[m->nruns] = b;
        m->len[m->nruns] = e - b;
        m->nruns++;
        l += e - b;
        b = e;
    }
    return 0;
}

static int popcount32(unsigned x) { return __builtin_popcount(x); }

/* The passes of fast over 2^logn keys in sets of 2^L: the start pass, then
 * the steps of k = 2^(L+1) .. 2^logn in order, each pass taking as many as
 * its L local bits allow (the lowest `low` bits always among them, the
 * rest filled with the lowest free ones) and steps of at most two k. */
static int fast_plan(std::vector<fast_pass> &plan, int logn, int L, int low, char *err, size_t errlen)
{
    const unsigned all = (unsigned)((1ull << logn) - 1), lows = (1u << low) - 1;
    fast_pass p;
    memset(&p, 0, sizeof p);
    p.L = L;
    p.start = 1;
    fast_map_of(&p.in, (1u << L) - 1, logn);
    fast_map_of(&p.out, all & ~((1u << L) - 1), logn);
    plan.push_back(p);
    p.start = 0;
    unsigned mask = lows; /* the local bits the pass's steps need */
    /* the pass is complete: fill its local bits up to L, steps as local bits */
    auto close = [&]() -> int {
        unsigned full = mask;
        for (int b = 0; popcount32(full) < L; b++) full |= 1u << b;
        for (int g = 0; g < p.nseg; g++) {
            p.top[g] = popcount32(full & ((1u << p.top[g]) - 1));
            p.bottom[g] = popcount32(full & ((1u << p.bottom[g]) - 1));
        }
        if (fast_map_of(&p.in, full, logn) != 0 || fast_map_of(&p.out, all & ~full, logn) != 0) {
            snprintf(err, errlen, "bitonic/fast: a pass needs more than %d runs of bits", FAST_MAX_RUNS);
            return -1;
        }
        plan.push_back(p);
        p.nseg = 0;
        mask = lows;
        return 0;
    };
    for (int lk = L + 1; lk <= logn; lk++)
        for (int bit = lk - 1; bit >= 0; bit--) {
            int same = p.nseg > 0 && p.k[p.nseg - 1] == 1 << lk;
            if (popcount32(mask | 1u << bit) > L || (!same && p.nseg == 2)) {
                if (close() != 0) return -1;
                same = 0;
            }
            mask |= 1u << bit;
            if (same) {
                p.bottom[p.nseg - 1] = bit;
            } else {
                p.k[p.nseg] = 1 << lk;
                p.top[p.nseg] = p.bottom[p.nseg] = bit;
                p.nseg++;
            }
        }
    return p.nseg > 0 ? close() : 0;
}

template <class T>
static int run_fast(lab_job *job)
{
    TRY(network_ok(job, 1, FAST_MAX_BLOCK));
    const int n = (int)job->n;
    const int per = n < FAST_PER ? n : FAST_PER;  /* keys per thread */
    clamp_block(job, n / per, 0);
    const int block = job->block;
    const int tile = per * block;
    const int L = ilog2(tile);
    job->grid = n / tile;
    trace_header(job);
    T *d_in, *d_work;
    TRY(upload_pair(job, &d_in, &d_work));
    if (n < 2) {
        TRY(copy_through(job, d_in, d_work));
        return finish_run(job, d_work);
    }
    const unsigned grid = (unsigned)job->grid;
    const int smem = fast_smem_bytes(tile);
    CK(cudaFuncSetAttribute(bitonic_fast_pass<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    /* rows of 2^FAST_LOW_BITS keys, half the bits of small sets */
    std::vector<fast_pass> plan;
    TRY(fast_plan(plan, ilog2(n), L, FAST_LOW_BITS < L / 2 ? FAST_LOW_BITS : L / 2, job->err, sizeof job->err));
    LAB_TIMED(job) {
        LAUNCH(bitonic_fast_pass<T>, grid, block, smem, d_in, d_work, plan[0], per);
        for (size_t i = 1; i < plan.size(); i++)
            LAUNCH(bitonic_fast_pass<T>, grid, block, smem, d_work, d_work, plan[i], per);
    }
    return finish_run(job, d_work);
}

LAB_ENTRY(bitonic_fast) { return lab_by_dtype(job, bitonic_dtypes(), [&](auto t) { return run_fast<decltype(t)>(job); }); }
