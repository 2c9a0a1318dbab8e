// The device's texture and surface limits as CUDA 13's cudaDeviceProp has
// them (a device query prints them): every field a program may name
// compiles, and the limits are a Hopper GPU's.
// EXPECT: layered 1D 32768 x 2048, 2D 32768 x 32768 x 2048, cubemap 32768 (layered 32768 x 2046)
// EXPECT: gather 32768 x 32768, linear 131072 x 65000 (pitch 2097120), mipmap 32768 / 32768 x 32768, 3D alt 8192 x 8192 x 32768
// EXPECT: surfaces 32768, 131072 x 65536, 16384^3, layered 32768 x 2048 / 32768 x 32768 x 2048, cubemap 32768 (32768 x 2046)
// EXPECT: attributes: layered 2D width 32768, cubemap surface layers 2046
// EXPECT: exit status 0
#include <cstdio>

int main()
{
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    printf("layered 1D %d x %d, 2D %d x %d x %d, cubemap %d (layered %d x %d)\n", p.maxTexture1DLayered[0],
           p.maxTexture1DLayered[1], p.maxTexture2DLayered[0], p.maxTexture2DLayered[1], p.maxTexture2DLayered[2],
           p.maxTextureCubemap, p.maxTextureCubemapLayered[0], p.maxTextureCubemapLayered[1]);
    printf("gather %d x %d, linear %d x %d (pitch %d), mipmap %d / %d x %d, 3D alt %d x %d x %d\n",
           p.maxTexture2DGather[0], p.maxTexture2DGather[1], p.maxTexture2DLinear[0], p.maxTexture2DLinear[1],
           p.maxTexture2DLinear[2], p.maxTexture1DMipmap, p.maxTexture2DMipmap[0], p.maxTexture2DMipmap[1],
           p.maxTexture3DAlt[0], p.maxTexture3DAlt[1], p.maxTexture3DAlt[2]);
    printf("surfaces %d, %d x %d, %d^3, layered %d x %d / %d x %d x %d, cubemap %d (%d x %d)\n", p.maxSurface1D,
           p.maxSurface2D[0], p.maxSurface2D[1], p.maxSurface3D[0], p.maxSurface1DLayered[0], p.maxSurface1DLayered[1],
           p.maxSurface2DLayered[0], p.maxSurface2DLayered[1], p.maxSurface2DLayered[2], p.maxSurfaceCubemap,
           p.maxSurfaceCubemapLayered[0], p.maxSurfaceCubemapLayered[1]);
    /* the same limits through cudaDeviceGetAttribute */
    int w, l;
    cudaDeviceGetAttribute(&w, cudaDevAttrMaxTexture2DLayeredWidth, 0);
    cudaDeviceGetAttribute(&l, cudaDevAttrMaxSurfaceCubemapLayeredLayers, 0);
    printf("attributes: layered 2D width %d, cubemap surface layers %d\n", w, l);
    /* fields that only describe the machine: they compile, whatever they hold */
    printf("numa %d %d, mps %d, ipc events %d, pci 0x%x\n", p.hostNumaId, p.deviceNumaId, p.mpsEnabled,
           p.ipcEventSupported, p.gpuPciDeviceID);
    return 0;
}
