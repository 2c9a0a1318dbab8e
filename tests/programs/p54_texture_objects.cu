// Textures through texture objects, as the texture unit fetches: a 2D
// CUDA array read with point sampling (clamp and border addressing) and
// with linear filtering (texel coordinates, and normalised ones that wrap),
// 8-bit data read as normalised floats, a 1D texture over linear memory, a
// layered array, a 3D array, and a surface written by one kernel and read
// back by the next.
// EXPECT: point: 10 30 30 0 (clamp at 9, border at -1)
// EXPECT: linear: 12.5 22.5 (x 1.75 and 2.75 of row 0)
// EXPECT: wrapped: 17.5 (normalised (1.0625, 0.125) wraps to texel (0.25, 0.25): the four corners)
// EXPECT: normalised bytes: 0 0.501961 1
// EXPECT: fetch: 3 4 5
// EXPECT: layers: 1 2 3
// EXPECT: 3d: 111 linear 3d: 55.5
// EXPECT: surface: 0 2 4 6 8 10 12 14
// EXPECT: exit status 0
#include <cstdio>

__global__ void sample(cudaTextureObject_t point, cudaTextureObject_t border, cudaTextureObject_t lin,
                       cudaTextureObject_t wrap, cudaTextureObject_t bytes, cudaTextureObject_t fetch,
                       cudaTextureObject_t layers, cudaTextureObject_t vol, cudaTextureObject_t vol_lin, float *out)
{
    out[0] = tex2D<float>(point, 1.5f, 0.5f);
    out[1] = tex2D<float>(point, 3.5f, 0.5f);
    out[2] = tex2D<float>(point, 9.0f, 0.5f);
    out[3] = tex2D<float>(border, -1.0f, 0.5f);
    out[4] = tex2D<float>(lin, 1.75f, 0.5f);
    out[5] = tex2D<float>(lin, 2.75f, 0.5f);
    out[6] = tex2D<float>(wrap, 1.0625f, 0.125f);
    out[7] = tex1D<float>(bytes, 0.5f);
    out[8] = tex1D<float>(bytes, 1.5f);
    out[9] = tex1D<float>(bytes, 2.5f);
    out[10] = (float)tex1Dfetch<int>(fetch, 3);
    out[11] = (float)tex1Dfetch<int>(fetch, 4);
    out[12] = (float)tex1Dfetch<int>(fetch, 5);
    out[13] = tex2DLayered<float>(layers, 0.5f, 0.5f, 0);
    out[14] = tex2DLayered<float>(layers, 0.5f, 0.5f, 1);
    out[15] = tex2DLayered<float>(layers, 0.5f, 0.5f, 2);
    out[16] = tex3D<float>(vol, 1.5f, 1.5f, 1.5f);
    out[17] = tex3D<float>(vol_lin, 1.0f, 1.0f, 1.0f);
}

__global__ void write_surface(cudaSurfaceObject_t s)
{
    int x = threadIdx.x;
    surf2Dwrite(2.0f * x, s, x * (int)sizeof(float), 0);
}

__global__ void read_surface(cudaSurfaceObject_t s, float *out)
{
    int x = threadIdx.x;
    out[x] = surf2Dread<float>(s, x * (int)sizeof(float), 0);
}

static cudaTextureObject_t object_of(cudaResourceDesc &res, cudaTextureAddressMode mode, cudaTextureFilterMode filter,
                                     cudaTextureReadMode read, int normalized)
{
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = mode;
    td.filterMode = filter;
    td.readMode = read;
    td.normalizedCoords = normalized;
    cudaTextureObject_t t = 0;
    cudaCreateTextureObject(&t, &res, &td, nullptr);
    return t;
}

