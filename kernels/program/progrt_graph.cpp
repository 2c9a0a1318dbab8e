/* progrt_graph.cpp - the host runtime's work in streams for a student's
 * program on the simulator: asynchronous copies, host functions,
 * stream-ordered allocation, host memory registration, limits, and CUDA
 * graphs (stream capture and explicit building).
 *
 * The simulator finishes every call before it returns, which is one of the
 * orders CUDA allows, so the asynchronous calls run at once. The exception
 * is a stream being captured: its work becomes the nodes of a graph, each
 * depending on the stream's previous one (and on the nodes of the events it
 * waited for), and runs when the instantiated graph is launched, in an order
 * that keeps every dependency (nodes made earlier first where they are
 * free to go). */
#undef _FORTIFY_SOURCE
#include "kernels/program/progrt_internal.h"

#include "kernels/sim/internal.h"

/* the functions themselves, not progrt.h's macros that note their line */
#undef cudaGraphAddKernelNode
#undef cudaGraphKernelNodeSetParams
#undef cudaGraphExecKernelNodeSetParams
#undef cudaGraphAddMemAllocNode
#undef cudaGraphAddMemFreeNode
#undef cudaGraphAddNode

#include <algorithm>
#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <string.h>

namespace gpulab_sim {


/* ---------------------------------------------------------------- graphs */

struct sim_graph_node_s {
    int kind;                              /* a cudaGraphNodeType-like tag, for messages */
    sim_op op;                             /* what it does */
    std::vector<sim_graph_node_s *> deps;
    cudaKernelNodeParams kparams;          /* a kernel node's parameters as given */
    cudaMemAllocNodeParams mparams;        /* a memory node's: the size and address */
    /* a conditional node: its handle, kind and body graphs (made with it) */
    cudaGraphConditionalHandle cond;
    cudaGraphConditionalNodeType cond_type;
    std::vector<std::shared_ptr<sim_graph_s>> bodies;
    std::vector<cudaGraph_t> body_list;    /* the same, as phGraph_out hands them out */
};

/* an address of one of a graph's allocation nodes, and the free node that
 * last freed it, if no allocation node has taken it again since */
struct sim_graph_va {
    void *p;
    size_t bytes;
    const sim_graph_node_s *freed_by;
};

struct sim_graph_s {
    std::vector<sim_graph_node_s *> nodes; /* in the order they were made */
    std::vector<sim_graph_va> vas;
    ~sim_graph_s()
    {
        for (auto *n : nodes) delete n;
    }
};

struct sim_graph_exec_s {
    std::vector<const sim_graph_node_s *> from; /* the graph's nodes, in the order they run */
    std::vector<sim_op> ops;
    std::vector<int> kinds; /* each node's kind, which an update must keep */
    std::vector<cudaGraphConditionalHandle> resets; /* handles set to their default at each run */
    unsigned long long flags = 0;                   /* cudaGraphInstantiateFlag... */
};

/* the stream a graph runs in, for its allocation and free nodes' memory */
static thread_local cudaStream_t graph_stream;

enum { NODE_KERNEL = 1, NODE_MEMCPY, NODE_MEMSET, NODE_HOST, NODE_EMPTY, NODE_GRAPH, NODE_ALLOC, NODE_FREE, NODE_COND };

static sim_graph_node_s *add_node(sim_graph_s *g, int kind, const sim_op &op, const cudaGraphNode_t *deps,
                                  size_t ndeps)
{
    sim_graph_node_s *n = new sim_graph_node_s{kind, op, {}, {}, {}, 0, cudaGraphCondTypeIf, {}, {}};
    for (size_t i = 0; i < ndeps; i++)
        if (deps[i]) n->deps.push_back(deps[i]);
    g->nodes.push_back(n);
    return n;
}

int sim_captured(cudaStream_t s, const char *what, const sim_op &op, cudaError_t *rc)
{
    if (!s || !s->capture) return 0;
    /* the node's kind, which cudaGraphExecUpdate compares, from the work's name */
    int kind = NODE_KERNEL;
    if (!strcmp(what, "a copy")) kind = NODE_MEMCPY;
    else if (!strcmp(what, "a memset")) kind = NODE_MEMSET;
    else if (!strcmp(what, "a callback") || !strcmp(what, "a host function")) kind = NODE_HOST;
    else if (!strcmp(what, "a graph launch")) kind = NODE_GRAPH;
    sim_graph_node_s *n = add_node(s->capture, kind, op, s->tail.data(), s->tail.size());
    s->tail.assign(1, n);
    *rc = cudaSuccess;
    return 1;
}

cudaError_t cudaStreamBeginCapture(cudaStream_t s, cudaStreamCaptureMode)
{
    SIM_STICKY();
    if (!s) {
        /* the legacy default stream cannot be captured */
        sim_set_last_error(cudaErrorStreamCaptureUnsupported);
        return cudaErrorStreamCaptureUnsupported;
    }
    if (s->capture) return sim_err_value();
    s->capture = new sim_graph_s;
    s->tail.clear();
    return cudaSuccess;
}

cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t *g)
{
    SIM_STICKY();
    if (!s || !s->capture) return sim_err_value();
    /* g may be NULL after cudaStreamBeginCaptureToGraph: the graph is the program's */
    if (g) *g = s->capture;
    s->capture = nullptr;
    s->tail.clear();
    return cudaSuccess;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t s, cudaStreamCaptureStatus *status)
{
    if (!status) return sim_err_value();
    *status = s && s->capture ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
    return cudaSuccess;
}

cudaError_t cudaGraphCreate(cudaGraph_t *g, unsigned)
{
    SIM_STICKY();
    if (!g) return sim_err_value();
    *g = new sim_graph_s;
    return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t g)
{
    delete g;
    return cudaSuccess;
}

