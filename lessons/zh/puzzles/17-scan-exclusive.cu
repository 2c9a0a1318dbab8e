// 高效扫描（Blelloch）：上扫阶段在树中两两相加，直到最后一个槽位
// 存放全部元素之和；把它清零，然后下扫阶段沿树返回，每个节点把
// 左子节点的和交给右子节点。n 个元素只需 2n - 2 次加法，而谜题 12
// 的扫描需要 n log2 n 次。
#define TPB 8       // 每个线程块的线程数，与 check 启动时一致
#define N (2 * TPB) // 槽位数：每个线程两个

__global__ void scan_exclusive(float *out, const float *a, int size)
{
    __shared__ float s[N];
    int t = threadIdx.x;
    // 把 a[2t] 和 a[2t + 1] 载入 s（超出 size 的为 0）。
    // 上扫，d = 1, 2, 4, 8：槽位 k = (t + 1) * 2 * d - 1（当 k < N 时）
    // 加上槽位 k - d。然后把 s[N - 1] 清零。
    // 下扫，d = 8, 4, 2, 1：左槽位 k - d 取 s[k]，s[k] 加上左槽位的旧值。
    // 每一轮之前一个屏障；然后写出 out（仅 i < size）。
}
