// Попарне поєднання (zip): два входи проходять синхронно, і елементи i
// обох масивів зустрічаються в потоці i.
__global__ void zip(float *out, const float *a, const float *b)
{
    int i = threadIdx.x;
    // Запишіть тут out[i] (один рядок).
}
