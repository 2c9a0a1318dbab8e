// A CUDA graph made by stream capture: the work of two streams (a fork and
// a join through events) recorded once, instantiated, and launched three
// times; nothing runs while it is captured.
// EXPECT: during capture: 0 0
// EXPECT: after launch 1: x 1, y 10, sum 11
// EXPECT: after launch 3: x 3, y 30, sum 33
// EXPECT: nodes in the graph: 3
// EXPECT: exit status 0
#include <cstdio>

__global__ void add(int *p, int v) { *p += v; }
__global__ void join(const int *x, const int *y, int *out) { *out = *x + *y; }

int main()
{
    int *d;
    cudaMalloc(&d, 3 * sizeof(int));
    cudaMemset(d, 0, 3 * sizeof(int));
    cudaStream_t a, b;
    cudaStreamCreate(&a);
    cudaStreamCreate(&b);
    cudaEvent_t fork, done;
    cudaEventCreate(&fork);
    cudaEventCreate(&done);
    cudaGraph_t g;
    cudaStreamBeginCapture(a, cudaStreamCaptureModeGlobal);
    cudaEventRecord(fork, a);
    cudaStreamWaitEvent(b, fork, 0);
    add<<<1, 1, 0, a>>>(d, 1);
    add<<<1, 1, 0, b>>>(d + 1, 10);
    cudaEventRecord(done, b);
    cudaStreamWaitEvent(a, done, 0);
    join<<<1, 1, 0, a>>>(d, d + 1, d + 2);
    int h[3];
    cudaStreamEndCapture(a, &g);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("during capture: %d %d\n", h[0], h[1]);
    cudaGraphExec_t exec;
    cudaGraphInstantiate(&exec, g, 0);
    for (int i = 1; i <= 3; i++) {
        cudaGraphLaunch(exec, a);
        cudaStreamSynchronize(a);
        cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
        if (i != 2) printf("after launch %d: x %d, y %d, sum %d\n", i, h[0], h[1], h[2]);
    }
    cudaMemsetAsync(d, 0, sizeof(int), a);
    size_t n = 0;
    cudaGraphGetNodes(g, nullptr, &n);
    printf("nodes in the graph: %zu\n", n);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(g);
    return 0;
}
