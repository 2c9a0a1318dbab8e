// A linked list built on the host with new, its head handed to a kernel
// that walks it: every node is host memory, so on a GPU whose device reports
// pageableMemoryAccess 0 the kernel's first read of a node fails the launch
// (cudaErrorIllegalAddress) and the result stays as it was. A list a kernel
// walks needs its nodes in managed memory (cudaMallocManaged) or copied to
// the device with their pointers fixed.
// MEMCHECK
// EXPECT: walk: an illegal memory access was encountered
// EXPECT: found: -1
// EXPECT-SIM: block 0, thread 0 reads 4 bytes
// EXPECT-SIM: of the 16 bytes from new at line 35: that is host memory
// EXPECT-SIM: at p174_host_list_in_kernel.cu:26
// EXPECT: exit status 0
#include <cstdio>

struct node {
    int key;
    node *next;
};

// Idea: a pointer is only as good as the memory it points into.
__global__ void find(const node *head, int key, int *pos)
{
    int i = 0;
    for (const node *p = head; p; p = p->next, i++)
        if (p->key == key) {
            *pos = i;
            return;
        }
}

int main()
{
    node *head = nullptr;
    for (int k = 5; k >= 1; k--) head = new node{k, head};
    int found = -1, *pos;
    cudaMalloc(&pos, sizeof(int));
    cudaMemcpy(pos, &found, sizeof(int), cudaMemcpyHostToDevice);
    find<<<1, 1>>>(head, 3, pos);
    printf("walk: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    cudaMemcpy(&found, pos, sizeof(int), cudaMemcpyDeviceToHost); // fails too: the error is sticky
    printf("found: %d\n", found);
    cudaFree(pos);
    while (head) {
        node *n = head->next;
        delete head;
        head = n;
    }
    return 0;
}
