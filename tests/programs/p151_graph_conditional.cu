// Conditional graph nodes: a kernel in the graph decides, through
// cudaGraphSetConditional, which body graph runs: `if` with an else body,
// a `while` loop that runs until a device counter reaches zero, and a
// `switch` over four bodies; the loop's body is captured from a stream
// into the graph the node made (cudaStreamBeginCaptureToGraph).
// RUN: set check all
// REJECT: simulator:
// EXPECT: if: 0 -> else body, 1 -> then body
// EXPECT: while: 5 turns, counter 0, log 5 4 3 2 1
// EXPECT: switch: 0->10 1->11 2->12 3->13 7->none
#include <cstdio>
#include <cuda_runtime.h>

__device__ int log_[8];

// the condition: the low bit of *flag
__global__ void decide(const int *flag, cudaGraphConditionalHandle h) { cudaGraphSetConditional(h, *flag & 1); }

// a body: leaves its mark
__global__ void mark(int *out, int v) { *out = v; }

// the loop's body: one turn, logged; the loop goes on while the counter is not 0
__global__ void turn(int *counter, int *turns, cudaGraphConditionalHandle h)
{
    log_[*turns] = *counter;
    (*turns)++;
    (*counter)--;
    cudaGraphSetConditional(h, *counter != 0);
}

// the switch's value: *flag itself
__global__ void pick(const int *flag, cudaGraphConditionalHandle h) { cudaGraphSetConditional(h, *flag); }

static void kernel_node(cudaGraphNode_t *n, cudaGraph_t g, const cudaGraphNode_t *dep, void *f, void **args)
{
    cudaGraphNodeParams p = {cudaGraphNodeTypeKernel};
    p.kernel.func = f;
    p.kernel.gridDim = dim3(1);
    p.kernel.blockDim = dim3(1);
    p.kernel.kernelParams = args;
    cudaGraphAddNode(n, g, dep, NULL, dep ? 1 : 0, &p);
}

// a conditional node of g after dep (or none): its body graphs
static cudaGraph_t *cond_node(cudaGraph_t g, const cudaGraphNode_t *dep, cudaGraphConditionalHandle h,
                              cudaGraphConditionalNodeType type, unsigned size)
{
    cudaGraphNodeParams p = {cudaGraphNodeTypeConditional};
    p.conditional.handle = h;
    p.conditional.type = type;
    p.conditional.size = size;
    cudaGraphNode_t n;
    cudaGraphAddNode(&n, g, dep, NULL, dep ? 1 : 0, &p);
    return p.conditional.phGraph_out;
}

