/* shim_tex.h - within kernels/sim/shim.h: textures and surfaces through
 * texture and surface objects, as the CUDA Programming Guide describes the
 * texture unit's fetch: addressing (wrap, clamp, mirror, border; normalised
 * or texel coordinates), point or linear filtering (the weights in 8-bit
 * fixed point, as the hardware keeps them), and element or normalised-float
 * reads; surfaces read and write a CUDA array by byte column and row.
 * Objects are created on the host (kernels/program/progrt_tex.cpp); the
 * legacy texture references stay unsupported. */
#ifndef GPULAB_SIM_SHIM_TEX_H
#define GPULAB_SIM_SHIM_TEX_H

#include <math.h>
#include <string.h>

namespace gpulab_sim {

enum cudaChannelFormatKind { cudaChannelFormatKindSigned = 0, cudaChannelFormatKindUnsigned = 1,
                             cudaChannelFormatKindFloat = 2, cudaChannelFormatKindNone = 3 };
struct cudaChannelFormatDesc {
    int x, y, z, w;
    cudaChannelFormatKind f;
};
enum cudaTextureAddressMode { cudaAddressModeWrap = 0, cudaAddressModeClamp = 1, cudaAddressModeMirror = 2,
                              cudaAddressModeBorder = 3 };
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
enum cudaSurfaceBoundaryMode { cudaBoundaryModeZero = 0, cudaBoundaryModeClamp = 1, cudaBoundaryModeTrap = 2 };
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;

/* What a texture or surface object reads: width x height x depth texels
 * (layers count as depth for a layered array) of elem bytes, rows pitch
 * bytes apart, slices pitch * height bytes apart. */
struct sim_texture {
    int used, surface;
    char *base;
    size_t width, height, depth, pitch, elem;
    int layered, cubemap, dims;
    cudaChannelFormatDesc fmt;
    int address[3], filter, read_mode, normalized;
    float border[4];
};
enum { SIM_MAX_TEXTURES = 1024 };
extern sim_texture sim_textures[SIM_MAX_TEXTURES];
/* a fetch of an object that does not exist, a surface access out of its
 * array with cudaBoundaryModeTrap: the launch stops, as the GPU's does */
[[noreturn]] void sim_texture_fault(unsigned long long obj, const char *what, long long x, long long y, long long z);

/* The texture unit's work (addressing, filtering, conversion) is the
 * simulator's, not the kernel's: compiled without the access recording's
 * instrumentation (each read of the object's fields and of the filter's
 * local arrays went through the access hook: 60% of a texture-bound
 * kernel's time). The texels it reads are memory the kernel reads: each goes
 * to the hook once (sim_acc_load_at), named by the kernel's own line (pc:
 * the return address of the fetch, in the kernel). */
#define SIM_TEX_UNIT __attribute__((no_sanitize_thread))
extern "C" void sim_acc_load_at(const void *p, unsigned long n, unsigned long pc);

SIM_TEX_UNIT static inline const sim_texture &sim_tex_of(unsigned long long obj, const char *what)
{
    if (obj == 0 || obj > SIM_MAX_TEXTURES || !sim_textures[obj - 1].used) sim_texture_fault(obj, what, -1, -1, -1);
    return sim_textures[obj - 1];
}

/* one channel of a texel as float: as stored, or normalised to [0, 1]
 * ([-1, 1] signed) for 8- and 16-bit integers read as normalised floats */
SIM_TEX_UNIT static inline float sim_channel(const sim_texture &t, const unsigned char *p, int bits, int normalize)
{
    switch (t.fmt.f) {
    case cudaChannelFormatKindFloat:
        if (bits == 32) { float f; memcpy(&f, p, 4); return f; }
        if (bits == 16) { _Float16 h; memcpy(&h, p, 2); return (float)h; }
        return 0.0f;
    case cudaChannelFormatKindSigned:
        if (bits == 8) { signed char v = (signed char)*p; return normalize ? fmaxf(v / 127.0f, -1.0f) : v; }
        if (bits == 16) { short v; memcpy(&v, p, 2); return normalize ? fmaxf(v / 32767.0f, -1.0f) : v; }
        { int v; memcpy(&v, p, 4); return (float)v; }
    default:
        if (bits == 8) return normalize ? *p / 255.0f : *p;
        if (bits == 16) { unsigned short v; memcpy(&v, p, 2); return normalize ? v / 65535.0f : v; }
        { unsigned v; memcpy(&v, p, 4); return (float)v; }
    }
}

struct sim_texel { float v[4]; };

SIM_TEX_UNIT static inline sim_texel sim_texel_at(const sim_texture &t, long long x, long long y, long long z,
                                                 unsigned long pc)
{
    const unsigned char *p = (const unsigned char *)t.base + ((size_t)z * t.height + (size_t)y) * t.pitch + (size_t)x * t.elem;
    sim_acc_load_at(p, t.elem, pc);
    const int bits[4] = {t.fmt.x, t.fmt.y, t.fmt.z, t.fmt.w};
    sim_texel r = {{0, 0, 0, 0}};
    int normalize = t.read_mode == cudaReadModeNormalizedFloat && t.fmt.f != cudaChannelFormatKindFloat;
    for (int c = 0, off = 0; c < 4 && bits[c]; off += bits[c] / 8, c++) r.v[c] = sim_channel(t, p + off, bits[c], normalize);
    return r;
}

/* coordinate u of a dimension of n texels, after addressing: the texel, or
 * -1 for the border */
SIM_TEX_UNIT static inline long long sim_address(const sim_texture &t, int dim, long long i, long long n)
{
    /* wrap and mirror are for normalised coordinates only (the CUDA
     * Programming Guide, texture fetching); with texel coordinates the GPU
     * clamps: NVIDIA's convolutionTexture sets wrap with texel coordinates
     * and passes on an H100 against a CPU reference that clamps
     * (tests/programs/p160_texture_wrap_texels.cu) */
    int mode = t.address[dim];
    if (!t.normalized && (mode == cudaAddressModeWrap || mode == cudaAddressModeMirror)) mode = cudaAddressModeClamp;
    switch (mode) {
    case cudaAddressModeWrap: return ((i % n) + n) % n;
    case cudaAddressModeMirror: {
        long long p = ((i % (2 * n)) + 2 * n) % (2 * n);
        return p < n ? p : 2 * n - 1 - p;
    }
    case cudaAddressModeBorder: return i < 0 || i >= n ? -1 : i;
    default: return i < 0 ? 0 : i >= n ? n - 1 : i;
    }
}

SIM_TEX_UNIT static inline sim_texel sim_texel_addressed(const sim_texture &t, long long x, long long y, long long z,
                                                        unsigned long pc)
{
    long long ax = sim_address(t, 0, x, (long long)t.width);
    long long ay = t.dims > 1 ? sim_address(t, 1, y, (long long)t.height) : 0;
    long long az = t.dims > 2 ? sim_address(t, 2, z, (long long)t.depth) : z;
    if (ax < 0 || ay < 0 || az < 0) return sim_texel{{t.border[0], t.border[1], t.border[2], t.border[3]}};
    return sim_texel_at(t, ax, ay, az, pc);
}

/* the fetch: coordinates as given (normalised ones scaled to texels), point
 * sampling the texel they fall in, linear filtering the 2, 4 or 8 around
 * them with weights rounded to 1/256 */
SIM_TEX_UNIT static inline sim_texel sim_fetch(const sim_texture &t, float x, float y, float z, long long layer,
                                              unsigned long pc)
{
    float c[3] = {x, y, z};
    const size_t n[3] = {t.width, t.height, t.depth};
    for (int d = 0; d < t.dims; d++) {
        if (t.normalized) {
            if (t.address[d] == cudaAddressModeWrap) c[d] -= floorf(c[d]);
            c[d] *= (float)n[d];
        }
    }
    if (t.filter == cudaFilterModePoint) {
        long long i = (long long)floorf(c[0]), j = t.dims > 1 ? (long long)floorf(c[1]) : 0;
        long long k = t.dims > 2 ? (long long)floorf(c[2]) : layer;
        return sim_texel_addressed(t, i, j, k, pc);
    }
    long long i0[3] = {0, 0, 0};
    float a[3] = {0, 0, 0};
    for (int d = 0; d < t.dims; d++) {
        float u = c[d] - 0.5f, f = floorf(u);
        i0[d] = (long long)f;
        a[d] = roundf((u - f) * 256.0f) / 256.0f;
    }
    sim_texel r = {{0, 0, 0, 0}};
    int corners = 1 << t.dims;
    for (int m = 0; m < corners; m++) {
        float w = 1.0f;
        long long at[3] = {i0[0], i0[1], t.dims > 2 ? i0[2] : layer};
        for (int d = 0; d < t.dims; d++) {
            int hi = (m >> d) & 1;
            at[d] += hi;
            w *= hi ? a[d] : 1.0f - a[d];
        }
        sim_texel s = sim_texel_addressed(t, at[0], at[1], at[2], pc);
        for (int ch = 0; ch < 4; ch++) r.v[ch] += w * s.v[ch];
    }
    return r;
}

/* the texel as the type the kernel asks for: the stored bits (element
 * reads of point-sampled integers), else the floats */
template <class T>
SIM_TEX_UNIT static inline T sim_tex_result(const sim_texture &t, const sim_texel &v, long long x, long long y, long long z,
                                         int raw, unsigned long pc)
{
    T out;
    memset(&out, 0, sizeof out);
    if (raw) {
        long long ax = sim_address(t, 0, x, (long long)t.width);
        long long ay = t.dims > 1 ? sim_address(t, 1, y, (long long)t.height) : 0;
        long long az = t.dims > 2 ? sim_address(t, 2, z, (long long)t.depth) : z;
        if (ax >= 0 && ay >= 0 && az >= 0) {
            const char *p = t.base + ((size_t)az * t.height + (size_t)ay) * t.pitch + (size_t)ax * t.elem;
            sim_acc_load_at(p, t.elem, pc);
            memcpy(&out, p, sizeof out < t.elem ? sizeof out : t.elem);
        }
        return out;
    }
    float *f = reinterpret_cast<float *>(&out);
    for (size_t ch = 0; ch < sizeof out / sizeof(float) && ch < 4; ch++) f[ch] = v.v[ch];
    return out;
}

template <class T>
SIM_TEX_UNIT __attribute__((noinline)) static T sim_tex_read(cudaTextureObject_t obj, float x, float y, float z,
                                                            long long layer, const char *what)
{
    unsigned long pc = (unsigned long)__builtin_return_address(0);
    const sim_texture &t = sim_tex_of(obj, what);
    int raw = t.filter == cudaFilterModePoint &&
              (t.read_mode == cudaReadModeElementType || t.fmt.f == cudaChannelFormatKindFloat);
    sim_texel v = raw ? sim_texel{{0, 0, 0, 0}} : sim_fetch(t, x, y, z, layer, pc);
    if (!raw) return sim_tex_result<T>(t, v, 0, 0, 0, 0, pc);
    float c[3] = {x, y, z};
    const size_t n[3] = {t.width, t.height, t.depth};
    for (int d = 0; d < t.dims; d++)
        if (t.normalized) {
            if (t.address[d] == cudaAddressModeWrap) c[d] -= floorf(c[d]);
            c[d] *= (float)n[d];
        }
    return sim_tex_result<T>(t, v, (long long)floorf(c[0]), t.dims > 1 ? (long long)floorf(c[1]) : 0,
                             t.dims > 2 ? (long long)floorf(c[2]) : layer, 1, pc);
}

template <class T> SIM_TEX_UNIT __attribute__((noinline)) static T tex1Dfetch(cudaTextureObject_t obj, int i)
{
    unsigned long pc = (unsigned long)__builtin_return_address(0);
    const sim_texture &t = sim_tex_of(obj, "tex1Dfetch");
    /* linear memory: an integer index, clamped, no filtering */
    long long k = i < 0 ? 0 : (size_t)i >= t.width ? (long long)t.width - 1 : i;
    T out;
    memset(&out, 0, sizeof out);
    if (t.read_mode == cudaReadModeNormalizedFloat && t.fmt.f != cudaChannelFormatKindFloat) {
        sim_texel v = sim_texel_at(t, k, 0, 0, pc);
        float *f = reinterpret_cast<float *>(&out);
        for (size_t ch = 0; ch < sizeof out / sizeof(float) && ch < 4; ch++) f[ch] = v.v[ch];
        return out;
    }
    sim_acc_load_at(t.base + (size_t)k * t.elem, t.elem, pc);
    memcpy(&out, t.base + (size_t)k * t.elem, sizeof out < t.elem ? sizeof out : t.elem);
    return out;
}
template <class T> static inline T tex1D(cudaTextureObject_t obj, float x) { return sim_tex_read<T>(obj, x, 0, 0, 0, "tex1D"); }
template <class T> static inline T tex2D(cudaTextureObject_t obj, float x, float y)
{
    return sim_tex_read<T>(obj, x, y, 0, 0, "tex2D");
}
template <class T> static inline T tex3D(cudaTextureObject_t obj, float x, float y, float z)
{
    return sim_tex_read<T>(obj, x, y, z, 0, "tex3D");
}
template <class T> static inline T tex1DLayered(cudaTextureObject_t obj, float x, int layer)
{
    return sim_tex_read<T>(obj, x, 0, 0, layer, "tex1DLayered");
}
template <class T> static inline T tex2DLayered(cudaTextureObject_t obj, float x, float y, int layer)
{
    return sim_tex_read<T>(obj, x, y, 0, layer, "tex2DLayered");
}
/* the forms that return through a pointer */
template <class T> static inline void tex1Dfetch(T *r, cudaTextureObject_t o, int i) { *r = tex1Dfetch<T>(o, i); }
template <class T> static inline void tex1D(T *r, cudaTextureObject_t o, float x) { *r = tex1D<T>(o, x); }
template <class T> static inline void tex2D(T *r, cudaTextureObject_t o, float x, float y) { *r = tex2D<T>(o, x, y); }
template <class T> static inline void tex3D(T *r, cudaTextureObject_t o, float x, float y, float z)
{
    *r = tex3D<T>(o, x, y, z);
}
template <class T> static inline void tex2DLayered(T *r, cudaTextureObject_t o, float x, float y, int l)
{
    *r = tex2DLayered<T>(o, x, y, l);
}

/* A cubemap is six layers of square faces; a direction picks the face of
 * its largest component and a place on it (the CUDA Programming Guide's
 * table of cubemap fetches). */
static inline void sim_cube_face(float x, float y, float z, float *s, float *t, int *face)
{
    float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), m, sc, tc;
    if (ax >= ay && ax >= az) { m = ax; *face = x >= 0 ? 0 : 1; sc = x >= 0 ? -z : z; tc = -y; }
    else if (ay >= az) { m = ay; *face = y >= 0 ? 2 : 3; sc = x; tc = y >= 0 ? z : -z; }
    else { m = az; *face = z >= 0 ? 4 : 5; sc = z >= 0 ? x : -x; tc = -y; }
    *s = (sc / m + 1.0f) / 2.0f;
    *t = (tc / m + 1.0f) / 2.0f;
}
template <class T> static inline T texCubemap(cudaTextureObject_t obj, float x, float y, float z)
{
    float s, t;
    int face;
    sim_cube_face(x, y, z, &s, &t, &face);
    const sim_texture &tx = sim_tex_of(obj, "texCubemap");
    /* the face coordinates are normalised whatever the texture's setting */
    return sim_tex_read<T>(obj, tx.normalized ? s : s * (float)tx.width, tx.normalized ? t : t * (float)tx.height, 0,
                           face, "texCubemap");
}
template <class T> static inline T texCubemapLayered(cudaTextureObject_t obj, float x, float y, float z, int layer)
{
    float s, t;
    int face;
    sim_cube_face(x, y, z, &s, &t, &face);
    const sim_texture &tx = sim_tex_of(obj, "texCubemapLayered");
    return sim_tex_read<T>(obj, tx.normalized ? s : s * (float)tx.width, tx.normalized ? t : t * (float)tx.height, 0,
                           layer * 6 + face, "texCubemapLayered");
}

