/* gpulab_thrust.h - thrust's device memory on the simulator.
 *
 * A student's program runs the CUDA toolkit's own thrust on its C++ backend
 * (program_build.c), whose device memory would be plain host memory from
 * operator new: a kernel given thrust::raw_pointer_cast(v.data()) would run
 * past its end unchecked, and cudaMemcpy would refuse it as host memory.
 * The build includes this file after progrt.h for a program that uses
 * thrust. It gives device_allocator (the allocator of every device_vector)
 * its own memory resource, an explicit specialization of thrust's adaptor
 * for the device system's resource, which takes the memory from the
 * simulator's cudaMalloc (progrt.cpp: sim_thrust_alloc). thrust::malloc
 * on the device system (thrust::device_malloc, and the temporary buffers of
 * thrust's algorithms) gets the same, through an overload for the C++
 * system's tag that argument-dependent lookup prefers to the sequential
 * system's template; frees of every C++ policy give the simulator's memory
 * back to it and the rest to std::free. */
#ifndef GPULAB_THRUST_H
#define GPULAB_THRUST_H

#include <thrust/device_allocator.h>
#include <thrust/memory.h>
#include <thrust/system/cpp/memory.h>
#include <thrust/system/detail/bad_alloc.h>

#include <cstddef>
#include <cstdlib>

extern "C" int sim_owns(const void *p);

THRUST_NAMESPACE_BEGIN

template <>
class device_ptr_memory_resource<device_memory_resource> final : public mr::memory_resource<device_ptr<void>>
{
public:
    device_ptr_memory_resource() {}
    explicit device_ptr_memory_resource(device_memory_resource *) {}

    pointer do_allocate(std::size_t bytes, std::size_t alignment = THRUST_MR_DEFAULT_ALIGNMENT) override
    {
        (void)alignment; /* cudaMalloc's 256 bytes are more than thrust asks */
        void *p = ::gpulab_sim::sim_thrust_alloc(bytes, "thrust::device_vector");
        if (!p && bytes) throw system::detail::bad_alloc("device_vector: cudaMalloc failed on the simulator");
        return pointer(p);
    }

    void do_deallocate(pointer p, std::size_t bytes, std::size_t alignment) override
    {
        (void)bytes;
        (void)alignment;
        ::gpulab_sim::sim_thrust_free(p.get());
    }
};

namespace system
{
namespace cpp
{
namespace detail
{

inline void *malloc(tag &, std::size_t n)
{
    void *p = ::gpulab_sim::sim_thrust_alloc(n, "thrust::device_malloc");
    /* after a sticky error cudaMalloc fails; host memory keeps thrust's
     * host algorithms (the same system here) going */
    return p ? p : std::malloc(n);
}

template <typename Derived, typename Pointer>
inline void free(execution_policy<Derived> &, Pointer ptr)
{
    void *p = thrust::raw_pointer_cast(ptr);
    if (sim_owns(p)) ::gpulab_sim::sim_thrust_free(p);
    else std::free(p);
}

} // namespace detail
} // namespace cpp
} // namespace system

THRUST_NAMESPACE_END

#endif
