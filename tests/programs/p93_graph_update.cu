// A graph captured anew each step and given to the executable graph with
// cudaGraphExecUpdate instead of instantiating it again: the current form
// (cudaGraphExecUpdateResultInfo) and the older four-argument one that
// cuda_runtime.h keeps for C++. An update with another kernel argument runs
// with it; a graph with one node more, or a copy where a kernel was, cannot
// be updated, and the result says which.
// EXPECT: step 0: 1 2 3 4 (instantiated)
// EXPECT: step 1: 2 4 6 8 (updated)
// EXPECT: step 2: 3 6 9 12 (updated, older form)
// EXPECT: one node more: cudaErrorGraphExecUpdateFailure, topology changed
// EXPECT: a copy for a kernel: cudaErrorGraphExecUpdateFailure, node type changed, error node given
// EXPECT: still runs the last update: 3 6 9 12
// EXPECT: no error
// EXPECT: exit status 0
#include <cstdio>

const int N = 4;

// Idea: the same work each step with a different parameter, so one
// executable graph is updated rather than instantiated again.
__global__ void scale(int *out, const int *in, int k)
{
    int i = threadIdx.x;
    if (i < N) out[i] = in[i] * k;
}

static void capture_scale(cudaStream_t s, cudaGraph_t *g, int *out, const int *in, int k)
{
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    scale<<<1, N, 0, s>>>(out, in, k);
    cudaStreamEndCapture(s, g);
}

static void show(const char *what, const int *d, const char *how)
{
    int h[N];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("%s: %d %d %d %d%s\n", what, h[0], h[1], h[2], h[3], how);
}

static const char *result_name(cudaGraphExecUpdateResult r)
{
    if (r == cudaGraphExecUpdateSuccess) return "success";
    if (r == cudaGraphExecUpdateErrorTopologyChanged) return "topology changed";
    if (r == cudaGraphExecUpdateErrorNodeTypeChanged) return "node type changed";
    return "other";
}

int main()
{
    int in[N] = {1, 2, 3, 4}, *d_in, *d_out;
    cudaMalloc(&d_in, sizeof in);
    cudaMalloc(&d_out, sizeof in);
    cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
    cudaStream_t s;
    cudaStreamCreate(&s);

    cudaGraph_t g;
    cudaGraphExec_t exec;
    capture_scale(s, &g, d_out, d_in, 1);
    cudaGraphInstantiate(&exec, g, 0);
    cudaGraphDestroy(g);
    cudaGraphLaunch(exec, s);
    cudaStreamSynchronize(s);
    show("step 0", d_out, " (instantiated)");

    capture_scale(s, &g, d_out, d_in, 2);
    cudaGraphExecUpdateResultInfo info;
    cudaError_t rc = cudaGraphExecUpdate(exec, g, &info);
    cudaGraphDestroy(g);
    cudaGraphLaunch(exec, s);
    cudaStreamSynchronize(s);
    show("step 1", d_out, rc == cudaSuccess && info.result == cudaGraphExecUpdateSuccess ? " (updated)" : " (?)");

    capture_scale(s, &g, d_out, d_in, 3);
    cudaGraphExecUpdateResult result;
    rc = cudaGraphExecUpdate(exec, g, NULL, &result);
    cudaGraphDestroy(g);
    cudaGraphLaunch(exec, s);
    cudaStreamSynchronize(s);
    show("step 2", d_out, rc == cudaSuccess && result == cudaGraphExecUpdateSuccess ? " (updated, older form)" : " (?)");

    // two kernels where the executable graph has one
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    scale<<<1, N, 0, s>>>(d_out, d_in, 5);
    scale<<<1, N, 0, s>>>(d_out, d_in, 6);
    cudaStreamEndCapture(s, &g);
    rc = cudaGraphExecUpdate(exec, g, &info);
    (void)cudaGetLastError();
    printf("one node more: %s, %s\n", cudaGetErrorName(rc), result_name(info.result));
    cudaGraphDestroy(g);

    // a copy where the kernel was
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaMemcpyAsync(d_out, d_in, sizeof in, cudaMemcpyDeviceToDevice, s);
    cudaStreamEndCapture(s, &g);
    cudaGraphNode_t bad = NULL;
    rc = cudaGraphExecUpdate(exec, g, &bad, &result);
    (void)cudaGetLastError();
    printf("a copy for a kernel: %s, %s, %s\n", cudaGetErrorName(rc), result_name(result),
           bad ? "error node given" : "no error node");
    cudaGraphDestroy(g);

    cudaGraphLaunch(exec, s);
    cudaStreamSynchronize(s);
    show("still runs the last update", d_out, "");

    cudaGraphExecDestroy(exec);
    cudaStreamDestroy(s);
    cudaFree(d_in);
    cudaFree(d_out);
    printf("%s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
