/* curand.h of a student's program on the simulator: cuRAND's host API is
 * the CUDA toolkit's own library, its declarations the toolkit's header.
 * The simulated device memory is the process's memory, so a generator made
 * with curandCreateGenerator is the library's host generator, which writes
 * the same numbers as the GPU's (tests/programs/p141 against an H200);
 * each call that fills device memory is checked to stay inside the
 * allocation it names, as a kernel's stores are, and the numbers count as
 * written for `set check initcheck`. */
#include "kernels/program/progrt.h"
#ifndef GPULAB_CURAND_H
#define GPULAB_CURAND_H
/* the toolkit's cuda_runtime.h brings library_types.h, which curand.h uses */
#include <library_types.h>
#include_next <curand.h>

#include <algorithm>
#include <mutex>
#include <vector>

namespace gpulab_sim {
/* the generators made for the device: their output is device memory */
struct sim_curand_gens {
    std::mutex lock;
    std::vector<curandGenerator_t> made;
};
static inline sim_curand_gens &sim_curand_device_gens()
{
    static sim_curand_gens g;
    return g;
}
static inline curandStatus_t sim_curand_create(curandGenerator_t *generator, curandRngType_t rng_type)
{
    curandStatus_t st = curandCreateGeneratorHost(generator, rng_type);
    if (st == CURAND_STATUS_SUCCESS) {
        std::lock_guard<std::mutex> hold(sim_curand_device_gens().lock);
        sim_curand_device_gens().made.push_back(*generator);
    }
    return st;
}
static inline curandStatus_t sim_curand_destroy(curandGenerator_t generator)
{
    {
        std::lock_guard<std::mutex> hold(sim_curand_device_gens().lock);
        std::vector<curandGenerator_t> &m = sim_curand_device_gens().made;
        m.erase(std::remove(m.begin(), m.end(), generator), m.end());
    }
    return curandDestroyGenerator(generator);
}
/* 0: the call may write [out, out + bytes) (a host generator's own memory,
 * or device memory inside one allocation) */
static inline int sim_curand_output(curandGenerator_t generator, const char *call, void *out, size_t bytes)
{
    std::lock_guard<std::mutex> hold(sim_curand_device_gens().lock);
    for (curandGenerator_t g : sim_curand_device_gens().made)
        if (g == generator) return sim_lib_output(call, out, bytes);
    return 0;
}
} /* namespace gpulab_sim */

#define curandCreateGenerator(generator, rng_type) ::gpulab_sim::sim_curand_create((generator), (rng_type))
#define curandDestroyGenerator(generator) ::gpulab_sim::sim_curand_destroy(generator)

/* the output's range first: an illegal address fails the call, not the
 * process, as the GPU's launch failure does */
#define GPULAB_CURAND_FILL(call, type, generator, out, n, ...)                                                  \
    (::gpulab_sim::sim_lib_at(__LINE__),                                                                        \
     ::gpulab_sim::sim_curand_output((generator), #call, (void *)(out), (size_t)(n) * sizeof(type)) != 0         \
         ? CURAND_STATUS_LAUNCH_FAILURE                                                                         \
         : call((generator), (out), (n), ##__VA_ARGS__))
#define curandGenerate(g, out, n) GPULAB_CURAND_FILL(curandGenerate, unsigned int, g, out, n)
#define curandGenerateLongLong(g, out, n) GPULAB_CURAND_FILL(curandGenerateLongLong, unsigned long long, g, out, n)
#define curandGenerateUniform(g, out, n) GPULAB_CURAND_FILL(curandGenerateUniform, float, g, out, n)
#define curandGenerateUniformDouble(g, out, n) GPULAB_CURAND_FILL(curandGenerateUniformDouble, double, g, out, n)
#define curandGenerateNormal(g, out, n, mean, sd) GPULAB_CURAND_FILL(curandGenerateNormal, float, g, out, n, mean, sd)
#define curandGenerateNormalDouble(g, out, n, mean, sd)                                                         \
    GPULAB_CURAND_FILL(curandGenerateNormalDouble, double, g, out, n, mean, sd)
#define curandGenerateLogNormal(g, out, n, mean, sd)                                                            \
    GPULAB_CURAND_FILL(curandGenerateLogNormal, float, g, out, n, mean, sd)
#define curandGenerateLogNormalDouble(g, out, n, mean, sd)                                                      \
    GPULAB_CURAND_FILL(curandGenerateLogNormalDouble, double, g, out, n, mean, sd)
#define curandGeneratePoisson(g, out, n, lambda)                                                                \
    GPULAB_CURAND_FILL(curandGeneratePoisson, unsigned int, g, out, n, lambda)
#endif
