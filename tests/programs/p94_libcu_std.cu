// libcu++'s standard library under cuda::std, which device code may use:
// type traits in a template kernel, numeric_limits, fixed-width integers,
// an array, swap and pair. On the simulator these are the C++ standard
// library's, under the name cuda::std.
// EXPECT: int: max 2147483647, float: max 3.40282e+38, lowest -3.40282e+38
// EXPECT: float kernel: 2.5 4.5 6.5 8.5 (floating point)
// EXPECT: int kernel: 2 4 6 8 (integer)
// EXPECT: int64 sum 10000000000, array 1 4 9 16, swapped 7 3, pair 5 x
// EXPECT: exit status 0
#include <cuda/std/array>
#include <cuda/std/cstdint>
#include <cuda/std/limits>
#include <cuda/std/type_traits>
#include <cuda/std/utility>
#include <cstdio>

// Idea: one template kernel, and a type trait picks the work at compile time.
template <class T> __global__ void step(T *x, int n, int *kind)
{
    int i = threadIdx.x;
    if (i >= n) return;
    if constexpr (cuda::std::is_floating_point<T>::value) x[i] = x[i] * 2 + T(0.5);
    else x[i] = x[i] * 2;
    if (i == 0) *kind = cuda::std::is_integral_v<T> ? 1 : 0;
}

__global__ void misc(long long *sum, int *sq, int *sw, int *pr, float *lim)
{
    cuda::std::int64_t s = 0;
    for (cuda::std::int32_t i = 0; i < 10; i++) s += 1000000000;
    *sum = s;
    cuda::std::array<int, 4> a{};
    for (int i = 0; i < (int)a.size(); i++) a[i] = (i + 1) * (i + 1);
    for (int i = 0; i < 4; i++) sq[i] = a[i];
    int p = 3, q = 7;
    cuda::std::swap(p, q);
    sw[0] = p;
    sw[1] = q;
    cuda::std::pair<int, char> pc = cuda::std::make_pair(5, 'x');
    pr[0] = pc.first;
    pr[1] = pc.second;
    lim[0] = cuda::std::numeric_limits<float>::max();
    lim[1] = cuda::std::numeric_limits<float>::lowest();
    sq[4] = cuda::std::numeric_limits<int>::max();
}

int main()
{
    float hf[4] = {1, 2, 3, 4}, *df;
    int hi[4] = {1, 2, 3, 4}, *di, *kind, k;
    cudaMalloc(&df, sizeof hf);
    cudaMalloc(&di, sizeof hi);
    cudaMalloc(&kind, sizeof(int));
    cudaMemcpy(df, hf, sizeof hf, cudaMemcpyHostToDevice);
    cudaMemcpy(di, hi, sizeof hi, cudaMemcpyHostToDevice);

    long long *sum;
    int *sq, *sw, *pr;
    float *lim;
    cudaMalloc(&sum, sizeof(long long));
    cudaMalloc(&sq, 5 * sizeof(int));
    cudaMalloc(&sw, 2 * sizeof(int));
    cudaMalloc(&pr, 2 * sizeof(int));
    cudaMalloc(&lim, 2 * sizeof(float));
    misc<<<1, 1>>>(sum, sq, sw, pr, lim);
    long long hs;
    int hq[5], hw[2], hp[2];
    float hl[2];
    cudaMemcpy(&hs, sum, sizeof hs, cudaMemcpyDeviceToHost);
    cudaMemcpy(hq, sq, sizeof hq, cudaMemcpyDeviceToHost);
    cudaMemcpy(hw, sw, sizeof hw, cudaMemcpyDeviceToHost);
    cudaMemcpy(hp, pr, sizeof hp, cudaMemcpyDeviceToHost);
    cudaMemcpy(hl, lim, sizeof hl, cudaMemcpyDeviceToHost);
    printf("int: max %d, float: max %g, lowest %g\n", hq[4], hl[0], hl[1]);

    step<<<1, 4>>>(df, 4, kind);
    cudaMemcpy(hf, df, sizeof hf, cudaMemcpyDeviceToHost);
    cudaMemcpy(&k, kind, sizeof k, cudaMemcpyDeviceToHost);
    printf("float kernel: %g %g %g %g (%s)\n", hf[0], hf[1], hf[2], hf[3], k ? "integer" : "floating point");
    step<<<1, 4>>>(di, 4, kind);
    cudaMemcpy(hi, di, sizeof hi, cudaMemcpyDeviceToHost);
    cudaMemcpy(&k, kind, sizeof k, cudaMemcpyDeviceToHost);
    printf("int kernel: %d %d %d %d (%s)\n", hi[0], hi[1], hi[2], hi[3], k ? "integer" : "floating point");

    printf("int64 sum %lld, array %d %d %d %d, swapped %d %d, pair %d %c\n", hs, hq[0], hq[1], hq[2], hq[3], hw[0],
           hw[1], hp[0], hp[1]);
    cudaFree(df);
    cudaFree(di);
    cudaFree(kind);
    cudaFree(sum);
    cudaFree(sq);
    cudaFree(sw);
    cudaFree(pr);
    cudaFree(lim);
    return 0;
}