/* surfaces: x in bytes, as CUDA's */
static inline char *sim_surf_at(cudaSurfaceObject_t obj, int xb, int y, int z, size_t n, int mode, const char *what)
{
    const sim_texture &t = sim_tex_of(obj, what);
    long long x = xb / (long long)(t.elem ? t.elem : 1);
    long long h = t.dims > 1 ? (long long)t.height : 1, d = t.dims > 2 || t.layered ? (long long)t.depth : 1;
    if (xb < 0 || x >= (long long)t.width || y < 0 || y >= h || z < 0 || z >= d || xb % (long long)t.elem) {
        if (mode == cudaBoundaryModeZero) return nullptr;
        if (mode == cudaBoundaryModeClamp) {
            x = x < 0 ? 0 : x >= (long long)t.width ? (long long)t.width - 1 : x;
            y = y < 0 ? 0 : y >= h ? (int)h - 1 : y;
            z = z < 0 ? 0 : z >= d ? (int)d - 1 : z;
        } else {
            sim_texture_fault(obj, what, xb, y, z);
        }
    }
    (void)n;
    return t.base + ((size_t)z * t.height + (size_t)y) * t.pitch + (size_t)x * t.elem;
}
template <class T> static inline void surf1Dwrite(T v, cudaSurfaceObject_t o, int x, int mode = cudaBoundaryModeTrap)
{
    char *p = sim_surf_at(o, x, 0, 0, sizeof v, mode, "surf1Dwrite");
    if (p) memcpy(p, &v, sizeof v);
}
template <class T> static inline void surf2Dwrite(T v, cudaSurfaceObject_t o, int x, int y, int mode = cudaBoundaryModeTrap)
{
    char *p = sim_surf_at(o, x, y, 0, sizeof v, mode, "surf2Dwrite");
    if (p) memcpy(p, &v, sizeof v);
}
template <class T>
static inline void surf3Dwrite(T v, cudaSurfaceObject_t o, int x, int y, int z, int mode = cudaBoundaryModeTrap)
{
    char *p = sim_surf_at(o, x, y, z, sizeof v, mode, "surf3Dwrite");
    if (p) memcpy(p, &v, sizeof v);
}
template <class T>
static inline void surf2DLayeredwrite(T v, cudaSurfaceObject_t o, int x, int y, int layer, int mode = cudaBoundaryModeTrap)
{
    char *p = sim_surf_at(o, x, y, layer, sizeof v, mode, "surf2DLayeredwrite");
    if (p) memcpy(p, &v, sizeof v);
}
template <class T> static inline T surf1Dread(cudaSurfaceObject_t o, int x, int mode = cudaBoundaryModeTrap)
{
    T v;
    memset(&v, 0, sizeof v);
    const char *p = sim_surf_at(o, x, 0, 0, sizeof v, mode, "surf1Dread");
    if (p) memcpy(&v, p, sizeof v);
    return v;
}
template <class T> static inline T surf2Dread(cudaSurfaceObject_t o, int x, int y, int mode = cudaBoundaryModeTrap)
{
    T v;
    memset(&v, 0, sizeof v);
    const char *p = sim_surf_at(o, x, y, 0, sizeof v, mode, "surf2Dread");
    if (p) memcpy(&v, p, sizeof v);
    return v;
}
template <class T> static inline T surf3Dread(cudaSurfaceObject_t o, int x, int y, int z, int mode = cudaBoundaryModeTrap)
{
    T v;
    memset(&v, 0, sizeof v);
    const char *p = sim_surf_at(o, x, y, z, sizeof v, mode, "surf3Dread");
    if (p) memcpy(&v, p, sizeof v);
    return v;
}
template <class T> static inline void surf1Dread(T *r, cudaSurfaceObject_t o, int x, int mode = cudaBoundaryModeTrap)
{
    *r = surf1Dread<T>(o, x, mode);
}
template <class T>
static inline void surf2Dread(T *r, cudaSurfaceObject_t o, int x, int y, int mode = cudaBoundaryModeTrap)
{
    *r = surf2Dread<T>(o, x, y, mode);
}

} /* namespace gpulab_sim */

#endif
