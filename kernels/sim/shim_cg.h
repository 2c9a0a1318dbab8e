/* shim_cg.h - within kernels/sim/shim.h: the cooperative groups of run-time
 * size (thread_group, tiled_partition(g, n)), coalesced_group, cg::reduce and
 * grid_group on the simulator, for built-in kernels and students' programs
 * alike. thread_block and thread_block_tile<N> are in shim.h. */
#ifndef GPULAB_SIM_SHIM_CG_H
#define GPULAB_SIM_SHIM_CG_H

#include <string.h>
#include <type_traits>
#include <utility>

namespace gpulab_sim_cg {

/* A group whose size is known only at run time: a whole block or a tile of
 * tiled_partition(parent, n). */
class thread_group {
public:
    unsigned n_;  /* 0: the whole block */
    thread_group(const thread_block &) : n_(0) {}
    template <unsigned N, class P> thread_group(const thread_block_tile<N, P> &) : n_(N) {}
    explicit thread_group(unsigned n) : n_(n) {}
    /* a tile cut short by the end of the block holds the threads it has, as
     * on the GPU */
    unsigned size() const
    {
        if (!n_) return thread_block::size();
        unsigned base = ::gpulab_sim::sim_cur->linear & ~(n_ - 1), nt = thread_block::size();
        return nt - base < n_ ? nt - base : n_;
    }
    unsigned num_threads() const { return size(); }
    unsigned thread_rank() const { return n_ ? (::gpulab_sim::sim_cur->linear & (n_ - 1)) : thread_block::thread_rank(); }
    void sync(int line = __builtin_LINE(), const char *file = __builtin_FILE()) const
    {
        if (!n_) { thread_block().sync(line, file); return; }
        if (n_ > 32) { ::gpulab_sim::sim_tile_barrier(n_, line, file); return; }
        unsigned lane = ::gpulab_sim::sim_cur->lane;
        unsigned m = n_ >= 32 ? 0xffffffffu : (((1u << n_) - 1u) << (lane & ~(n_ - 1)));
        (void)::gpulab_sim::sim_warp(::gpulab_sim::SIM_W_SYNC, m, 0, 0, 32, line, file, "thread_group::sync", nullptr);
    }
};

/* The run-time form of tiled_partition makes tiles of 1 to 32 threads only
 * (the CUDA Programming Guide: "limited to native hardware sizes"; the CUDA
 * headers stop the kernel at any other n). A parent no larger than n is the
 * tile itself. */
static inline thread_group tiled_partition(const thread_group &parent, unsigned n, int line = __builtin_LINE(),
                                           const char *file = __builtin_FILE())
{
    if (n == 0 || n > 32 || (n & (n - 1))) ::gpulab_sim::sim_cg_tile_size(n, line, file);
    return thread_group(parent.n_ && parent.n_ <= n ? parent.n_ : n);
}
static inline thread_group tiled_partition(const thread_block &parent, unsigned n, int line = __builtin_LINE(),
                                           const char *file = __builtin_FILE())
{
    return tiled_partition(thread_group(parent), n, line, file);
}

/* block_tile_memory: the shared memory that tiles wider than a warp use for
 * their collectives on a GPU before sm_80; the simulator needs none, and
 * this_thread_block(scratch) is this_thread_block() */
template <unsigned MaxBlockSize = 1024> struct block_tile_memory {
    unsigned char sim_unused[1];
};
template <unsigned N> static inline thread_block this_thread_block(block_tile_memory<N> &) { return thread_block(); }

/* The lanes of the warp that reach this call together (__activemask). */
class coalesced_group {
public:
    unsigned mask_;
    explicit coalesced_group(unsigned m) : mask_(m) {}
    unsigned size() const { return (unsigned)__builtin_popcount(mask_); }
    unsigned num_threads() const { return size(); }
    unsigned thread_rank() const
    {
        unsigned lane = ::gpulab_sim::sim_cur->lane;
        return (unsigned)__builtin_popcount(mask_ & ((1u << lane) - 1u));
    }
    unsigned lane_of(unsigned rank) const
    {
        unsigned m = mask_;
        for (unsigned r = 0; r < rank && m; r++) m &= m - 1;
        return m ? (unsigned)__builtin_ctz(m) : 0;
    }
    void sync(int line = __builtin_LINE(), const char *file = __builtin_FILE()) const
    {
        (void)::gpulab_sim::sim_warp(::gpulab_sim::SIM_W_SYNC, mask_, 0, 0, 32, line, file, "coalesced_group::sync",
                                     nullptr);
    }
    template <class T>
    typename ::gpulab_sim::sim_value<T>::type shfl(const T &v, unsigned rank, int line = __builtin_LINE(),
                                                   const char *file = __builtin_FILE()) const
    {
        return ::gpulab_sim::__shfl_sync(mask_, v, (int)lane_of(rank), 32, line, file);
    }
    template <class T>
    typename ::gpulab_sim::sim_value<T>::type shfl_down(const T &v, unsigned d, int line = __builtin_LINE(),
                                                        const char *file = __builtin_FILE()) const
    {
        unsigned r = thread_rank() + d;
        return ::gpulab_sim::__shfl_sync(mask_, v, (int)lane_of(r < size() ? r : thread_rank()), 32, line, file);
    }
    template <class T>
    typename ::gpulab_sim::sim_value<T>::type shfl_up(const T &v, unsigned d, int line = __builtin_LINE(),
                                                      const char *file = __builtin_FILE()) const
    {
        unsigned r = thread_rank();
        return ::gpulab_sim::__shfl_sync(mask_, v, (int)lane_of(r >= d ? r - d : r), 32, line, file);
    }
    unsigned ballot(int pred, int line = __builtin_LINE(), const char *file = __builtin_FILE()) const
    {
        unsigned b = ::gpulab_sim::__ballot_sync(mask_, pred, line, file), r = 0, k = 0;
        for (unsigned l = 0; l < 32; l++)
            if (mask_ >> l & 1) r |= ((b >> l) & 1u) << k++;
        return r;
    }
    int any(int pred, int line = __builtin_LINE(), const char *file = __builtin_FILE()) const
    {
        return ::gpulab_sim::__any_sync(mask_, pred, line, file);
    }
    int all(int pred, int line = __builtin_LINE(), const char *file = __builtin_FILE()) const
    {
        return ::gpulab_sim::__all_sync(mask_, pred, line, file);
    }
};
static inline coalesced_group coalesced_threads(int line = __builtin_LINE(), const char *file = __builtin_FILE())
{
    return coalesced_group(::gpulab_sim::__activemask(line, file));
}

/* labeled_partition(group, label): the threads of a coalesced group (or a
 * warp tile) that give the same label, a coalesced group each;
 * binary_partition: two groups, by a predicate */
static inline coalesced_group labeled_partition(const coalesced_group &g, int label, int line = __builtin_LINE(),
                                                const char *file = __builtin_FILE())
{
    return coalesced_group(::gpulab_sim::__match_any_sync(g.mask_, label, line, file));
}
template <unsigned N, class P>
static inline coalesced_group labeled_partition(const thread_block_tile<N, P> &g, int label,
                                                int line = __builtin_LINE(), const char *file = __builtin_FILE())
{
    return coalesced_group(::gpulab_sim::__match_any_sync(g.tile_mask(), label, line, file));
}
template <class G>
static inline coalesced_group binary_partition(const G &g, bool pred, int line = __builtin_LINE(),
                                               const char *file = __builtin_FILE())
{
    return labeled_partition(g, pred ? 1 : 0, line, file);
}

/* The function objects of <cooperative_groups/functional.h>: less and
 * greater give the smaller and the larger value. */
template <class T> struct plus { T operator()(const T &a, const T &b) const { return a + b; } };
template <class T> struct less { T operator()(const T &a, const T &b) const { return a < b ? a : b; } };
template <class T> struct greater { T operator()(const T &a, const T &b) const { return a < b ? b : a; } };
template <class T> struct bit_and { T operator()(const T &a, const T &b) const { return a & b; } };
template <class T> struct bit_or { T operator()(const T &a, const T &b) const { return a | b; } };
template <class T> struct bit_xor { T operator()(const T &a, const T &b) const { return a ^ b; } };

template <class G> struct sim_reduce_group { enum { ok = 0, tile = 0 }; };
template <unsigned N, class P> struct sim_reduce_group<thread_block_tile<N, P>> { enum { ok = 1, tile = N }; };
template <> struct sim_reduce_group<coalesced_group> { enum { ok = 1, tile = 0 }; };

/* a tile of 64 to 512 threads: each warp's result, read by the whole tile
 * between two tile barriers (blocks run one at a time) */
alignas(8) inline unsigned char sim_reduce_scratch[32][8];

/* cg::reduce(group, value, op) as <cooperative_groups/reduce.h> defines it:
 * on a thread_block_tile (up to 512 threads) or a coalesced_group, every
 * thread of the group gets op over all their values, combined in the order
 * the CUDA headers use (a float sum comes out the same, bit for bit):
 *   tile of up to 32: a butterfly of shfl_xor;
 *   coalesced group: a shfl_down tree when its size is a power of two,
 *     otherwise an inclusive scan over the ranks, then the last rank's value;
 *   tile of 64 to 512: the butterfly in each warp, then over the warps. */
template <class G, class T, class Op>
static inline typename ::gpulab_sim::sim_value<T>::type reduce(const G &g, const T &value, Op op,
                                                                int line = __builtin_LINE(),
                                                                const char *file = __builtin_FILE())
{
    typedef typename ::gpulab_sim::sim_value<T>::type V;
    typedef sim_reduce_group<typename std::remove_cv<G>::type> K;
    static_assert(K::ok, "cg::reduce works on a thread_block_tile<N> (tiled_partition<N>) or a coalesced_group "
                         "(coalesced_threads()) only: a thread_block or the thread_group of tiled_partition(g, n) "
                         "does not exclusively represent a tile");
    static_assert(std::is_same<V, typename std::decay<decltype(op(std::declval<V>(), std::declval<V>()))>::type>::value,
                  "cg::reduce: the operator's input and output types differ from the value's type (cg::plus<int> "
                  "takes an int: write the value's type in the operator, or cast the value)");
    static_assert(std::is_trivially_copyable<V>::value, "cg::reduce: the value must be trivially copyable");
    static_assert(sizeof(V) <= ((unsigned)K::tile > 32 ? 8 : 32),
                  "cg::reduce: a value of at most 32 bytes (at most 8 in a tile wider than 32 threads)");
    V v = ::gpulab_sim::sim_unref(value);
    const char *name = "cg::reduce";
    if constexpr ((unsigned)K::tile > 0 && (unsigned)K::tile <= 32) {
        for (unsigned i = K::tile / 2; i > 0; i /= 2)
            v = op(v, ::gpulab_sim::sim_shfl_wide<V>(::gpulab_sim::SIM_W_SHFL_XOR, g.tile_mask(), v, (int)i,
                                                     (int)K::tile, line, file, name));
        return v;
    } else if constexpr ((unsigned)K::tile > 32) {
        const unsigned nw = K::tile / 32, me = ::gpulab_sim::sim_cur->linear;
        for (unsigned i = 16; i > 0; i /= 2)
            v = op(v, ::gpulab_sim::sim_shfl_wide<V>(::gpulab_sim::SIM_W_SHFL_XOR, 0xffffffffu, v, (int)i, 32, line,
                                                     file, name));
        if ((me & 31) == 0) memcpy(sim_reduce_scratch[me / 32], &v, sizeof v);
        ::gpulab_sim::sim_tile_barrier(K::tile, line, file);
        /* the warps the tile has (one cut short by the end of the block has fewer) */
        const unsigned base = me & ~(K::tile - 1), left = (thread_block::size() - base + 31) / 32;
        const unsigned have = left < nw ? left : nw;
        V w[nw];
        for (unsigned k = 0; k < have; k++) memcpy(&w[k], sim_reduce_scratch[base / 32 + k], sizeof(V));
        ::gpulab_sim::sim_tile_barrier(K::tile, line, file);
        for (unsigned m = nw / 2; m > 0; m /= 2)
            for (unsigned l = 0; l < m; l++)
                if (l + m < have) w[l] = op(w[l], w[l + m]);
        return w[0];
    } else {
        const unsigned n = g.size(), rank = g.thread_rank();
        if ((n & (n - 1)) == 0) {
            for (unsigned d = n / 2; d > 0; d /= 2) {
                unsigned r = rank + d < n ? rank + d : rank;
                v = op(v, ::gpulab_sim::sim_shfl_wide<V>(::gpulab_sim::SIM_W_SHFL_IDX, g.mask_, v, (int)g.lane_of(r),
                                                         32, line, file, name));
            }
            return ::gpulab_sim::sim_shfl_wide<V>(::gpulab_sim::SIM_W_SHFL_IDX, g.mask_, v, (int)g.lane_of(0), 32,
                                                  line, file, name);
        }
        for (unsigned i = 1; i < n; i *= 2) {
            V x = ::gpulab_sim::sim_shfl_wide<V>(::gpulab_sim::SIM_W_SHFL_IDX, g.mask_, v,
                                                 (int)g.lane_of(i <= rank ? rank - i : rank), 32, line, file, name);
            if (i <= rank) v = op(v, x);
        }
        return ::gpulab_sim::sim_shfl_wide<V>(::gpulab_sim::SIM_W_SHFL_IDX, g.mask_, v, (int)g.lane_of(n - 1), 32,
                                              line, file, name);
    }
}

/* The grid of a cooperative launch (cudaLaunchCooperativeKernel), whose
 * blocks are all alive at once: sync() waits for every thread of the grid.
 * In any other launch it is not valid, and sync() stops the kernel, as the
 * CUDA headers do (__trap). */
class grid_group {
public:
    void sync(int line = __builtin_LINE(), const char *file = __builtin_FILE()) const
    {
        ::gpulab_sim::sim_grid_sync(line, file);
    }
    static unsigned long long block_rank()
    {
        return blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
    }
    static unsigned long long num_blocks() { return (unsigned long long)gridDim.x * gridDim.y * gridDim.z; }
    static dim3 group_dim() { return gridDim; }
    static dim3 dim_blocks() { return gridDim; }
    static dim3 block_index() { return dim3(blockIdx); }
    unsigned long long thread_rank() const
    {
        unsigned long long b = blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
        return b * thread_block::size() + thread_block::thread_rank();
    }
    unsigned long long size() const
    {
        return (unsigned long long)gridDim.x * gridDim.y * gridDim.z * thread_block::size();
    }
    unsigned long long num_threads() const { return size(); }
    bool is_valid() const { return ::gpulab_sim::sim_grid_valid() != 0; }
};
static inline grid_group this_grid() { return grid_group(); }

} /* namespace gpulab_sim_cg */

#endif
