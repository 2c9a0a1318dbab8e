// thrust as a student meets it: device_vector, sequence, transform with a
// functor and with a placeholder, reduce, sort (ascending, descending and
// by key), copy back to a host_vector, and a kernel of the program's own on
// a device_vector's memory (raw_pointer_cast). On the simulator thrust is
// the CUDA toolkit's own, on its C++ backend: the results are the GPU's.
// EXPECT: sum of squares 0..999: 332833500
// EXPECT: sorted descending: 998001 996004 994009
// EXPECT: by key: 0:c 1:a 2:d 3:b
// EXPECT: kernel on device_vector: 3 5 7 ... 1999
// EXPECT: count of odd: 500, max 999
// EXPECT: exit status 0
// THRUST
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/extrema.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <cstdio>

struct square {
    __host__ __device__ long long operator()(int x) const { return (long long)x * x; }
};
struct is_odd {
    __host__ __device__ bool operator()(int x) const { return x % 2 == 1; }
};

// Idea: a kernel of one's own works on thrust's memory through a raw pointer.
__global__ void twice_plus_one(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = 2 * v[i] + 1;
}

int main()
{
    const int n = 1000;
    thrust::device_vector<int> v(n);
    thrust::sequence(v.begin(), v.end());
    thrust::device_vector<long long> sq(n);
    thrust::transform(v.begin(), v.end(), sq.begin(), square());
    long long sum = thrust::reduce(sq.begin(), sq.end(), 0ll, thrust::plus<long long>());
    printf("sum of squares 0..999: %lld\n", sum);

    thrust::sort(sq.begin(), sq.end(), thrust::greater<long long>());
    thrust::host_vector<long long> h = sq;
    printf("sorted descending: %lld %lld %lld\n", h[0], h[1], h[2]);

    thrust::device_vector<int> keys(4);
    thrust::device_vector<char> vals(4);
    int k[4] = {1, 3, 0, 2};
    char c[4] = {'a', 'b', 'c', 'd'};
    thrust::copy(k, k + 4, keys.begin());
    thrust::copy(c, c + 4, vals.begin());
    thrust::sort_by_key(keys.begin(), keys.end(), vals.begin());
    thrust::host_vector<int> hk = keys;
    thrust::host_vector<char> hv = vals;
    printf("by key: %d:%c %d:%c %d:%c %d:%c\n", hk[0], hv[0], hk[1], hv[1], hk[2], hv[2], hk[3], hv[3]);

    int count = (int)thrust::count_if(v.begin(), v.end(), is_odd());
    int mx = *thrust::max_element(v.begin(), v.end());

    twice_plus_one<<<(n + 255) / 256, 256>>>(thrust::raw_pointer_cast(v.data()), n);
    cudaDeviceSynchronize();
    thrust::host_vector<int> hw = v;
    printf("kernel on device_vector: %d %d %d ... %d\n", hw[1], hw[2], hw[3], hw[n - 1]);
    printf("count of odd: %d, max %d\n", count, mx);
    return 0;
}
