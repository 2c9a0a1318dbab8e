// Scan, довший за блок: блок проходить масив плитками по TPB елементів,
// виконує scan плитки в спільній пам’яті й додає суму попередніх плиток,
// яку переносить від плитки до плитки в регістрі.
#define TPB 8 // потоків у блоці, як їх запускає check

__global__ void scan_long(float *out, const float *a, int size)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x;
    float carry = 0.0f; // сума вже оброблених плиток
    for (int base = 0; base < size; base += TPB) {
        // Завантажте a[base + t] у cache[t] (0 після size), виконайте
        // scan плитки, як у головоломці 12, запишіть out[base + t] =
        // carry + cache[t] (коли в межах), додайте суму плитки
        // cache[TPB - 1] до carry і зачекайте, перш ніж наступна плитка
        // перезапише cache.
    }
}