cudaError_t cudaGraphClone(cudaGraph_t *clone, cudaGraph_t g)
{
    if (!clone || !g) return sim_err_value();
    sim_graph_s *c = new sim_graph_s;
    for (auto *n : g->nodes) c->nodes.push_back(new sim_graph_node_s(*n));
    /* the dependencies point into the copy */
    for (auto *n : c->nodes)
        for (auto &d : n->deps) d = c->nodes[(size_t)(std::find(g->nodes.begin(), g->nodes.end(), d) - g->nodes.begin())];
    *clone = c;
    return cudaSuccess;
}

/* The nodes in an order that keeps every dependency: of those whose
 * dependencies have run, the one made first. -1 for a cycle. */
static int order_nodes(const sim_graph_s *g, std::vector<const sim_graph_node_s *> &out)
{
    size_t n = g->nodes.size();
    std::vector<char> done(n, 0);
    out.clear();
    while (out.size() < n) {
        size_t before = out.size();
        for (size_t i = 0; i < n; i++) {
            if (done[i]) continue;
            bool ready = true;
            for (auto *d : g->nodes[i]->deps) {
                size_t k = (size_t)(std::find(g->nodes.begin(), g->nodes.end(), d) - g->nodes.begin());
                if (k < n && !done[k]) ready = false;
            }
            if (!ready) continue;
            done[i] = 1;
            out.push_back(g->nodes[i]);
            break;
        }
        if (out.size() == before) return -1;
    }
    return 0;
}

static sim_op node_op(const sim_graph_node_s *n);
static void phys_release(void *p, cudaStream_t s, int pending);
static std::vector<cudaGraphConditionalHandle> handles_of(const sim_graph_s *g);

/* g as it is now, ready to run: its nodes in order, each one's work (a
 * conditional node's bodies as they are now too). -1 for a cycle. */
static int make_exec(const sim_graph_s *g, sim_graph_exec_s *x)
{
    if (order_nodes(g, x->from) != 0) return -1;
    x->ops.clear();
    x->kinds.clear();
    for (auto *n : x->from) {
        x->ops.push_back(node_op(n));
        x->kinds.push_back(n->kind);
    }
    x->resets = handles_of(g);
    return 0;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *e, cudaGraph_t g, unsigned long long flags)
{
    SIM_STICKY();
    if (!e || !g) return sim_err_value();
    sim_graph_exec_s *x = new sim_graph_exec_s;
    if (make_exec(g, x) != 0) {
        delete x;
        sim_set_last_error(cudaErrorInvalidValue);
        return cudaErrorInvalidValue;
    }
    x->flags = flags;
    *e = x;
    return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *e, cudaGraph_t g, cudaGraphNode_t *error_node, char *log,
                                 size_t log_size)
{
    if (error_node) *error_node = nullptr;
    if (log && log_size) log[0] = 0;
    return cudaGraphInstantiate(e, g, 0ull);
}

static void reset_handles(const std::vector<cudaGraphConditionalHandle> &hs);

static cudaError_t run_exec(const sim_graph_exec_s *x)
{
    reset_handles(x->resets);
    for (const auto &op : x->ops) {
        cudaError_t e = op();
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t e, cudaStream_t s)
{
    SIM_STICKY();
    if (!e) return sim_err_handle();
    cudaError_t rc;
    sim_graph_exec_s copy = *e;
    if (sim_captured(s, "a graph launch", [copy]() { return run_exec(&copy); }, &rc)) return rc;
    if (e->flags & cudaGraphInstantiateFlagAutoFreeOnLaunch)
        /* what the last launch allocated and nothing freed is freed first */
        for (auto *n : e->from)
            if (n->kind == NODE_ALLOC && sim_owns(n->mparams.dptr) &&
                sim_cuda_free_at(n->mparams.dptr, "cudaGraphLaunch (cudaGraphInstantiateFlagAutoFreeOnLaunch)",
                                 0) == cudaSuccess)
                phys_release(n->mparams.dptr, s, 1);
    cudaStream_t outer = graph_stream;
    graph_stream = s;
    rc = run_exec(e);
    graph_stream = outer;
    return rc;
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t e)
{
    delete e;
    return cudaSuccess;
}

cudaError_t cudaGraphGetNodes(cudaGraph_t g, cudaGraphNode_t *nodes, size_t *n)
{
    if (!g || !n) return sim_err_value();
    if (nodes)
        for (size_t i = 0; i < *n && i < g->nodes.size(); i++) nodes[i] = g->nodes[i];
    *n = g->nodes.size();
    return cudaSuccess;
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t g, cudaGraphNode_t *nodes, size_t *n)
{
    if (!g || !n) return sim_err_value();
    size_t k = 0;
    for (auto *x : g->nodes)
        if (x->deps.empty()) {
            if (nodes && k < *n) nodes[k] = x;
            k++;
        }
    *n = k;
    return cudaSuccess;
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t g, const cudaGraphNode_t *from, const cudaGraphNode_t *to, size_t n)
{
    if (!g || (n && (!from || !to))) return sim_err_value();
    for (size_t i = 0; i < n; i++) to[i]->deps.push_back(from[i]);
    return cudaSuccess;
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps)
{
    if (!node || !g) return sim_err_value();
    *node = add_node(g, NODE_EMPTY, []() { return cudaSuccess; }, deps, ndeps);
    return cudaSuccess;
}

/* a kernel node's work: the kernel found by its address, its arguments
 * copied now, as CUDA copies them when the node is made */
/* the file and line of the call that gives a kernel node its parameters
 * (set by the macros of progrt.h, taken by the next kernel_op): the line
 * the launch tables and messages name */
static thread_local const char *node_file;
static thread_local int node_line;

void sim_graph_at(const char *file, int line)
{
    node_file = file;
    node_line = line;
}

static int kernel_op(const cudaKernelNodeParams *p, sim_op *op)
{
    const char *file = node_file ? node_file : "graph";
    int line = node_line;
    node_file = nullptr;
    node_line = 0;
    sim_work (*bind)(const void *, void **) = sim_kreg_find(p->func);
    if (!bind) return -1;
    sim_work w = bind(p->func, p->kernelParams);
    const void *f = p->func;
    const char *name = sim_kreg_name(f);
    sim_cfg cfg(p->gridDim, p->blockDim, p->sharedMemBytes, nullptr);
    *op = [f, name, file, line, cfg, w]() { return sim_prog_launch(f, name ? name : "?", file, line, cfg, w); };
    return 0;
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps,
                                   const cudaKernelNodeParams *p)
{
    if (!node || !g || !p) return sim_err_value();
    sim_op op;
    if (kernel_op(p, &op) != 0) return sim_err_invalid_function();
    *node = add_node(g, NODE_KERNEL, op, deps, ndeps);
    (*node)->kparams = *p;
    return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, cudaKernelNodeParams *p)
{
    if (!node || !p || node->kind != NODE_KERNEL) return sim_err_value();
    *p = node->kparams;
    return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams *p)
{
    if (!node || !p || node->kind != NODE_KERNEL) return sim_err_value();
    sim_op op;
    if (kernel_op(p, &op) != 0) return sim_err_invalid_function();
    node->op = op;
    node->kparams = *p;
    return cudaSuccess;
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t e, cudaGraphNode_t node, const cudaKernelNodeParams *p)
{
    if (!e || !node || !p) return sim_err_value();
    sim_op op;
    if (kernel_op(p, &op) != 0) return sim_err_invalid_function();
    for (size_t i = 0; i < e->from.size(); i++)
        if (e->from[i] == node) {
            e->ops[i] = op;
            return cudaSuccess;
        }
    return sim_err_value();
}

static cudaError_t update_failed(cudaGraphExecUpdateResultInfo *info, cudaGraphExecUpdateResult why,
                                 cudaGraphNode_t node)
{
    if (info) {
        info->result = why;
        info->errorNode = node;
    }
    sim_set_last_error(cudaErrorGraphExecUpdateFailure);
    return cudaErrorGraphExecUpdateFailure;
}

/* The graph must have the instantiated one's shape: as many nodes, each of
 * the same kind in the same place; then its parameters replace the old. */
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t e, cudaGraph_t g, cudaGraphExecUpdateResultInfo *info)
{
    if (!e || !g) return sim_err_value();
    if (info) *info = cudaGraphExecUpdateResultInfo{cudaGraphExecUpdateSuccess, nullptr, nullptr};
    std::vector<const sim_graph_node_s *> from;
    if (order_nodes(g, from) != 0 || from.size() != e->from.size())
        return update_failed(info, cudaGraphExecUpdateErrorTopologyChanged, nullptr);
    for (size_t i = 0; i < from.size(); i++)
        if (from[i]->kind != e->kinds[i])
            return update_failed(info, cudaGraphExecUpdateErrorNodeTypeChanged,
                                 const_cast<cudaGraphNode_t>(from[i]));
    for (size_t i = 0; i < from.size(); i++) e->ops[i] = node_op(from[i]);
    e->from = from;
    return cudaSuccess;
}

cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms *p)
{
    if (!p) return sim_err_value();
    if (p->srcArray || p->dstArray) return sim_memcpy3d_array(p);
    const char *src = (const char *)p->srcPtr.ptr;
    char *dst = (char *)p->dstPtr.ptr;
    size_t sp = p->srcPtr.pitch, dp = p->dstPtr.pitch, sh = p->srcPtr.ysize, dh = p->dstPtr.ysize;
    for (size_t z = 0; z < p->extent.depth; z++)
        for (size_t y = 0; y < p->extent.height; y++) {
            const char *s = src + ((z + p->srcPos.z) * sh + y + p->srcPos.y) * sp + p->srcPos.x;
            char *d = dst + ((z + p->dstPos.z) * dh + y + p->dstPos.y) * dp + p->dstPos.x;
            cudaError_t e = cudaMemcpy(d, s, p->extent.width, p->kind);
            if (e != cudaSuccess) return e;
        }
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps,
                                   const cudaMemcpy3DParms *p)
{
    if (!node || !g || !p) return sim_err_value();
    cudaMemcpy3DParms c = *p;
    *node = add_node(g, NODE_MEMCPY, [c]() { return cudaMemcpy3D(&c); }, deps, ndeps);
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps,
                                     void *dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    if (!node || !g) return sim_err_value();
    *node = add_node(g, NODE_MEMCPY, [=]() { return cudaMemcpy(dst, src, bytes, kind); }, deps, ndeps);
    return cudaSuccess;
}

static cudaError_t memset_rows(const cudaMemsetParams &p)
{
    if (p.elementSize != 1 && p.elementSize != 2 && p.elementSize != 4) return sim_err_value();
    for (size_t y = 0; y < (p.height ? p.height : 1); y++) {
        char *row = (char *)p.dst + y * p.pitch;
        if (p.elementSize == 1) {
            cudaError_t e = cudaMemset(row, (int)p.value, p.width);
            if (e != cudaSuccess) return e;
            continue;
        }
        /* wider elements: the first one set, then doubled */
        for (size_t i = 0; i < p.width; i++) memcpy(row + i * p.elementSize, &p.value, p.elementSize);
    }
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps,
                                   const cudaMemsetParams *p)
{
    if (!node || !g || !p) return sim_err_value();
    cudaMemsetParams c = *p;
    *node = add_node(g, NODE_MEMSET, [c]() { return memset_rows(c); }, deps, ndeps);
    return cudaSuccess;
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps,
                                 const cudaHostNodeParams *p)
{
    if (!node || !g || !p || !p->fn) return sim_err_value();
    cudaHostNodeParams c = *p;
    *node = add_node(g, NODE_HOST, [c]() {
        c.fn(c.userData);
        return cudaSuccess;
    }, deps, ndeps);
    return cudaSuccess;
}

cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps,
                                       size_t ndeps, cudaGraph_t child)
{
    if (!node || !g || !child) return sim_err_value();
    sim_graph_exec_s x;
    if (make_exec(child, &x) != 0) return sim_err_value();
    *node = add_node(g, NODE_GRAPH, [x]() { return run_exec(&x); }, deps, ndeps);
    return cudaSuccess;
}

/* --------------------------------------------------- graph memory nodes */

/* CUDA gives a graph's allocation its address when the allocation node is
 * made (or cudaMallocAsync is captured) and keeps it for every launch; the
 * memory exists from a run of that node to its free (a free node, cudaFree
 * or cudaFreeAsync), and memory.cpp keeps the address reserved in between,
 * so that a use there is a use after free. An allocation node that depends
 * on a free node of the same graph, freeing an allocation at least as big,
 * takes that address again, as CUDA does. */

/* a depends on b, directly or through others */
static bool depends_on(const sim_graph_node_s *a, const sim_graph_node_s *b, std::vector<const sim_graph_node_s *> &seen)
{
    for (auto *d : a->deps) {
        if (d == b) return true;
        if (std::find(seen.begin(), seen.end(), d) != seen.end()) continue;
        seen.push_back(d);
        if (depends_on(d, b, seen)) return true;
    }
    return false;
}

/* The physical memory behind graph allocations, which
 * cudaDeviceGetGraphMemAttribute reports. An allocation node that runs takes
 * a free block at least its size (rounded up to 32 MiB, what the H200
 * reports for a 4 MiB allocation: p149) or adds one; a block freed in a stream is free at once for that
 * stream's later work, and for other streams once the host has waited for
 * the stream (cudaStreamSynchronize, cudaDeviceSynchronize): the free
 * happens on the GPU when the stream gets there, which the host cannot
 * know before. cudaDeviceGraphMemTrim gives the free blocks back. Used and
 * reserved memory are the same here: the blocks held. */
struct phys_block {
    size_t bytes;
    void *user;             /* the allocation in it; NULL: free */
    cudaStream_t freed_in;  /* free, but only for this stream's work ... */
    int pending;            /* ... until the host waits for it */
    unsigned long dev_sync; /* the device synchronisations when it was freed */
};
static std::vector<phys_block> phys;
static size_t phys_held, phys_high;
static std::mutex phys_lock;

static size_t phys_round(size_t b)
{
    const size_t g = (size_t)32 << 20;
    return (b + g - 1) / g * g;
}

static void phys_take(void *p, size_t bytes, cudaStream_t s)
{
    std::lock_guard<std::mutex> lk(phys_lock);
    size_t need = phys_round(bytes);
    unsigned long syncs = sim_mem_device_syncs();
    phys_block *best = nullptr;
    for (auto &b : phys) {
        if (b.user || b.bytes < need) continue;
        if (b.pending && b.dev_sync != syncs && b.freed_in != s) b.pending = 0;
        if (b.pending && b.freed_in != s) continue;
        if (!best || b.bytes < best->bytes) best = &b;
    }
    if (best) {
        best->user = p;
        return;
    }
    phys.push_back(phys_block{need, p, nullptr, 0, syncs});
    phys_held += need;
    if (phys_held > phys_high) phys_high = phys_held;
}

/* a graph allocation at p was freed in stream s (pending: the host did not
 * wait for it) */
static void phys_release(void *p, cudaStream_t s, int pending)
{
    std::lock_guard<std::mutex> lk(phys_lock);
    for (auto &b : phys)
        if (b.user == p) {
            b.user = nullptr;
            b.freed_in = s;
            b.pending = pending;
            b.dev_sync = sim_mem_device_syncs();
            return;
        }
}

void sim_graph_mem_stream_synced(cudaStream_t s)
{
    std::lock_guard<std::mutex> lk(phys_lock);
    for (auto &b : phys)
        if (!b.user && b.freed_in == s) b.pending = 0;
}

/* cudaFree or cudaFreeAsync of p succeeded: if it is a graph's allocation,
 * its block is free */
void sim_graph_mem_freed(void *p, cudaStream_t s, int async) { phys_release(p, s, async); }

cudaError_t cudaDeviceGraphMemTrim(int device)
{
    SIM_STICKY();
    if (device != 0) return sim_err_value();
    std::lock_guard<std::mutex> lk(phys_lock);
    unsigned long syncs = sim_mem_device_syncs();
    for (size_t i = phys.size(); i-- > 0;) {
        phys_block &b = phys[i];
        if (b.user || (b.pending && b.dev_sync == syncs)) continue;
        phys_held -= b.bytes;
        phys.erase(phys.begin() + (long)i);
    }
    return cudaSuccess;
}

cudaError_t cudaDeviceGetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void *value)
{
    if (device != 0) return sim_err_value();
    if (!value) return sim_err_value();
    std::lock_guard<std::mutex> lk(phys_lock);
    unsigned long long v;
    switch (attr) {
    case cudaGraphMemAttrUsedMemCurrent:
    case cudaGraphMemAttrReservedMemCurrent: v = phys_held; break;
    case cudaGraphMemAttrUsedMemHigh:
    case cudaGraphMemAttrReservedMemHigh: v = phys_high; break;
    default: return sim_err_value();
    }
    memcpy(value, &v, sizeof v);
    return cudaSuccess;
}

/* only the high-water marks can be set, and only to 0 (to the current) */
cudaError_t cudaDeviceSetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void *value)
{
    if (device != 0) return sim_err_value();
    unsigned long long v;
    if (!value) return sim_err_value();
    memcpy(&v, value, sizeof v);
    if ((attr != cudaGraphMemAttrUsedMemHigh && attr != cudaGraphMemAttrReservedMemHigh) || v != 0)
        return sim_err_value();
    std::lock_guard<std::mutex> lk(phys_lock);
    phys_high = phys_held;
    return cudaSuccess;
}

