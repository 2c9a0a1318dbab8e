/* shim_async.h - libcu++'s asynchronous barriers and copies on the
 * simulator's threads, as a student's program includes them (<cuda/barrier>,
 * <cuda/pipeline>, <cuda/std/barrier>, <cooperative_groups/memcpy_async.h>,
 * <cuda_pipeline.h>): cuda::barrier and cuda::std::barrier (init, arrive,
 * wait, arrive_and_wait, arrive_and_drop, wait_parity, a completion
 * function), cuda::pipeline (a thread's own, and a group's with shared
 * state, producer and consumer roles), cuda::memcpy_async with a barrier or
 * a pipeline (alone or as a group, sizes as cuda::aligned_size_t),
 * cooperative_groups::memcpy_async / wait / wait_prior and the
 * __pipeline_memcpy_async primitives.
 *
 * Semantics are the toolkit's; what the simulator chooses among what they
 * allow: an asynchronous copy is made when it is issued, by the thread that
 * issues it (a group's copy is shared among the group's threads in 16-, 8-,
 * 4-, 2- or 1-byte pieces), with the kernel's own loads and stores, so the
 * memory checks see every byte of it at that line. Waiting for a copy then
 * waits for nothing more; waiting for a barrier's phase waits for the other
 * threads' arrivals (async.cpp). A phase that every thread of the block
 * takes part in orders the block as __syncthreads does (race check); the
 * completion of any phase begins a new epoch of the race check, which then
 * takes every access before it as ordered before every access after it. */
#ifndef GPULAB_SIM_SHIM_ASYNC_H
#define GPULAB_SIM_SHIM_ASYNC_H

#include <stddef.h>
#include <stdint.h>

#include <new>
#include <type_traits>
#include <utility>

namespace gpulab_sim {

/* A barrier's state; async.cpp reads and writes it. */
struct sim_abar_state {
    uint32_t magic;               /* set by init: a barrier nobody initialised is told apart */
    uint32_t phase;               /* phases completed */
    long long expected, pending;  /* arrivals per phase, and still missing in this one */
    long long dropped;            /* arrive_and_drop in this phase: fewer from the next one */
    const char *what;
};
enum : long long { SIM_ABAR_MAX = (1ll << 20) - 1 };

void sim_abar_init(sim_abar_state *b, long long expected, const char *what, int line, const char *file);
/* one arrival of n: the phase it belongs to; *last when it completes the
 * phase (the caller runs the completion function, then sim_abar_complete) */
unsigned long long sim_abar_arrive(sim_abar_state *b, long long n, int drop, int *last, int line, const char *file);
void sim_abar_complete(sim_abar_state *b, int line, const char *file);
/* wait until phase `phase` completed (parity < 0), or the phase of that
 * parity (0 or 1) did */
void sim_abar_wait(const sim_abar_state *b, unsigned long long phase, int parity, int line, const char *file);
int sim_abar_test(const sim_abar_state *b, unsigned long long phase, int parity, int line, const char *file);
[[noreturn]] void sim_async_misaligned(const void *dst, const void *src, size_t bytes, size_t align, int line,
                                       const char *file);

/* pieces the kernel's own instrumented loads and stores move */
typedef uint16_t sim_a16 __attribute__((may_alias));
typedef uint32_t sim_a32 __attribute__((may_alias));
typedef uint64_t sim_a64 __attribute__((may_alias));
typedef unsigned __int128 sim_a128 __attribute__((may_alias));

#define SIM_ASYNC_INLINE __attribute__((always_inline)) inline
template <class U> static SIM_ASYNC_INLINE void sim_copy_pieces(void *d, const void *s, size_t n, size_t first, size_t step)
{
    U *dp = static_cast<U *>(d);
    const U *sp = static_cast<const U *>(s);
    for (size_t i = first; i < n; i += step) dp[i] = sp[i];
}

/* The share of thread `rank` of a group of `size` threads in a copy of
 * `bytes` whose pointers and size are multiples of `align` (checked). */
static SIM_ASYNC_INLINE void sim_async_copy(void *dst, const void *src, size_t bytes, size_t align, unsigned rank, unsigned size,
                                  int line, const char *file)
{
    uintptr_t all = (uintptr_t)dst | (uintptr_t)src | (uintptr_t)bytes;
    if (align > 1 && (all & (align - 1))) sim_async_misaligned(dst, src, bytes, align, line, file);
    if (size == 0) size = 1;
    if (!(all & 15)) sim_copy_pieces<sim_a128>(dst, src, bytes / 16, rank, size);
    else if (!(all & 7)) sim_copy_pieces<sim_a64>(dst, src, bytes / 8, rank, size);
    else if (!(all & 3)) sim_copy_pieces<sim_a32>(dst, src, bytes / 4, rank, size);
    else if (!(all & 1)) sim_copy_pieces<sim_a16>(dst, src, bytes / 2, rank, size);
    else sim_copy_pieces<unsigned char>(dst, src, bytes, rank, size);
}

/* what a copy's destination or source may be: a pointer, a shared array
 * (the source pass's form of `__shared__ T a[N]`) or a pointer into one */
template <class T> static SIM_ASYNC_INLINE T *sim_async_ptr(T *p) { return p; }
template <class T> static SIM_ASYNC_INLINE T *sim_async_ptr(const sim_shared_array<T> &a) { return a.base; }
template <class T> static SIM_ASYNC_INLINE T *sim_async_ptr(const sim_shared_row<T> &a) { return a.base; }
template <class T> static SIM_ASYNC_INLINE T *sim_async_ptr(const sim_shared_array2<T> &a) { return a.base; }
template <class T> static SIM_ASYNC_INLINE T *sim_async_ptr(const sim_vptr<T> &a) { return a.p; }

/* the group of one thread (the forms without a group) */
struct sim_one_thread {
    static unsigned size() { return 1; }
    static unsigned thread_rank() { return 0; }
    void sync(int = 0, const char * = nullptr) const {}
};

} /* namespace gpulab_sim */

