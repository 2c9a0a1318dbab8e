/* data.cpp - input generators that reproduce the lectures' data exactly.
 * They use std::mt19937 and std::normal_distribution as the lectures did, so
 * the sums, histograms and sorts match the numbers printed there. */
#include "kernels/family.h"
#include "kernels/sim/sim.h"

#include <algorithm>
#include <random>
#include <stdlib.h>
#include <unistd.h>

/* gen() % M with M known to the compiler: a multiply instead of a division */
template <unsigned M> static void gen_mod(int *out, long long n, std::mt19937 &gen)
{
    for (long long i = 0; i < n; i++) out[i] = (int)(gen() % M);
}

extern "C" void lab_gen_mt_mod_int(int *out, long long n, unsigned seed, unsigned mod)
{
    std::mt19937 gen(seed);
    if (mod == 100) return gen_mod<100>(out, n, gen);
    if (mod == 1000) return gen_mod<1000>(out, n, gen);
    for (long long i = 0; i < n; i++) out[i] = (int)(gen() % mod);
}

extern "C" void *lab_alloc_big(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (p) sim_huge_pages(p, bytes);
    return p;
}

extern "C" void lab_gen_mt_words(unsigned *out, long long n, unsigned seed)
{
    std::mt19937 gen(seed);
    for (long long i = 0; i < n; i++) out[i] = (unsigned)gen();
}

extern "C" void lab_gen_uniform_float(float *out, long long n, unsigned seed, float lo, float hi)
{
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> d(lo, hi);
    for (long long i = 0; i < n; i++) out[i] = d(gen);
}

extern "C" void lab_gen_uniform_double(double *out, long long n, unsigned seed, double lo, double hi)
{
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> d(lo, hi);
    for (long long i = 0; i < n; i++) out[i] = d(gen);
}

extern "C" void lab_gen_photo(unsigned char *out, int w, int h, unsigned seed, float sigma)
{
    std::mt19937 gen(seed);
    std::normal_distribution<float> noise(0.0f, sigma);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            out[(long long)y * w + x] =
                (unsigned char)std::clamp(60.0f + 140.0f * x / w + noise(gen), 0.0f, 255.0f);
}

extern "C" double lab_host_memory_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || size <= 0) return 8.0 * (1 << 30);
    return (double)pages * (double)size;
}


