// thrust where the CUDA toolkit's thrust headers are missing (gpulab runs
// the toolkit's own thrust on the simulator): the program is refused with
// the line of each use; on the GPU it runs.
// WITHOUT-THRUST
// EXPECT-SIM: p27_thrust.cu:8: #include <thrust/reduce.h>: the simulator runs the CUDA toolkit's own thrust
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
