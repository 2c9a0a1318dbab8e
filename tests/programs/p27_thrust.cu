// thrust is a GPU library: on the simulator the program is refused with the
// line of each use; on the GPU it runs.
// EXPECT-SIM: p27_thrust.cu:6: #include <thrust/reduce.h>: thrust is a GPU library
// EXPECT-GPU: sum 4950
// FAILS-SIM
#include <thrust/reduce.h>
#include <thrust/device_vector.h>
#include <thrust/sequence.h>
#include <cstdio>

int main()
{
    thrust::device_vector<int> v(100);
    thrust::sequence(v.begin(), v.end());
    printf("sum %d\n", thrust::reduce(v.begin(), v.end()));
    return 0;
}
