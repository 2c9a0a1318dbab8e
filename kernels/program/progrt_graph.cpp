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

#include <algorithm>
#include <mutex>
#include <string.h>

namespace gpulab_sim {


/* ---------------------------------------------------------------- graphs */

struct sim_graph_node_s {
    int kind;                              /* a cudaGraphNodeType-like tag, for messages */
    sim_op op;                             /* what it does */
    std::vector<sim_graph_node_s *> deps;
    cudaKernelNodeParams kparams;          /* a kernel node's parameters as given */
};

struct sim_graph_s {
    std::vector<sim_graph_node_s *> nodes; /* in the order they were made */
    ~sim_graph_s()
    {
        for (auto *n : nodes) delete n;
    }
};

struct sim_graph_exec_s {
    std::vector<const sim_graph_node_s *> from; /* the graph's nodes, in the order they run */
    std::vector<sim_op> ops;
    std::vector<int> kinds; /* each node's kind, which an update must keep */
};

enum { NODE_KERNEL = 1, NODE_MEMCPY, NODE_MEMSET, NODE_HOST, NODE_EMPTY, NODE_GRAPH, NODE_ALLOC };

static sim_graph_node_s *add_node(sim_graph_s *g, int kind, const sim_op &op, const cudaGraphNode_t *deps,
                                  size_t ndeps)
{
    sim_graph_node_s *n = new sim_graph_node_s{kind, op, {}, {}};
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
    else if (!strcmp(what, "a release")) kind = NODE_ALLOC;
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
    if (!s || !s->capture || !g) return sim_err_value();
    *g = s->capture;
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

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *e, cudaGraph_t g, unsigned long long)
{
    SIM_STICKY();
    if (!e || !g) return sim_err_value();
    sim_graph_exec_s *x = new sim_graph_exec_s;
    if (order_nodes(g, x->from) != 0) {
        delete x;
        sim_set_last_error(cudaErrorInvalidValue);
        return cudaErrorInvalidValue;
    }
    for (auto *n : x->from) {
        x->ops.push_back(n->op);
        x->kinds.push_back(n->kind);
    }
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

static cudaError_t run_exec(const sim_graph_exec_s *x)
{
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
    return run_exec(e);
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
    for (size_t i = 0; i < from.size(); i++) e->ops[i] = from[i]->op;
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
    if (order_nodes(child, x.from) != 0) return sim_err_value();
    for (auto *n : x.from) x.ops.push_back(n->op);
    *node = add_node(g, NODE_GRAPH, [x]() { return run_exec(&x); }, deps, ndeps);
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
        /* an allocation node would need the address now: not simulated */
        sim_set_last_error(cudaErrorStreamCaptureUnsupported);
        return cudaErrorStreamCaptureUnsupported;
    }
    return sim_prog_malloc(p, "cudaMallocAsync", name, line, bytes, 0);
}

cudaError_t sim_prog_free_async(void *p, const char *name, int line, cudaStream_t s)
{
    cudaError_t rc;
    if (sim_captured(s, "a release", [=]() { return sim_prog_free(p, "cudaFreeAsync", name, line); }, &rc))
        return rc;
    return sim_prog_free(p, "cudaFreeAsync", name, line);
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
    return cudaSuccess;
}

cudaError_t cudaHostUnregister(void *p)
{
    SIM_STICKY();
    return p ? cudaSuccess : sim_err_value();
}

cudaError_t cudaHostGetFlags(unsigned *flags, void *p)
{
    if (!flags || !p) return sim_err_value();
    *flags = cudaHostAllocMapped;
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
