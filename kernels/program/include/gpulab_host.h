/* gpulab_host.h - what the source pass makes of a program's own host
 * allocations on the simulator (kernels/program/progrt_host.cpp): malloc,
 * calloc, realloc, aligned_alloc, free and new in host code come here with
 * their file and line, and host code's arrays at file scope are named here
 * once the program starts, so that a kernel that touches such memory fails as on
 * a GPU. Included before the program's first line; not for programs to
 * name. */
#ifndef GPULAB_HOST_H
#define GPULAB_HOST_H
extern "C" {
void *gpulab_host_malloc(const char *file, int line, decltype(sizeof 0) n);
void *gpulab_host_calloc(const char *file, int line, decltype(sizeof 0) n, decltype(sizeof 0) size);
void *gpulab_host_realloc(const char *file, int line, void *old, decltype(sizeof 0) n);
void *gpulab_host_aligned_alloc(const char *file, int line, decltype(sizeof 0) align, decltype(sizeof 0) n);
void gpulab_host_free(void *p);
int gpulab_host_global(const void *p, decltype(sizeof 0) bytes, const char *name, const char *file, int line);
}
struct gpulab_host_at {
    const char *file;
    int line;
};
void *operator new(decltype(sizeof 0) n, gpulab_host_at at);
void *operator new[](decltype(sizeof 0) n, gpulab_host_at at);
void operator delete(void *p, gpulab_host_at at) noexcept;
void operator delete[](void *p, gpulab_host_at at) noexcept;
#endif