int main()
{
    /* a 4 x 2 float array: row 0 is 0 10 20 30 */
    float img[8] = {0, 10, 20, 30, 40, 50, 60, 70};
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    cudaMallocArray(&arr, &fd, 4, 2);
    cudaMemcpy2DToArray(arr, 0, 0, img, 4 * sizeof(float), 4 * sizeof(float), 2, cudaMemcpyHostToDevice);
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = arr;
    cudaTextureObject_t point = object_of(res, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
    cudaTextureObject_t border = object_of(res, cudaAddressModeBorder, cudaFilterModePoint, cudaReadModeElementType, 0);
    cudaTextureObject_t lin = object_of(res, cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 0);
    cudaTextureObject_t wrap = object_of(res, cudaAddressModeWrap, cudaFilterModeLinear, cudaReadModeElementType, 1);

    unsigned char b[3] = {0, 128, 255};
    cudaChannelFormatDesc bd = cudaCreateChannelDesc<unsigned char>();
    cudaArray_t barr;
    cudaMallocArray(&barr, &bd, 3, 0);
    cudaMemcpy2DToArray(barr, 0, 0, b, 3, 3, 1, cudaMemcpyHostToDevice);
    cudaResourceDesc bres = {};
    bres.resType = cudaResourceTypeArray;
    bres.res.array.array = barr;
    cudaTextureObject_t bytes = object_of(bres, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeNormalizedFloat, 0);

    int lin_data[8] = {0, 1, 2, 3, 4, 5, 6, 7}, *dl;
    cudaMalloc(&dl, sizeof lin_data);
    cudaMemcpy(dl, lin_data, sizeof lin_data, cudaMemcpyHostToDevice);
    cudaResourceDesc lres = {};
    lres.resType = cudaResourceTypeLinear;
    lres.res.linear.devPtr = dl;
    lres.res.linear.desc = cudaCreateChannelDesc<int>();
    lres.res.linear.sizeInBytes = sizeof lin_data;
    cudaTextureObject_t fetch = object_of(lres, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);

    /* three layers of 2 x 2, each filled with its number + 1 */
    float lay[12];
    for (int i = 0; i < 12; i++) lay[i] = (float)(i / 4 + 1);
    cudaArray_t larr;
    cudaMalloc3DArray(&larr, &fd, make_cudaExtent(2, 2, 3), cudaArrayLayered);
    cudaMemcpy3DParms cp = {};
    cp.srcPtr = make_cudaPitchedPtr(lay, 2 * sizeof(float), 2, 2);
    cp.dstArray = larr;
    cp.extent = make_cudaExtent(2, 2, 3);
    cp.kind = cudaMemcpyHostToDevice;
    cudaMemcpy3D(&cp);
    cudaResourceDesc lyres = {};
    lyres.resType = cudaResourceTypeArray;
    lyres.res.array.array = larr;
    cudaTextureObject_t layers = object_of(lyres, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);

    /* a 2 x 2 x 2 volume: value 100 z + 10 y + x */
    float v[8];
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 2; x++) v[(z * 2 + y) * 2 + x] = 100.0f * z + 10.0f * y + x;
    cudaArray_t varr;
    cudaMalloc3DArray(&varr, &fd, make_cudaExtent(2, 2, 2), 0);
    cudaMemcpy3DParms vp = {};
    vp.srcPtr = make_cudaPitchedPtr(v, 2 * sizeof(float), 2, 2);
    vp.dstArray = varr;
    vp.extent = make_cudaExtent(2, 2, 2);
    vp.kind = cudaMemcpyHostToDevice;
    cudaMemcpy3D(&vp);
    cudaResourceDesc vres = {};
    vres.resType = cudaResourceTypeArray;
    vres.res.array.array = varr;
    cudaTextureObject_t vol = object_of(vres, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
    cudaTextureObject_t vol_lin = object_of(vres, cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 0);

    float *d, h[18];
    cudaMalloc(&d, sizeof h);
    sample<<<1, 1>>>(point, border, lin, wrap, bytes, fetch, layers, vol, vol_lin, d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("point: %g %g %g %g (clamp at 9, border at -1)\n", h[0], h[1], h[2], h[3]);
    printf("linear: %g %g (x 1.75 and 2.75 of row 0)\n", h[4], h[5]);
    printf("wrapped: %g (normalised (1.0625, 0.125) wraps to texel (0.25, 0.25): the four corners)\n", h[6]);
    printf("normalised bytes: %g %g %g\n", h[7], h[8], h[9]);
    printf("fetch: %g %g %g\n", h[10], h[11], h[12]);
    printf("layers: %g %g %g\n", h[13], h[14], h[15]);
    printf("3d: %g linear 3d: %g\n", h[16], h[17]);

    cudaArray_t sarr;
    cudaMallocArray(&sarr, &fd, 8, 1, cudaArraySurfaceLoadStore);
    cudaResourceDesc sres = {};
    sres.resType = cudaResourceTypeArray;
    sres.res.array.array = sarr;
    cudaSurfaceObject_t surf;
    cudaCreateSurfaceObject(&surf, &sres);
    write_surface<<<1, 8>>>(surf);
    read_surface<<<1, 8>>>(surf, d);
    cudaMemcpy(h, d, 8 * sizeof(float), cudaMemcpyDeviceToHost);
    printf("surface:");
    for (int i = 0; i < 8; i++) printf(" %g", h[i]);
    printf("\n");
    cudaDestroyTextureObject(point);
    cudaDestroySurfaceObject(surf);
    cudaFreeArray(arr);
    return 0;
}
