// Wrap and mirror addressing are for normalised coordinates: with texel
// coordinates (normalizedCoords = 0) a texture set to wrap or mirror clamps
// instead, as the GPU does (NVIDIA's convolutionTexture sample relies on it:
// its CPU reference clamps at the image's edges). Normalised coordinates
// still wrap and mirror.
// EXPECT: texels, wrap: 10 10 40 40 | mirror: 10 10 40 40
// EXPECT: normalised, wrap: 40 10 | mirror: 10 40
// EXPECT: exit status 0
#include <cstdio>

__global__ void fetch(cudaTextureObject_t t, const float *at, float *out, int n)
{
    int i = threadIdx.x;
    if (i < n) out[i] = tex1D<float>(t, at[i]);
}

static cudaTextureObject_t object_of(cudaArray_t arr, cudaTextureAddressMode mode, int normalized)
{
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = arr;
    cudaTextureDesc td = {};
    td.addressMode[0] = mode;
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = normalized;
    cudaTextureObject_t t = 0;
    cudaCreateTextureObject(&t, &res, &td, nullptr);
    return t;
}

static void run(cudaTextureObject_t t, const float *h_at, float *h_out, int n)
{
    float *at, *out;
    cudaMalloc(&at, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMemcpy(at, h_at, n * sizeof(float), cudaMemcpyHostToDevice);
    fetch<<<1, n>>>(t, at, out, n);
    cudaMemcpy(h_out, out, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(at);
    cudaFree(out);
}

int main()
{
    float texels[4] = {10, 20, 30, 40};
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    cudaMallocArray(&arr, &fd, 4, 0);
    cudaMemcpy2DToArray(arr, 0, 0, texels, sizeof texels, sizeof texels, 1, cudaMemcpyHostToDevice);

    /* texel coordinates before the first texel and past the last */
    float at[4] = {-0.5f, -2.5f, 4.5f, 6.5f}, w[4], m[4];
    run(object_of(arr, cudaAddressModeWrap, 0), at, w, 4);
    run(object_of(arr, cudaAddressModeMirror, 0), at, m, 4);
    printf("texels, wrap: %g %g %g %g | mirror: %g %g %g %g\n", w[0], w[1], w[2], w[3], m[0], m[1], m[2], m[3]);

    /* normalised: -0.125 is texel -1 (wraps to the last, mirrors to the first) */
    float nat[1] = {-0.125f}, nw[1], nm[1];
    run(object_of(arr, cudaAddressModeWrap, 1), nat, nw, 1);
    run(object_of(arr, cudaAddressModeMirror, 1), nat, nm, 1);
    float nat2[1] = {1.125f}, nw2[1], nm2[1];
    run(object_of(arr, cudaAddressModeWrap, 1), nat2, nw2, 1);
    run(object_of(arr, cudaAddressModeMirror, 1), nat2, nm2, 1);
    printf("normalised, wrap: %g %g | mirror: %g %g\n", nw[0], nw2[0], nm[0], nm2[0]);
    cudaFreeArray(arr);
    return 0;
}
