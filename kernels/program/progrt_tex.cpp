/* progrt_tex.cpp - the host side of textures and surfaces for a student's
 * program on the simulator: CUDA arrays (1D, 2D, 3D, layered, cubemap),
 * the copies into and out of them, and the texture and surface objects the
 * kernels fetch through (kernels/sim/shim_tex.h). An array's texels lie in
 * simulated device memory, row after row. */
#undef _FORTIFY_SOURCE
#include "kernels/program/progrt_internal.h"

#include "kernels/sim/internal.h"

#include <string.h>

namespace gpulab_sim {

struct cudaArray {
    cudaChannelFormatDesc desc;
    size_t width, height, depth; /* depth: layers for a layered array, 6 x layers for a cubemap */
    unsigned flags;
    size_t elem;
    char *data;
};

static size_t elem_size(const cudaChannelFormatDesc &d) { return (size_t)(d.x + d.y + d.z + d.w) / 8; }

cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f)
{
    return cudaChannelFormatDesc{x, y, z, w, f};
}

static cudaError_t make_array(cudaArray_t *a, const cudaChannelFormatDesc *d, size_t w, size_t h, size_t depth,
                              unsigned flags)
{
    if (!a || !d || !w) return sim_err_value();
    size_t e = elem_size(*d);
    if (e == 0 || e > 16) return sim_err_value();
    cudaArray *r = new cudaArray{*d, w, h ? h : 1, depth ? depth : 1, flags, e, nullptr};
    cudaError_t err = sim_prog_malloc((void **)&r->data, "cudaMallocArray", "array", 0, r->width * r->height * r->depth * e, 0);
    if (err != cudaSuccess) {
        delete r;
        return err;
    }
    memset(r->data, 0, r->width * r->height * r->depth * e);
    *a = r;
    return cudaSuccess;
}

cudaError_t cudaMallocArray(cudaArray_t *a, const cudaChannelFormatDesc *d, size_t w, size_t h, unsigned flags)
{
    SIM_STICKY();
    return make_array(a, d, w, h, 1, flags);
}

cudaError_t cudaMalloc3DArray(cudaArray_t *a, const cudaChannelFormatDesc *d, cudaExtent e, unsigned flags)
{
    SIM_STICKY();
    /* a cubemap's depth is its six faces (of every layer) */
    if ((flags & cudaArrayCubemap) && (e.width != e.height || e.depth % 6)) return sim_err_value();
    return make_array(a, d, e.width, e.height, e.depth, flags);
}

cudaError_t cudaFreeArray(cudaArray_t a)
{
    if (!a) return cudaSuccess;
    cudaError_t e = sim_prog_free(a->data, "cudaFreeArray", "array", 0);
    delete a;
    return e;
}

cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc *d, cudaArray_const_t a)
{
    if (!d || !a) return sim_err_value();
    *d = a->desc;
    return cudaSuccess;
}

cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc *d, cudaExtent *e, unsigned *flags, cudaArray_t a)
{
    if (!a) return sim_err_value();
    if (d) *d = a->desc;
    if (e) *e = cudaExtent{a->width, (a->flags & 3) == 0 && a->height == 1 ? 0 : a->height, a->depth == 1 ? 0 : a->depth};
    if (flags) *flags = a->flags;
    return cudaSuccess;
}

/* rows of width bytes between linear memory (pitch bytes apart) and an
 * array from (x bytes, y) on */
static cudaError_t rows(cudaArray_t a, size_t xb, size_t y, size_t z, void *lin, size_t pitch, size_t width,
                        size_t height, int into)
{
    if (!a || !lin) return sim_err_value();
    size_t row = a->width * a->elem;
    if (xb + width > row || y + height > a->height) return sim_err_value();
    for (size_t r = 0; r < height; r++) {
        char *arr = a->data + (z * a->height + y + r) * row + xb;
        char *l = (char *)lin + r * pitch;
        cudaError_t e = into ? cudaMemcpy(arr, l, width, cudaMemcpyDefault) : cudaMemcpy(l, arr, width, cudaMemcpyDefault);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t a, size_t xb, size_t y, const void *src, size_t spitch, size_t width,
                                size_t height, cudaMemcpyKind)
{
    return rows(a, xb, y, 0, const_cast<void *>(src), spitch, width, height, 1);
}

cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t a, size_t xb, size_t y, size_t width,
                                  size_t height, cudaMemcpyKind)
{
    return rows(const_cast<cudaArray_t>(a), xb, y, 0, dst, dpitch, width, height, 0);
}

cudaError_t cudaMemcpyToArray(cudaArray_t a, size_t xb, size_t y, const void *src, size_t bytes, cudaMemcpyKind)
{
    /* the deprecated form: bytes from (xb, y) on, row after row */
    if (!a || !src) return sim_err_value();
    size_t off = (y * a->width) * a->elem + xb;
    if (off + bytes > a->width * a->height * a->depth * a->elem) return sim_err_value();
    return cudaMemcpy(a->data + off, src, bytes, cudaMemcpyDefault);
}

cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t a, size_t xb, size_t y, size_t bytes, cudaMemcpyKind)
{
    if (!a || !dst) return sim_err_value();
    size_t off = (y * a->width) * a->elem + xb;
    if (off + bytes > a->width * a->height * a->depth * a->elem) return sim_err_value();
    return cudaMemcpy(dst, a->data + off, bytes, cudaMemcpyDefault);
}