static cudaError_t said(cudaError_t e, int line)
{
    const char *why = sim_diag_take();
    if (why) fprintf(stderr, "simulator: %s (line %d)\n", why, line);
    return e;
}

/* An allocation node of g after deps: its address (an earlier one of g's
 * that a free node before it released, or a new one), in *node and p->dptr. */
static cudaError_t alloc_node(cudaGraphNode_t *node, sim_graph_s *g, const cudaGraphNode_t *deps, size_t ndeps,
                              cudaMemAllocNodeParams *p, const char *name, int line)
{
    if (!node || !g || !p || p->bytesize == 0) return sim_err_value();
    sim_graph_node_s probe{};
    for (size_t i = 0; i < ndeps; i++)
        if (deps[i]) probe.deps.push_back(deps[i]);
    void *at = nullptr;
    for (auto &va : g->vas) {
        std::vector<const sim_graph_node_s *> seen;
        if (va.freed_by && va.bytes >= p->bytesize && depends_on(&probe, va.freed_by, seen)) {
            at = va.p;
            va.freed_by = nullptr;
            break;
        }
    }
    if (!at) {
        cudaError_t e = sim_prog_malloc(&at, "cudaGraphAddMemAllocNode", name, line, p->bytesize);
        if (e != cudaSuccess) return e;
        /* reserved for the graph; no memory until the node runs */
        sim_mem_keep(at);
        sim_cuda_free_at(at, nullptr, 0);
        g->vas.push_back(sim_graph_va{at, p->bytesize, nullptr});
    }
    p->dptr = at;
    size_t bytes = p->bytesize;
    *node = add_node(g, NODE_ALLOC, [at, bytes, line]() {
        cudaError_t e = sim_mem_unpark(at, "a graph's allocation node");
        if (e != cudaSuccess) return said(e, line);
        phys_take(at, bytes, graph_stream);
        return cudaSuccess;
    }, deps, ndeps);
    (*node)->mparams = *p;
    return cudaSuccess;
}

/* A free node of g after deps, for the allocation at dptr (of g, of another
 * graph, or cudaMallocAsync's). */
static cudaError_t free_node(cudaGraphNode_t *node, sim_graph_s *g, const cudaGraphNode_t *deps, size_t ndeps,
                             void *dptr, const char *call, int line)
{
    if (!node || !g || !dptr) return sim_err_value();
    *node = add_node(g, NODE_FREE, [dptr, call, line]() {
        cudaError_t e = sim_cuda_free_at(dptr, call, line);
        if (e != cudaSuccess) return said(e, line);
        phys_release(dptr, graph_stream, 1);
        return cudaSuccess;
    }, deps, ndeps);
    (*node)->mparams.dptr = dptr;
    for (auto &va : g->vas)
        if (va.p == dptr) va.freed_by = *node;
    return cudaSuccess;
}

static int take_node_line(void)
{
    int line = node_line;
    node_file = nullptr;
    node_line = 0;
    return line;
}

cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps,
                                     size_t ndeps, cudaMemAllocNodeParams *p)
{
    int line = take_node_line();
    SIM_STICKY();
    return alloc_node(node, g, deps, ndeps, p, nullptr, line);
}

cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps,
                                    size_t ndeps, void *dptr)
{
    int line = take_node_line();
    SIM_STICKY();
    return free_node(node, g, deps, ndeps, dptr, "a graph's free node", line);
}

cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, cudaMemAllocNodeParams *p)
{
    if (!node || !p || node->kind != NODE_ALLOC) return sim_err_value();
    *p = node->mparams;
    return cudaSuccess;
}

cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr)
{
    if (!node || !dptr || node->kind != NODE_FREE) return sim_err_value();
    memcpy(dptr, &node->mparams.dptr, sizeof(void *));
    return cudaSuccess;
}

/* ---------------------------------------------------- conditional nodes */

/* A conditional node runs its body graphs by a value that device code sets
 * with cudaGraphSetConditional while the graph runs: `if` runs body 0 when
 * the value is not 0 (else body 1, if it has two), `while` runs body 0 as
 * long as the value is not 0 (tested before each run), `switch` runs body
 * n for the value n (none when n is not below the size). A handle made with
 * cudaGraphCondAssignDefault takes its default value at every run of the
 * graph it belongs to. */
struct cond_handle {
    std::atomic<unsigned> value;
    unsigned deflt;
    int assign;
    const sim_graph_s *owner;
};
static std::deque<cond_handle> handles; /* handle h is handles[h - 1] */
static std::mutex handles_lock;

static cond_handle *handle_of(cudaGraphConditionalHandle h)
{
    std::lock_guard<std::mutex> lk(handles_lock);
    return h >= 1 && h <= handles.size() ? &handles[(size_t)h - 1] : nullptr;
}

static std::vector<cudaGraphConditionalHandle> handles_of(const sim_graph_s *g)
{
    std::lock_guard<std::mutex> lk(handles_lock);
    std::vector<cudaGraphConditionalHandle> out;
    for (size_t i = 0; i < handles.size(); i++)
        if (handles[i].owner == g && handles[i].assign) out.push_back(i + 1);
    return out;
}

static void reset_handles(const std::vector<cudaGraphConditionalHandle> &hs)
{
    for (auto h : hs) {
        cond_handle *c = handle_of(h);
        if (c) c->value = c->deflt;
    }
}

cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *h, cudaGraph_t g, unsigned default_value,
                                             unsigned flags)
{
    SIM_STICKY();
    if (!h || !g || (flags & ~(unsigned)cudaGraphCondAssignDefault)) return sim_err_value();
    std::lock_guard<std::mutex> lk(handles_lock);
    handles.emplace_back();
    cond_handle &c = handles.back();
    c.value = default_value;
    c.deflt = default_value;
    c.assign = (flags & cudaGraphCondAssignDefault) != 0;
    c.owner = g;
    *h = handles.size();
    return cudaSuccess;
}

