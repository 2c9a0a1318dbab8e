#include <stdio.h>
// A program that never ends.
int main(void)
{
    volatile int x = 1;
    while (x) {}
    printf("done\n");
    return 0;
}
