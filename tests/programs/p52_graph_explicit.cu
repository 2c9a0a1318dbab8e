// A CUDA graph built node by node: a memset and a copy in, a kernel that
// depends on both, a copy out and a host node after it; the arguments of
// the kernel node are copied when the node is made. The simulator's launch
// table names the line that made the kernel node.
// EXPECT-SIM: ramp      42         2
// EXPECT: out: 5 7 9 11 (base 5, step 2)
// EXPECT: host node ran after the copy: 11
// EXPECT: launched twice: 5 7 9 11
// EXPECT: exit status 0
#include <cstdio>

__global__ void ramp(int *out, const int *base, int step) { out[threadIdx.x] = *base + step * threadIdx.x; }

static int host_out[4];
static void report(void *) { printf("host node ran after the copy: %d\n", host_out[3]); }

int main()
{
    int *out, *base, five = 5;
    cudaMalloc(&out, 4 * sizeof(int));
    cudaMalloc(&base, sizeof(int));
    cudaGraph_t g;
    cudaGraphCreate(&g, 0);
    cudaGraphNode_t set, in, k, back, host;
    cudaMemsetParams mp = {};
    mp.dst = out;
    mp.value = 0;
    mp.elementSize = 4;
    mp.width = 4;
    mp.height = 1;
    cudaGraphAddMemsetNode(&set, g, nullptr, 0, &mp);
    cudaGraphAddMemcpyNode1D(&in, g, nullptr, 0, base, &five, sizeof(int), cudaMemcpyHostToDevice);
    int step = 2;
    void *args[] = {&out, &base, &step};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)ramp;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(4);
    kp.sharedMemBytes = 0;
    kp.kernelParams = args;
    cudaGraphNode_t before[] = {set, in};
    cudaGraphAddKernelNode(&k, g, before, 2, &kp);
    step = 100; /* too late: the node has its own copy */
    cudaGraphAddMemcpyNode1D(&back, g, &k, 1, host_out, out, sizeof host_out, cudaMemcpyDeviceToHost);
    cudaHostNodeParams hp = {report, nullptr};
    cudaGraphAddHostNode(&host, g, &back, 1, &hp);
    cudaGraphExec_t exec;
    cudaGraphInstantiate(&exec, g, 0);
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaGraphLaunch(exec, s);
    cudaStreamSynchronize(s);
    printf("out: %d %d %d %d (base 5, step 2)\n", host_out[0], host_out[1], host_out[2], host_out[3]);
    host_out[0] = -1;
    cudaGraphLaunch(exec, s);
    cudaStreamSynchronize(s);
    printf("launched twice: %d %d %d %d\n", host_out[0], host_out[1], host_out[2], host_out[3]);
    return 0;
}
