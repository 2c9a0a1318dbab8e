/* progrt_internal.h - within kernels/program/: what progrt.cpp (launches,
 * streams, events) and progrt_graph.cpp (graphs, stream-ordered memory,
 * host functions) share: the streams' and events' state, and the capture of
 * a stream's work into a graph. */
#ifndef GPULAB_PROGRT_INTERNAL_H
#define GPULAB_PROGRT_INTERNAL_H

#include "kernels/program/progrt.h"

#include <functional>
#include <vector>

namespace gpulab_sim {

/* One piece of a stream's work, run now or later (in a graph). */
typedef std::function<cudaError_t()> sim_op;

struct sim_stream_s {
    unsigned flags;
    int priority;
    sim_graph_s *capture;                 /* the graph it is being captured into, or NULL */
    std::vector<sim_graph_node_s *> tail; /* the nodes its next node depends on */
};

struct sim_event_s {
    double t;
    int recorded;
    unsigned flags;
    sim_graph_s *capture;                 /* recorded in a stream being captured: */
    std::vector<sim_graph_node_s *> at;   /* the nodes it stands for */
};

/* Work for stream s: recorded as a node of the graph s is being captured
 * into (then 1, with *rc its status), else 0 and the caller runs it. */
int sim_captured(cudaStream_t s, const char *what, const sim_op &op, cudaError_t *rc);

/* a kernel fault makes every later call fail, as on a GPU */
#define SIM_STICKY() do { cudaError_t s_ = sim_sticky_error(); if (s_) return s_; } while (0)

/* progrt_host.cpp: cudaHostRegister (on) and cudaHostUnregister give the
 * program's host allocations in [p, p + bytes) to the kernels and back */
void sim_host_register(const void *p, size_t bytes, int on);
/* around a launch from host code: the launching thread's stack above frame
 * is the host's while the kernel runs (a token for the end) */
uintptr_t sim_host_stack_begin(const void *frame);
void sim_host_stack_end(uintptr_t token);
cudaError_t sim_err_value(void);
cudaError_t sim_err_handle(void);
double sim_prog_clock(void);
/* graph allocations' physical memory (progrt_graph.cpp): the host waited for
 * stream s; the allocation at p was freed (in s, async: not waited for) */
void sim_graph_mem_stream_synced(cudaStream_t s);
void sim_graph_mem_freed(void *p, cudaStream_t s, int async);

} /* namespace gpulab_sim */

#endif