/* cudaMemcpy3D with an array at either end: the extent is in elements
 * there, in bytes for linear memory */
cudaError_t sim_memcpy3d_array(const cudaMemcpy3DParms *p)
{
    cudaArray_t a = p->srcArray ? p->srcArray : p->dstArray;
    const cudaPitchedPtr &lin = p->srcArray ? p->dstPtr : p->srcPtr;
    const cudaPos &apos = p->srcArray ? p->srcPos : p->dstPos, &lpos = p->srcArray ? p->dstPos : p->srcPos;
    if (p->srcArray && p->dstArray) return sim_err_value();
    size_t wb = p->extent.width * a->elem, h = p->extent.height ? p->extent.height : 1;
    size_t d = p->extent.depth ? p->extent.depth : 1;
    if (apos.z + d > a->depth) return sim_err_value();
    for (size_t z = 0; z < d; z++) {
        char *l = (char *)lin.ptr + ((lpos.z + z) * (lin.ysize ? lin.ysize : h) + lpos.y) * lin.pitch + lpos.x;
        cudaError_t e = rows(a, apos.x * a->elem, apos.y, apos.z + z, l, lin.pitch, wb, h, p->dstArray != nullptr);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

/* --------------------------------------------------------------- objects */

static cudaError_t make_object(unsigned long long *obj, const cudaResourceDesc *r, const cudaTextureDesc *t,
                               int surface)
{
    if (!obj || !r) return sim_err_value();
    int slot = -1;
    for (int i = 0; i < SIM_MAX_TEXTURES; i++)
        if (!sim_textures[i].used) { slot = i; break; }
    if (slot < 0) {
        sim_set_last_error(cudaErrorMemoryAllocation);
        return cudaErrorMemoryAllocation;
    }
    sim_texture x;
    memset(&x, 0, sizeof x);
    x.used = 1;
    x.surface = surface;
    switch (r->resType) {
    case cudaResourceTypeArray: {
        cudaArray_t a = r->res.array.array;
        if (!a) return sim_err_value();
        x.base = a->data;
        x.width = a->width;
        x.height = a->height;
        x.depth = a->depth;
        x.pitch = a->width * a->elem;
        x.elem = a->elem;
        x.fmt = a->desc;
        x.layered = (a->flags & cudaArrayLayered) != 0;
        x.cubemap = (a->flags & cudaArrayCubemap) != 0;
        x.dims = x.cubemap ? 2 : a->depth > 1 && !x.layered ? 3 : a->height > 1 || x.layered ? 2 : 1;
        if (x.layered && a->height == 1 && !x.cubemap) x.dims = 1;
        break;
    }
    case cudaResourceTypeLinear:
        if (surface) return sim_err_value();
        x.base = (char *)r->res.linear.devPtr;
        x.fmt = r->res.linear.desc;
        x.elem = elem_size(x.fmt);
        if (!x.base || !x.elem) return sim_err_value();
        x.width = r->res.linear.sizeInBytes / x.elem;
        x.height = x.depth = 1;
        x.pitch = x.width * x.elem;
        x.dims = 1;
        break;
    case cudaResourceTypePitch2D:
        if (surface) return sim_err_value();
        x.base = (char *)r->res.pitch2D.devPtr;
        x.fmt = r->res.pitch2D.desc;
        x.elem = elem_size(x.fmt);
        if (!x.base || !x.elem) return sim_err_value();
        x.width = r->res.pitch2D.width;
        x.height = r->res.pitch2D.height;
        x.depth = 1;
        x.pitch = r->res.pitch2D.pitchInBytes;
        x.dims = 2;
        break;
    default:
        return sim_err_value();
    }
    if (t) {
        for (int d = 0; d < 3; d++) x.address[d] = t->addressMode[d];
        x.filter = t->filterMode;
        x.read_mode = t->readMode;
        x.normalized = t->normalizedCoords;
        for (int c = 0; c < 4; c++) x.border[c] = t->borderColor[c];
        /* linear filtering interpolates floats: element reads of integers
         * cannot be filtered (cudaCreateTextureObject refuses them) */
        if (x.filter == cudaFilterModeLinear && x.read_mode == cudaReadModeElementType &&
            x.fmt.f != cudaChannelFormatKindFloat)
            return sim_err_value();
    } else {
        x.address[0] = x.address[1] = x.address[2] = cudaAddressModeClamp;
    }
    sim_textures[slot] = x;
    *obj = (unsigned long long)slot + 1;
    return cudaSuccess;
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *obj, const cudaResourceDesc *r, const cudaTextureDesc *t,
                                    const cudaResourceViewDesc *)
{
    SIM_STICKY();
    if (!t) return sim_err_value();
    return make_object(obj, r, t, 0);
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *obj, const cudaResourceDesc *r)
{
    SIM_STICKY();
    return make_object(obj, r, nullptr, 1);
}

static cudaError_t destroy(unsigned long long obj)
{
    if (obj == 0 || obj > SIM_MAX_TEXTURES || !sim_textures[obj - 1].used) return sim_err_value();
    sim_textures[obj - 1].used = 0;
    return cudaSuccess;
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t obj) { return destroy(obj); }
cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t obj) { return destroy(obj); }

} /* namespace gpulab_sim */
