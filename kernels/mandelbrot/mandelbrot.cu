/* mandelbrot.cu - the Mandelbrot set on a 2D grid: one thread per pixel.
 *
 * Each kernel's comment names the idea it shows. The same source runs on the
 * GPU and on gpulab's simulator. Every thread records its pixel with
 * TRACE_WRITE(LAB_SP_GLOBAL, y * w + x, iterations): the image view draws
 * those counts, and adds them up per block as a heat map of work. */
#include "kernels/intl.h"
#include "kernels/kern.h"
#include "kernels/mandelbrot/mandelbrot.h"

/* A 2D grid over an image, one pixel per thread, no communication at all:
 * the ideal GPU problem - hundreds of operations per pixel, and only the
 * count goes back. The cost is uneven: a thread inside the set runs all 1000
 * iterations while one far outside stops after one or two, and a warp runs as
 * long as its slowest thread (divergence). Blocks wholly inside the set do the
 * most work; on its edge a warp with one pixel inside takes as long while its
 * other lanes idle. The heat maps show both. nvcc fuses the loop's a*b + c into fused
 * multiply-adds, which round once instead of twice. Near the edge of the set
 * the orbits are chaotic: a difference in the last bit grows with every
 * iteration, so a pixel there can escape many iterations earlier or later
 * than on the CPU, or not at all (the lecture's 4K GPU total is 8621 above its
 * CPU's). */
static __global__ void mandelbrot_k(int *counts, int w, int h)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        const int k = mandel_iterations(mandel_cr(x, w), mandel_ci(y, h));
        counts[(long long)y * w + x] = k;
        TRACE_WRITE(LAB_SP_GLOBAL, (long long)y * w + x, k);
    }
}

/* Rounding, made explicit: __fmul_rn and __fadd_rn are a multiply and an add
 * that the compiler never fuses, so every operation rounds as on the CPU and
 * the counts equal the CPU's exactly. (The simulator's g++ does not fuse: this
 * file is compiled with -ffp-contract=off.) */
static __device__ __forceinline__ float mul_rn(float a, float b)
{
#if defined(__CUDA_ARCH__)
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}

static __device__ __forceinline__ float add_rn(float a, float b)
{
#if defined(__CUDA_ARCH__)
    return __fadd_rn(a, b);
#else
    return a + b;
#endif
}

static __device__ __forceinline__ float sub_rn(float a, float b)
{
#if defined(__CUDA_ARCH__)
    return __fsub_rn(a, b);
#else
    return a - b;
#endif
}

/* The same loop as mandel_iterations(), operation for operation. */
static __device__ int mandel_iterations_rn(float cr, float ci)
{
    float zr = 0.0f, zi = 0.0f;
    int k = 0;
    while (k < MANDEL_MAX_ITER && add_rn(mul_rn(zr, zr), mul_rn(zi, zi)) <= 4.0f) {
        float t = add_rn(sub_rn(mul_rn(zr, zr), mul_rn(zi, zi)), cr);
        zi = add_rn(mul_rn(mul_rn(2.0f, zr), zi), ci);
        zr = t;
        k++;
    }
    return k;
}

static __global__ void mandelbrot_nofma_k(int *counts, int w, int h)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        const int k = mandel_iterations_rn(mandel_cr(x, w), mandel_ci(y, h));
        counts[(long long)y * w + x] = k;
        TRACE_WRITE(LAB_SP_GLOBAL, (long long)y * w + x, k);
    }
}

/* ------------------------------------------------------------ launchers */


/* copy: time the kernel with the copy of the counts back to the host, as the
 * lecture measures its GPU row (ILGPU's CopyToCPU waits for the kernel). */
static int run_mandelbrot(lab_job *job, int exact, int copy)
{
    const mandel_info *m = (const mandel_info *)job->priv;
    const int w = m->w, h = m->h;
    const long long pixels = (long long)w * h;
    /* block: "auto" is 16 x 16, one thread per pixel */
    char what[32];
    snprintf(what, sizeof what, "height %d", h);
    TRY(lab_shape_2d(job, MANDEL_BY, w, h, 0, 0, what));
    if (job->trace) {
        job->trace->width = w;
        job->trace->height = h;
        /* the picture has no input data: the trace's input is zeros */
        double *z = (double *)calloc((size_t)pixels, sizeof(double));
        if (!z) {
            snprintf(job->err, sizeof job->err, "%s", L_("out of host memory for the trace"));
            return -1;
        }
        free(job->trace->input);
        job->trace->input = z;
    }

    const dim3 grid((unsigned)job->grid, (unsigned)job->grid_y), block(job->block, job->block_y);
    int *d_counts = NULL;
    TRY(lab_alloc(job, &d_counts, pixels));
    CK(cudaMemset(d_counts, 0xFF, pixels * sizeof(int))); /* -1: no thread reached it */
    LAB_TIMED(job) {
        if (exact) LAUNCH(mandelbrot_nofma_k, grid, block, 0, d_counts, w, h);
        else LAUNCH(mandelbrot_k, grid, block, 0, d_counts, w, h);
        if (copy) CK(cudaMemcpy(job->out, d_counts, pixels * sizeof(int), cudaMemcpyDeviceToHost));
    }
    if (!copy) TRY(lab_download(job, job->out, d_counts, pixels));
    return 0;
}

LAB_ENTRY(mandelbrot_2d) { return run_mandelbrot(job, 0, 0); }
LAB_ENTRY(mandelbrot_2d_copy) { return run_mandelbrot(job, 0, 1); }
LAB_ENTRY(mandelbrot_2d_nofma) { return run_mandelbrot(job, 1, 0); }