namespace cuda {

enum thread_scope { thread_scope_system = 0, thread_scope_device = 1, thread_scope_block = 2, thread_scope_thread = 3 };

/* a size whose pointers and value are multiples of Align */
template <::size_t Align> struct aligned_size_t {
    static_assert(Align && !(Align & (Align - 1)), "aligned_size_t: the alignment is a power of two");
    static constexpr ::size_t align = Align;
    ::size_t value;
    constexpr explicit aligned_size_t(::size_t v) : value(v) {}
    constexpr operator ::size_t() const { return value; }
};

enum class async_contract_fulfillment { none, async };

namespace std {
using ::cuda::thread_scope;
using ::cuda::thread_scope_system;
using ::cuda::thread_scope_device;
using ::cuda::thread_scope_block;
using ::cuda::thread_scope_thread;

struct __sim_empty_completion {
    void operator()() noexcept {}
};

/* cuda::std::barrier: init(&bar, count) or the constructor sets it up */
template <class CompletionF = __sim_empty_completion> class barrier {
public:
    struct arrival_token {
        unsigned long long sim_phase;
    };
    barrier() = default;
    barrier(const barrier &) = delete;
    barrier &operator=(const barrier &) = delete;
    explicit barrier(::ptrdiff_t expected, CompletionF f = CompletionF(), int line = __builtin_LINE(),
                     const char *file = __builtin_FILE())
        : sim_f(f)
    {
        ::gpulab_sim::sim_abar_init(&sim_s, expected, "cuda::barrier", line, file);
    }

    [[nodiscard]] arrival_token arrive(::ptrdiff_t n = 1, int line = __builtin_LINE(),
                                       const char *file = __builtin_FILE())
    {
        return sim_arrive(n, 0, line, file);
    }
    void wait(arrival_token &&t, int line = __builtin_LINE(), const char *file = __builtin_FILE()) const
    {
        ::gpulab_sim::sim_abar_wait(&sim_s, t.sim_phase, -1, line, file);
    }
    void arrive_and_wait(int line = __builtin_LINE(), const char *file = __builtin_FILE())
    {
        arrival_token t = sim_arrive(1, 0, line, file);
        ::gpulab_sim::sim_abar_wait(&sim_s, t.sim_phase, -1, line, file);
    }
    void arrive_and_drop(int line = __builtin_LINE(), const char *file = __builtin_FILE())
    {
        (void)sim_arrive(1, 1, line, file);
    }
    void wait_parity(bool parity, int line = __builtin_LINE(), const char *file = __builtin_FILE()) const
    {
        ::gpulab_sim::sim_abar_wait(&sim_s, 0, parity ? 1 : 0, line, file);
    }
    bool try_wait(arrival_token &&t, int line = __builtin_LINE(), const char *file = __builtin_FILE()) const
    {
        return ::gpulab_sim::sim_abar_test(&sim_s, t.sim_phase, -1, line, file);
    }
    bool try_wait_parity(bool parity, int line = __builtin_LINE(), const char *file = __builtin_FILE()) const
    {
        return ::gpulab_sim::sim_abar_test(&sim_s, 0, parity ? 1 : 0, line, file);
    }
    static constexpr ::ptrdiff_t max() noexcept { return ::gpulab_sim::SIM_ABAR_MAX; }

    arrival_token sim_arrive(::ptrdiff_t n, int drop, int line, const char *file)
    {
        int last = 0;
        arrival_token t{::gpulab_sim::sim_abar_arrive(&sim_s, n, drop, &last, line, file)};
        if (last) {
            sim_f();
            ::gpulab_sim::sim_abar_complete(&sim_s, line, file);
        }
        return t;
    }

    ::gpulab_sim::sim_abar_state sim_s;
    CompletionF sim_f;
};

/* init(&bar, count[, completion]): found by the barrier's type, as in CUDA */
template <class F>
static inline void init(barrier<F> *b, ::ptrdiff_t expected, F f = F(), int line = __builtin_LINE(),
                        const char *file = __builtin_FILE())
{
    new (&b->sim_f) F(f);
    ::gpulab_sim::sim_abar_init(&b->sim_s, expected, "cuda::barrier", line, file);
}
} /* namespace std */

/* cuda::barrier<scope>: the same barrier, for one block (thread_scope_block,
 * in shared memory) or wider scopes (whose threads must be one block's on
 * the simulator: blocks run one after another) */
template <thread_scope Scope, class CompletionF = ::cuda::std::__sim_empty_completion>
class barrier : public ::cuda::std::barrier<CompletionF> {
public:
    using ::cuda::std::barrier<CompletionF>::barrier;
    barrier() = default;
};

/* -------------------------------------------------------------- pipeline */

enum class pipeline_role { producer, consumer };

template <thread_scope Scope> struct __sim_pipeline_stage {
    barrier<Scope> produced, consumed;
};

template <thread_scope Scope, uint8_t Stages> class pipeline_shared_state {
public:
    pipeline_shared_state() = default;
    pipeline_shared_state(const pipeline_shared_state &) = delete;
    pipeline_shared_state &operator=(const pipeline_shared_state &) = delete;
    __sim_pipeline_stage<Scope> sim_stages[Stages];
    unsigned sim_count;
};

/* A group's pipeline over shared state: each stage has a barrier the
 * producers arrive at when they commit it and one the consumers arrive at
 * when they release it. */
template <thread_scope Scope> class pipeline {
public:
    pipeline(pipeline &&) = default;
    pipeline(const pipeline &) = delete;
    pipeline &operator=(const pipeline &) = delete;
    pipeline &operator=(pipeline &&) = delete;

    void producer_acquire(int line = __builtin_LINE(), const char *file = __builtin_FILE())
    {
        sim_stage[sim_head].consumed.wait_parity(sim_consumed_parity, line, file);
    }
    void producer_commit(int line = __builtin_LINE(), const char *file = __builtin_FILE())
    {
        (void)sim_stage[sim_head].produced.sim_arrive(1, 0, line, file);
        if (++sim_head == sim_stages) {
            sim_head = 0;
            sim_consumed_parity = !sim_consumed_parity;
        }
    }
    void consumer_wait(int line = __builtin_LINE(), const char *file = __builtin_FILE())
    {
        sim_stage[sim_tail].produced.wait_parity(sim_produced_parity, line, file);
    }
    void consumer_release(int line = __builtin_LINE(), const char *file = __builtin_FILE())
    {
        (void)sim_stage[sim_tail].consumed.sim_arrive(1, 0, line, file);
        if (++sim_tail == sim_stages) {
            sim_tail = 0;
            sim_produced_parity = !sim_produced_parity;
        }
    }
    bool quit()
    {
        sim_active = false;
        return true;
    }

    __sim_pipeline_stage<Scope> *sim_stage;
    uint8_t sim_stages, sim_head = 0, sim_tail = 0;
    bool sim_consumed_parity = true, sim_produced_parity = false, sim_active = true;
    pipeline(__sim_pipeline_stage<Scope> *s, uint8_t n) : sim_stage(s), sim_stages(n) {}
};

/* A thread's own pipeline: its copies are made when issued, so waiting
 * for a batch of them waits for nothing. */
template <> class pipeline<thread_scope_thread> {
public:
    pipeline() = default;
    pipeline(pipeline &&) = default;
    pipeline(const pipeline &) = delete;
    pipeline &operator=(const pipeline &) = delete;
    void producer_acquire() {}
    void producer_commit() { sim_head++; }
    void consumer_wait()
    {
        if (sim_tail != sim_head) sim_tail++;
    }
    void consumer_release() {}
    bool quit() { return true; }
    unsigned sim_head = 0, sim_tail = 0;
};

static inline pipeline<thread_scope_thread> make_pipeline() { return pipeline<thread_scope_thread>(); }

template <uint8_t Prior> static inline void pipeline_consumer_wait_prior(pipeline<thread_scope_thread> &p)
{
    p.sim_tail = p.sim_head > Prior ? p.sim_head - Prior : 0;
}

template <class Group, thread_scope Scope, uint8_t Stages>
static inline pipeline<Scope> sim_make_pipeline(const Group &g, pipeline_shared_state<Scope, Stages> *st,
                                                unsigned producers, int line, const char *file)
{
    unsigned n = (unsigned)g.size();
    unsigned consumers = producers == ~0u ? n : n - producers;
    if (producers == ~0u) producers = n;
    if (g.thread_rank() == 0) {
        for (unsigned s = 0; s < Stages; s++) {
            init(&st->sim_stages[s].consumed, (::ptrdiff_t)consumers, ::cuda::std::__sim_empty_completion(),
                 line, file);
            init(&st->sim_stages[s].produced, (::ptrdiff_t)producers, ::cuda::std::__sim_empty_completion(), line,
                 file);
        }
        st->sim_count = n;
    }
    g.sync(line, file);
    return pipeline<Scope>(st->sim_stages, Stages);
}

/* every thread of the group both produces and consumes */
template <class Group, thread_scope Scope, uint8_t Stages>
static inline pipeline<Scope> make_pipeline(const Group &g, pipeline_shared_state<Scope, Stages> *st)
{
    return sim_make_pipeline(g, st, ~0u, __LINE__, __FILE__);
}

template <class Group, thread_scope Scope, uint8_t Stages>
static inline pipeline<Scope> make_pipeline(const Group &g, pipeline_shared_state<Scope, Stages> *st,
                                            ::size_t producers, int line = __builtin_LINE(),
                                            const char *file = __builtin_FILE())
{
    return sim_make_pipeline(g, st, (unsigned)producers, line, file);
}

/* by role: the producers are counted first */
template <class Group, thread_scope Scope, uint8_t Stages>
static inline pipeline<Scope> make_pipeline(const Group &g, pipeline_shared_state<Scope, Stages> *st,
                                            pipeline_role role, int line = __builtin_LINE(),
                                            const char *file = __builtin_FILE())
{
    if (g.thread_rank() == 0) {
        st->sim_count = 0;
    }
    g.sync(line, file);
    if (role == pipeline_role::producer) (void)::gpulab_sim::atomicAdd(&st->sim_count, 1u);
    g.sync(line, file);
    unsigned producers = st->sim_count;
    g.sync(line, file);
    return sim_make_pipeline(g, st, producers, line, file);
}

/* ---------------------------------------------------------- memcpy_async */

template <class T> struct __sim_size_align { static constexpr ::size_t value = 1; };
template <::size_t A> struct __sim_size_align<aligned_size_t<A>> { static constexpr ::size_t value = A; };
template <class T> struct __sim_elem_align { static constexpr ::size_t value = alignof(T); };
template <> struct __sim_elem_align<void> { static constexpr ::size_t value = 1; };
template <> struct __sim_elem_align<const void> { static constexpr ::size_t value = 1; };

template <class S> struct __sim_is_sync : ::std::false_type {};
template <class F> struct __sim_is_sync<::cuda::std::barrier<F>> : ::std::true_type {};
template <thread_scope Sc, class F> struct __sim_is_sync<barrier<Sc, F>> : ::std::true_type {};
template <thread_scope Sc> struct __sim_is_sync<pipeline<Sc>> : ::std::true_type {};

template <class Group, class D, class S, class Size>
static SIM_ASYNC_INLINE void __sim_memcpy_async(const Group &g, D dst, S src, Size size, int line,
                                                const char *file)
{
    auto *d = ::gpulab_sim::sim_async_ptr(dst);
    auto *s = ::gpulab_sim::sim_async_ptr(src);
    typedef typename ::std::remove_cv<typename ::std::remove_pointer<decltype(d)>::type>::type E;
    constexpr ::size_t a1 = __sim_size_align<Size>::value;
    constexpr ::size_t a2 = __sim_elem_align<E>::value;
    constexpr ::size_t align = a1 > a2 ? a1 : a2;
    ::gpulab_sim::sim_async_copy((void *)d, (const void *)s, (::size_t)size, align, (unsigned)g.thread_rank(),
                                 (unsigned)g.size(), line, file);
}

/* memcpy_async(dst, src, size, barrier or pipeline) */
template <class D, class S, class Size, class Sync,
          class = typename ::std::enable_if<__sim_is_sync<Sync>::value>::type>
static SIM_ASYNC_INLINE async_contract_fulfillment memcpy_async(D dst, S src, Size size, Sync &sync,
                                                                int line = __builtin_LINE(),
                                                                const char *file = __builtin_FILE())
{
    (void)sync;
    __sim_memcpy_async(::gpulab_sim::sim_one_thread(), dst, src, size, line, file);
    return async_contract_fulfillment::none;
}

/* memcpy_async(group, dst, src, size, barrier or pipeline): each thread of
 * the group copies its share */
template <class Group, class D, class S, class Size, class Sync,
          class = typename ::std::enable_if<__sim_is_sync<Sync>::value>::type>
static SIM_ASYNC_INLINE async_contract_fulfillment memcpy_async(const Group &g, D dst, S src, Size size,
                                                                Sync &sync, int line = __builtin_LINE(),
                                                                const char *file = __builtin_FILE())
{
    (void)sync;
    __sim_memcpy_async(g, dst, src, size, line, file);
    return async_contract_fulfillment::none;
}

} /* namespace cuda */

