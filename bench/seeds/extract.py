#!/usr/bin/env python3
"""Build the seed documents' own programs, as their text gives them, for the
benchmarks that compare gpulab's rows with the code the lectures ran.

    bench/seeds/extract.py SEEDS_DIR OUT_DIR

writes OUT_DIR/lecture_reduce.cu (the reduction lecture's reduce.cu) and
OUT_DIR/article_reduce.cu (the cooperative-groups article's program, with its
error.cuh), taken from the seed files at run time (nothing of them is kept in
this repository), plus the two headers the texts use but do not print in full:
common.cuh (the lecture's MedianMs/GpuMs/CpuMs/CUDA_CHECK, written here from
its description: median of 5 runs after a warm-up, GPU time by CUDA events)
and, for comparison, plain_thrust.cu: a user's own thrust::reduce call.
"""
import os
import sys

COMMON = r'''// common.cuh - what the reduction lecture's programs include, written from
// the lecture's description: CUDA_CHECK, GPU time by events, CPU time by the
// clock, and the median of 5 runs after a warm-up.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#define CUDA_CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); std::exit(1); } } while (0)
template <class F> float GpuMs(F f) {
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b);
    float ms = 0; cudaEventElapsedTime(&ms, a, b); cudaEventDestroy(a); cudaEventDestroy(b); return ms; }
template <class F> float CpuMs(F f) {
    auto t0 = std::chrono::steady_clock::now(); f();
    return std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - t0).count(); }
template <class F> float MedianMs(F f) {
    f(); std::vector<float> t; for (int i = 0; i < 5; i++) t.push_back(f());
    std::sort(t.begin(), t.end()); return t[2]; }
'''

PLAIN = r'''// plain_thrust.cu - a user's own thrust::reduce over 64 Mi ints (the
// lecture's data), timed by events: median of 20 after a warm-up. Prints
// "plain thrust MS SUM". With an argument "omp", an OpenMP sum runs first.
#include <thrust/device_ptr.h>
#include <thrust/reduce.h>
#include <random>
#include <cstring>
#include <omp.h>
#include "common.cuh"
int main(int argc, char **argv) {
    const long long n = 1LL << 26;
    std::vector<int> data(n);
    std::mt19937 gen(26);
    for (int &x : data) x = (int)(gen() % 100);
    if (argc > 1 && std::strcmp(argv[1], "omp") == 0) {
        long long s = 0;
#pragma omp parallel for reduction(+:s)
        for (long long i = 0; i < n; ++i) s += data[i];
        std::printf("omp first: %lld\n", s);
    }
    int *d; CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d, data.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    thrust::device_ptr<int> p(d);
    long long sum = 0;
    std::vector<float> t;
    GpuMs([&] { sum = thrust::reduce(p, p + n, 0LL); });
    for (int i = 0; i < 20; i++) t.push_back(GpuMs([&] { sum = thrust::reduce(p, p + n, 0LL); }));
    std::sort(t.begin(), t.end());
    std::printf("plain thrust %.4f ms (min %.4f max %.4f) sum %lld\n", 0.5 * (t[9] + t[10]), t[0], t[19], sum);
}
'''


def between(text, start, end_marker):
    i = text.index(start)
    j = text.index(end_marker, i)
    return text[i:j]


def main():
    seeds, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    lec = open(os.path.join(seeds, 'lecture-uk-reduce-histogram-mandelbrot.txt'), encoding='utf-8').read()
    # The program runs from its first comment to the "}" glued to the prose after it.
    prog = between(lec, '// reduce.cu', '}У ядрі') + '}\n'
    open(os.path.join(out, 'lecture_reduce.cu'), 'w', encoding='utf-8').write(prog)
    art = open(os.path.join(seeds, 'article-zh-reduce-cooperative-groups.txt'), encoding='utf-8').read()
    prog = between(art, '#include "error.cuh"', '头文件error.cuh')
    open(os.path.join(out, 'article_reduce.cu'), 'w', encoding='utf-8').write(prog)
    err = between(art, '#pragma once', '编译')
    open(os.path.join(out, 'error.cuh'), 'w', encoding='utf-8').write(err)
    open(os.path.join(out, 'common.cuh'), 'w').write(COMMON)
    open(os.path.join(out, 'plain_thrust.cu'), 'w').write(PLAIN)


if __name__ == '__main__':
    main()
