// Broadcast: a column and a row combine into a whole grid of results;
// each input value is used by a whole row or a whole column of threads.
__global__ void broadcast(float *out, const float *a, const float *b, int size)
{
    int i = threadIdx.y; // row
    int j = threadIdx.x; // column
    // Write out[i * size + j] for i, j < size.
}