void sim_graph_set_conditional(cudaGraphConditionalHandle h, unsigned value)
{
    cond_handle *c = handle_of(h);
    if (c) c->value = value;
}

/* A node's work as of now: a conditional node's bodies are taken as they
 * are when the graph is instantiated (nodes are added to them after the
 * conditional node is made). */
static sim_op node_op(const sim_graph_node_s *n)
{
    if (n->kind != NODE_COND) return n->op;
    std::vector<sim_graph_exec_s> bodies(n->bodies.size());
    for (size_t i = 0; i < bodies.size(); i++)
        if (make_exec(n->bodies[i].get(), &bodies[i]) != 0) return []() { return sim_err_value(); };
    cudaGraphConditionalHandle h = n->cond;
    cudaGraphConditionalNodeType type = n->cond_type;
    return [bodies, h, type]() {
        cond_handle *c = handle_of(h);
        if (!c) return sim_err_value();
        switch (type) {
        case cudaGraphCondTypeIf:
            if (c->value) return run_exec(&bodies[0]);
            return bodies.size() > 1 ? run_exec(&bodies[1]) : cudaSuccess;
        case cudaGraphCondTypeWhile:
            while (c->value) {
                cudaError_t e = run_exec(&bodies[0]);
                if (e != cudaSuccess) return e;
            }
            return cudaSuccess;
        case cudaGraphCondTypeSwitch: {
            unsigned v = c->value;
            return v < bodies.size() ? run_exec(&bodies[v]) : cudaSuccess;
        }
        }
        return sim_err_value();
    };
}

static cudaError_t cond_node(cudaGraphNode_t *node, sim_graph_s *g, const cudaGraphNode_t *deps, size_t ndeps,
                             cudaConditionalNodeParams *p)
{
    cond_handle *c = handle_of(p->handle);
    unsigned most = p->type == cudaGraphCondTypeSwitch ? ~0u : p->type == cudaGraphCondTypeIf ? 2 : 1;
    if (!c || p->size < 1 || p->size > most) return sim_err_value();
    *node = add_node(g, NODE_COND, sim_op(), deps, ndeps);
    (*node)->cond = p->handle;
    (*node)->cond_type = p->type;
    for (unsigned i = 0; i < p->size; i++) {
        (*node)->bodies.push_back(std::make_shared<sim_graph_s>());
        (*node)->body_list.push_back((*node)->bodies.back().get());
    }
    p->phGraph_out = (*node)->body_list.data();
    return cudaSuccess;
}

/* cudaGraphAddNode: any kind of node from one set of parameters */
cudaError_t cudaGraphAddNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps,
                             const cudaGraphEdgeData *, size_t ndeps, cudaGraphNodeParams *p)
{
    /* a kernel node takes the call's line itself (kernel_op) */
    int line = node_line;
    if (p && p->type != cudaGraphNodeTypeKernel) take_node_line();
    SIM_STICKY();
    if (!node || !g || !p) return sim_err_value();
    switch (p->type) {
    case cudaGraphNodeTypeKernel: return cudaGraphAddKernelNode(node, g, deps, ndeps, &p->kernel);
    case cudaGraphNodeTypeMemcpy: return cudaGraphAddMemcpyNode(node, g, deps, ndeps, &p->memcpy.copyParams);
    case cudaGraphNodeTypeMemset: return cudaGraphAddMemsetNode(node, g, deps, ndeps, &p->memset);
    case cudaGraphNodeTypeHost: return cudaGraphAddHostNode(node, g, deps, ndeps, &p->host);
    case cudaGraphNodeTypeGraph: return cudaGraphAddChildGraphNode(node, g, deps, ndeps, p->graph.graph);
    case cudaGraphNodeTypeEmpty: return cudaGraphAddEmptyNode(node, g, deps, ndeps);
    case cudaGraphNodeTypeMemAlloc: return alloc_node(node, g, deps, ndeps, &p->alloc, nullptr, line);
    case cudaGraphNodeTypeMemFree:
        return free_node(node, g, deps, ndeps, p->free.dptr, "a graph's free node", line);
    case cudaGraphNodeTypeConditional: return cond_node(node, g, deps, ndeps, &p->conditional);
    default:
        fprintf(stderr, "simulator: cudaGraphAddNode: nodes of type %d (events, external semaphores) are not "
                        "simulated (line %d)\n", (int)p->type, line);
        sim_set_last_error(cudaErrorNotSupported);
        return cudaErrorNotSupported;
    }
}

/* ------------------------------------- capture into an existing graph */

cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t s, cudaGraph_t g, const cudaGraphNode_t *deps,
                                          const cudaGraphEdgeData *, size_t ndeps, cudaStreamCaptureMode)
{
    SIM_STICKY();
    if (!s) {
        sim_set_last_error(cudaErrorStreamCaptureUnsupported);
        return cudaErrorStreamCaptureUnsupported;
    }
    if (s->capture || !g || (ndeps && !deps)) return sim_err_value();
    s->capture = g;
    s->tail.assign(deps, deps + ndeps);
    return cudaSuccess;
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t s, cudaStreamCaptureStatus *status, unsigned long long *id,
                                     cudaGraph_t *g, const cudaGraphNode_t **deps, const cudaGraphEdgeData **edges,
                                     size_t *ndeps)
{
    if (!status) return sim_err_value();
    *status = s && s->capture ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
    if (!s || !s->capture) return cudaSuccess;
    /* the graph's address tells one capture from another */
    if (id) *id = (unsigned long long)(uintptr_t)s->capture;
    if (g) *g = s->capture;
    if (deps) *deps = s->tail.data();
    if (edges) *edges = nullptr;
    if (ndeps) *ndeps = s->tail.size();
    return cudaSuccess;
}

cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t s, cudaGraphNode_t *deps, const cudaGraphEdgeData *,
                                                size_t ndeps, unsigned flags)
{
    if (!s || !s->capture || (ndeps && !deps) || flags > cudaStreamSetCaptureDependencies) return sim_err_value();
    if (flags == cudaStreamSetCaptureDependencies) s->tail.clear();
    s->tail.insert(s->tail.end(), deps, deps + ndeps);
    return cudaSuccess;
}

