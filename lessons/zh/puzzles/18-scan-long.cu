// 比线程块更长的扫描：线程块每次处理数组中 TPB 个元素的一块，
// 在共享内存中扫描这一块，再加上之前各块的总和，
// 这个总和保存在寄存器中，从一块带到下一块。
#define TPB 8 // 每个线程块的线程数，与 check 启动时一致

__global__ void scan_long(float *out, const float *a, int size)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x;
    float carry = 0.0f; // 已处理各块的总和
    for (int base = 0; base < size; base += TPB) {
        // 把 a[base + t] 载入 cache[t]（超出 size 的为 0），像谜题 12 那样
        // 扫描这一块，写出 out[base + t] = carry + cache[t]（在范围内时），
        // 把这一块的总和 cache[TPB - 1] 加到 carry 上，并在下一块覆盖
        // cache 之前等待。
    }
}
