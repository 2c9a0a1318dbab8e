// Scan на багато блоків за один запуск: кожен блок виконує scan своєї плитки
// з 64 елементів, потім додає суму всіх плиток перед нею, яку публікує в
// carry (і повідомляє про це в ready) блок попередньої плитки.
#define TPB 64 // потоків на блок, як їх запускає check

__global__ void scan_device(float *out, const float *a, float *ticket, float *ready, float *carry, int size)
{
    __shared__ float warp_total, before;
    __shared__ int tile; // плитка цього блоку: береться через atomicAdd(ticket, 1.0f)
    // 1. Потік 0 бере плитку; блок чекає на неї.
    // 2. v = a[tile * TPB + t] (0 за size); кожен варп виконує scan через
    //    __shfl_up_sync; варп 1 додає суму варпа 0 (спільна пам’ять, після бар’єра).
    // 3. Потік TPB - 1 чекає на ready[tile - 1], атомарно читає carry[tile - 1],
    //    публікує carry[tile], а потім ready[tile] (між ними fence).
    // 4. out[i] = v + перенесена сума перед цією плиткою, для i < size.
}
