// 流压缩：按原顺序保留正数元素，紧密排在 out 的前部。保留的元素
// 放到哪里？放到它前面被保留元素的个数处：即标志（1 保留，0 不保留）
// 的排他扫描。
#define TPB 16 // 每个线程块的线程数，与 check 启动时一致

__global__ void compact(float *out, const float *a, int size)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x;
    // 载入 v = a[t]（仅 t < size），v > 0 时 flag = 1，否则为 0。
    // 像谜题 12 那样在 cache 中扫描这些标志（包含扫描）；之后
    // cache[TPB - 1] 就是个数。保留的 v 写到 out[cache[t] - 1]；
    // count <= t < size 的线程写 out[t] = 0。
}
