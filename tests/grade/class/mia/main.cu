#include <stdio.h>
// A program that crashes on the host: it reads through a null pointer.
int main(void)
{
    volatile int *p = 0;
    printf("%d\n", *p);
    return 0;
}
