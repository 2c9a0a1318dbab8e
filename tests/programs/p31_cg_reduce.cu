// cg::reduce (<cooperative_groups/reduce.h>) with each of its function
// objects, on tiles of 32 and 8 threads and on coalesced groups of a power
// of two and of another size. Every thread of the group gets the result.
// The float sums are combined in the order the CUDA headers use, so both
// backends print the same digits.
// EXPECT: tile32 plus 496 less 0 greater 31
// EXPECT: tile32 and 0x00000010 or 0x000001ff xor 0x00000100
// EXPECT: tile8 sums 28 92 156 220, all lanes agree: 1
// EXPECT: coalesced 16 lanes: plus 256 greater 31
// EXPECT: coalesced 11 lanes: plus 165 less 0 greater 30
// EXPECT: float tile32 sum 4.05849552 coalesced11 sum 1.83833861
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void reduce_all(int *out, float *fout)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int v = threadIdx.x;
    int s = cg::reduce(warp, v, cg::plus<int>());
    int lo = cg::reduce(warp, v, cg::less<int>());
    int hi = cg::reduce(warp, v, cg::greater<int>());
    // every lane has bit 4 and bit (lane % 8); lane 7 alone has bit 8
    unsigned bits = 0x10u | (1u << (threadIdx.x % 8)) | (threadIdx.x == 7 ? 0x100u : 0u);
    unsigned a = cg::reduce(warp, bits, cg::bit_and<unsigned>());
    unsigned o = cg::reduce(warp, bits, cg::bit_or<unsigned>());
    unsigned x = cg::reduce(warp, bits, cg::bit_xor<unsigned>());
    if (threadIdx.x == 5) {
        out[0] = s; out[1] = lo; out[2] = hi;
        out[3] = (int)a; out[4] = (int)o; out[5] = (int)x;
    }

    // tiles of 8: each gets its own sum, and every lane of it the same
    cg::thread_block_tile<8> eight = cg::tiled_partition<8>(block);
    int s8 = cg::reduce(eight, v, cg::plus<int>());
    if (eight.thread_rank() == 0) out[6 + eight.meta_group_rank()] = s8;
    unsigned agree = warp.ballot(s8 == eight.shfl(s8, 0));
    if (threadIdx.x == 0) out[10] = agree == 0xffffffffu;

    // a coalesced group of the odd lanes: 16 threads (a power of two)
    if (threadIdx.x % 2 == 1) {
        cg::coalesced_group odd = cg::coalesced_threads();
        int cs = cg::reduce(odd, v, cg::plus<int>());
        int cm = cg::reduce(odd, v, cg::greater<int>());
        if (odd.thread_rank() == 3) { out[11] = odd.size(); out[12] = cs; out[13] = cm; }
    }
    // lanes 0, 3, ..., 30: 11 threads, once the warp is together again
    // (which lanes coalesced_threads() finds depends on where they are)
    __syncwarp();
    if (threadIdx.x % 3 == 0) {
        cg::coalesced_group third = cg::coalesced_threads();
        int cs = cg::reduce(third, v, cg::plus<int>());
        int cl = cg::reduce(third, v, cg::less<int>());
        int cm = cg::reduce(third, v, cg::greater<int>());
        float f = cg::reduce(third, 1.0f / (threadIdx.x + 1), cg::plus<float>());
        if (third.thread_rank() == third.size() - 1) {
            out[14] = third.size(); out[15] = cs; out[16] = cl; out[17] = cm;
            fout[1] = f;
        }
    }
    float f = cg::reduce(warp, 1.0f / (threadIdx.x + 1), cg::plus<float>());
    if (threadIdx.x == 31) fout[0] = f;
}

int main()
{
    int *d, h[18];
    float *df, hf[2];
    cudaMalloc(&d, sizeof h);
    cudaMalloc(&df, sizeof hf);
    reduce_all<<<1, 32>>>(d, df);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { printf("kernel: %s\n", cudaGetErrorString(e)); return 1; }
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    cudaMemcpy(hf, df, sizeof hf, cudaMemcpyDeviceToHost);
    printf("tile32 plus %d less %d greater %d\n", h[0], h[1], h[2]);
    printf("tile32 and 0x%08x or 0x%08x xor 0x%08x\n", (unsigned)h[3], (unsigned)h[4], (unsigned)h[5]);
    printf("tile8 sums %d %d %d %d, all lanes agree: %d\n", h[6], h[7], h[8], h[9], h[10]);
    printf("coalesced %d lanes: plus %d greater %d\n", h[11], h[12], h[13]);
    printf("coalesced %d lanes: plus %d less %d greater %d\n", h[14], h[15], h[16], h[17]);
    printf("float tile32 sum %.9g coalesced11 sum %.9g\n", hf[0], hf[1]);
    cudaFree(d);
    cudaFree(df);
    return 0;
}