int main()
{
    int *flag, *out, *counter, *turns;
    cudaMalloc(&flag, sizeof(int));
    cudaMalloc(&out, sizeof(int));
    cudaMalloc(&counter, sizeof(int));
    cudaMalloc(&turns, sizeof(int));

    // if / else
    cudaGraph_t g;
    cudaGraphCreate(&g, 0);
    cudaGraphConditionalHandle h;
    cudaGraphConditionalHandleCreate(&h, g);
    cudaGraphNode_t d, b;
    void *dargs[] = {&flag, &h};
    kernel_node(&d, g, NULL, (void *)decide, dargs);
    cudaGraph_t *ifelse = cond_node(g, &d, h, cudaGraphCondTypeIf, 2);
    int then_v = 1, else_v = 0;
    void *then_args[] = {&out, &then_v}, *else_args[] = {&out, &else_v};
    kernel_node(&b, ifelse[0], NULL, (void *)mark, then_args);
    kernel_node(&b, ifelse[1], NULL, (void *)mark, else_args);
    cudaGraphExec_t x;
    cudaGraphInstantiate(&x, g, NULL, NULL, 0);
    int got[2];
    for (int v = 0; v < 2; v++) {
        cudaMemcpy(flag, &v, sizeof v, cudaMemcpyHostToDevice);
        cudaGraphLaunch(x, 0);
        cudaMemcpy(&got[v], out, sizeof(int), cudaMemcpyDeviceToHost);
    }
    printf("if: 0 -> %s body, 1 -> %s body\n", got[0] ? "then" : "else", got[1] ? "then" : "else");

    // while, with a handle that starts at 1 at every launch; the body is
    // captured from a stream into the body graph
    cudaGraph_t gw;
    cudaGraphCreate(&gw, 0);
    cudaGraphConditionalHandle hw;
    cudaGraphConditionalHandleCreate(&hw, gw, 1, cudaGraphCondAssignDefault);
    cudaGraph_t *loop = cond_node(gw, NULL, hw, cudaGraphCondTypeWhile, 1);
    cudaStream_t st;
    cudaStreamCreate(&st);
    cudaStreamBeginCaptureToGraph(st, loop[0], NULL, NULL, 0, cudaStreamCaptureModeGlobal);
    turn<<<1, 1, 0, st>>>(counter, turns, hw);
    cudaStreamEndCapture(st, NULL);
    cudaGraphExec_t xw;
    cudaGraphInstantiate(&xw, gw, NULL, NULL, 0);
    int five = 5, zero = 0, nturns, left, log[8];
    cudaMemcpy(counter, &five, sizeof five, cudaMemcpyHostToDevice);
    cudaMemcpy(turns, &zero, sizeof zero, cudaMemcpyHostToDevice);
    cudaGraphLaunch(xw, st);
    cudaStreamSynchronize(st);
    cudaMemcpy(&nturns, turns, sizeof nturns, cudaMemcpyDeviceToHost);
    cudaMemcpy(&left, counter, sizeof left, cudaMemcpyDeviceToHost);
    cudaMemcpyFromSymbol(log, log_, sizeof log);
    printf("while: %d turns, counter %d, log", nturns, left);
    for (int i = 0; i < nturns && i < 8; i++) printf(" %d", log[i]);
    printf("\n");

    // switch over four bodies; a value past the last runs none
    cudaGraph_t gs;
    cudaGraphCreate(&gs, 0);
    cudaGraphConditionalHandle hs;
    cudaGraphConditionalHandleCreate(&hs, gs);
    cudaGraphNode_t ps;
    void *pargs[] = {&flag, &hs};
    kernel_node(&ps, gs, NULL, (void *)pick, pargs);
    cudaGraph_t *cases = cond_node(gs, &ps, hs, cudaGraphCondTypeSwitch, 4);
    int vals[4] = {10, 11, 12, 13};
    void *sargs[4][2];
    for (int i = 0; i < 4; i++) {
        sargs[i][0] = &out;
        sargs[i][1] = &vals[i];
        kernel_node(&b, cases[i], NULL, (void *)mark, sargs[i]);
    }
    cudaGraphExec_t xs;
    cudaGraphInstantiate(&xs, gs, NULL, NULL, 0);
    printf("switch:");
    int tries[5] = {0, 1, 2, 3, 7};
    for (int i = 0; i < 5; i++) {
        int none = -1, r;
        cudaMemcpy(out, &none, sizeof none, cudaMemcpyHostToDevice);
        cudaMemcpy(flag, &tries[i], sizeof(int), cudaMemcpyHostToDevice);
        cudaGraphLaunch(xs, 0);
        cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost);
        if (r < 0) printf(" %d->none", tries[i]);
        else printf(" %d->%d", tries[i], r);
    }
    printf("\n");

    cudaGraphExecDestroy(x);
    cudaGraphExecDestroy(xw);
    cudaGraphExecDestroy(xs);
    cudaGraphDestroy(g);
    cudaGraphDestroy(gw);
    cudaGraphDestroy(gs);
    cudaStreamDestroy(st);
    cudaFree(flag);
    cudaFree(out);
    cudaFree(counter);
    cudaFree(turns);
    return 0;
}
