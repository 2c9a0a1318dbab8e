// What a program asks about the GPU. On the simulator the answers describe
// the modelled GPU of `set model`.
// RUN: set model a100
// EXPECT: devices 1
// EXPECT: warp 32
// EXPECT: attribute agrees
// EXPECT: memory ok
// EXPECT-SIM: SMs 108
#include <cstdio>

int main()
{
    int n = 0;
    cudaGetDeviceCount(&n);
    printf("devices %d\n", n);
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    printf("name %s\n", p.name);
    printf("SMs %d\n", p.multiProcessorCount);
    printf("warp %d\n", p.warpSize);
    printf("compute capability %d.%d\n", p.major, p.minor);
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    printf("attribute %s\n", sms == p.multiProcessorCount ? "agrees" : "differs");
    size_t free_b = 0, total = 0;
    cudaMemGetInfo(&free_b, &total);
    printf("memory %s\n", total > 0 && free_b <= total ? "ok" : "odd");
    return 0;
}