/* ------------------------------------------------- asynchronous copies */

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, cudaStream_t s)
{
    cudaError_t rc;
    if (sim_captured(s, "a copy", [=]() { return cudaMemcpy(dst, src, bytes, kind); }, &rc)) return rc;
    return cudaMemcpy(dst, src, bytes, kind);
}

cudaError_t cudaMemsetAsync(void *p, int value, size_t bytes, cudaStream_t s)
{
    cudaError_t rc;
    if (sim_captured(s, "a memset", [=]() { return cudaMemset(p, value, bytes); }, &rc)) return rc;
    return cudaMemset(p, value, bytes);
}

/* ------------------------------------------------------ host functions */

cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t cb, void *user, unsigned flags)
{
    if (!cb || flags != 0) return sim_err_value();
    cudaError_t rc;
    if (sim_captured(s, "a callback", [=]() {
            cb(s, cudaSuccess, user);
            return cudaSuccess;
        }, &rc))
        return rc;
    /* the stream's work before it is done: the callback runs now, with the
     * stream's status */
    cb(s, sim_sticky_error(), user);
    return cudaSuccess;
}

cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void *user)
{
    SIM_STICKY();
    if (!fn) return sim_err_value();
    cudaError_t rc;
    if (sim_captured(s, "a host function", [=]() {
            fn(user);
            return cudaSuccess;
        }, &rc))
        return rc;
    fn(user);
    return cudaSuccess;
}

/* ------------------------------------------- stream-ordered allocation */

struct sim_mempool_s {
    unsigned long long threshold;
};

static sim_mempool_s prog_default_pool = {0};
static cudaMemPool_t prog_current_pool = &prog_default_pool;

cudaError_t sim_prog_malloc_async(void **p, const char *name, int line, size_t bytes, cudaStream_t s)
{
    if (s && s->capture) {
        /* captured: an allocation node after the stream's work, whose
         * address is the program's now */
        if (!p) return sim_err_value();
        cudaMemAllocNodeParams mp{};
        mp.bytesize = bytes;
        cudaGraphNode_t n;
        cudaError_t e = alloc_node(&n, s->capture, s->tail.data(), s->tail.size(), &mp, name, line);
        if (e != cudaSuccess) return e;
        s->tail.assign(1, n);
        *p = mp.dptr;
        return cudaSuccess;
    }
    return sim_prog_malloc(p, "cudaMallocAsync", name, line, bytes, 0);
}

cudaError_t sim_prog_free_async(void *p, const char *name, int line, cudaStream_t s)
{
    if (s && s->capture) {
        cudaGraphNode_t n;
        cudaError_t e = free_node(&n, s->capture, s->tail.data(), s->tail.size(), p, "cudaFreeAsync", line);
        if (e != cudaSuccess) return e;
        s->tail.assign(1, n);
        return cudaSuccess;
    }
    cudaError_t e = sim_prog_free(p, "cudaFreeAsync", name, line);
    if (e == cudaSuccess) sim_graph_mem_freed(p, s, 1);
    return e;
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int device)
{
    if (!pool) return sim_err_value();
    if (device != 0) {
        sim_set_last_error(cudaErrorInvalidDevice);
        return cudaErrorInvalidDevice;
    }
    *pool = &prog_default_pool;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *pool, int device)
{
    if (!pool) return sim_err_value();
    if (device != 0) {
        sim_set_last_error(cudaErrorInvalidDevice);
        return cudaErrorInvalidDevice;
    }
    *pool = prog_current_pool;
    return cudaSuccess;
}

cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool)
{
    if (device != 0 || !pool) return sim_err_value();
    prog_current_pool = pool;
    return cudaSuccess;
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void *value)
{
    if (!pool || !value) return sim_err_value();
    if (attr == cudaMemPoolAttrReleaseThreshold) pool->threshold = *(unsigned long long *)value;
    return cudaSuccess;
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void *value)
{
    if (!pool || !value) return sim_err_value();
    switch (attr) {
    case cudaMemPoolAttrReleaseThreshold: *(unsigned long long *)value = pool->threshold; break;
    case cudaMemPoolAttrReservedMemCurrent:
    case cudaMemPoolAttrUsedMemCurrent:
    case cudaMemPoolAttrReservedMemHigh:
    case cudaMemPoolAttrUsedMemHigh: *(unsigned long long *)value = sim_mem_in_use(); break;
    default: *(int *)value = 1; break;
    }
    return cudaSuccess;
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t) { return pool ? cudaSuccess : sim_err_value(); }

/* ----------------------------------------------------------- host memory */

cudaError_t cudaHostRegister(void *p, size_t bytes, unsigned flags)
{
    SIM_STICKY();
    if (!p || !bytes || flags > 15) return sim_err_value();
    sim_host_register(p, bytes, 1);
    return cudaSuccess;
}

cudaError_t cudaHostUnregister(void *p)
{
    SIM_STICKY();
    if (!p) return sim_err_value();
    sim_host_register(p, 0, 0);
    return cudaSuccess;
}

cudaError_t cudaHostGetFlags(unsigned *flags, void *p)
{
    if (!flags || !p) return sim_err_value();
    *flags = cudaHostAllocMapped;
    return cudaSuccess;
}

/* ------------------------------------------------- pointers and hints */

cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *a, const void *p)
{
    if (!a) return sim_err_value();
    void *base = nullptr;
    const char *call = sim_owner(p, &base);
    a->device = 0;
    a->devicePointer = const_cast<void *>(p);
    a->hostPointer = nullptr;
    if (!call || strcmp(call, "__device__") == 0) {
        /* host memory nothing registered (a __device__ variable is found by
         * its symbol, not here) */
        a->type = cudaMemoryTypeUnregistered;
        a->device = cudaInvalidDeviceId;
        a->devicePointer = nullptr;
        a->hostPointer = const_cast<void *>(p);
    } else if (strcmp(call, "cudaMallocManaged") == 0) {
        a->type = cudaMemoryTypeManaged;
        a->hostPointer = const_cast<void *>(p);
    } else if (strcmp(call, "cudaMallocHost") == 0 || strcmp(call, "cudaHostAlloc") == 0) {
        a->type = cudaMemoryTypeHost;
        a->hostPointer = const_cast<void *>(p);
    } else {
        a->type = cudaMemoryTypeDevice;
    }
    return cudaSuccess;
}

cudaError_t sim_prog_advise(const void *p, size_t n, int advice)
{
    SIM_STICKY();
    if (!p || !n || advice < cudaMemAdviseSetReadMostly || advice > cudaMemAdviseUnsetAccessedBy)
        return sim_err_value();
    void *base = nullptr;
    const char *call = sim_owner(p, &base);
    /* host memory: this device reads it (pageableMemoryAccess); device or
     * pinned memory: not managed; a range must lie in one allocation */
    if (!call) return cudaSuccess;
    if (strcmp(call, "cudaMallocManaged") != 0 && strcmp(call, "__device__") != 0) return sim_err_value();
    void *end_base = nullptr;
    if (sim_owner((const char *)p + n - 1, &end_base) == nullptr || end_base != base) return sim_err_value();
    return cudaSuccess;
}

static int prog_cache_config;

cudaError_t cudaDeviceSetCacheConfig(int config)
{
    if (config < cudaFuncCachePreferNone || config > cudaFuncCachePreferEqual) return sim_err_value();
    prog_cache_config = config;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache *config)
{
    if (!config) return sim_err_value();
    *config = (cudaFuncCache)prog_cache_config;
    return cudaSuccess;
}

cudaError_t cudaDeviceSetSharedMemConfig(int config)
{
    return config < cudaSharedMemBankSizeDefault || config > cudaSharedMemBankSizeEightByte ? sim_err_value()
                                                                                             : cudaSuccess;
}

cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig *config)
{
    if (!config) return sim_err_value();
    *config = cudaSharedMemBankSizeFourByte;
    return cudaSuccess;
}

cudaError_t cudaInitDevice(int device, unsigned device_flags, unsigned flags)
{
    if (device != 0) return cudaErrorInvalidDevice;
    if (flags > 1) return sim_err_value();
    return device_flags ? cudaSetDeviceFlags(device_flags) : cudaSuccess;
}

cudaError_t cudaChooseDevice(int *device, const cudaDeviceProp *prop)
{
    if (!device || !prop) return sim_err_value();
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaStreamGetDevice(cudaStream_t, int *device)
{
    if (!device) return sim_err_value();
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaStreamGetId(cudaStream_t s, unsigned long long *id)
{
    if (!id) return sim_err_value();
    /* unique among live streams: the stream's own address (the legacy
     * default stream and the per-thread one are their handles' values) */
    *id = (unsigned long long)(uintptr_t)s;
    return cudaSuccess;
}

cudaError_t cudaMalloc3D(cudaPitchedPtr *p, cudaExtent e)
{
    if (!p) return sim_err_value();
    size_t pitch = 0;
    void *d = nullptr;
    cudaError_t rc = sim_prog_pitch(&d, &pitch, e.width, e.height * e.depth, "cudaMalloc3D", 0);
    if (rc == cudaSuccess) *p = make_cudaPitchedPtr(d, pitch, e.width, e.height);
    return rc;
}

cudaError_t cudaMemset3D(cudaPitchedPtr p, int value, cudaExtent e)
{
    if (e.width > p.pitch || (e.depth > 1 && e.height > p.ysize)) return sim_err_value();
    for (size_t z = 0; z < e.depth; z++) {
        cudaError_t rc = cudaMemset2D((char *)p.ptr + z * p.pitch * p.ysize, p.pitch, value, e.width, e.height);
        if (rc != cudaSuccess) return rc;
    }
    return cudaSuccess;
}

static unsigned prog_device_flags;

cudaError_t cudaSetDeviceFlags(unsigned flags)
{
    if (flags > 31) return sim_err_value();
    prog_device_flags = flags;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceFlags(unsigned *flags)
{
    if (!flags) return sim_err_value();
    *flags = prog_device_flags | cudaDeviceMapHost;
    return cudaSuccess;
}

/* ---------------------------------------------------------------- limits */

static size_t prog_limits[7] = {1024, 1 << 20, 8 << 20, 2, 2048, 64, 0};

cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value)
{
    if ((unsigned)limit > 6) return sim_err_value();
    if (limit == cudaLimitPersistingL2CacheSize) {
        /* the GPU refuses more than its persisting L2 and keeps the old value
         * (measured on an H200) */
        cudaDeviceProp p;
        cudaGetDeviceProperties(&p, 0);
        if (value > (size_t)p.persistingL2CacheMaxSize) return sim_err_value();
    }
    prog_limits[limit] = value;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(size_t *value, cudaLimit limit)
{
    if (!value || (unsigned)limit > 6) return sim_err_value();
    *value = prog_limits[limit];
    return cudaSuccess;
}

cudaError_t cudaStreamSetAttribute(cudaStream_t s, cudaStreamAttrID id, const cudaStreamAttrValue *v)
{
    if (!v) return sim_err_value();
    if (id == cudaStreamAttributePriority && s) s->priority = v->priority;
    return cudaSuccess;
}

cudaError_t cudaStreamGetAttribute(cudaStream_t s, cudaStreamAttrID id, cudaStreamAttrValue *v)
{
    if (!v) return sim_err_value();
    memset(v, 0, sizeof *v);
    if (id == cudaStreamAttributePriority) v->priority = s ? s->priority : 0;
    return cudaSuccess;
}

} /* namespace gpulab_sim */