/* ------------------------------------------- cooperative groups' copies */

namespace gpulab_sim_cg {

/* memcpy_async(group, dst, src, bytes): the group's threads share the copy;
 * wait(group) / wait_prior<N>(group) wait for it and sync the group */
template <class Group, class D, class S, class Size>
static SIM_ASYNC_INLINE void memcpy_async(const Group &g, D dst, S src, Size size, int line = __builtin_LINE(),
                                const char *file = __builtin_FILE())
{
    ::cuda::__sim_memcpy_async(g, dst, src, size, line, file);
}
template <class Group>
static inline void wait(const Group &g, int line = __builtin_LINE(), const char *file = __builtin_FILE())
{
    g.sync(line, file);
}
template <unsigned Prior, class Group>
static inline void wait_prior(const Group &g, int line = __builtin_LINE(), const char *file = __builtin_FILE())
{
    g.sync(line, file);
}

} /* namespace gpulab_sim_cg */

/* ------------------------------------- the pipeline primitives (sm_80) */

/* __pipeline_memcpy_async(dst, src, 4, 8 or 16 bytes[, bytes filled with
 * zeros at the end]) */
static SIM_ASYNC_INLINE void __pipeline_memcpy_async(void *dst, const void *src, size_t size, size_t zfill = 0,
                                           int line = __builtin_LINE(), const char *file = __builtin_FILE())
{
    if (zfill > size) zfill = size;
    ::gpulab_sim::sim_async_copy(dst, src, size - zfill, zfill ? 1 : size, 0, 1, line, file);
    for (size_t i = size - zfill; i < size; i++) {
        static_cast<unsigned char *>(dst)[i] = 0;
    }
}
static inline void __pipeline_commit(void) {}
static inline void __pipeline_wait_prior(size_t prior) { (void)prior; }

#endif
